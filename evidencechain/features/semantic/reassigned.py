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
from .lexicon import Lexicon
from .value_frames import Bound, FrameCues, bind, frame_cues, sentence_features

_NAMES = ("agent", "place")


def _near_equal(x: Bound, y: Bound) -> bool:
    """One amount rounded ('9.82' / '9.8 per cent'); years and names never are."""
    try:
        u, v = float(x.key), float(y.key)
    except ValueError:
        return False
    return x.kind != "year" and abs(u - v) <= 0.01 * max(abs(u), abs(v))


def follows(x: Bound, h: Bound, r: Bound, said: frozenset[str], fc: FrameCues) -> str | None:
    """'h' where the answer's frame of x tells h's frame (the value's own) from r's, 'r' where it is r's
    frame instead, None where it tells neither. `said`: the features of the whole answer sentence. By
    words, r's frame must be mostly restated by the answer, and x's own frame must hold `min_frame_words`
    of what tells r's frame from h's, or that many of r's frame (one more for a number)."""
    home, rival = h.holders - r.holders, r.holders - h.holders
    if x.holders & home:
        return "h"
    if x.holders & rival and home and (x.words & r.words or (x.words & h.words and not said & home)) \
            and not x.others & (h.others - r.others):
        return "r"  # the answer gives the value to the rival's holder (with its act, or with the value's own act), the evidence to another holder
    f, hs, rs = x.features, h.features, r.features
    dh, dr = hs - rs, rs - hs
    if f & dh:
        return "h"
    if not dh or not f & dr:
        return None
    shared = (f | said) & rs
    if len(shared) < fc.min_frame_words or len(shared) < fc.min_frame_cover * len(rs):
        return None
    strict = x.kind not in _NAMES  # a place is matched within its own sentence only
    return "r" if len(f & dr) >= fc.min_frame_words or len(f & rs) >= fc.min_frame_words + strict else None


def _own(x: Bound, h: Bound, r: Bound) -> bool:
    """Whether the answer's frame of x holds words that tell h's frame (the value's own) from r's, and
    none that tell r's from h's."""
    f, hs, rs = x.features, h.features, r.features
    return bool(f & (hs - rs)) and not f & (rs - hs)


def _candidates(x: Bound, mine: list[Bound], source: list[Bound]) -> tuple[list[Bound], list[Bound]]:
    """The evidence's frames of x (for a name: of every name that may be it, and of every clause its holder
    does through an anaphor) and its rivals: values of its kind that the answer does not state (for a
    name: none that may be a name of the answer; a person doing an act, or a place after its preposition
    in a sentence of x's own: across sentences one place is often another's part, 'Beverly Hills' / 'Los
    Angeles')."""
    if x.kind not in _NAMES:
        homes = [h for h in source if h.kind == x.kind and h.key == x.key]
        stated = {y.key for y in mine if y.kind == x.kind}
        return homes, [r for r in source if r.kind == x.kind and r.key not in stated and not r.paired
                       and not _near_equal(r, x)]
    words = frozenset(x.key.split())
    homes = [h for h in source if h.kind in _NAMES and _same(words, frozenset(h.key.split()))]
    homes += [b for b in source if words & b.holders and not any(b is h for h in homes)]
    named = [frozenset(y.key.split()) for y in mine if y.kind in _NAMES]
    return homes, [r for r in source if r.kind == x.kind and not any(_same(n, frozenset(r.key.split())) for n in named)
                   and (r.subject and r.person if x.kind == "agent" else r.located and any(r.view is h.view for h in homes))]


def _same(x: frozenset[str], y: frozenset[str]) -> bool:
    """Whether two names may name one holder: the words of one are all the other's ('Maradona')."""
    return x <= y or y <= x


def _acts(x: Bound, r: Bound, fc: FrameCues) -> bool:
    """Whether a name's clause in the answer restates the act of the rival's clause: most of its words,
    and at least `min_act_words` of them."""
    common = x.words & r.words
    return len(common) >= fc.min_act_words and len(common) >= fc.min_frame_cover * len(x.words)


def reassigned(a: View, source: list[Bound], lex: Lexicon) -> tuple[list[Signal], set[int]]:
    """The answer sentence's values whose frame is that of another value of their kind in the evidence;
    and the tokens of those the evidence gives to the answer's holder, against every other value of
    their kind (other recombination signals on them are dropped)."""
    fc = frame_cues()
    mine, _ = bind(a, lex)
    said = sentence_features(a, lex)
    out, confirmed = [], set()
    for x in mine:
        if x.paired or x.kind == "n:" or (x.kind == "agent" and not (x.subject and x.person)) \
                or (x.kind == "place" and not x.located):
            continue  # a name is judged by what it does, or where; a score's number not alone; a bare count not at all
        homes, rivals = _candidates(x, mine, source)
        if not homes or len({id(h.view) for h in homes if h.key == x.key}) > lex.max_homes:
            continue
        if x.kind not in _NAMES and x.holders and rivals \
                and all(any(x.holders & (h.holders - r.holders) for h in homes) for r in rivals):
            confirmed.update(int(a.idx[k]) for k in x.positions)
            continue
        others = [r for r in source if r.kind == x.kind and r.key != x.key and not r.paired and not _near_equal(r, x)]
        if x.kind not in _NAMES and others and all(any(_own(x, h, r) for h in homes) for r in others):
            confirmed.update(int(a.idx[k]) for k in x.positions)  # its frame is its own, against every rival
            continue
        taken = [r for r in rivals if all(follows(x, h, r, said, fc) == "r" for h in homes)
                 and (x.kind != "agent" or _acts(x, r, fc))]
        if taken:  # the answer's frame is the rival's, against every frame of the value's own
            own = frozenset().union(*(h.features for h in homes))
            r = max(taken, key=lambda r: (len((x.features | said) & r.features) / len(r.features),
                                          len(x.features & (r.features - own)),
                                          any(r.view is h.view for h in homes)))  # the home's sentence first
            out.append(Signal("recombination", tuple(int(a.idx[k]) for k in x.positions),
                              r.view.span_text(list(r.positions)), confident=True))
    return out, confirmed
