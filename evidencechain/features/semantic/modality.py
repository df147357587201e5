"""Quantifier and modality shifts: some -> all, may -> does, proposed -> completed.

A shift needs the two scale words in the same place: the content word after one is the other's,
or they share the token before or after them ("may seem ... make" -> "will make" is no shift). A hedge the
answer drops is kept by an auxiliary in the answer ("may live" / "can live", "is expected to cost
$1.8 billion and open" / "should open ... at a cost of"), and an attributing hedge ("allegedly
hit") by a verb of saying before the word ("X said he hit")."""
from __future__ import annotations

from .align import View
from .base import Signal
from .lexicon import Lexicon, stem
from .polarity import prefixed

_MODALS = frozenset({"may", "might", "could"})


def _levels(v: View, scale: dict[str, int]) -> dict[int, int]:
    """Position -> level of the scale's words in the sentence ('a few' read as 'few')."""
    return {k: scale[v.word(k)] for k in range(len(v)) if v.word(k) in scale}


def _bears_on(v: View, k: int) -> frozenset[str]:
    """The keys of the scale word at k and of the content word it bears on (the next one)."""
    j = v.next_content(k, 4)
    return v.keys(k) | (v.keys(j) if j is not None else frozenset())


def _token(v: View, k: int) -> str:
    return v.word(k) if 0 <= k < len(v) else ""


def _same_place(a: View, k: int, e: View, j: int) -> bool:
    return bool(_bears_on(a, k) & _bears_on(e, j)) or _token(a, k - 1) == _token(e, j - 1) \
        or _token(a, k + 1) == _token(e, j + 1)


def _kept(a: View, k: int, e: View, j: int, lex: Lexicon) -> bool:
    """Whether the answer keeps the evidence's hedge at j on its word at k by other means: negated
    ('likely' / 'unlikely': polarity's business), or an attributing hedge by a verb of saying."""
    if any(prefixed(a.word(i), lex) == stem(e.word(j)) for i in range(len(a))):
        return True
    return e.word(j) in lex.attribution and any(a.word(i) in lex.reporting for i in range(k))


def modality_shifts(a: View, e: View, lex: Lexicon) -> list[Signal]:
    out = []
    for name, scale in lex.modality.items():
        mine, theirs = _levels(a, scale), _levels(e, scale)
        their_levels = set(theirs.values())
        for k, level in mine.items():
            other = [j for j, lv in theirs.items() if lv != level and _same_place(a, k, e, j)]
            if other and level not in their_levels:
                out.append(Signal("modality", (int(a.idx[k]),), e.text(other[0])))
        if name != "epistemic":
            continue
        top = max(scale.values())
        hedged = any(lv < top for lv in mine.values()) or any(a.word(i) in lex.auxiliaries for i in range(len(a)))
        for j, level in theirs.items():  # a hedge the answer drops: "may reduce", "is likely to reduce" -> "reduces"
            scoped = e.next_content(j, 4)
            if level == top or hedged or scoped is None:
                continue
            hits = a.find(e.keys(scoped))
            if hits and not _kept(a, hits[0], e, j, lex):
                out.append(Signal("modality", (int(a.idx[hits[0]]),), e.span_text([j, scoped])))
        for k, level in mine.items():  # a modal the answer adds: "reduces" -> "may reduce"
            scoped = a.next_content(k, 4)
            if level == 0 and a.word(k) in _MODALS and 0 not in their_levels and scoped is not None \
                    and e.find(a.keys(scoped)):
                hit = e.find(a.keys(scoped))[0]
                out.append(Signal("modality", (int(a.idx[k]),), e.text(hit)))
    return out
