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
