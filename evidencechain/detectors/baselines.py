"""Unsupervised detectors: lexical coverage, BM25, TF-IDF and the NLI-lite rules."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .base import Method


class Lexical(Method):
    """Risk = 1 - share of the sentence's content words found in the evidence."""

    name = "Lexical"

    def score_sentences(self, sentences: pd.DataFrame) -> np.ndarray:
        return 1.0 - sentences["coverage"].to_numpy(dtype=float)


class BM25(Method):
    """Risk = 1 - mean of the best normalised BM25+ chunk score and lexical coverage."""

    name = "BM25"

    def __init__(self, weight: float = 0.5):
        self.weight = weight

    def score_sentences(self, sentences: pd.DataFrame) -> np.ndarray:
        support = (self.weight * sentences["bm25_max"].to_numpy(dtype=float)
                   + (1 - self.weight) * sentences["coverage"].to_numpy(dtype=float))
        return 1.0 - support


class TFIDF(Method):
    """Risk = 1 - best TF-IDF cosine between the sentence and one of its source's chunks."""

    name = "TFIDF"

    def score_sentences(self, sentences: pd.DataFrame) -> np.ndarray:
        return 1.0 - sentences["tfidf_max"].to_numpy(dtype=float)


class NLIRules(Method):
    """Deterministic entailment proxy: max of numeric, entity and coverage risks (and of the
    semantic error classes' count when the 'semantic' family is computed).

    A mismatch rule fires at `base` and rises by `step` per further mismatch (capped at 1).
    """

    name = "NLI_Rules"

    def __init__(self, base: float = 0.7, step: float = 0.15):
        self.base, self.step = base, step

    def _rule(self, counts: np.ndarray) -> np.ndarray:
        return np.where(counts > 0, np.minimum(1.0, self.base + self.step * (counts - 1)), 0.0)

    def score_sentences(self, sentences: pd.DataFrame) -> np.ndarray:
        numeric = self._rule(sentences["numeric_mismatch"].to_numpy(dtype=float))
        entity = self._rule(sentences["entity_mismatch"].to_numpy(dtype=float))
        coverage = 1.0 - sentences["coverage"].to_numpy(dtype=float)
        rules = [numeric, entity, coverage]
        if "semantic_conflict" in sentences:  # the semantic error classes, when computed
            rules.append(self._rule(sentences["semantic_conflict"].to_numpy(dtype=float)))
        return np.maximum.reduce(rules)
