"""Which parties a flip relates, read from word order (`confidence.mark_confident`): whether an
antonym relates the other side's two parties the other way round (a converse: 'B lost to A' for
'A beat B', 'Y after X' for 'X before Y'); whether a role swap in a sentence that mixes evidence
sentences restates e in its own words, and how many content words its evidence words hold; and
whether a negated word's next words name another argument than those after the evidence's word
(another fact denied)."""
from __future__ import annotations

from .align import View, alignment
from .base import Signal
from .frames import PARTY_REACH, particle_words, relations
from .frames import frames as relation_frames
from .lexicon import Lexicon
from .positions import clause, inside_word, passive_near, passive_verb, position, positions
from .roles import aside, relation


def role_restated(a: View, e: View, s: Signal, lex: Lexicon, others: list[View]) -> bool:
    """A role swap of a listed relation (cues.toml [roles]) in a sentence that mixes evidence
    sentences ('In the rain-soaked semi-final, A were defeated by B'): its own words, from the first
    name to the end of the last name's clause, restate e (a form of the same relation counts:
    'defeated' / 'beat') and align with e by the margin; the whole sentence's test judges the
    words around them too."""
    ks = positions(a, s)
    hi = ks[-1]
    while hi + 1 < len(a) and not a.punct(hi + 1):
        hi += 1
    kept = [k for k in range(ks[0], hi + 1) if k not in aside(a, ks[0], hi)]  # less '..., whose captain scored 22,'
    part = View(a.doc, a.idx[kept], a.start, a.end)
    groups = {found[0] for j in range(len(e)) if (found := relation(e, j, lex))}
    theirs = frozenset().union(*(relations(e, j) for j in range(len(e))))
    told = [k for k in range(len(part)) if kept[k] <= ks[-1] and ((g := relation(part, k, lex))
            and (g[0] in groups or groups & lex.converses.get(g[0], frozenset())) or relations(part, k) & theirs)]
    if not told:  # only a listed relation between the names ('ASU linebacker Davon Durant' is none)
        return False
    told += [p for p in particle_words(part, relation_frames()) if any(0 < p - k <= PARTY_REACH for k in told)]  # 'filed a lawsuit against', 'took X to court'
    own = set(s.tokens)
    stated = [bool(part.keys(k) & e.content_keys) or k in told
              for k in range(len(part)) if part.content(k) and int(part.idx[k]) not in own]
    rivals = [alignment(part, o) for o in others if o is not e and o.content_keys != e.content_keys]
    return (not stated or sum(stated) / len(stated) >= lex.confidence["min_restated"]) \
        and (not rivals or alignment(part, e) - max(rivals) >= lex.confidence["min_margin"])


def role_words(e: View, s: Signal) -> int:
    """The content words of a role swap's evidence words (the parties and what relates them; not
    an amount passed between them: 'lent 12 million pounds to')."""
    stops = {e.word(j) for j in range(len(e)) if not e.content(j) or e.doc.like_num[e.idx[j]]}
    return sum(w[:1].isalnum() and w.lower() not in stops for w in s.evidence.split())


def _clause_past_aside(v: View, k: int, lex: Lexicon) -> list[int]:
    """`clause` back from k, continued before a relative clause set off by commas that ends the
    clause ('the older crossing, which the new bridge will replace, is shorter': 'older crossing')."""
    out, j = clause(v, k, -1), k - 1
    while j >= 0 and (not v.punct(j) or inside_word(v, j)):
        j -= 1
    if j <= 0 or v.word(j) != ",":
        return out
    opened = next((i for i in range(j - 1, -1, -1) if v.punct(i)), None)
    if opened is not None and v.word(opened) == "," and opened + 1 < j and v.word(opened + 1) in lex.relative:
        return out + clause(v, opened, -1)
    return out


def _apposed(v: View, j: int) -> list[int]:
    """The name set off by a comma right after the clause from j ('lost to the incumbent, Mara Lind,
    by 208 votes': 'Mara Lind'), which names the same party."""
    i = j + 1
    while i < len(v) and not v.punct(i):
        i += 1
    out = []
    if i < len(v) and v.word(i) == ",":
        i += 1
        while i < len(v) and not v.punct(i) and v.text(i)[:1].isupper():
            out.append(i)
            i += 1
    return out


def converse(a: View, e: View, s: Signal, lex: Lexicon) -> bool:
    """Whether an antonym relates the other side's two parties the other way round ('B is shorter than A'
    for 'A is taller than B', 'before releasing X, won Y'); a state after a copula ('will be closed
    overnight' for 'will remain open overnight') has none."""
    k = position(a, s.tokens[0])
    hits = [j for j in range(len(e)) if e.word(j) == s.evidence.lower()]
    if k is None or not hits or _state(e, hits[0]) or _state(a, k):
        return False
    j = hits[0]
    before = _clause_past_aside(a, _measure(a, k), lex)  # 'Two years after X opened, Y opened': 'two years' is no party
    amounts = _amounts(a)
    before = [i for i in before if i not in amounts]  # nor 'last season's 14 percent fall'
    j0 = _measure(e, j)  # 'X opened in 1998, two years before Y': X is before the comma
    left = {x for i in clause(e, j0 - 1 if 0 < j0 < j and e.word(j0 - 1) == "," else j0, -1, 12) for x in e.keys(i)}
    right = {x for i in clause(e, j, 1, 12, predicate=True) + _apposed(e, j) for x in e.keys(i)}
    fronted = not before
    if fronted:  # 'Before releasing X, won Y' for 'released X after it won Y'
        before, left, right = clause(a, k, 1), right, left
    if passive_verb(a, k) != passive_verb(e, j):  # 'X was convicted by a jury' for 'a jury acquitted X'
        left, right = right, left
    same = sum(bool(a.keys(i) & left) and not a.keys(i) & right for i in before)  # 'tower' on both sides says nothing
    other = sum(bool(a.keys(i) & right) and not a.keys(i) & left for i in before)
    if fronted or other <= same:
        return other > same
    # a modifier of the same noun with no word of e's first party after it: a noun phrase reordered
    # ('the Merrow River's north bank' for 'the south bank of the Merrow River'), no converse
    head = k + 1 < len(a) and j + 1 < len(e) and not a.punct(k + 1) and bool(a.keys(k + 1) & e.keys(j + 1)) \
        and a.word(k + 1) not in _RELATING | {"the", "a", "an"}  # ('side' is a stop word: no content test)
    return not (head and not any(a.keys(i) & left and not a.keys(i) & right for i in clause(a, k, 1)))


_AMOUNTS = frozenset({"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "CARDINAL", "ORDINAL"})


def _amounts(v: View) -> set[int]:
    """Positions of v's numbers and of the words of its dates, times and amounts (the tagger's)."""
    doc = v.doc
    spans = [(x, y) for x, y, label in doc.entities or () if label in _AMOUNTS]
    return {k for k in range(len(v)) if doc.like_num[v.idx[k]] or any(x <= doc.starts[v.idx[k]] < y for x, y in spans)}


_TIME_UNITS = frozenset({"year", "years", "month", "months", "week", "weeks", "day", "days", "hour", "hours",
                         "minute", "minutes", "decade", "decades", "century", "centuries"})


def _measure(v: View, k: int) -> int:
    """Where a measure of time right before k starts ('two years before'), else k."""
    return k - 2 if k >= 2 and v.word(k - 1) in _TIME_UNITS and v.doc.like_num[v.idx[k - 2]] else k


_RELATING = frozenset({"than", "before", "after", "of", "to", "from", "as", "behind", "ahead", "beyond"})
_COPULAS = frozenset({"be", "is", "are", "was", "were", "been", "being", "remain", "remains", "remained",
                      "stay", "stays", "stayed", "become", "becomes", "became"})


def _state(v: View, k: int) -> bool:
    """A state after a copula that relates no second party ('will remain open overnight', 'will be closed'):
    not a comparative ('is taller'), an order word, or one a preposition of relation follows ('north of')."""
    w = v.word(k)
    after = v.word(k + 1) if k + 1 < len(v) else ""
    relating = w in _RELATING or after in _RELATING or w.endswith("er")
    return k > 0 and v.word(k - 1) in _COPULAS and not relating


_RELATIVE = frozenset({"that", "which", "whom"})


def other_argument(a: View, e: View, s: Signal) -> bool:
    """A negated word whose next words in the answer differ from those after the evidence's word
    ('was not produced by X' for 'was produced by Y'): another fact is denied, not this one."""
    k = position(a, s.tokens[-1])
    hits = [j for j in range(len(e)) if e.word(j) == s.evidence.lower()]
    if k is None or not hits:
        return False
    after = clause(a, k, 1, 3)
    stop = next((i for i in range(k + 1, len(a)) if a.word(i) in ("and", "but", "while")), len(a))
    after = [i for i in after if i < stop]  # 'did not rise in price ... and still costs': its own clause's
    step = -1 if any(passive_near(a, k) != passive_near(e, j) for j in hits) else 1  # 'was not inspected by X' / 'X inspected'
    theirs = {x for j in hits for i in clause(e, j, step, 3) for x in e.keys(i)}
    nearest = [e.keys(i[0]) for i in (clause(e, j, step, 1) for j in hits) if i]
    # the argument fronted ('the case ... that the court refused to hear in October' / 'agreed to hear the case')
    fronted = any(a.keys(i) & x and any(a.word(r) in _RELATIVE for r in range(i + 1, k))
                  for x in nearest for i in range(k) if a.content(i))
    return bool(after) and not any(a.keys(i) & theirs for i in after) and not fronted
