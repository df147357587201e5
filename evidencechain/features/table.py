"""Sentence and token feature tables for a corpus, each sentence against its own source."""
from __future__ import annotations

import time
from bisect import bisect_left
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ..records import Corpus, Response
from ..text.parse import ParseCache, ParsedText, parse_texts
from ..text.spans import token_labels
from .entities import absent_entity_tokens, entity_spans
from .evidence import EvidenceIndex, build_indices, terms
from .metadata import metadata_columns
from .numeric import absent_number_mask
from .response import RESPONSE_FEATURES, add_response_features
from .retrieval import make_tfidf, tfidf_columns
from .semantic.table import SEMANTIC_FEATURES

NUMERIC_FEATURES = {
    "lexical": ["coverage", "best_chunk_overlap", "novel_count"],
    "retrieval": ["bm25_max", "tfidf_max"],
    "mismatch": ["numeric_mismatch", "entity_mismatch"],
    "metadata": ["temperature"],
    "neural": ["embedding_max"],
    "response": RESPONSE_FEATURES,
    "checker": ["nli_support", "nli_conflict", "nli_baseless", "nli_conflict_max"],
    "semantic": SEMANTIC_FEATURES,
}
CATEGORICAL_FEATURES = {"metadata": ["model", "task_type", "source_collection"]}
FEATURE_GROUPS = ("lexical", "retrieval", "mismatch", "metadata", "neural", "response", "checker", "semantic")
STATUS_SCORED = "scored"
STATUS_EMPTY = "empty: nothing to check"
"""Status of an answer without sentences: kept with risk 0 and prediction 0 (it asserts nothing)."""
SENTENCE_COLUMNS = (
    "response_id", "source_id", "sentence_index", "start", "end", "text", "n_tokens", "n_content",
    "coverage", "novel_count", "best_chunk_overlap", "overlap_chunk", "bm25_max", "bm25_chunk",
    "numbers_count", "numeric_mismatch", "entities_count", "entity_mismatch", "label",
    "response_label", "gold_chunk", "gold_supported", "no_info_gold", "temperature", "model", "task_type",
    "source_collection",
)
"""Columns of the sentence table before TF-IDF, response and neural features are added."""
RESPONSE_COLUMNS = ("response_id", "source_id", "task_type", "model", "temperature",
                    "source_collection", "label", "sentences", "status")


def feature_columns(groups: list[str] | tuple[str, ...]) -> tuple[list[str], list[str]]:
    """(numeric, categorical) feature columns of the given groups."""
    unknown = set(groups) - set(FEATURE_GROUPS) - {"coverage_only"}
    if unknown:
        raise ValueError(f"unknown feature group(s) {sorted(unknown)}; known: {FEATURE_GROUPS}")
    if "coverage_only" in groups:
        return ["coverage"], []
    numeric = [c for g in groups for c in NUMERIC_FEATURES.get(g, [])]
    categorical = [c for g in groups for c in CATEGORICAL_FEATURES.get(g, [])]
    return numeric, categorical


@dataclass
class FeatureTables:
    sentences: pd.DataFrame
    tokens: pd.DataFrame
    indices: dict[str, EvidenceIndex] = field(repr=False, default_factory=dict)
    parsed: dict[str, ParsedText] = field(repr=False, default_factory=dict)
    responses: pd.DataFrame | None = None
    """One row per answer of the corpus (RESPONSE_COLUMNS), sentences or not; None when
    the tables were assembled without a corpus (then derived from the sentence rows)."""
    claims: pd.DataFrame | None = None
    """One row per claim triplet (`features.claims.TRIPLET_COLUMNS`) when claims are extracted."""


@dataclass
class FeatureConfig:
    pipeline: str = "auto"
    bm25_k1: float = 1.5
    bm25_b: float = 0.75
    bm25_delta: float = 1.0
    tfidf_ngram_max: int = 2
    embedding_model: str | None = None
    """Local path or installed package of a sentence-transformers model; None skips it."""
    response_features: bool = False
    """Add the response-level columns of `features.response` (group 'response')."""
    checker: str | None = None
    """Model directory of a trained checker (`make checker`: results/checker); None skips it. A
    configured but missing or unloadable checker is skipped too, and run.json says why."""
    checker_windows: int = 2
    checker_quantize: str = "none"
    """none | int8 (dynamic quantization of the checker's linear layers, CPU) | onnx (fp32 on ONNX
    Runtime, CPU; exported once and cached, needs onnxruntime)."""
    claims: bool = False
    """Extract claim triplets and check them against the source (`features.claims`); switched on
    automatically when a configured detector needs them (RefChecker)."""
    claims_checker: bool = False
    """Check the triplets with the learned checker too (needs `checker`); switched on
    automatically when a configured detector needs it (RefChecker_NLI)."""
    semantic: bool = False
    """Add the semantic error classes (`features.semantic`: polarity, antonyms, swapped roles,
    quantities, recombined values, modality; group 'semantic'); switched on automatically when
    a configured detector's groups include 'semantic'."""


class FeatureExtractor:
    """Computes the feature tables; `fit` learns the TF-IDF vocabulary from training text only."""

    checker = None
    checker_status = "absent: not configured"

    def __init__(self, config: FeatureConfig | None = None, cache: ParseCache | None = None):
        self.config = config or FeatureConfig()
        self.cache = cache
        self.vectorizer = None
        self.embedder = None
        self.checker = None
        self.checker_status = "absent: not configured"
        self.family_seconds: dict[str, float] = {}
        """Seconds spent in each feature family by `transform` (run.json `feature_families`)."""

    @contextmanager
    def _timed(self, family: str):
        t0 = time.perf_counter()
        try:
            yield
        finally:
            seconds = getattr(self, "family_seconds", None)
            if seconds is None:
                seconds = self.family_seconds = {}
            seconds[family] = seconds.get(family, 0.0) + time.perf_counter() - t0

    def family_plan(self) -> dict[str, str]:
        """Every feature family and whether `transform` computes it ('runs') or why not."""
        c = self.config
        return {
            "sentence": "runs",
            "tfidf": "runs" if self.vectorizer is not None else "not fitted",
            "response": "runs" if c.response_features else "not configured (response_features = false)",
            "embedding": "runs" if self.embedder is not None else
            ("not loaded" if c.embedding_model else "not configured (no embedding_model)"),
            "checker": "runs" if self.checker is not None else getattr(self, "checker_status", "absent"),
            "claims": "runs" if c.claims else "not needed: no configured detector reads claim triplets",
        }

    def __getstate__(self):
        state = self.__dict__.copy()
        state["cache"] = None
        return state

    def _bm25_params(self) -> dict:
        c = self.config
        return {"k1": c.bm25_k1, "b": c.bm25_b, "delta": c.bm25_delta}

    def fit(self, corpus: Corpus, progress: bool = True) -> FeatureExtractor:
        indices = build_indices(list(corpus.sources.values()), pipeline=self.config.pipeline,
                                cache=self.cache, bm25_params=self._bm25_params(), progress=progress)
        texts = [c.text for ix in indices.values() for c in ix.evidence.chunks]
        texts += [r.response for r in corpus.responses]
        self.vectorizer = make_tfidf(self.config.tfidf_ngram_max).fit(texts)
        if self.config.embedding_model:
            from .neural import EmbeddingScorer
            self.embedder = EmbeddingScorer.load(self.config.embedding_model)
        self._load_checker()
        return self

    def load_neural(self) -> None:
        """Load the embedder and the learned checker from the directories the config names (a
        saved model holds their names, not the models)."""
        if self.config.embedding_model:
            from .neural import EmbeddingScorer
            self.embedder = EmbeddingScorer(self.config.embedding_model)
        self._load_checker()

    def _load_checker(self) -> None:
        from .checker import load_checker_features

        self.checker, self.checker_status = load_checker_features(self.config)

    def preparse(self, corpus: Corpus, progress: bool = True) -> None:
        """Parse every text of the corpus into the cache (so `transform` only computes features)."""
        build_indices(list(corpus.sources.values()), pipeline=self.config.pipeline,
                      cache=self.cache, bm25_params=self._bm25_params(), progress=progress)
        parse_texts([r.response for r in corpus.responses], pipeline=self.config.pipeline,
                    cache=self.cache, progress=progress, desc="parse responses")

    def transform(self, corpus: Corpus, progress: bool = True, with_tokens: bool = True) -> FeatureTables:
        if self.vectorizer is None:
            raise RuntimeError("FeatureExtractor.fit must be called before transform")
        indices = build_indices(list(corpus.sources.values()), pipeline=self.config.pipeline,
                                cache=self.cache, bm25_params=self._bm25_params(), progress=progress)
        parsed = parse_texts([r.response for r in corpus.responses], pipeline=self.config.pipeline,
                             cache=self.cache, progress=progress, desc="parse responses")
        sent_rows: list[dict] = []
        token_frames: list[dict[str, np.ndarray]] = []
        bar = tqdm(zip(corpus.responses, parsed), total=len(parsed), desc="features",
                   disable=not progress, unit="resp", leave=False)
        with self._timed("sentence"):
            for response, doc in bar:
                index = indices[response.source_id]
                rows, tokens = _response_features(response, doc, index, corpus.span_labels, with_tokens)
                meta = metadata_columns(response, corpus.source_of(response))
                for row in rows:
                    row.update(meta)
                sent_rows.extend(rows)
                if with_tokens:
                    token_frames.append(tokens)
            sentences = pd.DataFrame(sent_rows) if sent_rows else pd.DataFrame(columns=list(SENTENCE_COLUMNS))
            tokens = _stack_tokens(token_frames)
        with self._timed("tfidf"):
            self._add_tfidf(sentences, indices)
        if self.config.response_features:
            with self._timed("response"):
                add_response_features(sentences, corpus, parsed, indices, pipeline=self.config.pipeline,
                                      cache=self.cache)
        if self.embedder is not None:
            with self._timed("embedding"):
                if len(sentences):
                    self.embedder.add_features(sentences, indices)
                else:
                    sentences["embedding_max"] = np.zeros(0)
        if self.checker is not None:
            with self._timed("checker"):
                self.checker.add(sentences, tokens if with_tokens else None, indices, self.cache, progress)
        if self.config.semantic:
            from .semantic.table import add_semantic_features
            with self._timed("semantic"):
                add_semantic_features(sentences, tokens if with_tokens else None,
                                      {r.id: d for r, d in zip(corpus.responses, parsed)}, indices)
        claims = None
        if self.config.claims:
            from .claims import add_claim_features
            with self._timed("claims"):
                claims = add_claim_features(sentences, tokens if with_tokens else None,
                                            {r.id: r.response for r in corpus.responses}, indices, progress,
                                            checker=self.checker if self.config.claims_checker else None,
                                            cache=self.cache)
        return FeatureTables(sentences, tokens, indices,
                             {r.id: d for r, d in zip(corpus.responses, parsed)},
                             response_table(corpus, sentences), claims)

    def _add_tfidf(self, sentences: pd.DataFrame, indices: dict[str, EvidenceIndex]) -> None:
        sentences["tfidf_max"], sentences["tfidf_chunk"] = tfidf_columns(self.vectorizer, sentences, indices)


def response_table(corpus: Corpus, sentences: pd.DataFrame) -> pd.DataFrame:
    """One row per answer of `corpus`, in corpus order, with its sentence count and status."""
    counts = sentences["response_id"].value_counts() if len(sentences) else pd.Series(dtype=int)
    rows = []
    for r in corpus.responses:
        n = int(counts.get(r.id, 0))
        meta = metadata_columns(r, corpus.source_of(r))
        rows.append({"response_id": r.id, "source_id": r.source_id, "task_type": meta["task_type"],
                     "model": r.model, "temperature": meta["temperature"],
                     "source_collection": meta["source_collection"], "label": int(r.hallucinated),
                     "sentences": n, "status": STATUS_SCORED if n else STATUS_EMPTY})
    return pd.DataFrame(rows, columns=list(RESPONSE_COLUMNS))


def _sentence_spans(doc: ParsedText) -> list[tuple[int, int]]:
    if doc.sentences:
        return list(doc.sentences)
    stripped = doc.text.strip()
    if not stripped:
        return []
    start = doc.text.index(stripped)
    return [(start, start + len(stripped))]


def _gold_chunk(response: Response, start: int, end: int) -> tuple[int, int, int]:
    """(gold chunk index or -1, 1 if the gold marks the sentence supported, 1 if its gold tier
    is NO-INFO) by best overlap; -1 where the answer has no sentence gold."""
    if not response.sentence_meta:
        return -1, -1, -1
    best, overlap = None, 0
    for g in response.sentence_meta:
        o = min(end, g.end) - max(start, g.start)
        if o > overlap:
            best, overlap = g, o
    if best is None or overlap < 0.5 * (end - start):
        return -1, -1, -1
    chunk = best.chunk_index if best.chunk_index is not None and best.supported else -1
    return chunk, int(best.supported), int(getattr(best, "tier", "verifiable") == "no_info")


def _response_features(response: Response, doc: ParsedText, index: EvidenceIndex,
                       span_labels: bool, with_tokens: bool) -> tuple[list[dict], dict | None]:
    n = len(doc)
    content = (~doc.is_punct) & (~doc.is_stop)
    has_number, number_absent = absent_number_mask(doc.text, doc.starts, doc.ends, doc.lower, index.numbers)
    in_vocab = np.array([(lw in index.vocab) or (lm in index.vocab)
                         for lw, lm in zip(doc.lower, doc.lemma)], dtype=bool) if n else np.zeros(0, bool)
    covered = np.where(has_number, ~number_absent, in_vocab)
    novel = content & ~covered | number_absent
    labels = token_labels(doc, [(lab.start, lab.end) for lab in response.labels])
    entity_absent = np.zeros(n, dtype=bool)
    sentence_of = np.full(n, -1)
    entities = sorted(entity_spans(doc))
    entity_starts = [e[0] for e in entities]
    rows = []
    # each sentence reads only its own slice of tokens and entities: linear in the answer's length
    spans = _sentence_spans(doc)
    bounds = np.searchsorted(doc.starts, np.asarray(spans, dtype=doc.starts.dtype).reshape(-1, 2)).tolist()
    for k, ((start, end), (a, b)) in enumerate(zip(spans, bounds)):
        in_sentence = slice(a, b)
        sentence_of[in_sentence] = k
        idx = a + np.flatnonzero(content[in_sentence] & (doc.ends[in_sentence] <= end))
        chunk_overlap = np.array([
            np.mean([(doc.lower[i] in s) or (doc.lemma[i] in s) for i in idx]) if len(idx) else 0.0
            for s in index.chunk_sets])
        bm25 = index.bm25.scores(terms(doc, idx))
        ents_seen = ents_absent = 0
        for e in range(bisect_left(entity_starts, start), bisect_left(entity_starts, end)):
            if entities[e][1] > end:
                continue
            ents_seen += 1
            hit = absent_entity_tokens(doc, entities[e][0], entities[e][1], index.text_lower, index.vocab)
            if hit is not None:
                ents_absent += 1
                entity_absent[hit] = True
        gold_chunk, gold_supported, no_info = _gold_chunk(response, start, end)
        words = a + np.flatnonzero(~doc.is_punct[in_sentence])
        rows.append({
            "response_id": response.id,
            "source_id": response.source_id,
            "sentence_index": k,
            "start": start,
            "end": end,
            "text": doc.text[start:end],
            "n_tokens": len(words),
            "n_content": len(idx),
            "coverage": float(covered[idx].mean()) if len(idx) else 1.0,
            "novel_count": int(novel[in_sentence].sum()),
            "best_chunk_overlap": float(chunk_overlap.max()) if len(chunk_overlap) else 0.0,
            "overlap_chunk": int(chunk_overlap.argmax()) if len(chunk_overlap) else -1,
            "bm25_max": float(bm25.max()) if len(bm25) else 0.0,
            "bm25_chunk": int(bm25.argmax()) if len(index.chunk_sets) else -1,
            "numbers_count": int(has_number[in_sentence].sum()),
            "numeric_mismatch": int(number_absent[in_sentence].sum()),
            "entities_count": ents_seen,
            "entity_mismatch": ents_absent,
            "label": int(labels[words].max()) if span_labels and len(words) else
                     (int(response.hallucinated) if not span_labels else 0),
            "response_label": int(response.hallucinated),
            "gold_chunk": gold_chunk,
            "gold_supported": gold_supported,
            "no_info_gold": no_info,
        })
    if not with_tokens:
        return rows, None
    tokens = {
        "response_id": np.full(n, response.id, dtype=object),
        "source_id": np.full(n, response.source_id, dtype=object),
        "sentence_index": sentence_of,
        "token_index": np.arange(n),
        "start": doc.starts,
        "end": doc.ends,
        "text": np.array([doc.token_text(i) for i in range(n)], dtype=object),
        "is_punct": doc.is_punct.astype(np.int8),
        "is_stop": doc.is_stop.astype(np.int8),
        "novelty": novel.astype(np.int8),
        "number_absent": number_absent.astype(np.int8),
        "entity_absent": entity_absent.astype(np.int8),
        "label": labels if span_labels else np.full(n, -1, dtype=np.int8),
    }
    return rows, tokens


def _stack_tokens(parts: list[dict[str, np.ndarray]]) -> pd.DataFrame:
    """One token table from the per-answer columns (one concatenation per column)."""
    if not parts:
        return pd.DataFrame()
    return pd.DataFrame({c: np.concatenate([p[c] for p in parts]) for c in parts[0]})
