"""A value of the answer given to another event than the evidence's: the evidence binds it to one
clause frame (`frames`) and another value of its kind to another frame, and the answer's frame of the
value is that other frame ('The Harnell observatory, which opened in 1979' for 'opened in 1962, and
its second telescope was installed in 1979'; 'Lucas Fenner ... was sentenced to six years' for 'Owen
Tarrick was sentenced to six years' and 'Lucas Fenner received a two-year sentence').

Conservative by construction: only a rival value that the answer does not state anywhere in the
sentence counts; the answer's frame must say nothing that tells the value's own frame from the
rival's (a name, a word or another value), and either name the rival's holder where the evidence
gives the value to another holder, or restate most of the rival's frame. A value the evidence also
binds to the answer's holder is never flagged, nor one stated in more than `max_homes` sentences.
"""
from __future__ import annotations

from .align import View
from .base import Signal
from .frames import Bound, FrameCues, bind, frame_cues, sentence_features
from .lexicon import Lexicon


def _near_equal(x: Bound, y: Bound) -> bool:
    """One amount rounded ('9.82' / '9.8 per cent'); years and names never are."""
    try:
        u, v = float(x.key), float(y.key)
    except ValueError:
        return False
    return x.kind != "year" and abs(u - v) <= 0.01 * max(abs(u), abs(v))


def follows(x: Bound, h: Bound, r: Bound, said: frozenset[str], fc: FrameCues) -> str | None:
    """'h' where the answer's frame of x tells h's frame (the value's own) from r's, 'r' where it is r's
    frame instead, None where it tells neither. `said`: the features of the whole answer sentence."""
    home, rival = h.holders - r.holders, r.holders - h.holders
    if x.holders & home:
        return "h"
    if x.holders & rival and home and x.words & r.words and not x.others & (h.others - r.others):
        return "r"  # the answer gives the value to the rival's holder, the evidence to another holder
    f, hs, rs = x.features, h.features, r.features
    dh, dr = hs - rs, rs - hs
    if f & dh:
        return "h"
    if not dh or not f & dr:
        return None
    shared = (f | said) & rs
    if len(shared) >= fc.min_frame_words and len(shared) >= fc.min_frame_cover * len(rs):
        return "r"
    return None


def reassigned(a: View, source: list[Bound], lex: Lexicon) -> tuple[list[Signal], set[int]]:
    """The answer sentence's values whose frame is that of another value of their kind in the evidence;
    and the tokens of those the evidence gives to the answer's holder, against every other value of
    their kind (other recombination signals on them are dropped)."""
    fc = frame_cues()
    mine, _ = bind(a, lex)
    said = sentence_features(a, lex)
    out, confirmed = [], set()
    for x in mine:
        if x.kind == "agent" and not x.subject:
            continue  # a name is judged by what it does: only as its clause's subject
        homes = [h for h in source if h.kind == x.kind and h.key == x.key]
        if not homes or len({id(h.view) for h in homes}) > lex.max_homes:
            continue
        stated = {y.key for y in mine if y.kind == x.kind}
        rivals = [r for r in source if r.kind == x.kind and r.key not in stated and not _near_equal(r, x)]
        if x.holders and rivals and all(any(x.holders & (h.holders - r.holders) for h in homes) for r in rivals):
            confirmed.update(int(a.idx[k]) for k in x.positions)
            continue
        verdicts = [(follows(x, h, r, said, fc), r) for h in homes for r in rivals]
        taken = [r for v, r in verdicts if v == "r"]
        if taken and not any(v == "h" for v, _ in verdicts):
            r = taken[0]
            out.append(Signal("recombination", tuple(int(a.idx[k]) for k in x.positions),
                              r.view.span_text(list(r.positions)), confident=True))
    return out, confirmed
