"""Values and facts given in the answer to another holder than the evidence's: every check of one
answer sentence against the holders the evidence binds its values to."""
from __future__ import annotations

from .align import View
from .base import Signal
from .holder_names import cues
from .holders import Held, agreeing, held, swapped
from .lexicon import Lexicon
from .moved import moved, moved_attribute


def holder_signals(a: View, sentences: list[View], source: list[Held], evidence_names: frozenset[str],
                   lex: Lexicon) -> tuple[list[Signal], set[int]]:
    """The signals of one answer sentence against the holders of its source's values, and the tokens
    of its values that their holders confirm (`agreeing`)."""
    mine, _, _ = held(a, lex, cues())
    out: list[Signal] = []
    for s in swapped(a, mine, source) + moved(a, mine, source, evidence_names) \
            + moved_attribute(a, sentences, evidence_names):
        if not {t for x in out for t in x.tokens} & set(s.tokens):
            out.append(s)
    return out, agreeing(a, mine, source)
