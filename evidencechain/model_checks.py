"""Checks of an EvidenceChain's settings and of `predict`'s arguments: one clear error each."""
from __future__ import annotations

import numpy as np

from .aggregate import AGGREGATIONS
from .data.validation import check_answer_text, evidence_over_limit
from .detectors import DETECTORS, THRESHOLD_RULES
from .errors import ConfigError, InputError, did_you_mean
from .features import FeatureConfig
from .records import Source

ALL_DETECTORS = tuple(DETECTORS)
RESPONSE_AGGREGATIONS = (*AGGREGATIONS, "auto")
"""Values of `response_aggregation`: a fixed rule, or 'auto' (chosen per detector on calibration)."""


def detector_names(detectors) -> tuple[str, ...]:
    if isinstance(detectors, str) or not hasattr(detectors, "__iter__"):
        raise ConfigError(f"detectors must be a list or tuple of detector names, got {detectors!r}")
    names = tuple(detectors)
    if not names:
        raise ConfigError(f"detectors is empty; choose from {ALL_DETECTORS}")
    for name in names:
        if name not in DETECTORS:
            raise ConfigError(f"unknown detector {name!r}{did_you_mean(name, ALL_DETECTORS)}; "
                              f"known detectors: {ALL_DETECTORS}")
    if len(set(names)) < len(names):
        raise ConfigError(f"detectors lists a name twice: {names}")
    return names


def check_settings(names: tuple[str, ...], primary, features, random_state, aggregation,
                    params, threshold_metric="f1") -> None:
    if primary not in names:
        raise ConfigError(f"primary detector {primary!r} is not among the detectors {names}"
                          f"{did_you_mean(primary, names)}; pass primary= one of them")
    if features is not None and not isinstance(features, FeatureConfig):
        raise ConfigError(f"features must be a FeatureConfig or None, got {type(features).__name__}")
    if isinstance(random_state, bool) or not isinstance(random_state, (int, np.integer)):
        raise ConfigError(f"random_state must be an int, got {random_state!r}")
    if aggregation not in RESPONSE_AGGREGATIONS:
        raise ConfigError(f"unknown response_aggregation {aggregation!r}"
                          f"{did_you_mean(aggregation, RESPONSE_AGGREGATIONS)}; "
                          f"expected one of {RESPONSE_AGGREGATIONS}")
    if threshold_metric not in THRESHOLD_RULES:
        raise ConfigError(f"unknown threshold_metric {threshold_metric!r}"
                          f"{did_you_mean(threshold_metric, tuple(THRESHOLD_RULES))}; "
                          f"expected one of {tuple(THRESHOLD_RULES)}")
    if params is not None and not isinstance(params, dict):
        raise ConfigError(f"detector_params must be a dict of detector name to dict, got {params!r}")
    for name, value in (params or {}).items():
        if name not in names or not isinstance(value, dict):
            raise ConfigError(f"detector_params[{name!r}] must be a dict for one of the detectors {names}")


def check_predict_args(response, source, model, temperature) -> None:
    if not isinstance(response, str):
        raise ConfigError(f"response must be the answer text (a str), got {type(response).__name__}")
    if not isinstance(source, Source):
        raise ConfigError(f"source must be an evidencechain Source, e.g. Source('id', 'Summary', "
                          f"'CNN/DM', article_text, prompt); got {type(source).__name__}")
    if not isinstance(model, str):
        raise ConfigError(f"model must be a str (the generator's name), got {type(model).__name__}")
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) \
            or not np.isfinite(temperature):
        raise ConfigError(f"temperature must be a finite number, got {temperature!r}")
    check_answer_text(response, "response")
    if evidence_over_limit(source.source_info):
        raise InputError(f"source {source.source_id!r}: {evidence_over_limit(source.source_info)}")
