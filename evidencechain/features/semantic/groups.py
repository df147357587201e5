"""Quantifier shifts on one named group: 'all 40 stalls at the Brisby night market' for 'Some of the
40 stalls at the Brisby night market', 'Most Tolworth residents' for 'Few residents of Tolworth'.

A doubtful quantifier shift (`modality.modality_shifts` on the quantifier scale, not confident because
the sentence rewords or fuses its evidence) is shown by the rule where the words after the answer's
quantifier and those after the evidence's (up to `group_reach` tokens, a punctuation mark or a clause
break) share at least `min_group_words` content words, one of them a name or a number: the same
group, whatever else the sentence says of it. Not where the evidence states the answer's words in
their slot elsewhere (`slots.stated_elsewhere`), where the shift only weakens (`strength.weakened`),
or where the sentence flips a polarity too (a quantifier taken to its complement with the predicate
negated keeps the meaning: `features.semantic._complemented`).
Shown by the rule only (`features.semantic.shown_signals`): no count moves."""
from __future__ import annotations

from dataclasses import replace

from .align import View
from .base import Signal
from .lexicon import Lexicon
from .modality import hits
from .slots import stated_elsewhere
from .strength import weakened


def _group(v: View, k: int, lex: Lexicon) -> list[int]:
    """Positions of the content words of the group a quantifier ending before k bears on."""
    out, j = [], k
    while j < len(v) and j - k < lex.confidence["group_reach"] and not v.punct(j) \
            and v.word(j) not in lex.clause_breaks:
        if v.content(j):
            out.append(j)
        j += 1
    return out


def _named(v: View, k: int) -> bool:
    """A name (capitalised after the sentence's first word) or a number."""
    return bool(v.doc.like_num[v.idx[k]]) or (k > 0 and v.text(k)[:1].isupper())


def _in_rate(v: View, lo: int) -> bool:
    """A quantifier inside a rate ('two in every three cars'): the share's, not the group's."""
    return lo >= 2 and v.word(lo - 1) in ("in", "of") and bool(v.doc.like_num[v.idx[lo - 2]])


def same_group(a: View, lo: int, hi: int, e: View, g_lo: int, g_hi: int, lex: Lexicon) -> bool:
    """Whether the quantifiers at a[lo:hi] and e[g_lo:g_hi] bear on one named group."""
    theirs = frozenset().union(*(e.keys(j) for j in _group(e, g_hi, lex)))
    shared = [k for k in _group(a, hi, lex) if a.keys(k) & theirs]
    return len(shared) >= lex.confidence["min_group_words"] and any(_named(a, k) for k in shared)


def grouped_shifts(found: list[Signal], a: View, sentences: list[View], lex: Lexicon) -> list[Signal]:
    """The doubtful quantifier shifts of `found` that bear on the same named group as their
    evidence's quantifier, made confident."""
    scale = lex.modality["quantifier"]
    out = []
    if any(s.cls == "polarity" for s in found):
        return out  # 'Most of the cottages have no garden' for 'Only a few have gardens': the complement
    for s in found:
        if s.confident or s.cls != "modality" or not any(w in scale for w in s.evidence.lower().split()):
            continue
        mine = [h for h in hits(a, "quantifier", lex) if not h.subject and not _in_rate(a, h.lo)
                and set(s.tokens) <= {int(a.idx[k]) for k in range(h.lo, h.hi)}]
        if not mine:
            continue
        h = mine[0]
        for e in sentences:
            g = next((g for g in hits(e, "quantifier", lex) if not g.subject and not _in_rate(e, g.lo)
                      and g.level != h.level
                      and e.span_text(list(range(g.lo, g.hi))).lower() == s.evidence.lower()
                      and same_group(a, h.lo, h.hi, e, g.lo, g.hi, lex)), None)
            if g is not None and not weakened(a, e, s, lex) and not stated_elsewhere(a, e, sentences, s):
                out.append(replace(s, confident=True))
                break
    return out
