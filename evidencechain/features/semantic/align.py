"""An answer sentence and its best-aligned evidence sentence as token views of the one parse."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ...text.parse import ParsedText
from .lexicon import stem

BREAK = re.compile(r"\n[^\S\n]*\n\s*|(?im:^[^\S\n]*passage[^\S\n]*\d+[^\S\n]*:[^\S\n]*)")
"""A passage or paragraph break inside a parsed sentence: a blank line (also how a list context's
passages are joined) or a 'passage N:' header (the header itself belongs to no sentence)."""

MIN_ALIGNMENT = 0.4
"""Share of the answer sentence's content words found in an evidence sentence below which the
sentence restates nothing there (new content is the lexical features' job, not these classes')."""


@dataclass
class View:
    """The tokens `idx` (in order) of one sentence of a parsed text."""

    doc: ParsedText
    idx: np.ndarray
    start: int = 0
    end: int = 0
    keys_: list[frozenset[str]] = field(default_factory=list, repr=False)
    memo_: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    """Results of pure functions of this view (`remembered`): one evidence sentence is read
    against every answer sentence of its source."""

    def __len__(self) -> int:
        return len(self.idx)

    @cached_property
    def words(self) -> list[str]:
        lower = self.doc.lower
        return [lower[i] for i in self.idx]

    @cached_property
    def contents(self) -> list[bool]:
        """Per token: neither punctuation nor a stop word (`content`)."""
        punct, stop = self.doc.is_punct, self.doc.is_stop
        return [not punct[i] and not stop[i] for i in self.idx]

    def word(self, k: int) -> str:
        return self.words[k]

    def lemma(self, k: int) -> str:
        return self.doc.lemma[self.idx[k]]

    def text(self, k: int) -> str:
        return self.doc.token_text(int(self.idx[k]))

    def content(self, k: int) -> bool:
        return self.contents[k]

    def punct(self, k: int) -> bool:
        return bool(self.doc.is_punct[self.idx[k]])

    def keys(self, k: int) -> frozenset[str]:
        """The forms a token matches by: lower case, lemma and their stems."""
        if not self.keys_:
            self.keys_ = [frozenset({w, m, stem(w), stem(m)})
                          for w, m in ((self.doc.lower[i], self.doc.lemma[i]) for i in self.idx)]
        return self.keys_[k]

    @cached_property
    def all_keys(self) -> frozenset[str]:
        return frozenset().union(*(self.keys(k) for k in range(len(self)))) if len(self) else frozenset()

    @cached_property
    def content_keys(self) -> frozenset[str]:
        return frozenset().union(*(self.keys(k) for k in range(len(self)) if self.content(k))) \
            if len(self) else frozenset()

    @cached_property
    def content_key_list(self) -> list[frozenset[str]]:
        """The `keys` of each content word, in order."""
        return [self.keys(k) for k in range(len(self)) if self.content(k)]

    def has(self, k_other: frozenset[str]) -> bool:
        return bool(k_other & self.all_keys)

    def find(self, keys: frozenset[str]) -> list[int]:
        return [k for k in range(len(self)) if self.keys(k) & keys]

    def next_content(self, k: int, limit: int = 3) -> int | None:
        for j in range(k + 1, min(len(self), k + 1 + limit)):
            if self.punct(j):
                return None
            if self.content(j):
                return j
        return None

    def span_text(self, ks: list[int]) -> str:
        return " ".join(self.text(k) for k in sorted(ks))


def neighbours(v: View, first: int, last: int) -> tuple[frozenset[str], frozenset[str]]:
    """The keys of the nearest content word before `first` and after `last` in their clause (no
    punctuation between); empty where there is none."""
    def nearest(k: int, step: int) -> frozenset[str]:
        j = k + step
        while 0 <= j < len(v) and not v.punct(j):
            if v.content(j):
                return v.keys(j)
            j += step
        return frozenset()
    return nearest(first, -1), nearest(last, 1)


def sentence_view(doc: ParsedText, start: int, end: int) -> View:
    idx = np.flatnonzero((doc.starts >= start) & (doc.ends <= end))
    return View(doc, idx, start, end)


def sentence_views(doc: ParsedText) -> list[View]:
    spans = doc.sentences or ((0, len(doc.text)),)
    return [sentence_view(doc, a, b) for a, b in spans]


def unbroken_spans(text: str, spans) -> list[tuple[int, int]]:
    """`spans` (start, end) cut at every `BREAK` inside them, stripped, empty pieces dropped: the
    parser's sentences can run across passages ('...pounds.\\n\\npassage 2: You can ...')."""
    out = []
    for a, b in spans:
        cuts = [a]
        for m in BREAK.finditer(text, a, b):
            cuts += [m.start(), m.end()]
        cuts.append(b)
        for x, y in zip(cuts[::2], cuts[1::2]):
            piece = text[x:y]
            x, y = x + len(piece) - len(piece.lstrip()), y - len(piece) + len(piece.rstrip())
            if y > x:
                out.append((x, y))
    return out


def evidence_views(doc: ParsedText) -> list[View]:
    """The evidence's sentences as views, none crossing a passage or paragraph break."""
    spans = unbroken_spans(doc.text, doc.sentences or ((0, len(doc.text)),))
    return [v for v in (sentence_view(doc, a, b) for a, b in spans) if len(v)]


_APPOSITION = frozenset({"a", "an", "the"})
_FRONTED_REACH = 16
"""A fronted phrase ends at a comma within this many tokens of the sentence's start ..."""
_FRONTED_REST = 3
"""... and leaves at least this many content words after it."""


def asides(v: View, relative: frozenset[str], fronted: frozenset[str] = frozenset(),
           trailing: frozenset[str] = frozenset()) -> list[tuple[int, int]]:
    """Position ranges [lo, hi) of the sentence's asides set off by commas: a relative clause, an
    apposition or a participle clause between two commas (', who lived in X,' ', a cellist from Y,'
    ', completed in 1971,'), or a participle clause before the first comma ('Completed in 1971,');
    with `fronted`, also a phrase before the first comma that opens with one of its words ('With the
    permit extended to 2 a.m.,' 'Under a county-funded scheme,'); with `trailing`, the phrase after the
    last comma to the sentence's end where it opens with one of its words (', a plan the board will
    revisit next month.' ', ahead of the council's decision.')."""
    commas = [k for k in range(len(v)) if v.word(k) == ","]
    out: list[tuple[int, int]] = []
    for lo, hi in zip([-1, *commas], commas):
        first = lo + 1
        if lo < 0 and 0 < hi <= _FRONTED_REACH and v.word(0) in fronted \
                and sum(v.content(k) for k in range(hi + 1, len(v))) >= _FRONTED_REST:
            out.append((0, hi + 1))
            continue
        if first >= hi or (lo < 0 and not v.word(first).endswith(("ed", "ing"))):
            continue
        w = v.word(first)
        after_aside = bool(out) and out[-1][1] == first  # 'Finished in 1899, the viaduct, ...': the subject
        if w in relative or (w in _APPOSITION and not after_aside) or (w.endswith(("ed", "ing")) and w != v.lemma(first)):
            out.append((first, hi + 1))
    last = commas[-1] if commas else None  # ', a plan the board will revisit next month.'
    end = len(v) - (len(v) > 0 and v.punct(len(v) - 1))
    if trailing and last is not None and last + 1 < end and v.word(last + 1) in trailing \
            and not any(lo <= last < hi for lo, hi in out) and sum(v.content(k) for k in range(last)) >= _FRONTED_REST:
        out.append((last + 1, end))
    return out


def main_frame(v: View, relative: frozenset[str], fronted: frozenset[str] = frozenset(),
               trailing: frozenset[str] = frozenset()) -> View | None:
    """The sentence without its asides (`asides`, a fronted phrase among them) and the commas that
    open them, or None where it has none."""
    cut = {k for lo, hi in asides(v, relative, fronted, trailing)
           for k in range(lo - (lo > 0 and v.word(lo - 1) == ","), hi)}
    keep = [k for k in range(len(v)) if k not in cut]
    return View(v.doc, v.idx[keep], v.start, v.end) if cut and keep else None


def frames(v: View, parts: list[tuple[int, int]], relative: frozenset[str]) -> list[list[int]]:
    """The clauses as position lists, a clause split by a relative clause set off by commas made
    whole again ('The path, which opened in June, stretches 14 km': 'The path ... stretches 14 km')."""
    out: list[list[int]] = []
    opened = None  # the clause a relative clause interrupted
    for lo, hi in parts:
        aside = lo > 0 and v.word(lo) in relative and v.word(lo - 1) == "," and v.word(hi - 1) == ","
        if opened is not None and not aside:
            opened += range(lo, hi)
            opened = None
            continue
        out.append(list(range(lo, hi)))
        if aside and len(out) > 1:
            opened = out[-2]
    return out


def alignment(answer: View, evidence: View) -> float:
    """Share of the answer's content words (by lemma or stem) that the evidence sentence has."""
    ks = answer.content_key_list
    if not ks:
        return 0.0
    found = evidence.content_keys
    return sum(not x.isdisjoint(found) for x in ks) / len(ks)


def fused_alignment(answer: View, evidence: View, sentences: list[View]) -> float:
    """`alignment`, less the answer's content words that another sentence of the source has and this one
    lacks: the share of the rest of a sentence fusing two ('The exhibition drew on two historians: Jacob
    Wenn wrote the catalogue essay ...' for 'Two historians contributed to the exhibition.' and 'Elise
    Morrow wrote the catalogue essay, ...')."""
    found = evidence.content_keys
    elsewhere = frozenset().union(*(o.content_keys for o in sentences if o is not evidence))
    counted = [x for x in answer.content_key_list if not x.isdisjoint(found) or x.isdisjoint(elsewhere)]
    return sum(not x.isdisjoint(found) for x in counted) / len(counted) if counted else 0.0


def best_evidence(answer: View, evidence: list[View]) -> tuple[View | None, float]:
    """The evidence sentence that restates most of the answer sentence, and its alignment."""
    best, score = None, 0.0
    for e in evidence:
        s = alignment(answer, e)
        if s > score + 1e-12:
            best, score = e, s
    return (best, score) if score >= MIN_ALIGNMENT else (None, score)


def remembered(v: View, key: tuple, compute) -> list:
    """A copy of `compute()`'s list, computed once per view and key (its items frozen)."""
    if key not in v.memo_:
        v.memo_[key] = tuple(compute())
    return list(v.memo_[key])
