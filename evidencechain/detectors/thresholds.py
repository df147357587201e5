"""Decision thresholds chosen on the calibration subset only."""
from __future__ import annotations

import numpy as np


def max_f1_threshold(y_true: np.ndarray, scores: np.ndarray) -> float:
    """The score cut that maximises F1 on (y_true, scores); predict positive when score >= cut.

    Ties in F1 go to the highest cut (fewest positives). With no positives the cut is
    just above the highest score, so nothing is flagged.
    """
    y = np.asarray(y_true).astype(bool)
    s = np.asarray(scores, dtype=float)
    if len(s) == 0:
        return 0.5
    if not y.any():
        return float(np.nextafter(s.max(), np.inf))
    order = np.argsort(-s, kind="mergesort")
    s_sorted, y_sorted = s[order], y[order]
    tp = np.cumsum(y_sorted)
    fp = np.cumsum(~y_sorted)
    last = np.r_[s_sorted[1:] != s_sorted[:-1], True]  # cut between distinct scores
    tp, fp, cuts = tp[last], fp[last], s_sorted[last]
    f1 = 2 * tp / (tp + fp + y.sum())
    best = np.flatnonzero(f1 == f1.max())
    return float(cuts[best[0]])


def max_balanced_accuracy_threshold(y_true: np.ndarray, scores: np.ndarray) -> float:
    """The score cut that maximises balanced accuracy (a per-domain balanced-accuracy protocol); ties: highest cut."""
    y = np.asarray(y_true).astype(bool)
    s = np.asarray(scores, dtype=float)
    if len(s) == 0 or y.all() or not y.any():
        return max_f1_threshold(y, s)
    order = np.argsort(-s, kind="mergesort")
    s_sorted, y_sorted = s[order], y[order]
    tpr = np.cumsum(y_sorted) / y.sum()
    fpr = np.cumsum(~y_sorted) / (~y).sum()
    last = np.r_[s_sorted[1:] != s_sorted[:-1], True]
    bal = 0.5 * (tpr[last] + 1.0 - fpr[last])
    cuts = s_sorted[last]
    best = np.flatnonzero(bal == bal.max())
    if bal.max() <= 0.5:
        return float(np.nextafter(s.max(), np.inf))
    return float(cuts[best[0]])


THRESHOLD_RULES = {"f1": max_f1_threshold, "balanced_accuracy": max_balanced_accuracy_threshold}


def choose_threshold(y_true: np.ndarray, scores: np.ndarray, metric: str = "f1") -> float:
    """The calibration threshold under `metric` ('f1' or 'balanced_accuracy')."""
    return THRESHOLD_RULES[metric](y_true, scores)
