"""`calibrate`'s guard: the base model as it is competes with its calibration on the user's labels.

Standard model selection on the labelled answers only, each side scored on answers it did not
choose on. Inner folds of the labelled answers (stratified, by context); in each, the whole
calibration procedure (`calibrate._calibrated`: calibration choices, word levels, answer
thresholds and the reported detector, chosen on its own inner folds of the other inner folds only,
exactly as `refit` does on all answers) is run on the other inner folds and scored on the inner
fold's answers, beside the base model (its reported detector, thresholds, span rules and
calibration choices; nothing fitted) on the same answers. The objective is the one that chooses
thresholds: verdict F1, or with labelled spans the mean of verdict F1 and span F1 of `detect`'s
spans. Averaged over the inner folds, the calibrated side's score is that of the procedure, detector
choice included, not the best of the detectors' inner scores (a maximum over noisy estimates, kept
in the report as `inner_objective_best_detector` to show by how much it is above). `refit` keeps the
base model, unchanged, unless the procedure's score is more than `default.TIE` above the base's;
`keep_base` False (`--always-calibrate`) turns the guard off and compares nothing.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np


def f1(pred: np.ndarray, y: np.ndarray) -> float:
    total = pred.sum() + y.sum()
    return float(2 * (pred & y).sum() / total) if total else 0.0


def score_rows(verdict: np.ndarray, y: np.ndarray, counts: np.ndarray | None) -> float:
    """Verdict F1, or with span `counts` (overlapping, predicted, gold per answer) the mean of it
    and the span F1 of their sums."""
    answer = f1(verdict, y)
    if counts is None:
        return answer
    overlap, predicted, gold = counts.sum(axis=0)
    return (answer + (2 * overlap / (predicted + gold) if predicted + gold else 0.0)) / 2


@dataclass
class Guard:
    """What `refit` kept, the base model or the calibrated one, and the inner cross-validated
    objectives that decided it: the base model's and the calibration procedure's (None with the
    guard off), the detector each inner fold's calibration chose, and the best single detector's
    inner objective (optimistic: the maximum over the detectors, chosen on the folds it is scored on)."""

    kept: str
    base: float | None
    calibrated: float | None
    base_detector: str
    detector: str
    best_detector: str
    best_single: float
    enabled: bool = True
    folds: list[dict] = field(default_factory=list)

    def describe(self) -> dict:
        def shown(x):
            return None if x is None else round(x, 6)

        return {"kept": self.kept, "enabled": self.enabled, "inner_objective_base": shown(self.base),
                "inner_objective_calibrated": shown(self.calibrated), "base_detector": self.base_detector,
                "detector": self.detector, "best_detector": self.best_detector,
                "inner_objective_best_detector": shown(self.best_single), "inner_folds": self.folds}

    def why(self) -> str:
        """One line: what was kept and why."""
        from .default import TIE

        if not self.enabled:
            return "guard: off (--always-calibrate): calibrated thresholds kept, not compared with the base model"
        scores = (f"inner cross-validated objective: calibration (detector chosen in each inner fold) "
                  f"{self.calibrated:.3f}, base model ({self.base_detector}) {self.base:.3f}")
        if self.kept == "base":
            return (f"guard: base model kept as it is: calibration is not more than {TIE} above it; "
                    f"{scores} (--always-calibrate keeps the calibrated one)")
        return f"guard: calibrated thresholds kept: more than {TIE} above the base model; {scores}"


def decide(base, calibrated, procedure: Callable, data, split: list[tuple[list[str], list[str]]], spans: bool,
           scores: dict[str, float], keep_base: bool = True) -> Guard:
    """The guard's decision on `data` (a `calibrate.Labelled`): per inner fold of `split` (ids fitted
    on, ids scored), the base model and `procedure(data.subset(fitted on))` (a calibrated model) by
    `score_rows` on the scored answers (with `spans`, their span counts too), averaged; `calibrated`
    is the model calibrated on all of `data`, `scores` its detectors' inner objectives."""
    from .default import TIE

    best = max(scores, key=lambda n: scores[n])
    guard = Guard("calibrated", None, None, base.primary, calibrated.primary, best, scores[best], keep_base)
    if not keep_base:
        return guard
    for fit, held in split:
        part = data.subset(held)
        model = procedure(data.subset(fit))
        guard.folds.append({"answers": len(held), "detector": model.primary,
                            "base": round(float(objective(base, part, spans)), 6),
                            "calibrated": round(float(objective(model, part, spans)), 6)})
    guard.base = float(np.mean([f["base"] for f in guard.folds]))
    guard.calibrated = float(np.mean([f["calibrated"] for f in guard.folds]))
    if guard.calibrated <= guard.base + TIE + 1e-12:
        guard.kept = "base"
    return guard


def objective(model, data, spans: bool) -> float:
    """`score_rows` of `detect`'s outcome under `model` (its reported detector) on `data`."""
    verdict, counts = outcome(model, data, spans)
    return score_rows(verdict, data.labels > 0, counts)


def outcome(model, data, spans: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """`detect`'s verdict on every answer of `data` (a `calibrate.Labelled`, in its order) under
    `model` and, with `spans`, its (overlapping, predicted, gold) span characters (zero where the
    words are not labelled)."""
    from ..metrics import span_counts
    from ..results import results_from_scored

    results = results_from_scored(model, model.primary, data.corpus, model.score_tables(data.tables))
    verdict = np.array([r.hallucinated for r in results], bool)
    if not spans:
        return verdict, None
    counts = np.array([span_counts(r.response, [(lab.start, lab.end) for lab in r.labels],
                                   [(s.start, s.end) for s in res.spans]) if r.id in data.word_known else (0, 0, 0)
                       for r, res in zip(data.corpus.responses, results)], float).reshape(-1, 3)
    return verdict, counts
