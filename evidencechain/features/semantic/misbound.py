"""Values and facts given in the answer to another holder than the evidence's: every check of one
answer sentence against the holders the evidence binds its values to."""
from __future__ import annotations

from .align import View
from .base import Signal
from .holder_names import cues
from .holders import Held, agreeing, held, swapped
from .lexicon import Lexicon
from .moved import moved, moved_attribute
from .reassigned import reassigned
from .value_frames import Bound


def holder_signals(a: View, sentences: list[View], source: list[Held], evidence_names: frozenset[str],
                   lex: Lexicon, bound: list[Bound] = ()) -> tuple[list[Signal], set[int]]:
    """The signals of one answer sentence against the holders of its source's values, and the tokens
    of its values that their holders confirm (`agreeing`, or their clause's subject: `reassigned`). `bound`: the evidence's values bound to their
    clause frames (`value_frames.evidence_bound`), for values given to another event (`reassigned`)."""
    mine, _, _ = held(a, lex, cues())
    framed, confirmed = reassigned(a, list(bound), lex)
    out: list[Signal] = []
    for s in swapped(a, mine, source) + moved(a, mine, source, evidence_names) \
            + moved_attribute(a, sentences, evidence_names) + framed:
        if not {t for x in out for t in x.tokens} & set(s.tokens):
            out.append(s)
    return out, agreeing(a, mine, source) | confirmed
