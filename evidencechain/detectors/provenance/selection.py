"""Selection: relevance scores -> softmax probabilities -> TopK / TopP sources and weights.

p_i = exp(s_i / T) / sum_j exp(s_j / T). TopK keeps the k most probable items; TopP keeps
the smallest set, taken in order of decreasing probability (ties: earlier item first),
whose cumulative probability reaches p (p >= 1 keeps every item). The kept probabilities
are renormalised to sum to one (the source weights) and the kept items are put back in
their original order.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def relevance_probabilities(scores: np.ndarray, temperature: float) -> np.ndarray:
    """softmax(scores / temperature), computed stably."""
    if temperature <= 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    s = np.asarray(scores, dtype=float)
    if s.size == 0:
        return s
    z = (s - s.max()) / temperature
    e = np.exp(z)
    return e / e.sum()


def _ranked(probabilities: np.ndarray) -> np.ndarray:
    """Item indices by decreasing probability; ties keep the original order."""
    return np.lexsort((np.arange(len(probabilities)), -probabilities))


@dataclass(frozen=True)
class Selection:
    """Selected item indices in original order and their renormalised weights (sum 1)."""

    indices: np.ndarray
    weights: np.ndarray


def _selection(probabilities: np.ndarray, keep: np.ndarray) -> Selection:
    keep = np.sort(keep)
    w = probabilities[keep]
    total = w.sum()
    w = w / total if total > 0 else np.full(len(keep), 1.0 / max(len(keep), 1))
    return Selection(keep.astype(int), w)


class Selector:
    name = "selector"

    def select(self, scores: np.ndarray, temperature: float) -> Selection:
        raise NotImplementedError


class TopK(Selector):
    """The k most relevant items (all of them when there are fewer)."""

    def __init__(self, k: int = 5):
        if k < 1:
            raise ValueError(f"k must be >= 1, got {k}")
        self.k = k
        self.name = f"top_k={k}"

    def select(self, scores: np.ndarray, temperature: float) -> Selection:
        p = relevance_probabilities(scores, temperature)
        return _selection(p, _ranked(p)[: self.k])


class TopP(Selector):
    """Nucleus selection: the smallest prefix of the ranked items with cumulative
    probability >= p (a 1e-12 tolerance absorbs rounding; p >= 1 keeps every item)."""

    def __init__(self, p: float = 0.9):
        if not 0.0 < p <= 1.0:
            raise ValueError(f"p must be in (0, 1], got {p}")
        self.p = p
        self.name = f"top_p={p:g}"

    def select(self, scores: np.ndarray, temperature: float) -> Selection:
        prob = relevance_probabilities(scores, temperature)
        order = _ranked(prob)
        if self.p >= 1.0:
            return _selection(prob, order)
        cum = np.cumsum(prob[order])
        m = int(np.searchsorted(cum, self.p - 1e-12, side="left")) + 1
        return _selection(prob, order[: min(m, len(order))])

