"""`calibrate`'s guard: the base model as it is competes with its calibration on the user's labels.

Standard model selection on the labelled answers only: the base model (its reported detector,
thresholds, span rules and calibration choices; nothing fitted) is scored by the objective that
chooses the calibrated detector (verdict F1, or with labelled spans the mean of verdict F1 and span
F1 of `detect`'s spans), on each inner fold's held-out answers, averaged over the same inner folds.
`refit` keeps the base model, unchanged, unless the best calibrated detector's inner objective is
more than `default.TIE` above it; `keep_base` False (`--always-calibrate`) turns the guard off.
"""
from __future__ import annotations

from dataclasses import dataclass

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
    objectives that decided it: the base model's, and the best calibrated detector's (the one
    reported is the simplest within `default.TIE` of it)."""

    kept: str
    base: float
    calibrated: float
    base_detector: str
    best_detector: str
    enabled: bool = True

    def describe(self) -> dict:
        return {"kept": self.kept, "enabled": self.enabled, "inner_objective_base": round(self.base, 6),
                "inner_objective_calibrated": round(self.calibrated, 6), "base_detector": self.base_detector,
                "best_detector": self.best_detector}

    def why(self) -> str:
        """One line: what was kept and why."""
        from .default import TIE

        scores = (f"inner cross-validated objective: calibrated (best: {self.best_detector}) "
                  f"{self.calibrated:.3f}, base model ({self.base_detector}) {self.base:.3f}")
        if not self.enabled:
            return f"guard: off (--always-calibrate): calibrated thresholds kept; {scores}"
        if self.kept == "base":
            return (f"guard: base model kept as it is: the calibrated one is not more than {TIE} above it; "
                    f"{scores} (--always-calibrate keeps the calibrated one)")
        return f"guard: calibrated thresholds kept: more than {TIE} above the base model; {scores}"


def decide(base, data, order: list[int], spans: bool, y: np.ndarray, split: list, scores: dict[str, float],
           keep_base: bool = True) -> Guard:
    """The guard's decision: the base model's mean objective over the inner folds `split` (rows of
    `y`, in `order`) against the best of the calibrated detectors' `scores` (the same folds)."""
    from .default import TIE

    verdict, counts = base_outcome(base, data, order, spans)
    score = float(np.mean([score_rows(verdict[b], y[b], None if counts is None else counts[b]) for _, b in split]))
    best = max(scores, key=lambda n: scores[n])
    keep = keep_base and scores[best] <= score + TIE + 1e-12
    return Guard("base" if keep else "calibrated", score, scores[best], base.primary, best, keep_base)


def base_outcome(base, data, order: list[int], spans: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """`detect`'s verdict on every answer of `data` (a `calibrate.Labelled`) under the base model as it is and, with `spans`,
    its (overlapping, predicted, gold) span characters (zero where the words are not labelled),
    in `order` (positions in `data.corpus`)."""
    from ..metrics import span_counts
    from ..results import results_from_scored

    results = results_from_scored(base, base.primary, data.corpus, base.score_tables(data.tables))
    verdict = np.array([r.hallucinated for r in results], bool)[order]
    if not spans:
        return verdict, None
    counts = np.array([span_counts(r.response, [(lab.start, lab.end) for lab in r.labels],
                                   [(s.start, s.end) for s in res.spans]) if r.id in data.word_known else (0, 0, 0)
                       for r, res in zip(data.corpus.responses, results)], float).reshape(-1, 3)
    return verdict, counts[order]
