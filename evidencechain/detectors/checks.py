"""Conformance of a method to the contract of `base.Method`, in the spirit of scikit-learn's
`check_estimator`: `check_method(method, train)` runs every check and raises AssertionError
naming the first one that fails.

Checked: tags (every key, valid values); parameters (`__init__` stores each argument under its
own name and nothing else; get_params / set_params round trip; an unknown parameter is refused;
`clone` and `repr` agree); fitting (`fit` returns self, leaves the parameters alone, fitted
state only in attributes ending in '_', absent before; a method that needs fitting refuses to
score before with `NotFittedError`); scores (one risk in [0, 1] per sentence or answer, the same
from two clones with the same random_state); saving (the fitted method holds only types a model
file trusts, and scores the same after a skops round trip).
"""
from __future__ import annotations

import inspect

import numpy as np
import pandas as pd

from ..errors import ConfigError
from ..features import FeatureTables
from .base import DEFAULT_TAGS, Method, NotFittedError, as_tables, clone

LEVELS = ("sentence", "response")


def check_method(method: Method, train: FeatureTables, calibration: FeatureTables | None = None,
                 trusted: frozenset[str] | None = None) -> list[str]:
    """Run every check on `method` (fitted on `train`, calibrated on `calibration`, scored on
    `calibration` or `train`); `trusted`: the type names a model file may hold
    (`modelfile.trusted_types()`), checked against the fitted method's. Returns the checks run."""
    checks = [check_tags, check_params, check_set_params, check_clone_and_repr, check_unfitted,
              check_fit, check_deterministic]
    for check in checks:
        check(method, train, calibration)
    check_saved(method, train, trusted)
    return [c.__name__ for c in (*checks, check_saved)]


def _fail(method: Method, message: str) -> AssertionError:
    return AssertionError(f"{type(method).__name__} ({method.name}): {message}")


def check_tags(method: Method, train=None, calibration=None) -> None:
    tags = method.tags()
    missing = [k for k in DEFAULT_TAGS if k not in tags]
    if missing or set(tags) - set(DEFAULT_TAGS):
        raise _fail(method, f"tags must have exactly the keys {sorted(DEFAULT_TAGS)}; missing {missing}, "
                            f"unknown {sorted(set(tags) - set(DEFAULT_TAGS))}")
    for key, default in DEFAULT_TAGS.items():
        if type(tags[key]) is not type(default):
            raise _fail(method, f"tag {key!r} must be a {type(default).__name__}, got {tags[key]!r}")
    if tags["level"] not in LEVELS:
        raise _fail(method, f"tag 'level' must be one of {LEVELS}, got {tags['level']!r}")
    unknown = [p for p in tags["feature_params"] if p not in method.param_names()]
    if unknown:
        raise _fail(method, f"tag 'feature_params' names {unknown}, which are not parameters")
    if tags["supervised"] and not tags["requires_fit"]:
        raise _fail(method, "a supervised method must require fitting (tag 'requires_fit')")
    if not isinstance(method.name, str) or method.name in ("", Method.name):
        raise _fail(method, "a method needs its published name (class attribute `name`)")


def check_params(method: Method, train=None, calibration=None) -> None:
    fresh = clone(method)
    names = fresh.param_names()
    params = fresh.get_params(deep=False)
    if list(params) != names:
        raise _fail(method, f"get_params gives {list(params)}, the __init__ parameters are {names}")
    extra = sorted(set(vars(fresh)) - set(names))
    if extra:
        raise _fail(method, f"__init__ sets attributes that are not parameters: {extra} (compute them in "
                            f"fit, as attributes ending in '_', or as properties)")
    for key, default in fresh.default_params().items():
        if default is inspect.Parameter.empty:
            raise _fail(method, f"parameter {key!r} has no default: every parameter needs one")


def check_set_params(method: Method, train=None, calibration=None) -> None:
    fresh = clone(method)
    params = fresh.get_params(deep=False)
    if fresh.set_params(**params) is not fresh:
        raise _fail(method, "set_params must return the method itself")
    if repr(fresh.get_params(deep=False)) != repr(params):
        raise _fail(method, "set_params(**get_params()) changed the parameters")
    try:
        fresh.set_params(not_a_parameter=1)
    except ConfigError:
        pass
    else:
        raise _fail(method, "set_params accepted an unknown parameter")


def check_clone_and_repr(method: Method, train=None, calibration=None) -> None:
    copy = clone(method)
    if copy is method or repr(copy.get_params(deep=False)) != repr(method.get_params(deep=False)):
        raise _fail(method, "clone must build a new method with the same parameters")
    text = repr(method)
    if not text.startswith(f"{type(method).__name__}(") or repr(copy) != text:
        raise _fail(method, f"repr must show the class and its parameters, the same for a clone: {text}")
    missing = [k for k in method.param_names() if f"{k}=" not in text]
    if missing:
        raise _fail(method, f"repr leaves out parameters {missing}")


def check_unfitted(method: Method, train: FeatureTables, calibration=None) -> None:
    fresh = clone(method)
    if fresh.fitted_attributes():
        raise _fail(method, f"fitted attributes exist before fit: {fresh.fitted_attributes()}")
    if not fresh.tags()["requires_fit"]:
        return
    try:
        _scores(fresh, train)
    except NotFittedError as exc:
        if fresh.name not in str(exc):
            raise _fail(method, f"the not-fitted error must name the method: {exc}") from None
    else:
        raise _fail(method, "scoring before fit must raise NotFittedError")


def check_fit(method: Method, train: FeatureTables, calibration: FeatureTables | None = None) -> None:
    fresh = clone(method)
    before = repr(fresh.get_params(deep=False))
    if fresh.fit(train) is not fresh:
        raise _fail(method, "fit must return the method itself")
    if repr(fresh.get_params(deep=False)) != before:
        raise _fail(method, "fit changed the parameters (learned state belongs in attributes ending in '_')")
    if fresh.tags()["requires_fit"] and not fresh.fitted_attributes():
        raise _fail(method, "a method that requires fitting must keep its fitted state in attributes ending in '_'")
    target = calibration if calibration is not None else train
    if fresh.calibrate(target, _labels(target)) is not fresh:
        raise _fail(method, "calibrate must return the method itself")
    scores = _scores(fresh, target)
    tables = as_tables(target)
    expected = len(tables.sentences) if fresh.tags()["level"] == "sentence" else \
        tables.sentences["response_id"].nunique()
    if len(scores) != expected or not np.all((scores >= 0) & (scores <= 1)):
        raise _fail(method, f"scores must be {expected} risks in [0, 1], got {len(scores)} "
                            f"in [{np.min(scores, initial=0)}, {np.max(scores, initial=0)}]")


def check_deterministic(method: Method, train: FeatureTables, calibration: FeatureTables | None = None) -> None:
    target = calibration if calibration is not None else train
    runs = []
    for _ in range(2):
        fresh = clone(method)
        if "random_state" in fresh.param_names():
            fresh.set_params(random_state=17)
        runs.append(_scores(fresh.fit(train).calibrate(target, _labels(target)), target))
    if not np.array_equal(runs[0], runs[1]):
        raise _fail(method, "two fits with the same random_state give different scores")


def check_saved(method: Method, train: FeatureTables, trusted: frozenset[str] | None = None) -> None:
    """The fitted method in a skops file (as in model.skops) holds only `trusted` types and
    scores the same once loaded."""
    import skops.io as sio

    fitted = clone(method).fit(train)
    data = sio.dumps(fitted)
    foreign = sorted(set(sio.get_untrusted_types(data=data)) - trusted) if trusted is not None else []
    if foreign:
        raise _fail(method, f"the fitted method holds types a model file does not trust: {foreign}")
    loaded = sio.loads(data, trusted=sorted(sio.get_untrusted_types(data=data)))
    if not np.array_equal(_scores(fitted, train), _scores(loaded, train)):
        raise _fail(method, "scores differ after a save and load")


def _scores(method: Method, tables) -> np.ndarray:
    tables = as_tables(tables)
    if method.tags()["level"] == "response":
        return method.score_responses(tables).to_numpy(dtype=float)
    return np.asarray(method.score_sentences(tables.sentences), dtype=float)


def _labels(tables) -> pd.Series:
    tables = as_tables(tables)
    if tables.responses is not None:
        return tables.responses.set_index("response_id")["label"]
    return tables.sentences.groupby("response_id", sort=False)["response_label"].first()
