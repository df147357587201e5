"""Detectors: a common interface, unsupervised baselines, supervised models, and the RefChecker-
and RAGHalu-style systems."""
from __future__ import annotations

from .base import Detector, FitDataError
from .baselines import BM25, TFIDF, Lexical, NLIRules
from .nli import EvidenceChainNLI
from .refchecker import RefChecker, RefCheckerNLI
from .supervised import EvidenceChainLR, EvidenceChainRF
from .thresholds import THRESHOLD_RULES, choose_threshold, max_f1_threshold
from .token import EvidenceChainToken
from .twotier import RAGHalu

DETECTORS: dict[str, type[Detector]] = {
    cls.name: cls for cls in (Lexical, BM25, TFIDF, NLIRules, EvidenceChainLR, EvidenceChainRF, EvidenceChainToken,
                               EvidenceChainNLI, RefChecker, RefCheckerNLI, RAGHalu)
}
DEFAULT_DETECTORS = tuple(n for n in DETECTORS if not DETECTORS[n].needs_tokens)
"""The detectors fitted by default (a model's, a config's without `names`): those that need no
word labels to fit."""


def feature_families(names, detector_params: dict | None = None) -> set[str]:
    """Names of the feature families (`features.families`) that the detectors `names` need: the
    families of the feature groups they read (their `groups` parameter, else their default
    groups), claim triplets (RefChecker), claims checked by the learned checker (RefChecker_NLI),
    the learned checker's columns and the gold sentence tiers (RAGHalu)."""
    from ..features.families import providers

    needed: set[str] = set()
    for name in names:
        cls = DETECTORS.get(name)
        if cls is None:
            continue
        groups = (detector_params or {}).get(name, {}).get("groups") or getattr(cls, "default_groups", ())
        needed |= providers(groups)
        if cls.needs_claims:
            needed.add("claims")
        if cls.needs_checker:
            needed.add("checker")
        if cls.needs_claims and cls.needs_checker:
            needed.add("claims_checker")
        if cls.needs_tiers:
            needed.add("tiers")
    return needed


def make_detector(name: str, random_state: int = 17, **params) -> Detector:
    """Instantiate a detector by its published name (e.g. 'EvidenceChain_RF')."""
    if name not in DETECTORS:
        raise ValueError(f"unknown detector {name!r}; known: {sorted(DETECTORS)}")
    cls = DETECTORS[name]
    if cls.supervised:
        return cls(random_state=random_state, **params)
    return cls(**params)


__all__ = [
    "BM25",
    "DETECTORS",
    "TFIDF",
    "Detector",
    "FitDataError",
    "EvidenceChainLR",
    "EvidenceChainNLI",
    "EvidenceChainRF",
    "EvidenceChainToken",
    "Lexical",
    "NLIRules",
    "RAGHalu",
    "RefChecker",
    "RefCheckerNLI",
    "THRESHOLD_RULES",
    "choose_threshold",
    "make_detector",
    "max_f1_threshold",
    "feature_families",
]
