"""Detectors: one method contract (`base.Method`), unsupervised baselines, supervised models, the
RefChecker- and RAGHalu-style systems and Provenance (whole answers)."""
from __future__ import annotations

from .base import FitDataError, Method, NotFittedError, clone
from .baselines import BM25, TFIDF, Lexical, NLIRules
from .nli import EvidenceChainNLI
from .provenance.method import ProvenanceMethod
from .refchecker import RefChecker, RefCheckerNLI
from .registry import DETECTORS
from .supervised import EvidenceChainLR, EvidenceChainRF
from .thresholds import THRESHOLD_RULES, choose_threshold, max_f1_threshold
from .token import EvidenceChainToken
from .twotier import RAGHalu

DETECTORS.update({
    cls.name: cls for cls in (Lexical, BM25, TFIDF, NLIRules, EvidenceChainLR, EvidenceChainRF, EvidenceChainToken,
                               EvidenceChainNLI, RefChecker, RefCheckerNLI, RAGHalu, ProvenanceMethod)
})
DEFAULT_DETECTORS = tuple(n for n, c in DETECTORS.items()
                          if not c.tags()["needs_tokens"] and c.tags()["level"] == "sentence")
"""The detectors fitted by default (a model's, a config's without `names`): sentence methods that
need no word labels to fit."""


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
        groups = (detector_params or {}).get(name, {}).get("groups") or cls.default_params().get("groups", ())
        needed |= providers(groups)
        tags = cls.tags()
        if tags["needs_claims"]:
            needed.add("claims")
        if tags["needs_checker"]:
            needed.add("checker")
        if tags["needs_claims"] and tags["needs_checker"]:
            needed.add("claims_checker")
        if tags["needs_tiers"]:
            needed.add("tiers")
    return needed


def reads_training_claims(names) -> bool:
    """Whether a detector of `names` reads the claim triplets of the answers it is fitted on: one
    that reads claims and is fitted, or whose claims the learned checker checks (its probabilities
    move in the last float bits with the other pairs of their batch, so checking fewer pairs could,
    on a near tie, change a verdict). Otherwise claims are extracted only for the answers a model
    calibrates on or scores (`FeatureExtractor.transform`'s `claims_for`)."""
    tags = [DETECTORS[n].tags() for n in names if n in DETECTORS]
    return any(t["needs_claims"] and (t["supervised"] or t["needs_checker"]) for t in tags)


def make_detector(name: str, random_state: int = 17, **params) -> Method:
    """Instantiate a method by its published name (e.g. 'EvidenceChain_RF'); `random_state`
    goes to the methods that take one."""
    if name not in DETECTORS:
        raise ValueError(f"unknown detector {name!r}; known: {sorted(DETECTORS)}")
    cls = DETECTORS[name]
    if "random_state" in cls.param_names():
        params.setdefault("random_state", random_state)
    return cls(**params)


__all__ = [
    "BM25",
    "DETECTORS",
    "TFIDF",
    "FitDataError",
    "EvidenceChainLR",
    "EvidenceChainNLI",
    "EvidenceChainRF",
    "EvidenceChainToken",
    "Lexical",
    "Method",
    "NLIRules",
    "NotFittedError",
    "ProvenanceMethod",
    "RAGHalu",
    "RefChecker",
    "RefCheckerNLI",
    "THRESHOLD_RULES",
    "choose_threshold",
    "clone",
    "make_detector",
    "reads_training_claims",
    "max_f1_threshold",
    "feature_families",
]
