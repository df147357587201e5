"""(source item, claim) pairs to check and the sentence-table features that describe them."""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...features.entities import entity_spans, normalise_entity
from ...features.evidence import content_indices, forms
from ...features.numeric import absent_number_mask, evidence_numbers
from .claims import make_claim
from .examples import Example

PAIR_FEATURES = ["coverage", "best_chunk_overlap", "novel_count", "bm25_max", "tfidf_max",
                 "numeric_mismatch", "entity_mismatch"]
"""Sentence-table features that a (source item, claim) pair can be described by."""


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
        self._queries: dict[str, tuple] = {}

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
        q_forms, q_numbers = self._query(ex.source_id, q)
        lowered = tuple(doc.lower[i] for i in np.flatnonzero((doc.starts >= a) & (doc.ends <= b)))
        numbers = evidence_numbers(doc.text[a:b], lowered) | q_numbers
        text_lower = f"{doc.text[a:b]}\n{q.text if q is not None else ''}".lower()
        tf = Counter(doc.lemma[i] for i in idx)
        got = (item_forms, item_forms | q_forms, frozenset(numbers), text_lower, tf, len(idx))
        self._items[key] = got
        return got

    def _query(self, source_id: str, q) -> tuple[frozenset, set]:
        """(content forms, numbers) of a source's query, shared by all its items."""
        got = self._queries.get(source_id)
        if got is None:
            got = (frozenset(forms(q, content_indices(q))), evidence_numbers(q.text, q.lower)) if q is not None \
                else (frozenset(), set())
            self._queries[source_id] = got
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
