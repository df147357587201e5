"""Tokens with character offsets, sentences and entities, parsed once and cached."""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import chain

import numpy as np

from .cache import DEFAULT_CACHE, PARSE_FORMAT, ParseCache, cached_type
from .nlp import load_pipeline
from .parallel import map_chunks

__all__ = ["PARSE_FORMAT", "ParseCache", "ParsedText", "parse_texts", "pipeline_name", "piece_bounds"]
PIECE_CHARS = 100_000
"""Texts longer than this (or than the pipeline's max_length) are parsed in pieces cut at
paragraph, line, sentence or word boundaries, with offsets into the whole text kept."""
_CUT_TIERS = (("\n\n",), ("\n",), (". ", "! ", "? "), (" ", "\t"))


@cached_type
@dataclass(frozen=True, slots=True)
class ParsedText:
    """One text as arrays over its tokens (whitespace tokens dropped)."""

    text: str
    starts: np.ndarray
    ends: np.ndarray
    lower: tuple[str, ...]
    lemma: tuple[str, ...]
    is_punct: np.ndarray
    is_stop: np.ndarray
    like_num: np.ndarray
    sentences: tuple[tuple[int, int], ...]
    entities: tuple[tuple[int, int, str], ...] | None
    """(start, end, label) character spans; None when the pipeline has no NER."""

    def __len__(self) -> int:
        return len(self.starts)

    def token_text(self, i: int) -> str:
        return self.text[self.starts[i]:self.ends[i]]

    def tokens_in(self, start: int, end: int) -> np.ndarray:
        """Indices of tokens that overlap the character range [start, end)."""
        return np.flatnonzero((self.starts < end) & (self.ends > start))


def _sets_entities(nlp) -> bool:
    """Whether an enabled component of `nlp` assigns named entities."""
    return any(nlp.get_pipe_meta(name).factory in ("ner", "beam_ner", "entity_ruler")
               for name in nlp.pipe_names)


def _from_doc(doc, has_ner: bool | None = None) -> ParsedText:
    toks = [t for t in doc if not t.is_space]
    has_lemma = doc.has_annotation("LEMMA")
    sents = []
    for s in doc.sents:
        chars = s.text
        start = s.start_char + (len(chars) - len(chars.lstrip()))
        end = s.end_char - (len(chars) - len(chars.rstrip()))
        if end > start:
            sents.append((start, end))
    if has_ner is None:
        # an empty doc has every annotation vacuously: judge only non-empty docs
        has_ner = len(doc) > 0 and doc.has_annotation("ENT_IOB")
    ents = None
    if has_ner:
        ents = tuple((e.start_char, e.end_char, e.label_) for e in doc.ents)
    return ParsedText(
        text=doc.text,
        starts=np.array([t.idx for t in toks], dtype=np.int32),
        ends=np.array([t.idx + len(t.text) for t in toks], dtype=np.int32),
        lower=tuple(t.lower_ for t in toks),
        lemma=tuple((t.lemma_.lower() if has_lemma and t.lemma_ else t.lower_) for t in toks),
        is_punct=np.array([t.is_punct or not any(c.isalnum() for c in t.text) for t in toks],
                          dtype=bool),
        is_stop=np.array([t.is_stop for t in toks], dtype=bool),
        like_num=np.array([t.like_num for t in toks], dtype=bool),
        sentences=tuple(sents),
        entities=ents,
    )


def piece_bounds(text: str, limit: int = PIECE_CHARS) -> list[tuple[int, int]]:
    """(start, end) pieces of `text`, each at most `limit` characters, covering it in order."""
    bounds, start = [], 0
    while len(text) - start > limit:
        end = _cut(text, start + limit // 2, start + limit)
        bounds.append((start, end))
        start = end
    bounds.append((start, len(text)))
    return bounds


def _cut(text: str, lo: int, hi: int) -> int:
    """The last boundary in text[lo:hi] of the strongest kind found; `hi` if none."""
    for separators in _CUT_TIERS:
        found = [k + len(sep) for sep in separators if (k := text.rfind(sep, lo, hi)) >= 0]
        if found:
            return max(found)
    return hi


def _joined(text: str, parts: list[tuple[int, ParsedText]]) -> ParsedText:
    """One ParsedText of `text` from the ParsedTexts of its pieces (piece start, parse)."""
    ents = [p.entities for _, p in parts]
    return ParsedText(
        text=text,
        starts=np.concatenate([p.starts + a for a, p in parts]).astype(np.int32),
        ends=np.concatenate([p.ends + a for a, p in parts]).astype(np.int32),
        lower=tuple(chain.from_iterable(p.lower for _, p in parts)),
        lemma=tuple(chain.from_iterable(p.lemma for _, p in parts)),
        is_punct=np.concatenate([p.is_punct for _, p in parts]),
        is_stop=np.concatenate([p.is_stop for _, p in parts]),
        like_num=np.concatenate([p.like_num for _, p in parts]),
        sentences=tuple((a + s, a + e) for a, p in parts for s, e in p.sentences),
        entities=None if any(e is None for e in ents) else
        tuple((a + s, a + e, label) for a, p in parts for s, e, label in p.entities),
    )


def _parse_all(nlp, texts: list[str], has_ner: bool, batch_size: int) -> Iterator[ParsedText]:
    """ParsedText of each text in order; long texts are parsed in pieces and joined."""
    limit = min(PIECE_CHARS, getattr(nlp, "max_length", PIECE_CHARS))
    bounds = [piece_bounds(t, limit) for t in texts]
    docs = nlp.pipe((t[a:b] for t, bs in zip(texts, bounds) for a, b in bs), batch_size=batch_size)
    for text, bs in zip(texts, bounds):
        parts = [(a, _from_doc(next(docs), has_ner)) for a, _ in bs]
        yield parts[0][1] if len(parts) == 1 else _joined(text, parts)


def parse_texts(texts: Iterable[str], *, pipeline: str = "auto", cache: ParseCache | None = None,
                batch_size: int = 64, progress: bool = True, desc: str = "parse") -> list[ParsedText]:
    """Parse texts in order; texts already in the cache are not parsed again."""
    texts = list(texts)
    nlp, name = load_pipeline(pipeline)
    cache = cache or DEFAULT_CACHE
    keys = [ParseCache.key(name, t) for t in texts]
    has_ner = _sets_entities(nlp)
    found = cache.through(keys, texts, lambda todo: map_chunks(
        lambda chunk: list(_parse_all(nlp, chunk, has_ner, batch_size)), todo, progress=progress, desc=desc))
    return [found[k] for k in keys]


def pipeline_name(pipeline: str = "auto") -> str:
    return load_pipeline(pipeline)[1]
