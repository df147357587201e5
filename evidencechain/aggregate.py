"""Response-level risk from sentence risks, shared by every corpus and detector."""
from __future__ import annotations

import numpy as np
import pandas as pd

AGGREGATIONS = ("max", "mean", "noisy_or")


def response_risk(sentences: pd.DataFrame, risk: np.ndarray, how: str = "max") -> pd.Series:
    """One risk per response_id (in first-appearance order) from its sentences' risks.

    max: the riskiest sentence; mean: the average; noisy_or: 1 - prod(1 - risk), the chance
    that at least one sentence is hallucinated if sentences were independent.
    """
    if how not in AGGREGATIONS:
        raise ValueError(f"unknown aggregation {how!r}; expected one of {AGGREGATIONS}")
    frame = pd.DataFrame({"response_id": sentences["response_id"].to_numpy(),
                          "risk": np.clip(np.asarray(risk, dtype=float), 0.0, 1.0)})
    grouped = frame.groupby("response_id", sort=False)["risk"]
    if how == "max":
        return grouped.max()
    if how == "mean":
        return grouped.mean()
    return 1.0 - grouped.apply(lambda r: float(np.prod(1.0 - r.to_numpy())))
