"""Antonyms and opposite directions (increase / decrease, before / after, won / lost)."""
from __future__ import annotations

from .align import View
from .base import Signal
from .lexicon import Lexicon
from .polarity import prefixed


def antonym_flips(a: View, e: View, lex: Lexicon) -> list[Signal]:
    """Answer words whose antonym the evidence sentence has, while it lacks the word itself.
    A negative prefix ('uncommon' / 'common') is polarity's flip, and quantifiers are modality's."""
    out = []
    scaled = {w for scale in lex.modality.values() for w in scale}
    for k in range(len(a)):
        if a.punct(k) or a.word(k) in scaled:
            continue
        keys = a.keys(k)
        if keys & e.all_keys or prefixed(a.word(k), lex) in e.all_keys:
            continue
        opposite = frozenset().union(*(lex.antonyms.get(s, frozenset()) for s in keys))
        if not opposite:
            continue
        hits = [j for j in e.find(opposite) if prefixed(e.word(j), lex) not in keys]
        if len(hits) > len(a.find(opposite)):
            out.append(Signal("antonym", (int(a.idx[k]),), e.text(hits[0])))
    return out
