"""`calibrate`'s stacker: fitted on a user's labelled answers when there are enough of both classes.

Rule: with at least `STACK_MIN` (30; `--stack-min N`) hallucinated and as many supported answers,
`calibrate` estimates a stacked model beside the thresholds-only one, with the same outer folds:
in each, the thresholds (`calibrate.refit`) and then the stacker are fitted on the training folds
only, and both are scored on the held-out fold. The stacker (`stacking.Stacker`) is a logistic
regression over the calibrated model's answer-level signals; its answer threshold is the best
verdict F1 on out-of-fold probabilities of the training answers (inner folds by context, the
same seed), the regression is then fitted on all training answers. The stacked model is kept
only when its cross-validated answer F1 is higher than the thresholds-only model's.
"""
from __future__ import annotations

import numpy as np

from ..stacking import STACKED, Stacker, input_matrix, input_names, make_estimator

STACK_MIN = 30
"""Fewest hallucinated and fewest supported labelled answers for which `calibrate` fits a stacker."""


def stack_decision(labels: np.ndarray, minimum: int, disabled: bool = False) -> tuple[bool, str]:
    """(fit a stacker?, the one line that says why not)."""
    positive = int(labels.sum())
    negative = len(labels) - positive
    if disabled:
        return False, "stacker: not fitted (--no-stack); thresholds only"
    if min(positive, negative) < minimum:
        return False, (f"stacker: not fitted: {positive} hallucinated and {negative} supported answers, it needs "
                       f"at least {minimum} of each (--stack-min); thresholds only")
    return True, ""


def stack(model, data, folds: int = 5, seed: int = 17, metric: str = "f1"):
    """Fit a stacker on `data` (a `calibrate.Labelled`, or anything with its `tables`) over `model`
    (already calibrated on the same answers), make it the reported detector, and return `model`;
    the answer threshold maximises `metric` on the out-of-fold probabilities."""
    from sklearn.model_selection import StratifiedGroupKFold

    from ..detectors import choose_threshold

    spans = model.primary
    scored = model.score_tables(data.tables, evidence=False)
    responses = scored.responses
    y = responses["label"].to_numpy() > 0
    groups = responses["source_id"].to_numpy()
    inputs = input_names(model.detector_names, scored.sentences)
    x = input_matrix(inputs, spans, scored.sentences, scored.tokens, responses)
    inner = min(folds, int(y.sum()), int((~y).sum()), len(set(groups)))
    oof = np.zeros(len(y))
    for a, b in StratifiedGroupKFold(n_splits=inner, shuffle=True, random_state=seed).split(x, y, groups):
        oof[b] = make_estimator(seed).fit(x[a], y[a]).predict_proba(x[b])[:, 1]
    has_sentences = responses["sentences"].to_numpy() > 0
    oof = np.where(has_sentences, oof, 0.0)
    stacker = Stacker(inputs, spans, make_estimator(seed).fit(x, y), 0.0, len(y), seed)
    stacker.threshold = cut = min(float(choose_threshold(y, oof, metric)), 1.0)
    model.stacker = stacker
    model.thresholds[STACKED] = {**{k: v for k, v in model.thresholds[spans].items() if k != "response"},
                                 "response": cut}
    if spans in model.span_rules:
        model.span_rules[STACKED] = dict(model.span_rules[spans])
    model.primary = STACKED
    return model

