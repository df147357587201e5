"""Where scored features leave what a model was fitted on (unseen categories, out-of-range values)."""
from __future__ import annotations

import pandas as pd


def feature_shift(train: pd.DataFrame, test: pd.DataFrame, model) -> list[dict]:
    """One row per feature any supervised detector uses: the share of scored sentences with a
    category the fit never saw, or a numeric value outside the fit's [min, max]."""
    numeric, categorical = set(), set()
    for det in model.detectors.values():
        numeric.update(getattr(det, "numeric", ()))
        categorical.update(getattr(det, "categorical", ()))
    rows = []
    n = max(len(test), 1)
    for col in sorted(categorical):
        seen = set(train[col].astype(str))
        unseen = test[col].astype(str)[~test[col].astype(str).isin(seen)]
        values = sorted(set(unseen))
        rows.append({"feature": col, "kind": "unseen category",
                     "detail": ", ".join(values[:5]) + (" ..." if len(values) > 5 else "") if values else "none",
                     "share": len(unseen) / n})
    for col in sorted(numeric):
        lo, hi = float(train[col].min()), float(train[col].max())
        values = test[col].astype(float)
        outside = (values < lo) | (values > hi)
        detail = f"fit range [{lo:g}, {hi:g}]"
        if outside.any():
            detail += f", scored range [{values.min():g}, {values.max():g}]"
        rows.append({"feature": col, "kind": "out of fit range", "detail": detail,
                     "share": float(outside.sum()) / n})
    return rows
