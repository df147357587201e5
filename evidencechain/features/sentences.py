"""The classical families, each sentence of an answer against its own source's evidence.

`sentence` makes the rows (one per answer sentence) and the token rows; `lexical`, `retrieval`
(BM25), `mismatch` and `labels` add their columns from the same parse. Each answer's view
(its sentences, their token ranges and content words) is computed once by `sentence` and read
by the others; numbers are matched once for `lexical` and `mismatch`.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ..records import Response
from ..text.parse import ParsedText
from ..text.spans import token_labels
from .entities import absent_entity_tokens, entity_spans
from .evidence import EvidenceIndex, terms
from .family import FamilyContext, FeatureFamily, WorkTables
from .numeric import absent_number_mask

VIEWS = "answer views"
"""The scratch key of the answer views (`FamilyContext.scratch`)."""


@dataclass
class AnswerView:
    """One answer: its parse, its source's index and, per sentence, the character span, the
    token range [a, b), the content tokens inside the sentence and its words."""

    response: Response
    doc: ParsedText
    index: EvidenceIndex
    spans: list[tuple[int, int]]
    bounds: list[list[int]]
    content: np.ndarray
    content_idx: list[np.ndarray]
    words: list[np.ndarray]

    @classmethod
    def of(cls, response: Response, doc: ParsedText, index: EvidenceIndex) -> AnswerView:
        content = (~doc.is_punct) & (~doc.is_stop)
        spans = sentence_spans(doc)
        bounds = np.searchsorted(doc.starts, np.asarray(spans, dtype=doc.starts.dtype).reshape(-1, 2)).tolist()
        idx, words = [], []
        for (_, end), (a, b) in zip(spans, bounds):
            idx.append(a + np.flatnonzero(content[a:b] & (doc.ends[a:b] <= end)))
            words.append(a + np.flatnonzero(~doc.is_punct[a:b]))
        return cls(response, doc, index, spans, bounds, content, idx, words)

    @cached_property
    def numbers(self) -> tuple[np.ndarray, np.ndarray]:
        """(token has a number, the number is absent from the evidence)."""
        d = self.doc
        return absent_number_mask(d.text, d.starts, d.ends, d.lower, self.index.numbers)


def sentence_spans(doc: ParsedText) -> list[tuple[int, int]]:
    if doc.sentences:
        return list(doc.sentences)
    stripped = doc.text.strip()
    if not stripped:
        return []
    start = doc.text.index(stripped)
    return [(start, start + len(stripped))]


class _Columns:
    """Per-answer column values gathered, then written to the tables in one assignment each."""

    def __init__(self, columns, token_columns):
        self.rows = {c: [] for c in columns}
        self.tokens = {c: [] for c in token_columns}

    def write(self, tables: WorkTables) -> None:
        for c, values in self.rows.items():
            tables.sentences[c] = values
        if tables.tokens is not None and len(tables.tokens.columns):
            for c, parts in self.tokens.items():
                tables.tokens[c] = np.concatenate(parts)


class SentenceFamily(FeatureFamily):
    name = "sentence"
    columns = ("response_id", "source_id", "sentence_index", "start", "end", "text", "n_tokens", "n_content")
    token_columns = ("response_id", "source_id", "sentence_index", "token_index", "start", "end", "text",
                     "is_punct", "is_stop")
    needs = ("parse",)
    core = True

    def add(self, tables: WorkTables, context: FamilyContext) -> None:
        views, rows, parts = [], {c: [] for c in self.columns}, []
        bar = tqdm(zip(context.corpus.responses, context.parsed), total=len(context.parsed), desc="features",
                   disable=not context.progress, unit="resp", leave=False)
        for response, doc in bar:
            view = AnswerView.of(response, doc, context.indices[response.source_id])
            views.append(view)
            for k, ((start, end), idx, words) in enumerate(zip(view.spans, view.content_idx, view.words)):
                for c, value in zip(self.columns, (response.id, response.source_id, k, start, end,
                                                   doc.text[start:end], len(words), len(idx))):
                    rows[c].append(value)
            if context.with_tokens:
                parts.append(_token_rows(view))
        context.scratch[VIEWS] = views
        tables.sentences = pd.DataFrame(rows) if rows["response_id"] else pd.DataFrame(columns=list(self.columns))
        if context.with_tokens:
            tables.tokens = pd.DataFrame({c: np.concatenate([p[c] for p in parts]) for c in parts[0]}) \
                if parts else pd.DataFrame()


def _token_rows(view: AnswerView) -> dict[str, np.ndarray]:
    doc, n = view.doc, len(view.doc)
    sentence_of = np.full(n, -1)
    for k, (a, b) in enumerate(view.bounds):
        sentence_of[a:b] = k
    return {
        "response_id": np.full(n, view.response.id, dtype=object),
        "source_id": np.full(n, view.response.source_id, dtype=object),
        "sentence_index": sentence_of,
        "token_index": np.arange(n),
        "start": doc.starts,
        "end": doc.ends,
        "text": np.array([doc.token_text(i) for i in range(n)], dtype=object),
        "is_punct": doc.is_punct.astype(np.int8),
        "is_stop": doc.is_stop.astype(np.int8),
    }


class LexicalFamily(FeatureFamily):
    name = "lexical"
    columns = ("coverage", "novel_count", "best_chunk_overlap", "overlap_chunk")
    token_columns = ("novelty",)
    groups = {"lexical": ("coverage", "best_chunk_overlap", "novel_count")}
    needs = ("parse",)
    core = True

    def add(self, tables: WorkTables, context: FamilyContext) -> None:
        out = _Columns(self.columns, self.token_columns)
        for view in context.scratch[VIEWS]:
            doc, index = view.doc, view.index
            has_number, number_absent = view.numbers
            in_vocab = np.array([(lw in index.vocab) or (lm in index.vocab) for lw, lm in zip(doc.lower, doc.lemma)],
                                dtype=bool) if len(doc) else np.zeros(0, bool)
            covered = np.where(has_number, ~number_absent, in_vocab)
            novel = view.content & ~covered | number_absent
            for idx, (a, b) in zip(view.content_idx, view.bounds):
                overlap = np.array([np.mean([(doc.lower[i] in s) or (doc.lemma[i] in s) for i in idx])
                                    if len(idx) else 0.0 for s in index.chunk_sets])
                out.rows["coverage"].append(float(covered[idx].mean()) if len(idx) else 1.0)
                out.rows["novel_count"].append(int(novel[a:b].sum()))
                out.rows["best_chunk_overlap"].append(float(overlap.max()) if len(overlap) else 0.0)
                out.rows["overlap_chunk"].append(int(overlap.argmax()) if len(overlap) else -1)
            out.tokens["novelty"].append(novel.astype(np.int8))
        out.write(tables)


class RetrievalFamily(FeatureFamily):
    """BM25+ against the chunks of the sentence's source (TF-IDF is the `tfidf` family)."""

    name = "retrieval"
    columns = ("bm25_max", "bm25_chunk")
    groups = {"retrieval": ("bm25_max",)}
    needs = ("parse",)
    core = True

    def add(self, tables: WorkTables, context: FamilyContext) -> None:
        out = _Columns(self.columns, ())
        for view in context.scratch[VIEWS]:
            for idx in view.content_idx:
                bm25 = view.index.bm25.scores(terms(view.doc, idx))
                out.rows["bm25_max"].append(float(bm25.max()) if len(bm25) else 0.0)
                out.rows["bm25_chunk"].append(int(bm25.argmax()) if len(view.index.chunk_sets) else -1)
        out.write(tables)


class MismatchFamily(FeatureFamily):
    """Numbers and named entities of the sentence absent from its evidence."""

    name = "mismatch"
    columns = ("numbers_count", "numeric_mismatch", "entities_count", "entity_mismatch")
    token_columns = ("number_absent", "entity_absent")
    groups = {"mismatch": ("numeric_mismatch", "entity_mismatch")}
    needs = ("parse",)
    core = True

    def add(self, tables: WorkTables, context: FamilyContext) -> None:
        out = _Columns(self.columns, self.token_columns)
        for view in context.scratch[VIEWS]:
            doc = view.doc
            has_number, number_absent = view.numbers
            entity_absent = np.zeros(len(doc), dtype=bool)
            entities = sorted(entity_spans(doc))
            entity_starts = [e[0] for e in entities]
            for (start, end), (a, b) in zip(view.spans, view.bounds):
                seen = absent = 0
                for e in range(bisect_left(entity_starts, start), bisect_left(entity_starts, end)):
                    if entities[e][1] > end:
                        continue
                    seen += 1
                    hit = absent_entity_tokens(doc, entities[e][0], entities[e][1], view.index.text_lower,
                                               view.index.vocab, has_number & ~number_absent)
                    if hit is not None:
                        absent += 1
                        entity_absent[hit] = True
                out.rows["numbers_count"].append(int(has_number[a:b].sum()))
                out.rows["numeric_mismatch"].append(int(number_absent[a:b].sum()))
                out.rows["entities_count"].append(seen)
                out.rows["entity_mismatch"].append(absent)
            out.tokens["number_absent"].append(number_absent.astype(np.int8))
            out.tokens["entity_absent"].append(entity_absent.astype(np.int8))
        out.write(tables)


class LabelsFamily(FeatureFamily):
    """Gold labels: the sentence's (from word spans, else the answer's), the answer's, and the
    sentence gold's chunk (where the corpus has sentence gold)."""

    name = "labels"
    columns = ("label", "response_label", "gold_chunk", "gold_supported")
    token_columns = ("label",)
    needs = ("gold labels of the corpus",)
    core = True

    def add(self, tables: WorkTables, context: FamilyContext) -> None:
        out = _Columns(self.columns, self.token_columns)
        span_labels = context.corpus.span_labels
        for view in context.scratch[VIEWS]:
            response = view.response
            labels = token_labels(view.doc, [(lab.start, lab.end) for lab in response.labels])
            for (start, end), words in zip(view.spans, view.words):
                gold = gold_sentence(response, start, end)
                out.rows["label"].append(int(labels[words].max()) if span_labels and len(words) else
                                         (int(response.hallucinated) if not span_labels else 0))
                out.rows["response_label"].append(int(response.hallucinated))
                out.rows["gold_chunk"].append(-1 if gold is None else
                                              gold.chunk_index if gold.chunk_index is not None and gold.supported
                                              else -1)
                out.rows["gold_supported"].append(-1 if gold is None else int(gold.supported))
            out.tokens["label"].append(labels if span_labels else np.full(len(view.doc), -1, dtype=np.int8))
        out.write(tables)


def gold_sentence(response: Response, start: int, end: int):
    """The answer's sentence gold overlapping [start, end) best, when it covers at least half of
    it; None otherwise (and where the answer has no sentence gold)."""
    best, overlap = None, 0
    for g in response.sentence_meta or ():
        o = min(end, g.end) - max(start, g.start)
        if o > overlap:
            best, overlap = g, o
    if best is None or overlap < 0.5 * (end - start):
        return None
    return best
