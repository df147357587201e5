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


def with_claim_switches(features, names):
    """`features` with claim extraction (and checking by the learned checker) switched on when a
    detector in `names` needs them."""
    from dataclasses import replace

    needs = [DETECTORS[n] for n in names if n in DETECTORS]
    claims = features.claims or any(d.needs_claims for d in needs)
    checked = features.claims_checker or any(d.needs_claims and d.needs_checker for d in needs)
    return replace(features, claims=claims or checked, claims_checker=checked)


def with_semantic_switch(features, detector_params: dict | None):
    """`features` with the semantic error classes switched on when a detector's groups use them."""
    from dataclasses import replace

    uses = any("semantic" in (p or {}).get("groups", ()) for p in (detector_params or {}).values())
    return replace(features, semantic=True) if uses and not features.semantic else features


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
    "with_claim_switches",
]
