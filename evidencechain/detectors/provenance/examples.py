"""Examples: one answer to fact-check, its query and its context items (evidence sentences)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ...features.table import FeatureTables
from ...records import Corpus
from ...text.parse import ParseCache, ParsedText, parse_texts


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
