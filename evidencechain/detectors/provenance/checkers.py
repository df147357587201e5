"""Fact checkers: the support probability of each (source item, claim) pair.

An NLI cross-encoder from a local directory (entailment probability; optional, raises
`NeuralUnavailable` when absent), or offline checkers built on a sentence detector: the
EvidenceChain sentence model (1 - its hallucination probability on the answer's features
computed against that one source) and the NLI-lite rules.
"""
from __future__ import annotations

import numpy as np

from ..base import Detector
from ..baselines import NLIRules
from .pairs import PAIR_FEATURES, PairBatch


class FactChecker:
    """Support probability in [0, 1] of each (source item, claim) pair."""

    name = "checker"

    def support(self, batch: PairBatch) -> np.ndarray:
        raise NotImplementedError

    def describe(self) -> str:
        return self.name


class NLICrossEncoderChecker(FactChecker):
    """Entailment probability of an NLI cross-encoder (premise = item, hypothesis = claim)."""

    name = "nli-cross-encoder"

    def __init__(self, path: str, batch_size: int = 32):
        from ...features.neural import CrossEncoderScorer

        self.model = CrossEncoderScorer(path, batch_size=batch_size)  # raises NeuralUnavailable
        self.model._label("entailment", "entail", "supported")  # fail now if it is not an NLI model

    def support(self, batch: PairBatch) -> np.ndarray:
        if not len(batch):
            return np.zeros(0)
        return self.model.entailment(batch.premises(), batch.claims())

    def describe(self) -> str:
        return f"{self.model.describe()}, entailment probability"


class DetectorChecker(FactChecker):
    """1 - a sentence detector's risk on the pair features (answer against one item)."""

    def __init__(self, detector: Detector, name: str | None = None):
        features = getattr(detector, "features", None)
        if features is not None:
            extra = [c for c in features if c not in PAIR_FEATURES]
            if extra:
                raise ValueError(f"{detector.name} uses features a (source, claim) pair lacks: {extra}; "
                                 f"fit it on groups within {PAIR_FEATURES}")
        self.detector = detector
        self.name = name or detector.name

    def support(self, batch: PairBatch) -> np.ndarray:
        if not len(batch):
            return np.zeros(0)
        return 1.0 - np.asarray(self.detector.score_sentences(batch.features()), dtype=float)

    def describe(self) -> str:
        return f"1 - {self.detector!r} risk on (source item, answer) features"


def evidencechain_checker(detector: Detector) -> DetectorChecker:
    """The EvidenceChain sentence model as a fact checker (name 'evidencechain')."""
    return DetectorChecker(detector, name="evidencechain")


def nli_rules_checker() -> DetectorChecker:
    """The NLI-lite rules as a fact checker (name 'nli-rules')."""
    return DetectorChecker(NLIRules(), name="nli-rules")
