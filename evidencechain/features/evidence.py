"""Per-source evidence index: parsed evidence, vocabulary, numbers, chunk terms, BM25."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..records import Source
from ..text.chunks import Evidence, build_evidence
from ..text.parse import ParseCache, ParsedText, parse_texts, pipeline_name
from .numeric import evidence_numbers
from .retrieval import BM25Plus


@dataclass(slots=True)
class EvidenceIndex:
    evidence: Evidence
    parsed: ParsedText
    vocab: frozenset[str]
    """Lower-cased and lemmatised content words of the evidence and the query."""
    text_lower: str
    numbers: frozenset[str]
    chunk_sets: tuple[frozenset[str], ...]
    bm25: BM25Plus
    pipeline: str = ""
    """The name of the pipeline that parsed the evidence (`text.parse.pipeline_name`)."""


def content_indices(parsed: ParsedText, lo: int = 0, hi: int | None = None) -> np.ndarray:
    """Token indices of content words (not punctuation, not stop words) within [lo, hi)."""
    hi = len(parsed.text) if hi is None else hi
    # tokens are in text order: those inside [lo, hi) are one slice, found by binary search
    a = int(np.searchsorted(parsed.starts, parsed.starts.dtype.type(lo)))
    b = max(a, int(np.searchsorted(parsed.ends, parsed.ends.dtype.type(hi), side="right")))
    return a + np.flatnonzero(~parsed.is_punct[a:b] & ~parsed.is_stop[a:b])


def terms(parsed: ParsedText, idx: np.ndarray) -> list[str]:
    return [parsed.lemma[i] for i in idx]


def forms(parsed: ParsedText, idx: np.ndarray) -> set[str]:
    return {parsed.lower[i] for i in idx} | {parsed.lemma[i] for i in idx}


def build_indices(sources: list[Source], *, pipeline: str = "auto", cache: ParseCache | None = None,
                  bm25_params: dict | None = None, progress: bool = True,
                  memo: dict | None = None) -> dict[str, EvidenceIndex]:
    """The index of each source. `memo` (Evidence -> index, for one pipeline and BM25 setting)
    keeps the indices of the last call: a source indexed by it is not parsed or indexed again
    (a stream of batches keeps one batch's indices, not all it has seen)."""
    memo = {} if memo is None else memo
    evidences = [build_evidence(s) for s in sources]
    todo = list(dict.fromkeys(e for e in evidences if e not in memo))
    parsed = parse_texts([e.text for e in todo], pipeline=pipeline, cache=cache,
                         progress=progress, desc="parse evidence")
    queries = parse_texts([e.query or "" for e in todo], pipeline=pipeline, cache=cache,
                          progress=progress, desc="parse queries")
    name = pipeline_name(pipeline)
    for ev, doc, query in zip(todo, parsed, queries):
        chunk_idx = [content_indices(doc, c.start, c.end) for c in ev.chunks]
        vocab = forms(doc, content_indices(doc)) | forms(query, content_indices(query))
        numbers = evidence_numbers(ev.text, doc.lower) | evidence_numbers(query.text, query.lower)
        memo[ev] = EvidenceIndex(
            evidence=ev,
            parsed=doc,
            vocab=frozenset(vocab),
            text_lower=f"{ev.text}\n{query.text}".lower(),
            numbers=frozenset(numbers),
            chunk_sets=tuple(frozenset(forms(doc, i)) for i in chunk_idx),
            bm25=BM25Plus([terms(doc, i) for i in chunk_idx] or [[]], **(bm25_params or {})),
            pipeline=name,
        )
    out = {ev.source_id: memo[ev] for ev in evidences}
    kept = {ev: memo[ev] for ev in evidences}
    memo.clear()
    memo.update(kept)
    return out
