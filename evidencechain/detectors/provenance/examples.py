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


def examples_from_tables(corpus: Corpus | None, tables: FeatureTables, *, pipeline: str = "auto",
                         cache: ParseCache | None = None) -> list[Example]:
    """Examples for every response of `corpus` (None: of the tables' response rows, the answer
    text read from its parse), reusing the feature tables' parses."""
    sids = list(tables.indices)
    queries = dict(zip(sids, parse_texts([tables.indices[s].evidence.query or "" for s in sids],
                                         pipeline=pipeline, cache=cache, progress=False)))
    spans = {s: context_spans(tables.indices[s].parsed) for s in sids}
    out = []
    for rid, sid, task, answer, label in _answers(corpus, tables):
        index = tables.indices[sid]
        doc = index.parsed
        out.append(Example(
            response_id=rid, source_id=sid, task_type=task, query=index.evidence.query, answer=answer,
            items=tuple(doc.text[a:b] for a, b in spans[sid]),
            label=label, answer_doc=tables.parsed.get(rid), evidence_doc=doc,
            item_spans=spans[sid], query_doc=queries[sid]))
    return out


def _answers(corpus: Corpus | None, tables: FeatureTables) -> list[tuple]:
    """(response id, source id, task type, answer text, label) of every answer."""
    if corpus is not None:
        return [(r.id, r.source_id, corpus.sources[r.source_id].task_type, r.response, int(r.hallucinated))
                for r in corpus.responses]
    rows = tables.responses
    if rows is None:
        rows = tables.sentences.groupby("response_id", sort=False).agg(
            source_id=("source_id", "first"), task_type=("task_type", "first"),
            label=("response_label", "first")).reset_index()
    return [(str(r["response_id"]), r["source_id"], r["task_type"],
             tables.parsed[r["response_id"]].text if r["response_id"] in tables.parsed else "",
             int(r["label"]) if int(r["label"]) >= 0 else None)
            for r in rows.to_dict("records")]
