"""Task-aware chunking of evidence into chunks with offsets into one canonical text.

QA: one chunk per passage. Summary: one chunk per paragraph, long paragraphs cut into
windows of a few sentences. Data2txt: the record flattened into readable chunks
(profile, hours, attributes, one chunk per review, then any other nested field).
"""
from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from ..records import Source

SUMMARY_WINDOW_SENTENCES = 3
SUMMARY_MAX_PARAGRAPH_CHARS = 600
_PASSAGE_MARK = re.compile(r"(?im)^\s*passage\s*\d+\s*:\s*")
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[A-Z0-9\"'(])")
_REVIEW_KEYS = ("review_info", "reviews", "review_snippets")
_LITERAL = re.compile(r"^(\{.*\}|u?'.*')$", re.DOTALL)
MAX_LITERAL_DEPTH = 100
"""Deepest literal a string value is expanded from (deeper ones stay text), as MAX_JSON_DEPTH."""


@dataclass(frozen=True, slots=True)
class Chunk:
    index: int
    kind: str
    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class Evidence:
    """Canonical evidence text of one source, its chunks, and the query (if any)."""

    source_id: str
    text: str
    chunks: tuple[Chunk, ...]
    query: str | None = None


class _Builder:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.chunks: list[Chunk] = []
        self.length = 0

    def add(self, kind: str, text: str, sep: str = "\n") -> None:
        text = text.strip()
        if not text:
            return
        if self.parts:
            self.parts.append(sep)
            self.length += len(sep)
        self.chunks.append(Chunk(len(self.chunks), kind, self.length, self.length + len(text), text))
        self.parts.append(text)
        self.length += len(text)

    def build(self, source_id: str, query: str | None) -> Evidence:
        return Evidence(source_id, "".join(self.parts), tuple(self.chunks), query)


def _spans(text: str, pattern: re.Pattern) -> list[tuple[int, int]]:
    """Cut `text` at matches of `pattern`; return stripped (start, end) pieces."""
    cuts = [0] + [m.end() for m in pattern.finditer(text)] + [len(text)]
    return _stripped(text, pairwise(cuts))


def _stripped(text: str, bounds: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The (start, end) bounds narrowed to exclude surrounding whitespace; empty ones dropped."""
    out = []
    for a, b in bounds:
        piece = text[a:b]
        lead = len(piece) - len(piece.lstrip())
        trail = len(piece) - len(piece.rstrip())
        if b - trail > a + lead:
            out.append((a + lead, b - trail))
    return out


def _chunks_from_offsets(source_id: str, text: str, spans: list[tuple[int, int]], kind: str,
                         query: str | None) -> Evidence:
    chunks = tuple(Chunk(i, kind, a, b, text[a:b]) for i, (a, b) in enumerate(spans))
    return Evidence(source_id, text, chunks, query)


def summary_evidence(source_id: str, article: str) -> Evidence:
    spans = []
    for a, b in _spans(article, re.compile(r"\n\s*\n|\n")):
        if b - a <= SUMMARY_MAX_PARAGRAPH_CHARS:
            spans.append((a, b))
            continue
        sents = [(a + x, a + y) for x, y in _spans(article[a:b], _SENTENCE_END)]
        for i in range(0, len(sents), SUMMARY_WINDOW_SENTENCES):
            window = sents[i:i + SUMMARY_WINDOW_SENTENCES]
            spans.append((window[0][0], window[-1][1]))
    kind = "paragraph"
    return _chunks_from_offsets(source_id, article, spans, kind, None)


def passage_text(passage: Any) -> str:
    """The text of one QA passage: a string, or a record's text field (else the record rendered)."""
    if isinstance(passage, dict):
        for key in ("passage_text", "text", "content", "passage"):
            if isinstance(passage.get(key), str):
                return passage[key]
        return render_value(passage)
    return str(passage)


def qa_evidence(source_id: str, info: dict[str, Any]) -> Evidence:
    question = info.get("question")
    passages = info.get("passages")
    if isinstance(passages, list):
        builder = _Builder()
        for p in passages:
            builder.add("passage", passage_text(p), sep="\n\n")
        return builder.build(source_id, question)
    text = str(passages)
    marks = list(_PASSAGE_MARK.finditer(text))
    if marks:
        starts = [m.end() for m in marks]
        ends = [m.start() for m in marks[1:]] + [len(text)]
        spans = _stripped(text, zip(starts, ends, strict=True))
    else:
        spans = _spans(text, re.compile(r"\n\s*\n"))
    return _chunks_from_offsets(source_id, text, spans, "passage", question)


def _humanize(key: str) -> str:
    return key.replace("_", " ").strip()


def render_value(value: Any) -> str:
    """Readable text for a JSON value: nested dicts as 'key: value' pairs."""
    if isinstance(value, dict):
        return "; ".join(f"{_humanize(str(k))}: {render_value(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(render_value(v) for v in value)
    if isinstance(value, str):
        stripped = value.strip()
        if _LITERAL.match(stripped):
            # Yelp stores some attributes as Python literals: "{'garage': False}", "u'free'"
            parsed = _literal(stripped)
            if parsed is not None and parsed != stripped:
                return render_value(parsed)
        return stripped
    if value is None:
        return "none"
    return str(value)


def _literal(text: str) -> Any:
    """The value a JSON or Python literal string holds; None if it holds none, or one nested
    deeper than MAX_LITERAL_DEPTH (rendering it would exhaust the recursion limit)."""
    for parse in (json.loads, ast.literal_eval):
        try:
            value = parse(text)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            continue
        return value if _depth(value) <= MAX_LITERAL_DEPTH else None
    return None


def _depth(value: Any) -> int:
    """Nesting depth of dicts, lists, tuples and sets (iterative: any depth is safe)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list, tuple, set, frozenset)):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def _review_text(review: Any) -> str:
    if not isinstance(review, dict):
        return f"Review: {render_value(review)}"
    text = next((review[k] for k in ("review_text", "text", "review") if isinstance(review.get(k), str)), "")
    meta = {k: v for k, v in review.items() if k not in ("review_text", "text", "review")}
    head = f"Review ({render_value(meta)})" if meta else "Review"
    return f"{head}: {text.strip()}"


def data2txt_evidence(source_id: str, record: dict[str, Any]) -> Evidence:
    builder = _Builder()
    scalars = {k: v for k, v in record.items() if not isinstance(v, (dict, list))}
    nested = {k: v for k, v in record.items() if isinstance(v, (dict, list))}
    if scalars:
        builder.add("profile", "Business profile. " + ". ".join(
            f"{_humanize(k)}: {render_value(v)}" for k, v in scalars.items()) + ".")
    if isinstance(nested.get("hours"), dict):
        builder.add("hours", "Hours: " + "; ".join(
            f"{day} {render_value(h)}" for day, h in nested.pop("hours").items()) + ".")
    if isinstance(nested.get("attributes"), dict):
        builder.add("attributes", "Attributes: " + render_value(nested.pop("attributes")) + ".")
    for key in _REVIEW_KEYS:
        reviews = nested.pop(key, None)
        if isinstance(reviews, list):
            for review in reviews:
                builder.add("review", _review_text(review))
    for key, value in nested.items():
        builder.add(key, f"{_humanize(key)}: {render_value(value)}.")
    return builder.build(source_id, None)


def build_evidence(source: Source) -> Evidence:
    """The canonical evidence text and chunks of one source, by task type."""
    info = source.source_info
    if isinstance(info, str) and source.task_type == "Data2txt":
        try:
            record = json.loads(info)
        except (ValueError, RecursionError):
            record = None
        if record is not None and _depth(record) <= MAX_LITERAL_DEPTH:
            info = record
    if source.task_type == "QA" and isinstance(info, dict) and "passages" in info:
        return qa_evidence(source.source_id, info)
    if isinstance(info, dict) and source.task_type in ("Data2txt",):
        return data2txt_evidence(source.source_id, info)
    if isinstance(info, dict):
        # other evidence records (e.g. knowledge + query adapters): evidence text under a key
        text = next((info[k] for k in ("knowledge", "document", "evidence", "context")
                     if isinstance(info.get(k), str)), None)
        if text is None:
            return data2txt_evidence(source.source_id, info)
        ev = summary_evidence(source.source_id, text)
        return Evidence(ev.source_id, ev.text, ev.chunks, source.query)
    return summary_evidence(source.source_id, str(info))
