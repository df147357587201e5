"""Values bound to their holders across the evidence's sentences and passages, and given in the
answer to another holder the evidence also names.

Every value (an amount, date or age: `binding` reads them) of an evidence sentence is bound to
holders, the names (runs of capitalised words) that say whose it is (data/holders.toml): a name
right before it with only function words or commas between ('Marta Vesely, 54', 'in Ostmark on 3
May') or shortly after it ('58 percent of residents in Northam') is local to it, a name between two
values belongs to the nearer (to the next after 'and' / 'while'), the two numbers of a score share
theirs, a relative clause's values belong to the name before it ('Brian Rice, 41, who joined in
1997'), and a name earlier in the clause is the clause's subject, shared by its values. A clause
without a subject of its own ('and 500 in April'), or one that opens with a pronoun or an anaphor
('it moved', 'the firm closed'), takes the subject before it, across sentences and passages. The
head of a clause (its first run of content words: 'the new west gallery', 'the sculpture garden')
holds its values where no name tells them apart.

An answer value is flagged where it is joined to a name that the evidence binds to another value of
the same kind, or to the person who does the other value's clause, and the answer names none of the
value's own holders (`swapped`: the value and the name, or the value alone where the answer's other
words are the other clause's). A value joined to a holder the evidence gives it alone confirms it
(`agreeing`: other recombination signals on it are dropped). Names: `holder_names`; facts of one
person given to another: `moved`; every check together: `misbound`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .align import View
from .base import Signal
from .binding import Amount, values_with_units
from .holder_names import Cues, Name, cues, named_in, names
from .lexicon import Lexicon
from .recombination import clauses, values


@dataclass
class Held:
    """One value of a sentence and what holds it."""
    view: View
    value: Amount
    local: list[Name]
    subject: list[Name]
    head: frozenset[str]
    clause: tuple[int, int]
    day: bool
    """A day of a month ('3 May', 'January 23'): compared only with other days."""
    doer: Name | None = None
    """The clause's own subject nearest the value, where it has one ('Owen Baptiste became its chairman in 2018')."""

    @property
    def words(self) -> frozenset[str]:
        return frozenset().union(*(n.words for n in self.local + self.subject))

    @property
    def local_words(self) -> frozenset[str]:
        return frozenset().union(*(n.words for n in self.local))



_DASHES = ("-", "–", "—", "to")
_JOINS = ("and", "but", "while", "whereas")


def _close(a: View, n: Name, x: Held) -> bool:
    """A name the answer joins to x closely: its subject, before it, or after it with no content word
    between but the unit ('41 percent of Northam residents'; not '3-2 down to beat Anthony McGill')."""
    k = max(x.value.positions)
    return n.hi <= min(x.value.positions) or not any(a.content(j) for j in range(k + 2, n.lo))


def _measured(y: Held, source: list[Held]) -> bool:
    """Whether y says what it counts: a unit, a year, a day, a score, or a number set off by commas or
    brackets after a name (an age: 'Gary Cooper, 45,'); a bare count ('won 10 of his 11 games') is not."""
    v, lo, hi = y.view, min(y.value.positions), max(y.value.positions)
    if y.value.unit or y.value.key.endswith(" year") or y.day or any(_paired(y, h) or _paired(h, y) for h in source):
        return True
    return 0 < lo and hi + 1 < len(v) and v.word(lo - 1) in (",", "(") and v.word(hi + 1) in (",", ")")


def _paired(x: Held, y: Held) -> bool:
    """Whether y follows x in one score or range ('78-64', '3 to 5')."""
    v, k = x.view, max(x.value.positions)
    return y.view is v and min(y.value.positions) == k + 2 and v.word(k + 1) in _DASHES


def _marker(v: View, x: Amount) -> bool:
    """A list item's number ('3. \"Game of Thrones,\"', '3] The ...'), no value."""
    k = max(x.positions)
    return min(x.positions) == 0 and k + 1 < len(v) and v.word(k + 1) in (".", ")", "]", ":")


def _day(v: View, x: Amount, c: Cues) -> bool:
    return any(0 <= k < len(v) and v.word(k) in c.months for k in (min(x.positions) - 1, max(x.positions) + 1))


def _gap(v: View, lo: int, hi: int) -> tuple[int, bool]:
    """Tokens between lo and hi (punctuation counts two) and whether all are function words."""
    ks = range(lo, hi)
    return sum(2 if v.punct(k) else 1 for k in ks), not any(v.content(k) for k in ks)


def _anaphoric(v: View, lo: int, c: Cues) -> bool:
    """Whether the clause at lo opens with a pronoun or an anaphor ('it moved', 'In 1993 it moved', 'the
    firm closed'): before it only function words, punctuation and numbers."""
    for k in range(lo, min(len(v), lo + 5)):
        if any(tuple(v.word(j) for j in range(k, min(len(v), k + len(a)))) == a for a in c.anaphors):
            return True
        if v.content(k) and not v.doc.like_num[v.idx[k]]:
            return False
    return False


def _head(v: View, lo: int, hi: int, first_value: int, runs: list[Name]) -> frozenset[str]:
    named = {k for r in runs for k in range(r.lo, r.hi)}
    ks = [k for k in range(lo, min(hi, first_value)) if v.content(k) and k not in named
          and not v.doc.like_num[v.idx[k]] and v.word(k) not in ("while", "whereas")]
    if not ks:
        return frozenset()
    run = [ks[0]]
    while run[-1] + 1 < min(hi, first_value) and v.content(run[-1] + 1) and not v.doc.like_num[v.idx[run[-1] + 1]]:
        run.append(run[-1] + 1)
    return frozenset(x for k in run[:3] for x in v.keys(k))


_CLAUSE_ENDS = frozenset({",", ".", ";", ":", "!", "?"})
_PLACE_WORDS = frozenset({"in", "at", "for", "from", "on", "across", "among"})


def _apposed(v: View, n: Name, x: Held) -> bool:
    """'Owen Farrant, 67,': the value set off by commas right after the name."""
    lo, hi = min(x.value.positions), max(x.value.positions)
    return n.hi + 1 == lo and v.word(n.hi) == "," and hi + 1 < len(v) and v.word(hi + 1) in _CLAUSE_ENDS


def _attached(v: View, lo: int, hi: int) -> bool:
    """Whether the words lo..hi after a value are its unit and a preposition, no conjunction
    ('residents in', 'nesting pairs on')."""
    return sum(v.content(k) for k in range(lo, hi)) <= 2 and not any(v.word(k) in _JOINS for k in range(lo, hi))


def _elided_units(v: View, vals: list[Amount]) -> list[Amount]:
    """A bare number that ends its clause or takes a holder's preposition takes the one unit of the
    sentence's other values ('won 8,200 votes and Myra Toft won 6,950', '48,200 residents in X and
    31,700 in Y'); a number set off by a comma before it (an age: 'Ferreol, 58,') keeps none."""
    units = {x.unit for x in vals if x.unit}
    if len(units) != 1:
        return vals
    unit = units.pop()

    def elided(x: Amount) -> bool:
        lo, hi = min(x.positions), max(x.positions)
        return not x.unit and not x.key.endswith("year") and lo > 0 and not v.punct(lo - 1) \
            and (hi + 1 >= len(v) or v.word(hi + 1) in _CLAUSE_ENDS | _PLACE_WORDS)
    return [replace(x, unit=unit) if elided(x) else x for x in vals]


def held(v: View, lex: Lexicon, c: Cues, before: list[Name] | None = None,
         before_head: frozenset[str] = frozenset()) -> tuple[list[Held], list[Name], frozenset[str]]:
    """The values of sentence v with their holders, and the subject and head the next sentence may take."""
    vals = _elided_units(v, sorted((x for x in values_with_units(v, lex) if not _marker(v, x)),
                                   key=lambda x: min(x.positions)))
    runs = names(v, c)
    out: list[Held] = []
    subject, head = list(before or []), before_head
    first_subject, first_head = None, None
    for n, (lo, hi) in enumerate(clauses(v, values(v, lex), lex, sure=True)):
        mine = [x for x in vals if lo <= min(x.positions) < hi]
        inherit = _anaphoric(v, lo, c)
        own: list[Name] = []
        local: dict[int, list[Name]] = {i: [] for i in range(len(mine))}
        for i, x in enumerate(mine):  # 'Brian Rice, 41, who joined in 1997': a relative clause's values are the name's
            who = [k for k in range(max(1, lo), min(x.positions)) if v.word(k) in lex.relative and v.word(k - 1) == ","
                   and not any(k < r.lo < min(x.positions) for r in runs)]
            antecedent = [r for r in runs if who and r.hi <= who[-1] and who[-1] - r.hi <= 4]
            if antecedent:
                local[i].append(antecedent[-1])
        taken = {k for x in mine for k in x.positions}
        for r in (r for r in runs if lo <= r.lo and r.hi <= hi and not taken.intersection(range(r.lo, r.hi))):
            if not mine or r.lo < min(mine[0].positions):
                gap, plain = _gap(v, r.hi, min(mine[0].positions)) if mine else (0, False)
                (local[0] if mine and plain and gap <= c.before_reach else own).append(r)
                continue
            left = [i for i, x in enumerate(mine) if max(x.positions) < r.lo]
            i = left[-1]
            d_left = _gap(v, max(mine[i].positions) + 1, r.lo)[0]
            if i + 1 < len(mine):
                d_right = _gap(v, r.hi, min(mine[i + 1].positions))[0]
                if v.word(r.lo - 1) in _JOINS:  # '... in 1973 and Michael Finney succumbed ... in 2005'
                    local[i + 1].append(r)
                elif v.word(r.lo - 1) in _PLACE_WORDS and _attached(v, max(mine[i].positions) + 1, r.lo):
                    local[i].append(r)  # '48,200 residents in Tavistrand and 31,700 in Crestby': the phrase after the unit
                elif d_left != d_right:
                    local[i if d_left < d_right else i + 1].append(r)
            elif d_left <= c.after_reach and sum(v.content(k) for k in range(max(mine[i].positions) + 2, r.lo)) <= 1:
                local[i].append(r)  # one content word at most between, besides the unit ('58 percent of residents in Northam')
        if inherit:
            subject = subject + own
        elif own:
            subject = own
        elif n == 0:
            subject = []
        doer = own[-1] if own and not inherit else None
        h = _head(v, lo, hi, min(mine[0].positions) if mine else hi, runs)
        if h and not (inherit and n == 0):
            head = h
        if first_subject is None:
            first_subject, first_head = subject, head
        for i in range(len(mine) - 1):  # a score or a range ('78-64'): both numbers have the same holders
            if min(mine[i + 1].positions) - max(mine[i].positions) == 2 and v.word(max(mine[i].positions) + 1) in _DASHES:
                local[i] = local[i + 1] = local[i] + local[i + 1]
        for i, x in enumerate(mine):
            out.append(Held(v, x, local[i], list(subject), head, (lo, hi), _day(v, x, c), doer))
    return out, first_subject or [], first_head or frozenset()


def evidence_held(sentences: list[View], lex: Lexicon) -> list[Held]:
    c, out = cues(), []
    subject, head = None, frozenset()
    for s in sentences:
        found, subject, head = held(s, lex, c, subject, head)
        out += found
    return out


def _compatible(x: Held, y: Held) -> bool:
    return x.value.unit == y.value.unit and x.value.key.endswith(" year") == y.value.key.endswith(" year") \
        and x.day == y.day


def evidence_words(h: Held, extra: list[Name]) -> str:
    ks = list(h.value.positions) + [k for n in extra for k in range(n.lo, n.hi)]
    lo, hi = min(ks), max(ks)
    if hi - lo > 8:
        return h.view.span_text(ks)
    return h.view.span_text(list(range(lo, hi + 1)))


def value_signal(a: View, x: Held, wrong: list[Name], evidence: str) -> Signal:
    ks = list(x.value.positions) + [k for n in wrong for k in range(n.lo, n.hi)]
    return Signal("recombination", tuple(sorted(int(a.idx[k]) for k in ks)), evidence, confident=True)


def _near_equal(x: Amount, y: Amount) -> bool:
    """One amount rounded ('9.82' / '9.8 per cent'); years are never that."""
    if x.key.endswith(" year"):
        return False
    try:
        u, v = float(x.key.split()[0]), float(y.key.split()[0])
    except ValueError:
        return False
    return abs(u - v) <= 0.01 * max(abs(u), abs(v))


def _plain_words(v: View, lo: int, hi: int) -> frozenset[str]:
    """Content keys of v[lo:hi] outside names and numbers."""
    runs = {k for n in names(v, cues()) for k in range(n.lo, n.hi)}
    return frozenset().union(*(v.keys(k) for k in range(lo, hi)
                               if v.content(k) and k not in runs and not v.doc.like_num[v.idx[k]]))


def _follows_other(a: View, x: Held, homes: list[Held], y: Held) -> bool:
    """Whether the answer's other words are more those of y's clause than of the value's own clause
    (then the value, not the name, is what the answer got wrong)."""
    rest = _plain_words(a, 0, len(a))
    mine = frozenset().union(*(_plain_words(h.view, *h.clause) for h in homes))
    theirs = _plain_words(y.view, *y.clause)
    return len(rest & (theirs - mine)) > len(rest & (mine - theirs))


def _person_swapped(a: View, x: Held, homes: list[Held], y: Held, every: frozenset[str]) -> bool:
    """The answer makes the person who does y's clause (its own subject) the subject of x, and names
    none of the people who hold x ('Owen Baptiste became chairman of Tindall Foods in 2015' for 'Rafaela
    Moss was appointed chief executive of Tindall Foods in 2015, and Owen Baptiste became its chairman in 2018')."""
    if y.doer is None or not y.doer.person:
        return False
    people = frozenset().union(*(n.words for h in homes for n in h.local + ([h.doer] if h.doer else []) if n.person))
    return bool(people - y.doer.words) and not every & people \
        and any(n.words <= y.doer.words and not n.words & people for n in x.subject if _close(a, n, x))


def swapped(a: View, mine: list[Held], source: list[Held]) -> list[Signal]:
    """An answer value joined to a name that the evidence binds locally to another value of its kind
    (the name all of whose words hold that value), the answer naming none of the value's own holders;
    or, where no name tells, held by the head of the other clause of the value's own sentence
    ('the sculpture garden ... cost 4.2 million' for 'the new west gallery ... cost 4.2 million, while
    the sculpture garden ... cost 1.1 million')."""
    every = frozenset().union(*(n.words for n in names(a, cues())))
    my_keys = {x.value.key for x in mine}
    out = []
    for x in mine:
        homes = [h for h in source if h.value.key == x.value.key and _compatible(h, x)]
        if not homes or len({id(h.view) for h in homes}) > 2:
            continue
        own = frozenset().union(*(h.words for h in homes))
        heads = frozenset().union(*(h.head for h in homes))
        partners = {p.value.key for p in mine if _paired(p, x) or _paired(x, p)}
        for y in (h for h in source if h.value.key != x.value.key and _compatible(h, x)):
            if _near_equal(x.value, y.value) or y.value.key in partners or any(_paired(h, y) or _paired(y, h) for h in homes):
                continue  # the other number of a score or range ('1-0') is no rival
            if not _measured(y, source):
                continue
            theirs = y.local_words - own
            wrong = [n for n in x.local + x.subject if n.words & theirs and n.words <= y.words and _close(a, n, x)
                     and not any(h.view is not y.view and n.words <= named_in(h.view) for h in homes)]
            # a person the answer sets the value beside ('Ferreol, 64,') decides, whoever else it names
            beside = any(n in x.local and n.person and _apposed(a, n, x) for n in wrong) and not x.local_words & own
            # ... and two values of one evidence sentence that the answer binds each to the other's holder
            # ('31,700 in X and 48,200 in Y'; across sentences the events' other words tell them apart)
            mutual = any(n in x.local for n in wrong) and all(h.view is y.view for h in homes) \
                and any(m.value.key == y.value.key and m.local_words & own and not m.local_words & y.local_words
                        for m in mine)
            if wrong and own - y.words and (beside or mutual or not every & (own - y.words)):
                if _follows_other(a, x, homes, y):  # the rest of the answer is the other value's: the value is wrong
                    out.append(value_signal(a, x, [], y.view.span_text(list(y.value.positions))))
                else:
                    out.append(value_signal(a, x, wrong[:1], evidence_words(y, [n for n in y.local if n.words & theirs][:1])))
                break
            if _person_swapped(a, x, homes, y, every):
                out.append(value_signal(a, x, [], y.view.span_text(list(y.value.positions))) if _follows_other(a, x, homes, y)
                           else value_signal(a, x, [n for n in x.subject if n.words <= y.doer.words][:1],
                                        evidence_words(y, [y.doer])))
                break
            if len(homes) > 1 or y.view is not homes[0].view or y.clause == homes[0].clause:
                continue
            mine_head, yours, kept = x.head - heads, y.head - heads, heads - y.head
            if y.value.key in my_keys or x.local_words & own or not (mine_head and yours and kept):
                continue
            if x.head & yours and not a.content_keys & kept and not x.words & (own - y.words):
                out.append(value_signal(a, x, [], evidence_words(y, [])))
                break
    return out



def agreeing(a: View, mine: list[Held], source: list[Held]) -> set[int]:
    """Tokens of the answer's values joined to a name that the evidence binds to that value alone, and
    to no name the evidence binds only to another value of its kind ('Caesar Goodson joined in 1999,
    two years after Brian Rice')."""
    out = set()
    for x in mine:
        homes = [h for h in source if h.value.key == x.value.key and _compatible(h, x)]
        rivals = frozenset().union(*(h.words for h in source
                                     if h.value.key != x.value.key and _compatible(h, x)))
        own = frozenset().union(*(h.words for h in homes))
        mine_names = [n.words for n in x.local + x.subject]
        if any(w & frozenset().union(*(h.local_words for h in homes)) - rivals for w in mine_names) \
                and not any(w & (rivals - own) for w in mine_names):
            out.update(int(a.idx[k]) for k in x.value.positions)
    return out
