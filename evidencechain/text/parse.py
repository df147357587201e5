"""Tokens with character offsets, sentences and entities, parsed once and cached."""
from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import chain

import numpy as np
from spacy.attrs import IDX, IS_PUNCT, IS_SPACE, IS_STOP, LEMMA, LENGTH, LIKE_NUM, LOWER, SENT_START

from ..errors import MissingDependency
from .cache import DEFAULT_CACHE, PARSE_FORMAT, ParseCache, cached_type
from .nlp import enabled_components, load_pipeline, pipeline_name
from .parallel import map_chunks, one_blas_thread

__all__ = ["PARSE_FORMAT", "ParseCache", "ParsedText", "parse_texts", "pipeline_name", "piece_bounds"]
PIECE_CHARS = 100_000
"""Texts longer than this (or than the pipeline's max_length) are parsed in pieces cut at
paragraph, line, sentence or word boundaries, with offsets into the whole text kept."""
_CUT_TIERS = (("\n\n",), ("\n",), (". ", "! ", "? "), (" ", "\t"))
_alnum = re.compile(r"[^\W_]").search
"""Finds a character that `str.isalnum` holds for (regex word characters but "_"): None for a token without one."""


@cached_type
@dataclass(frozen=True, slots=True, weakref_slot=True)
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

    def __post_init__(self):
        if self.lemma is not self.lower and self.lemma == self.lower:  # one tuple where they agree
            object.__setattr__(self, "lemma", self.lower)

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


_ATTRS = (IDX, LENGTH, IS_SPACE, IS_PUNCT, IS_STOP, LIKE_NUM, LOWER, LEMMA, SENT_START)


def _from_doc(doc, has_ner: bool | None = None, text: str | None = None) -> ParsedText:
    """The ParsedText of a spaCy Doc, read from its token attribute array (not token objects).
    `text`: the text the Doc was made from (its `doc.text`, which spaCy rebuilds token by token)."""
    text, strings = doc.text if text is None else text, doc.vocab.strings
    a = doc.to_array(list(_ATTRS)).reshape(len(doc), len(_ATTRS))
    has_lemma = doc.has_annotation("LEMMA")
    sents = []
    if len(doc):
        if not doc.has_annotation("SENT_START") or "sents" in doc.user_hooks:
            bounds = [(s.start, s.end) for s in doc.sents]
        else:
            cuts = [0, *np.flatnonzero(a[1:, 8] == 1) + 1, len(doc)]
            bounds = zip(cuts, cuts[1:])
        for lo, hi in bounds:
            start, end = int(a[lo, 0]), int(a[hi - 1, 0] + a[hi - 1, 1])
            chars = text[start:end]
            start, end = start + (len(chars) - len(chars.lstrip())), end - (len(chars) - len(chars.rstrip()))
            if end > start:
                sents.append((start, end))
    if has_ner is None:
        # an empty doc has every annotation vacuously: judge only non-empty docs
        has_ner = len(doc) > 0 and doc.has_annotation("ENT_IOB")
    ents = None
    if has_ner:
        ents = tuple((e.start_char, e.end_char, e.label_) for e in doc.ents)
    a = a[a[:, 2] == 0]
    starts = a[:, 0].astype(np.int32)
    ends = (a[:, 0] + a[:, 1]).astype(np.int32)
    lower = tuple(sys.intern(strings[h]) for h in a[:, 6].tolist())
    if has_lemma:
        lemma = tuple(sys.intern(m.lower()) if m else w for m, w in zip((strings[h] for h in a[:, 7].tolist()), lower))
    else:
        lemma = lower
    tokens = [text[x:y] for x, y in zip(starts.tolist(), ends.tolist())]
    return ParsedText(
        text=text,
        starts=starts,
        ends=ends,
        lower=lower,
        lemma=lemma,
        is_punct=(a[:, 3] == 1) | np.array([_alnum(t) is None for t in tokens], dtype=bool),
        is_stop=a[:, 4] == 1,
        like_num=a[:, 5] == 1,
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
        parts = [(a, _from_doc(next(docs), has_ner, text[a:b])) for a, b in bs]
        yield parts[0][1] if len(parts) == 1 else _joined(text, parts)


def parse_texts(texts: Iterable[str], *, pipeline: str = "auto", cache: ParseCache | None = None,
                batch_size: int = 64, progress: bool = True, desc: str = "parse") -> list[ParsedText]:
    """Parse texts in order; texts already in the cache are not parsed again (the pipeline is
    loaded only when some text is not)."""
    texts = list(texts)
    name = pipeline_name(pipeline)
    cache = cache or DEFAULT_CACHE
    keys = [ParseCache.key(name, t) for t in texts]

    def parse(todo: list[str]) -> list[ParsedText]:
        nlp, loaded = load_pipeline(pipeline)
        if loaded != name:
            raise MissingDependency(f"spaCy pipeline {pipeline!r} loaded as {loaded!r}, but its package "
                                    f"files name it {name!r}: reinstall the pipeline package")
        has_ner = _sets_entities(nlp)

        def parse_chunk(chunk: list[str]) -> list[ParsedText]:
            with one_blas_thread():
                return list(_parse_all(nlp, chunk, has_ner, batch_size))

        return map_chunks(parse_chunk, todo, progress=progress, desc=desc)

    found = cache.through(keys, texts, parse)
    return [found[k] for k in keys]


def rule_pipeline(pipeline: str = "auto") -> bool:
    """Whether `pipeline` is a tokenizer and rule sentencizer only (the blank pipeline): then a
    sentence parsed alone is a slice of its text's parse (`sentence_slice`)."""
    return enabled_components(pipeline) == ["sentencizer"]


def sentence_slice(parsed: ParsedText, i: int, tokenizer=None) -> ParsedText | None:
    """The parse of sentence `i` of `parsed` (`parsed.sentences[i]`) alone, cut out of `parsed`,
    for a text parsed by a `rule_pipeline` whose tokenizer is `tokenizer`; None where the cut
    might differ from parsing the sentence alone.

    spaCy's tokenizer splits a text at whitespace and tokenizes each run between whitespace on its
    own, and the sentencizer starts afresh at each sentence start (a token that is not
    punctuation): so the sentence alone gets the tokens and the single sentence it has inside its
    text, provided its first and last runs (which may be cut out of longer runs, as in
    "genres.Joseph") tokenize alone into the tokens they have in the text. Those runs are
    tokenized again to check that (without `tokenizer`, a cut run gives None). A rule pipeline
    has no NER: entities are None in both.
    """
    text = parsed.text
    start, end = parsed.sentences[i]
    if parsed.entities is not None or start >= end:
        return None
    a = int(np.searchsorted(parsed.starts, start))
    b = int(np.searchsorted(parsed.ends, end, side="right"))
    if a >= b or parsed.starts[a] != start or parsed.ends[b - 1] != end:
        return None
    if start > 0 and not text[start - 1].isspace():
        if tokenizer is None or not _runs_alone(parsed, start, _run_end(text, start, end), tokenizer):
            return None
    if end < len(text) and not text[end].isspace():
        if tokenizer is None or not _runs_alone(parsed, _run_start(text, start, end), end, tokenizer):
            return None
    return ParsedText(
        text=text[start:end],
        starts=(parsed.starts[a:b] - start).astype(np.int32),
        ends=(parsed.ends[a:b] - start).astype(np.int32),
        lower=parsed.lower[a:b],
        lemma=parsed.lemma[a:b],
        is_punct=parsed.is_punct[a:b].copy(),
        is_stop=parsed.is_stop[a:b].copy(),
        like_num=parsed.like_num[a:b].copy(),
        sentences=((0, end - start),),
        entities=None,
    )


def _run_end(text: str, start: int, end: int) -> int:
    """End of the whitespace-free run that starts at `start` (at most `end`)."""
    k = start
    while k < end and not text[k].isspace():
        k += 1
    return k


def _run_start(text: str, start: int, end: int) -> int:
    """Start of the whitespace-free run that ends at `end` (at least `start`)."""
    k = end
    while k > start and not text[k - 1].isspace():
        k -= 1
    return k


def _runs_alone(parsed: ParsedText, lo: int, hi: int, tokenizer) -> bool:
    """Whether text[lo:hi], tokenized alone, has the tokens `parsed` has there."""
    a = int(np.searchsorted(parsed.starts, lo))
    b = int(np.searchsorted(parsed.starts, hi))
    alone = [(t.idx + lo, t.idx + lo + len(t.text)) for t in tokenizer(parsed.text[lo:hi]) if not t.is_space]
    return alone == list(zip(parsed.starts[a:b].tolist(), parsed.ends[a:b].tolist()))
