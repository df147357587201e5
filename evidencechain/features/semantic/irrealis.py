"""Irrealis: an evidence event that is only proposed, planned, considered, ordered, requested,
recommended or expected ('A judge ordered X to halt production', 'is considering moving', 'plan to
add') which the answer asserts as realised ('X has halted production', 'will move', 'has added').

The evidence's event is the verb a governor (cues.toml [irrealis] governors, by lemma) takes as its
complement: 'to' and a verb after it (an object may stand between: 'ordered X to halt') or a verb
in '-ing' right after it ('considering moving'). The answer restates that verb realised: in a past
or present form, or after 'will' or a perfect's auxiliary, and under no governor, hedge or modal of
its own ('plans to move', 'may move', 'was ordered to halt' keep it unrealised). A noun the
governor takes ('proposed a congestion charge') is the status scale's (modality.py), which this
module helps find the answer's verb of: the passive's participle after the noun ('A congestion
charge ... has been introduced')."""
from __future__ import annotations

from .align import View
from .base import Signal
from .lexicon import Lexicon, stem
from .polarity import is_cue

_OBJECT_REACH = 5
"""Tokens between a governor and the 'to' of its complement ('ordered Pendrell Chemicals to')."""
_BE = frozenset({"is", "are", "was", "were", "been", "be", "being"})
_CLAUSE_REACH = 14
_SUBJECT_STARTS = frozenset({"the", "a", "an", "its", "their", "his", "her", "our", "my", "it", "they", "he", "she",
                             "we", "i", "you", "this", "these", "those", "all", "every", "each", "no", "some"})
_FUNCTION = frozenset({"the", "a", "an", "be", "have", "do", "this", "that", "these", "those", "its", "their"})


def _token(v: View, k: int) -> str:
    return v.word(k) if 0 <= k < len(v) else ""


def _complement(v: View, g: int) -> int | None:
    """The verb that the governor at g takes: '-ing' right after it, or the word after 'to'."""
    if g + 1 < len(v) and v.word(g + 1).endswith("ing") and v.word(g + 1) != v.lemma(g + 1):
        return g + 1
    for j in range(g + 1, min(len(v) - 1, g + 2 + _OBJECT_REACH)):
        if v.punct(j):
            return None
        if v.word(j) == "to":
            k = j + 1
            return k if v.text(k).isalpha() and v.text(k).islower() and v.word(k) not in _FUNCTION else None
    return None


def governor(v: View, g: int, lex: Lexicon) -> str | None:
    """The governor lemma the word at g is, by its lemma or its stem ('hopes', which the tagger
    may lemmatise as 'hop'); one of `after_be` only right after a form of 'be' (one word between)."""
    found = v.lemma(g) if v.lemma(g) in lex.governors else lex.governor_stems.get(stem(v.word(g)))
    if found in lex.after_be and not {_token(v, g - 1), _token(v, g - 2)} & _BE:  # 'is now set to
        return None
    return found


def _fulfilled(v: View, g: int, lex: Lexicon) -> bool:
    """Whether a word before the governor in its clause makes its event real ('fulfilling his
    pledge to appoint', 'after a request to')."""
    return any(v.word(j) in lex.fulfilled for j in range(max(0, g - lex.cue_reach), g)
               if not any(v.punct(i) for i in range(j, g)))


def intention(v: View, g: int, lex: Lexicon) -> bool:
    return governor(v, g, lex) in lex.intentions


def condition(v: View, k: int, lex: Lexicon) -> int | None:
    """The end (exclusive) of a conditional opener starting at k ('if', 'provided that', 'in the
    event that', ', provided'), or None."""
    if k > 0 and _token(v, k) in lex.comma_conditionals and _token(v, k - 1) == ",":
        return k + 1
    return max((k + len(w) for w in lex.conditionals_by_first.get(_token(v, k), ()) if all(_token(v, k + i) == x for i, x in enumerate(w))),
               default=None)


def _subject_start(v: View, k: int) -> bool:
    """Whether a clause's subject starts at k ('that the hospital close', 'that it repay'), not its
    verb (a relative 'that': 'the proposal that was rejected')."""
    w = _token(v, k)
    return w in _SUBJECT_STARTS or (k < len(v) and v.text(k)[:1].isupper())


def _clause_verbs(v: View, start: int, lex: Lexicon) -> list[int]:
    """The content words of a clause from `start` up to its comma or the clause's end: those of a
    condition or a that-clause, whose verbs are events not asserted ('if the spillway fails its
    inspection', 'that the hospital close its ward')."""
    out = []
    for k in range(start, min(len(v), start + _CLAUSE_REACH)):
        if v.punct(k) or v.word(k) in ("then", "so"):
            break
        if v.content(k) and v.text(k).isalpha() and v.text(k).islower():
            out.append(k)
    return out


def governed(v: View, lex: Lexicon) -> list[tuple[int, int]]:
    """(governor, governed verb) positions of the sentence: a governor's 'to' or '-ing' verb, every
    word of its that-clause ('recommended that the hospital close'), and every word of a condition
    ('If the spillway fails its inspection', the conditional word standing as the governor)."""
    out = []
    for g in range(len(v)):
        if governor(v, g, lex) is not None and not _fulfilled(v, g, lex):
            k = _complement(v, g)
            if k is not None:
                out.append((g, k))
            elif governor(v, g, lex) in lex.clausal and _token(v, g + 1) == "that" and _subject_start(v, g + 2):
                out += [(g, j) for j in _clause_verbs(v, g + 2, lex)]
        end = condition(v, g, lex)
        if end is not None:
            out += [(g, j) for j in _clause_verbs(v, end, lex) if all(j != k for _, k in out)]
    return out


def _unrealised(v: View, k: int, lex: Lexicon) -> bool:
    """Whether a governor, hedge, modal or negation stands before k in its clause ('plans to
    move', 'could move', 'was ordered to halt', 'did not move')."""
    for j in range(k - 1, max(-1, k - 1 - lex.cue_reach), -1):
        if v.punct(j):
            return False
        if governor(v, j, lex) is not None or v.word(j) in lex.hedges or is_cue(v, j, lex) \
                or condition(v, j, lex) is not None:
            return True
    return False


def realised(v: View, k: int, lex: Lexicon, certain: bool = True) -> list[int] | None:
    """The positions that assert the verb at k as done or certain ('has halted', 'will move',
    'halted', 'is moving', 'was halted'), or None where its form does not ('to move', 'moving',
    'to be halted'); `certain`: 'will' counts."""
    w, before = v.word(k), _token(v, k - 1)
    aux = [j for j in (k - 1, k - 2) if _token(v, j) in lex.realising and (j == k - 1 or before in _BE)]
    if aux and not w.endswith("ing") and (certain or _token(v, aux[0]) != "will"):
        return [aux[0], k]
    if before in ("be", "being", "to") or aux:
        return None
    if w.endswith("ing") or before in _BE:  # 'is moving', 'was halted'
        return [k - 1, k] if before in _BE and (certain or not w.endswith("ing")) else None
    return None if w == v.lemma(k) or w.endswith("s") else [k]  # 'babysits' may be a noun: a past form only


def irrealis_shifts(a: View, e: View, lex: Lexicon) -> list[Signal]:
    """The answer's verbs that assert an event the evidence only proposes, plans or orders."""
    out = []
    for g, j in governed(e, lex):
        for k in a.find(e.keys(j)):
            if a.punct(k) or _unrealised(a, k, lex):
                continue
            ks = realised(a, k, lex, certain=not intention(e, g, lex))
            if ks is None or _realised_elsewhere(e, lex.with_synonyms(a.keys(k)), j, lex):
                continue  # the evidence states it done elsewhere too, maybe in other words ('departed' for 'left')
            shown = e.span_text([g, j]) if j - g > 2 else e.span_text(list(range(g, j + 1)))
            out.append(Signal("modality", tuple(int(a.idx[i]) for i in ks), shown))
            break
    for g, n in planned(e, lex):  # a thing proposed or planned: 'is planning a new wing' -> 'a new wing was built'
        for k in a.find(e.keys(n)):
            verb = done_on(a, k, lex)
            ks = (verb,) if verb is not None else _said_as_verb(a, k, e, n, g, lex)
            if not ks or _unrealised(a, ks[-1], lex) or a.find(e.keys(g)) \
                    or (verb is not None and e.find(a.keys(verb))):
                continue
            out.append(Signal("modality", tuple(int(a.idx[i]) for i in ks), e.span_text([g, n])))
            break
    return out


def _said_as_verb(a: View, k: int, e: View, n: int, g: int, lex: Lexicon) -> list[int] | None:
    """The answer's words that assert the evidence's planned noun as a realised verb ('is considering
    a ban' -> 'will ban'; 'will' counts unless the governor is an intention), where the evidence
    states that verb realised nowhere else."""
    ks = realised(a, k, lex, certain=not intention(e, g, lex))
    if ks is None or len(ks) < 2 or a.word(ks[0]) in _BE:
        return None  # a bare form may be the noun itself ('the ban'); 'is' + noun is no verb
    return None if _realised_elsewhere(e, a.keys(k), n, lex) else ks


def _realised_elsewhere(e: View, said: frozenset[str], skip: int, lex: Lexicon) -> bool:
    """Whether e states a word of `said` realised somewhere other than at `skip`."""
    return any(e.keys(i) & said and realised(e, i, lex) for i in range(len(e)) if i != skip)


def planned(v: View, lex: Lexicon) -> list[tuple[int, int]]:
    """(governor, the noun it takes) of every thing v proposes or plans ('is considering a ban')."""
    return [(g, n) for g in range(len(v)) if (n := _object(v, g, lex)) is not None]


def _object(v: View, g: int, lex: Lexicon) -> int | None:
    """The noun a governor of `object_governors` takes as its object ('planning a new wing': its
    first content word, 'new', stands for it), when it takes no verb ('recommended the croissant'
    is no event)."""
    if governor(v, g, lex) not in lex.object_governors or _complement(v, g) is not None or v.word(g) == v.lemma(g) \
            or _token(v, g + 1) not in ("a", "an", "the"):
        return None
    return v.next_content(g + 1, 3)


def passive_after(v: View, k: int, lex: Lexicon) -> int | None:
    """The participle of a passive whose subject holds the noun at k ('A congestion charge for the
    centre of X has been introduced'): the first form of 'be' after k in its clause and the past
    participle right after it."""
    for j in range(k + 1, min(len(v) - 1, k + 1 + lex.subject_reach)):
        if v.punct(j) or v.word(j) in lex.relative:
            return None
        if v.word(j) in _BE and v.word(j + 1) != v.lemma(j + 1) \
                and (v.word(j + 1).endswith(("ed", "en")) or v.word(j + 1) in lex.participles):
            return j + 1
    return None


def _past(v: View, k: int) -> bool:
    """A verb in a past form ('dredged', 'sold', 'has opened'), not after 'to': a status the
    answer states as reached."""
    w = v.word(k)
    return w != v.lemma(k) and not w.endswith(("s", "ing", "est", "er", "ly")) and _token(v, k - 1) != "to"


def done_on(v: View, k: int, lex: Lexicon) -> int | None:
    """The word at k, or else the verb it is the object of ('held its regatta', 'won the prize'),
    where it is a past form, or else the passive participle it is the subject of ('A congestion
    charge for X has been introduced')."""
    if _past(v, k):
        return k
    j = k - 1
    while j >= 0 and k - j <= 3 and not v.punct(j):
        if v.content(j):
            return j if _past(v, j) and not v.doc.like_num[v.idx[j]] else passive_after(v, k, lex)
        j -= 1
    return passive_after(v, k, lex)
