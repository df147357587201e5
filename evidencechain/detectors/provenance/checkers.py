"""Fact checkers: the support probability of each (source item, claim) pair.

An NLI cross-encoder from a local directory (entailment probability) or the project's
learned checker (`make checker`; its `supported` probability), both optional and raising
`NeuralUnavailable` when absent, or offline checkers built on a sentence detector: the
EvidenceChain sentence model (1 - its hallucination probability on the answer's features
computed against that one source) and the NLI-lite rules.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...features.neural import NeuralUnavailable
from ..base import Method
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


def load_learned_checker(path: str):
    """The learned checker (`features.checker.CheckerFeatures`) at `path`, loaded once per
    process and directory; `NeuralUnavailable` when it is absent or cannot be loaded."""
    from ...features.checker import checker_absent_reason, model_key

    reason = checker_absent_reason(path)
    if reason == "absent: not configured":
        raise NeuralUnavailable("learned checker not configured: set learned_checker to a trained checker "
                                "directory (make checker writes results/checker)")
    if reason:
        raise NeuralUnavailable(f"learned checker: {reason.removeprefix('absent: ')}")
    return _loaded(str(path), model_key(path))


@lru_cache(maxsize=4)
def _loaded(path: str, key: str):
    """`key` (the hash of checker.json) changes when the directory is retrained."""
    from ...features.checker import CheckerFeatures

    return CheckerFeatures(path)


def learned_support(model, premises: list[str], claims: list[str], cache=None, progress: bool = False) -> np.ndarray:
    """The learned checker's `supported` probability of each (premise, claim) pair, in input order."""
    if not premises:
        return np.zeros(0)
    scored = model.score_pairs(list(premises), list(claims), cache, progress)
    return np.array([float(probs[0]) for probs, _, _ in scored])


class LearnedChecker(FactChecker):
    """The learned checker's `supported` probability of (item, claim); `cache`: a `ParseCache` or None."""

    name = "learned-checker"

    def __init__(self, path: str = "results/checker", cache=None, progress: bool = False):
        self.model = load_learned_checker(path)  # raises NeuralUnavailable
        self.cache, self.progress = cache, progress

    def support(self, batch: PairBatch) -> np.ndarray:
        return learned_support(self.model, batch.premises(), batch.claims(), self.cache, self.progress)

    def describe(self) -> str:
        return f"learned {self.model.scorer_description}, supported probability"


class DetectorChecker(FactChecker):
    """1 - a sentence detector's risk on the pair features (answer against one item)."""

    def __init__(self, detector: Method, name: str | None = None):
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
        return f"1 - {_short(self.detector)} risk on (source item, answer) features"


SHOWN_PARAMS = ("groups", "random_state", "max_iter", "learning_rate", "tier_threshold")
"""The parameters a checker's description names (the form provenance_components.csv has always shown)."""


def _short(detector: Method) -> str:
    """The sentence model and its main parameters, e.g. "EvidenceChainLR(groups=(...), random_state=17)"."""
    params = detector.get_params(deep=False)
    shown = ", ".join(f"{k}={params[k]!r}" for k in SHOWN_PARAMS if k in params)
    return f"{type(detector).__name__}({shown})"


def evidencechain_checker(detector: Method) -> DetectorChecker:
    """The EvidenceChain sentence model as a fact checker (name 'evidencechain')."""
    return DetectorChecker(detector, name="evidencechain")


def nli_rules_checker() -> DetectorChecker:
    """The NLI-lite rules as a fact checker (name 'nli-rules')."""
    return DetectorChecker(NLIRules(), name="nli-rules")
