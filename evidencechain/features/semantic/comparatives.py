"""Converse comparatives: 'A holds less water than B' restated as 'B holds more water than A'.

A comparison whose two arguments the answer exchanges, while it also turns the comparative into
its opposite, keeps the meaning: the exchange is one more flip for the parity of polarity and
antonym flips. The arguments are the words after 'than' (up to the end of its clause) and the
words of the clause before the comparison: the answer's 'than' argument must stand before the
evidence's comparison, and the evidence's 'than' argument before the answer's."""
from __future__ import annotations

from .align import View, sentence_view
from .base import Signal
from .lexicon import Lexicon

_REACH = 6
"""Content words read after 'than' (its argument)."""


def _pivot(v: View, lex: Lexicon) -> list[int]:
    """Positions of the words that join a comparison's two arguments ('than', 'before', 'after', the
    second 'as' of 'as tall as', 'as many people as'), and of an 'of' (`_opposed`)."""
    return [k for k in range(1, len(v)) if v.word(k) in lex.comparison or v.word(k) == "of"
            or v.word(k) == "as" and any(v.word(j) == "as" for j in range(max(k - 3, 0), k - 1))]  # 'as many X as'


def _opposed(a: View, k: int, e: View, j: int, lex: Lexicon) -> bool:
    """Two pivots join their arguments by opposites: any comparison word, and an 'of' where a word of the
    two before it has an opposite among the two before the other's, and the words right before differ
    ('north of' / 'south of', 'the parent company of' / 'a subsidiary of': 'B is south of A' is the
    converse of 'A is north of B')."""
    if a.word(k) != "of" and e.word(j) != "of":
        return True
    if a.word(k) != e.word(j) or a.keys(k - 1) & e.keys(j - 1):
        return False  # 'the eastern half of' / 'the western half of': the same noun, two of its parts
    mine = frozenset().union(*(lex.antonyms.get(s, frozenset()) for i in range(max(k - 2, 0), k) for s in a.keys(i)))
    return any(e.keys(i) & mine for i in range(max(j - 2, 0), j))


def _after(v: View, k: int, lex: Lexicon) -> frozenset[str]:
    out, j, n = set(), k + 1, 0
    while j < len(v) and n < _REACH and not v.punct(j) and v.word(j) not in lex.clause_breaks:
        if v.content(j):
            out |= v.keys(j)
            n += 1
        j += 1
    return frozenset(out)


def _before(v: View, k: int) -> frozenset[str]:
    return frozenset().union(*(v.keys(j) for j in range(k) if v.content(j)))


def _pairs(a: View, e: View, lex: Lexicon) -> list[tuple[int, int]]:
    """(answer pivot, evidence pivot) of each comparison of the answer that takes the evidence's
    arguments the other way round (read on the whole sentences: a clause of the answer lacks the
    argument its sentence puts first); one evidence pivot per answer pivot."""
    out = []
    for k in _pivot(a, lex):
        mine_after = _after(a, k, lex)
        for j in _pivot(e, lex):
            if not _opposed(a, k, e, j, lex):
                continue
            theirs_after = _after(e, j, lex)
            mine_only, theirs_only = mine_after - theirs_after, theirs_after - mine_after
            if not mine_only or not theirs_only:
                continue
            if mine_only & _before(e, j) and theirs_only & _before(a, k) \
                    and not mine_only & theirs_after and not theirs_only & mine_after:
                out.append((k, j))
                break
    return out


def exchanged(a: View, e: View, lex: Lexicon) -> int:
    """How many comparisons of the answer take the evidence's arguments the other way round."""
    return len(_pairs(sentence_view(a.doc, a.start, a.end), sentence_view(e.doc, e.start, e.end), lex))


def order_swapped(a: View, e: View, lex: Lexicon) -> list[Signal]:
    """Two events exchanged around the same order word ('the railway reached the town two years before
    the bridge was completed' for 'the bridge was completed two years before the railway reached the
    town'): the answer's order word, against the evidence's clause after it. For a sentence without
    polarity or antonym flips (with one, the exchange keeps the meaning: `exchanged`), against an
    evidence sentence that orders two events only."""
    whole_a, whole_e = sentence_view(a.doc, a.start, a.end), sentence_view(e.doc, e.start, e.end)
    if not any(whole_a.word(k) in lex.event_order for k in range(len(whole_a))):
        return []  # no order word to exchange around (most sentences: the pivot pairs are not read)
    if sum(whole_e.word(j) in lex.event_order | lex.ordering for j in range(len(whole_e))) > 1:
        return []  # three events ordered: the answer may pair them otherwise
    out = []
    for k, j in _pairs(whole_a, whole_e, lex):
        if whole_a.word(k) in lex.event_order and whole_a.word(k) == whole_e.word(j):
            tokens = (int(whole_a.idx[k]),)
            if any(int(a.idx[i]) == tokens[0] for i in range(len(a))):
                end = next((m for m in range(j + 1, len(whole_e)) if whole_e.punct(m)), len(whole_e))
                out.append(Signal("antonym", tokens, whole_e.span_text(list(range(j, end)))))
    return out
