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


def with_claim_switches(features, names):
    """`features` with claim extraction (and checking by the learned checker) switched on when a
    detector in `names` needs them."""
    from dataclasses import replace

    needs = [DETECTORS[n].tags() for n in names if n in DETECTORS]
    claims = features.claims or any(t["needs_claims"] for t in needs)
    checked = features.claims_checker or any(t["needs_claims"] and t["needs_checker"] for t in needs)
    return replace(features, claims=claims or checked, claims_checker=checked)


def with_semantic_switch(features, detector_params: dict | None):
    """`features` with the semantic error classes switched on when a detector's groups use them."""
    from dataclasses import replace

    uses = any("semantic" in (p or {}).get("groups", ()) for p in (detector_params or {}).values())
    return replace(features, semantic=True) if uses and not features.semantic else features


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
    "max_f1_threshold",
    "with_claim_switches",
]
