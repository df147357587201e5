"""A stacker: one regularised logistic regression over a fitted model's answer-level signals.

`calibrate` fits it on a user's labelled answers when there are enough of both classes
(`detect.stack`); the model then reports it as the detector `Stacked`: its answer risk is the
regression's probability and its answer threshold is chosen on out-of-fold probabilities of the
training answers; its sentences, words and spans are those of the detector named in `spans`
(the calibrated model's reported detector), words named only in the answers the regression flags,
so the verdict is the regression's alone.

Inputs (`INPUTS`, fixed before any measurement): every detector's answer risk (clipped to
[0, 1]), the highest word risk of the `spans` detector in the answer, the number of semantic
conflicts (`features.semantic`; when the model computes them) and log(1 + sentences).
Standardised, then L2-penalised (C = `C`).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

STACKED = "Stacked"
C = 1.0
EXTRA_INPUTS = ("max_word_risk", "semantic_conflicts", "log_sentences")


class Stacker:
    """The fitted regression, its inputs, the detector whose words it shows, and its threshold."""

    def __init__(self, inputs: list[str], spans: str, estimator, threshold: float, answers: int,
                 seed: int):
        self.inputs = list(inputs)
        self.spans = spans
        self.estimator = estimator
        self.threshold = float(threshold)
        self.answers = int(answers)
        self.seed = int(seed)
        self.cv: dict = {}
        """The cross-validated estimate `calibrate` measured for the stacked model (for model.json)."""

    def matrix(self, sentences: pd.DataFrame, tokens: pd.DataFrame, responses: pd.DataFrame) -> np.ndarray:
        """One row per answer of `responses`, one column per input."""
        return input_matrix(self.inputs, self.spans, sentences, tokens, responses)

    def risk(self, sentences: pd.DataFrame, tokens: pd.DataFrame, responses: pd.DataFrame) -> np.ndarray:
        if not len(responses):
            return np.zeros(0)
        has_sentences = responses["sentences"].to_numpy() > 0
        p = self.estimator.predict_proba(self.matrix(sentences, tokens, responses))[:, 1]
        return np.where(has_sentences, p, 0.0)

    def add_columns(self, sentences: pd.DataFrame, tokens: pd.DataFrame, responses: pd.DataFrame,
                    cut: dict | None) -> None:
        """`risk_Stacked` (and, with thresholds `cut`, `pred_Stacked`) at every level, in place:
        the answers' from the regression, the sentences' and words' from the `spans` detector."""
        own = f"risk_{self.spans}"
        sentences[f"risk_{STACKED}"] = sentences[own] if own in sentences else np.zeros(len(sentences))
        if len(tokens):
            tokens[f"risk_{STACKED}"] = tokens[own]
        risk = self.risk(sentences, tokens, responses)
        responses[f"risk_{STACKED}"] = risk
        if cut is None:
            return
        flagged = (risk >= cut["response"]) & (responses["sentences"].to_numpy() > 0)
        responses[f"pred_{STACKED}"] = flagged.astype(np.int8)
        if f"pred_{self.spans}" in sentences:
            sentences[f"pred_{STACKED}"] = sentences[f"pred_{self.spans}"]
        if len(tokens) and f"pred_{self.spans}" in tokens:
            words = tokens[f"pred_{self.spans}"].to_numpy()
            words = words * tokens["response_id"].isin(set(responses.loc[flagged, "response_id"])).to_numpy()
            tokens[f"pred_{STACKED}"] = words.astype(np.int8)

    def describe(self) -> dict:
        """What model.json and calibration.json record: inputs, coefficients, threshold, estimate."""
        scaler, lr = self.estimator.named_steps["scale"], self.estimator.named_steps["lr"]
        return {"detector": STACKED, "spans_from": self.spans, "inputs": self.inputs,
                "coefficients": {k: round(float(c), 6) for k, c in zip(self.inputs, lr.coef_[0])},
                "intercept": round(float(lr.intercept_[0]), 6),
                "input_mean": {k: round(float(m), 6) for k, m in zip(self.inputs, scaler.mean_)},
                "input_scale": {k: round(float(s), 6) for k, s in zip(self.inputs, scaler.scale_)},
                "threshold": round(self.threshold, 6), "words_only_in_flagged_answers": True, "penalty": f"l2, C={C}, on standardised inputs",
                "fitted_on_answers": self.answers, "seed": self.seed, "cross_validated": self.cv}


def input_names(detectors, sentences: pd.DataFrame) -> list[str]:
    """The stacker's inputs for a model with `detectors` (semantic conflicts when computed)."""
    extra = [x for x in EXTRA_INPUTS if x != "semantic_conflicts" or "semantic_conflict" in sentences]
    return [f"risk_{n}" for n in detectors] + extra


def input_matrix(inputs: list[str], spans: str, sentences: pd.DataFrame, tokens: pd.DataFrame,
                 responses: pd.DataFrame) -> np.ndarray:
    ids = responses["response_id"]

    def per_answer(frame: pd.DataFrame, column: str, how: str) -> np.ndarray:
        if not len(frame) or column not in frame:
            return np.zeros(len(ids))
        grouped = frame.groupby("response_id", sort=False)[column]
        return (grouped.max() if how == "max" else grouped.sum()).reindex(ids).fillna(0.0).to_numpy(float)

    cols = []
    for name in inputs:
        if name.startswith("risk_"):
            cols.append(np.clip(responses[name].to_numpy(dtype=float), 0.0, 1.0))
        elif name == "max_word_risk":
            words = tokens[tokens["is_punct"] == 0] if len(tokens) else tokens
            cols.append(np.clip(per_answer(words, f"risk_{spans}", "max"), 0.0, 1.0))
        elif name == "semantic_conflicts":
            cols.append(per_answer(sentences, "semantic_conflict", "sum"))
        elif name == "log_sentences":
            cols.append(np.log1p(responses["sentences"].to_numpy(dtype=float)))
        else:
            raise ValueError(f"unknown stacker input {name!r}")
    return np.column_stack(cols) if cols else np.zeros((len(ids), 0))


def make_estimator(seed: int):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    return Pipeline([("scale", StandardScaler()), ("lr", LogisticRegression(C=C, max_iter=1000, random_state=seed))])
