"""Aggregation of the supports of a claim's selected sources into its factuality."""
from __future__ import annotations

import numpy as np

AGGREGATIONS = ("min", "max", "weighted")


def aggregate_support(support: np.ndarray, weights: np.ndarray, how: str) -> float:
    """Factuality of a claim from its sources' supports: min, max or weighted average."""
    if how not in AGGREGATIONS:
        raise ValueError(f"unknown aggregation {how!r}; expected one of {AGGREGATIONS}")
    s = np.asarray(support, dtype=float)
    if s.size == 0:
        return float("nan")
    if how == "min":
        return float(s.min())
    if how == "max":
        return float(s.max())
    w = np.asarray(weights, dtype=float)
    return float((s * w).sum() / w.sum())
