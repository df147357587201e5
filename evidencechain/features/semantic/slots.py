"""Where a value stands and whether the source states it elsewhere (`confidence.mark_confident`):
whether two values are distinct (not one name written two ways) and stand in the same slot (the
content word next to them), whether a quantity's flagged unit follows the very number that the
evidence's unit follows, whether a recombined value is a person's or a number, and whether the
answer's flagged words stand in the answer's slot in another sentence or passage of the source, or
the answer follows another sentence as well as e."""
from __future__ import annotations

from .align import View, alignment, neighbours
from .base import Signal
from .lexicon import Lexicon
from .positions import inside_word, occurrences, positions
from .recombination import values


def _number_before(v: View, k: int) -> str | None:
    """The number word nearest before position k, up to four tokens back in its clause ('5.2-mile':
    a hyphen inside a word joins them)."""
    for j in range(k - 1, max(-1, k - 5), -1):
        if v.punct(j) and v.word(j) != "," and not inside_word(v, j):
            return None
        if v.doc.like_num[v.idx[j]]:
            return v.word(j).replace(",", "")
    return None


def anchored(a: View, e: View, s: Signal) -> bool:
    """A quantity signal whose flagged unit or period follows the very number that the evidence's
    unit or period follows ('grew by 12 students' / 'rose by 12 percent', '1,800 parcels a week' /
    '1,800 parcels a month'; '2.4 million' / '2.4 billion', whose evidence words hold the number): the
    amount is restated, its kind is changed."""
    ks = positions(a, s)
    spots = occurrences(e, s.evidence.lower().split())
    mine = _number_before(a, ks[0]) if ks else None
    return mine is not None and any(mine in (_number_before(e, i), e.word(i).replace(",", "")) for i, _ in spots)


def _norm(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def person_or_number(a: View, s: Signal, lex: Lexicon) -> bool:
    """A value put in from another sentence is a number or a person: another place or organisation
    there is often an alias or a part of the answer's ('the U.S.' / 'the United States', 'Italy' /
    'Sicily', 'the Reds' / 'Liverpool')."""
    kinds = {x.kind for x in values(a, lex) if {int(a.idx[k]) for k in x.positions} & set(s.tokens)}
    return not kinds or bool(kinds & {"person", "year", "number"})


def _one_edit(x: str, y: str) -> bool:
    """x and y differ by at most one inserted, deleted or replaced character."""
    if abs(len(x) - len(y)) > 1:
        return False
    i = 0
    while i < min(len(x), len(y)) and x[i] == y[i]:
        i += 1
    return x[i + 1:] == y[i + 1:] or x[i + 1:] == y[i:] or x[i:] == y[i + 1:]


def distinct(a: View, s: Signal) -> bool:
    """The two values are not one name written two ways ('U.S.' / 'U.S', 'realisticYA' / 'YA',
    'Aurelio De Laurentiis' / 'Di Laurentiis': the end of one a letter away from the other; 'Matt
    Upson' / 'Matthew Upson': one surname, and one given name the start of the other)."""
    words = [_norm(a.doc.token_text(t)) for t in s.tokens]
    mine, theirs = "".join(words), _norm(s.evidence)
    if not (mine and theirs) or mine in theirs or theirs in mine:
        return False
    others = [_norm(w) for w in s.evidence.split()]
    ends = [("".join(words[i:]), theirs) for i in range(len(words))] + \
        [("".join(others[i:]), mine) for i in range(len(others))]
    if any(len(end) >= 5 and _one_edit(end, whole) for end, whole in ends):
        return False
    mine_words, their_words = [w for w in words if w], [w for w in others if w]
    return not (len(mine_words) > 1 and len(their_words) > 1 and mine_words[-1] == their_words[-1]
                and (mine_words[0].startswith(their_words[0]) or their_words[0].startswith(mine_words[0])))


def cue_first(s: Signal, lex: Lexicon) -> bool:
    """A negation of the evidence that the answer drops ('not host' -> 'host')."""
    first = s.evidence.lower().split()[0]
    return first in lex.negation or first in lex.verb_negation


def same_slot(a: View, e: View, s: Signal, own_too: bool = True) -> bool:
    """The answer's words stand where the evidence's words stand: the content word next to them
    is the one next to the evidence's words on one side at least, and (`own_too`) not also the one
    next to the answer's own words where the evidence has them too (a unit on both says nothing;
    in two clauses of the same shape it does not matter)."""
    ks = sorted(k for k in range(len(a)) if int(a.idx[k]) in s.tokens)
    if not ks:
        return False
    mine = neighbours(a, ks[0], ks[-1])
    theirs = [neighbours(e, i, j) for i, j in occurrences(e, s.evidence.lower().split())]
    own = [neighbours(e, i, j) for i, j in occurrences(e, [a.word(k) for k in ks])]
    for side in (0, 1):
        if mine[side] and any(mine[side] & t[side] for t in theirs) \
                and not (own_too and any(mine[side] & o[side] for o in own)):
            return True
    # a number set off by commas on both sides ('Marta Ilves, 52, and') has no slot words to compare
    commas = [(i, j) for i, j in occurrences(e, s.evidence.lower().split())
              if 0 < i and j + 1 < len(e) and e.word(i - 1) == e.word(j + 1) == ","]
    return not own_too and bool(commas) and all(a.doc.like_num[t] for t in s.tokens)


def stated_elsewhere(a: View, e: View, others: list[View], s: Signal) -> bool:
    """The answer's flagged words stand in some evidence sentence next to a content word that
    stands next to them in the answer, and not next to the conflicting words in `e`."""
    ks = sorted(k for k in range(len(a)) if int(a.idx[k]) in s.tokens)
    if not ks:
        return False
    mine = neighbours(a, ks[0], ks[-1])
    theirs = [neighbours(e, i, j) for i, j in occurrences(e, s.evidence.lower().split())]
    if not theirs:  # a phrase with a gap ('expected ... approved'): each of its words where it stands
        theirs = [neighbours(e, i, j) for w in s.evidence.lower().split() for i, j in occurrences(e, [w])]
    words = [a.word(k) for k in ks]
    for o in others:
        if s.cls == "recombination" and _follows_e_not(a, e, o, set(ks)):
            continue  # o states the value of another fact (on other classes this raised false alarms)
        for i, j in occurrences(o, words):
            if o is e and _partitive_of(e, i, occurrences(e, s.evidence.lower().split())):
                continue  # the conflicting words' own noun ('30 residents' for '30 percent of the residents')
            near = neighbours(o, i, j)
            for side in (0, 1):
                shared = mine[side] & near[side]
                if shared and not any(shared & t[side] for t in theirs):
                    return True
    return False


def _partitive_of(e: View, i: int, spans: list[tuple[int, int]]) -> bool:
    """Whether the word at i is the noun of a partitive 'of' right after one of `spans` ('percent of
    the residents')."""
    return any(j < i <= j + 3 and "of" in [e.word(x) for x in range(j, i)] for _, j in spans)


def follows_e(a: View, e: View, others: list[View], s: Signal, margin: float) -> bool:
    """Every other sentence that aligns with the answer within `margin` of e is one that the answer,
    its flagged words aside, does not follow (`_follows_e_not`): a recombined value's answer may align
    as well with the sentence its value comes from (on other classes this raised false alarms)."""
    flagged, best = set(positions(a, s)), alignment(a, e)
    return all(best - alignment(a, o) >= margin or _follows_e_not(a, e, o, flagged)
               for o in others if o is not e and o.content_keys != e.content_keys)


def _follows_e_not(a: View, e: View, o: View, flagged: set[int]) -> bool:
    """The answer, its flagged words and the words right beside them aside, restates words of e that o
    lacks and none of o that e lacks: it follows e, and o states the flagged words of another fact ('the
    library reopened on 17 April' for 'The library reopened on 3 March.' and 'The pool reopened on 17
    April.')."""
    near = {k + d for k in flagged for d in (-1, 0, 1)}
    rest = [a.keys(k) for k in range(len(a)) if a.content(k) and k not in near]
    return any(x & e.content_keys and not x & o.content_keys for x in rest) \
        and not any(x & o.content_keys and not x & e.content_keys for x in rest)
