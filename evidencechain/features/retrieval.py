"""Retrieval scores of a sentence against its source's chunks: BM25+ and TF-IDF cosine.

BM25 variant: BM25+ (Lv & Zhai, 2011). A source has only a handful of chunks, so Okapi's
IDF, log((N - n + 0.5) / (n + 0.5)), turns negative for any term in more than half of
them and rank-bm25 then substitutes a floor; BM25+ keeps IDF = log((N + 1) / n) positive
and its delta lower-bounds each matched term, so a short 'hours' chunk and a long review
are compared fairly. Scores are normalised by the largest score the sentence could reach
(every term matched at saturation), which puts them in [0, 1] across sources.
"""
from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer

from .family import RUNS, FamilyContext, FeatureFamily, WorkTables


class BM25Plus:
    """BM25+ over one source's chunks (token lists), with normalised scores."""

    def __init__(self, chunks: list[list[str]], k1: float = 1.5, b: float = 0.75, delta: float = 1.0):
        self.k1, self.b, self.delta = k1, b, delta
        self.n = len(chunks)
        self.lengths = np.array([len(c) for c in chunks], dtype=float)
        self.avg_len = float(self.lengths.mean()) if self.n and self.lengths.sum() else 1.0
        self.tf = [Counter(c) for c in chunks]
        df = Counter(t for c in chunks for t in set(c))
        self.idf = {t: math.log((self.n + 1) / n) for t, n in df.items()}
        self.max_idf = math.log((self.n + 1) / 0.5)

    def scores(self, query: list[str]) -> np.ndarray:
        """Normalised scores in [0, 1], one per chunk."""
        if not query or self.n == 0:
            return np.zeros(max(self.n, 1))
        raw = np.zeros(self.n)
        norm = self.k1 * (1 - self.b + self.b * self.lengths / self.avg_len)
        for term in query:
            idf = self.idf.get(term)
            if idf is None:
                continue
            tf = np.array([c.get(term, 0) for c in self.tf], dtype=float)
            raw += idf * np.where(tf > 0, self.delta + tf * (self.k1 + 1) / (norm + tf), 0.0)
        ceiling = sum(self.idf.get(t, self.max_idf) for t in query) * (self.delta + self.k1 + 1)
        return raw / ceiling


def make_tfidf(ngram_max: int = 2) -> TfidfVectorizer:
    return TfidfVectorizer(lowercase=True, ngram_range=(1, ngram_max), sublinear_tf=True,
                           min_df=1, dtype=np.float64)


def tfidf_columns(vectorizer: TfidfVectorizer, sentences: pd.DataFrame, indices: dict
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(best cosine, argmax chunk) of each sentence against the chunks of its own source.

    One `transform` for all sentences and one for all chunks (not two per source); ties go
    to the first chunk; -1 where a source has no chunks.
    """
    best = np.zeros(len(sentences))
    arg = np.full(len(sentences), -1)
    if sentences.empty:
        return best, arg
    groups = sentences.groupby("source_id", sort=False).indices
    chunk_texts, bounds = [], {}
    for sid in groups:
        chunks = [c.text for c in indices[sid].evidence.chunks]
        bounds[sid] = (len(chunk_texts), len(chunk_texts) + len(chunks))
        chunk_texts += chunks
    sent = vectorizer.transform(sentences["text"].tolist()).tocsr()
    chunk = vectorizer.transform(chunk_texts).tocsr() if chunk_texts else None
    for sid, rows in groups.items():
        a, b = bounds[sid]
        if b > a:
            sims = (sent[rows] @ chunk[a:b].T).toarray()
            best[rows], arg[rows] = sims.max(axis=1), sims.argmax(axis=1)
    return best, arg


class TfidfFamily(FeatureFamily):
    """TF-IDF cosine to the chunks of the sentence's source; the vocabulary is learned from the
    training corpus's chunks and answers only (`fit`), so its columns follow the fit."""

    name = "tfidf"
    columns = ("tfidf_max", "tfidf_chunk")
    groups = {"retrieval": ("tfidf_max",)}
    needs = ("a fitted vocabulary (training corpus)",)
    core = True
    learned = True

    def state(self, extractor) -> str:
        return RUNS if extractor.vectorizer is not None else "not fitted"

    def fit(self, extractor, context: FamilyContext) -> None:
        texts = [c.text for ix in context.indices.values() for c in ix.evidence.chunks]
        texts += [r.response for r in context.corpus.responses]
        extractor.vectorizer = make_tfidf(extractor.config.tfidf_ngram_max).fit(texts)

    def add(self, tables: WorkTables, context: FamilyContext) -> None:
        tables.sentences["tfidf_max"], tables.sentences["tfidf_chunk"] = tfidf_columns(
            context.extractor.vectorizer, tables.sentences, context.indices)
