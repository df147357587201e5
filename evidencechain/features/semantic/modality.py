"""Quantifier and modality shifts: some -> all, may -> does, proposed -> completed.

A shift needs the two scale words in the same place: the content word after one is the other's,
or they share the token before or after them ("may seem ... make" -> "will make" is no shift). A hedge the
answer drops is kept by an auxiliary in the answer ("may live" / "can live", "is expected to cost
$1.8 billion and open" / "should open ... at a cost of"), and an attributing hedge ("allegedly
hit") by a verb of saying before the word ("X said he hit")."""
from __future__ import annotations

from .align import View, sentence_view
from .base import Signal
from .lexicon import Lexicon, stem
from .polarity import prefixed

_MODALS = frozenset({"may", "might", "could"})


def _levels(v: View, scale: dict[str, int], lex: Lexicon) -> dict[int, int]:
    """Position -> level of the scale's words in the sentence ('a few' read as 'several')."""
    lifted = scale.get(lex.after_article)
    return {k: lifted if lifted is not None and _token(v, k - 1) == "a" and scale[v.word(k)] < lifted
            else scale[v.word(k)] for k in range(len(v)) if v.word(k) in scale}


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
    whole = sentence_view(a.doc, a.start, a.end)  # a clause's sentence: 'It is believed the men who ... attended'
    return e.word(j) in lex.attribution and any(whole.word(i) in lex.reporting for i in range(len(whole))
                                                 if whole.idx[i] < a.idx[k])


def _done(v: View, k: int) -> bool:
    """A verb in a past form ('dredged', 'sold', 'has opened'), not after 'to': a status the
    answer states as reached."""
    w = v.word(k)
    return w != v.lemma(k) and not w.endswith(("s", "ing", "est", "er", "ly")) and _token(v, k - 1) != "to"


def _hedged(a: View, k: int, mine: dict[int, int], top: int, lex: Lexicon) -> bool:
    """Whether the answer's word at k keeps a hedge: a scale word below `top` anywhere, or an
    auxiliary before it in its clause ('so that larger ships can dock' hedges 'dock', not 'dredged')."""
    if any(lv < top for lv in mine.values()):
        return True
    j = k - 1
    while j >= 0 and k - j <= lex.cue_reach and not a.punct(j):
        if a.word(j) in lex.auxiliaries:
            return True
        j -= 1
    return False


def modality_shifts(a: View, e: View, lex: Lexicon) -> list[Signal]:
    out = []
    for name, scale in lex.modality.items():
        mine, theirs = _levels(a, scale, lex), _levels(e, scale, lex)
        their_levels = set(theirs.values())
        for k, level in mine.items():
            other = [j for j, lv in theirs.items() if lv != level and _same_place(a, k, e, j)]
            if other and level not in their_levels:
                out.append(Signal("modality", (int(a.idx[k]),), e.text(other[0])))
        if name not in ("epistemic", "status"):
            continue
        top = max(scale.values())
        for j, level in theirs.items():  # a hedge the answer drops: "may reduce", "proposed dredging" -> "dredged"
            scoped = e.next_content(j, 4)
            if level == top or scoped is None or e.word(j) in lex.attribution \
                    or (name == "status" and e.word(j) not in lex.unreached):
                continue
            done = [k for k, lv in mine.items() if lv == top]  # 'allege that X took' -> 'X was convicted of taking'
            hits = [k for k in a.find(e.keys(scoped)) if not _hedged(a, k, mine, top, lex)
                    and (name == "epistemic" or done or _done(a, k))]
            if hits and not _kept(a, hits[0], e, j, lex):
                k = min(done, key=lambda k: abs(k - hits[0])) if done else hits[0]
                out.append(Signal("modality", (int(a.idx[k]),), e.span_text([j, scoped])))
        if name != "epistemic":
            continue
        for k, level in mine.items():  # a modal the answer adds: "reduces" -> "may reduce"
            scoped = a.next_content(k, 4)
            if level == 0 and a.word(k) in _MODALS and 0 not in their_levels and scoped is not None \
                    and e.find(a.keys(scoped)):
                hit = e.find(a.keys(scoped))[0]
                out.append(Signal("modality", (int(a.idx[k]),), e.text(hit)))
    return out
