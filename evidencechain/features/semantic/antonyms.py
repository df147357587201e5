"""Antonyms and opposite directions (increase / decrease, before / after, won / lost)."""
from __future__ import annotations

from .align import View, neighbours
from .base import Signal
from .lexicon import Lexicon
from .polarity import cue_scopes, is_cue, prefixed

CLAUSE_REACH = 12
"""How far (tokens) before a word a negation cue of its clause may stand and still bear on it."""


def antonym_flips(a: View, e: View, lex: Lexicon) -> list[Signal]:
    """Answer words whose antonym the evidence sentence has, while it lacks the word itself.
    A negative prefix ('uncommon' / 'common') and a negation cue ('failed to' / 'managed to') are
    polarity's flips, and two words of the scales of modality ('few' / 'many') are modality's; a
    scale word against an opposite on no scale ('convicted' / 'acquitted') is an antonym. A negation
    earlier in the word's clause on one side only flips it back ('At no point was it closed' /
    'it remained open'; 'None of them failed' / 'All of them passed')."""
    out = []
    scaled = {w for scale in lex.modality.values() for w in scale}
    # an evidence word right after a negated word that the answer lacks ('will not stay open' /
    # 'will close'): negated with it, and no flip of polarity's counts it
    under = {i for _, j in cue_scopes(e, lex) if j is not None and not a.find(e.keys(j))
             for i in range(j + 1, min(len(e), j + 3)) if not any(e.punct(x) for x in range(j + 1, i + 1))}
    negated = {j for _, j in cue_scopes(a, lex)}
    used: dict[int, int] = {}  # evidence position of an opposite -> its signal in out
    for k in range(len(a)):
        if a.punct(k) or is_cue(a, k, lex):
            continue
        keys = a.keys(k)
        # a comparison stated of another noun: 'larger than X' / 'smaller than X, but a larger Y' (only
        # comparatives and superlatives: 'his teacher' / 'a student' of another sentence is a converse)
        moved = bool(keys & e.all_keys) and k not in negated and _compared(a, k) and _elsewhere(a, k, e, keys)
        if (keys & e.all_keys and not moved) or prefixed(a.word(k), lex) in e.all_keys:
            continue
        if frozenset().union(*(lex.synonyms.get(s, frozenset()) for s in keys)) & e.all_keys:
            continue  # the evidence states the word in other words too ('prior to' beside 'before')
        opposite = frozenset().union(*(lex.antonyms.get(s, frozenset()) for s in keys))
        if not opposite or _converse_stated(a, k, e, lex):
            continue  # 'Y lost in straight sets to X' for 'X beat Y to win': the converse of 'beat', not 'win' flipped
        hits = [j for j in e.find(opposite) if prefixed(e.word(j), lex) not in keys and not is_cue(e, j, lex)
                and not (a.word(k) in scaled and e.word(j) in scaled) and j not in under
                and (not moved or _same_slot(a, k, e, j))]
        if len(hits) > len(a.find(opposite)) and not (governing(a, k, e, lex) + governing(e, hits[0], a, lex)) % 2:
            if hits[0] in used:  # two words for one opposite ('won ..., beating X' / 'lost to X'): one flip
                i = used[hits[0]]
                out[i] = Signal("antonym", (*out[i].tokens, int(a.idx[k])), out[i].evidence)
                continue
            used[hits[0]] = len(out)
            out.append(Signal("antonym", (int(a.idx[k]),), e.text(hits[0])))
    return out


def governing(v: View, k: int, other: View, lex: Lexicon) -> int:
    """The negation cues earlier in the clause of the word at k (no punctuation between, within
    `CLAUSE_REACH` tokens) that negate some other word, one the other sentence lacks ('At no point
    during the flood was it closed': 'no' negates 'point'; 'None of the boats failed'): each is one
    flip of the clause. A cue that negates the word itself, or a word the other sentence has, is
    polarity's flip, counted there."""
    n = 0
    for c, j in cue_scopes(v, lex):
        if not c < k or k - c > CLAUSE_REACH or any(v.punct(i) and v.word(i) != "-" for i in range(c, k)):
            continue
        if j is None or (j != k and not other.find(v.keys(j))):
            n += 1
    return n


def _compared(v: View, k: int) -> bool:
    """A comparative or superlative ('larger', 'oldest'): its lemma is the plain adjective."""
    w = v.word(k)
    return w.endswith(("er", "est")) and v.lemma(k) != w


def _same_slot(a: View, k: int, e: View, j: int) -> bool:
    (al, ar), (el, er) = neighbours(a, k, k), neighbours(e, j, j)
    return bool(al & el or ar & er)


def _elsewhere(a: View, k: int, e: View, keys: frozenset[str]) -> bool:
    """The evidence has the answer's word only in other slots than the answer's (next content words
    differ on both sides), and the answer's word has a neighbour to tell by."""
    if not any(neighbours(a, k, k)):
        return False
    return not any(_same_slot(a, k, e, j) for j in e.find(keys))


def _converse_stated(a: View, k: int, e: View, lex: Lexicon) -> bool:
    """The word at k starts a form of a relation (cues.toml [roles.relations], 'lost' of 'lost to') whose
    converse the evidence states ('beat') with the answer's subject after it: the answer restates the
    relation from the other party's side ('Y lost in straight sets to X' for 'X beat Y to win'), which
    keeps the meaning ('X won, beating Y' for 'X lost to Y' keeps X first: a flip)."""
    groups = {g for form, g in lex.relations.items() if form[0] == a.word(k)}
    converse = frozenset().union(*(lex.converses.get(g, frozenset()) for g in groups))
    subject = next((a.keys(i) for i in range(k - 1, -1, -1) if a.content(i)), frozenset())
    if not converse or not subject:
        return False
    for j in range(len(e)):
        if any(lex.relations.get(tuple(e.word(i) for i in range(j, min(len(e), j + n)))) in converse for n in (1, 2)):
            places = e.find(subject)
            return bool(places) and all(p > j for p in places)
    return False
