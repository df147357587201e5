"""`binary_metrics`' ranking scores are computed without scikit-learn's per-call validation: they
must be the same floats as `roc_auc_score` and `average_precision_score`, ties included."""
from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

from evidencechain.metrics import binary_metrics


@pytest.mark.parametrize("levels", [None, 3, 20])  # continuous scores, heavy ties, some ties
def test_ranking_scores_equal_scikit_learn(levels):
    rng = np.random.default_rng(17)
    for _ in range(300):
        n = int(rng.integers(2, 60))
        y = rng.integers(0, 2, n)
        y[0], y[1] = 0, 1
        s = rng.random(n) if levels is None else rng.integers(0, levels, n) / levels
        got = binary_metrics(y, s, 0.5)
        assert got["roc_auc"] == roc_auc_score(y, s)
        assert got["pr_auc"] == average_precision_score(y, s)


def test_ranking_scores_with_one_class_or_non_finite_scores():
    assert np.isnan(binary_metrics([1, 1, 1], [0.2, 0.5, 0.9], 0.5)["roc_auc"])
    y, s = [0, 1, 0, 1], [0.1, np.inf, 0.3, 0.8]
    with pytest.raises(ValueError):  # scikit-learn's own refusal, not a silent number
        binary_metrics(y, s, 0.5)
