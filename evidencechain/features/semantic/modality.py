"""Quantifier and modality shifts: some -> all, may -> does, proposed -> completed."""
from __future__ import annotations

from .align import View
from .base import Signal
from .lexicon import Lexicon

_MODALS = frozenset({"may", "might", "could"})


def _levels(v: View, scale: dict[str, int]) -> dict[int, int]:
    """Position -> level of the scale's words in the sentence ('a few' read as 'few')."""
    return {k: scale[v.word(k)] for k in range(len(v)) if v.word(k) in scale}


def modality_shifts(a: View, e: View, lex: Lexicon) -> list[Signal]:
    out = []
    for name, scale in lex.modality.items():
        mine, theirs = _levels(a, scale), _levels(e, scale)
        their_levels = set(theirs.values())
        for k, level in mine.items():
            other = [j for j, lv in theirs.items() if lv != level]
            if other and level not in their_levels:
                out.append(Signal("modality", (int(a.idx[k]),), e.text(other[0])))
        if name != "epistemic":
            continue
        my_levels = set(mine.values())
        for j, level in theirs.items():  # a hedge the answer drops: "may reduce" -> "reduces"
            scoped = e.next_content(j, 4)
            if level != 0 or 0 in my_levels or scoped is None:
                continue
            hits = a.find(e.keys(scoped))
            if hits:
                out.append(Signal("modality", (int(a.idx[hits[0]]),), e.span_text([j, scoped])))
        for k, level in mine.items():  # a modal the answer adds: "reduces" -> "may reduce"
            scoped = a.next_content(k, 4)
            if level == 0 and a.word(k) in _MODALS and 0 not in their_levels and scoped is not None \
                    and e.find(a.keys(scoped)):
                hit = e.find(a.keys(scoped))[0]
                out.append(Signal("modality", (int(a.idx[k]),), e.text(hit)))
    return out
