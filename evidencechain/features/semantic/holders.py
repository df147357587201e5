"""Values bound to their holders across the evidence's sentences and passages, and given in the
answer to another holder the evidence also names.

Every value (an amount, date or age: `binding` reads them) of an evidence sentence is bound to
holders, the names (runs of capitalised words) that say whose it is (data/holders.toml): a name
right before it with only function words or commas between ('Marta Vesely, 54', 'in Ostmark on 3
May') or shortly after it ('58 percent of residents in Northam') is local to it, a name between two
values belongs to the nearer, and a name earlier in the clause is the clause's subject, shared by
its values. A clause without a subject of its own ('and 500 in April'), or one that opens with a
pronoun or an anaphor ('it moved', 'the firm closed'), takes the subject before it, across
sentences and passages. The head of a clause (its first run of content words: 'the new west
gallery', 'the sculpture garden') holds its values where no name tells them apart.

An answer value is flagged, with the answer's name it is wrongly joined to, where the evidence
binds that name locally to another value of the same kind and the answer names none of the value's
own holders (`swapped`); an age or other bare number of one person given to another person that
the evidence names (`moved`); a phrase of one person's clause ('specialises in paediatric
cardiology') said of another person the evidence names, whom it does not say it of (`moved_attribute`).
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .align import View
from .base import Signal
from .binding import Amount, values_with_units
from .lexicon import Lexicon
from .recombination import clauses, values

_PERSON = "PERSON"


@dataclass(frozen=True)
class Cues:
    titles: frozenset[str]
    months: frozenset[str]
    anaphors: tuple[tuple[str, ...], ...]
    after_reach: int
    before_reach: int
    min_phrase: int


@cache
def cues() -> Cues:
    raw = tomllib.loads(resources.files(__package__).joinpath("data", "holders.toml").read_text(encoding="utf-8"))
    return Cues(frozenset(raw["titles"]), frozenset(raw["months"]), tuple(tuple(a.split()) for a in raw["anaphors"]),
                int(raw["after_reach"]), int(raw["before_reach"]), int(raw["min_phrase"]))


@dataclass(frozen=True)
class Name:
    lo: int
    hi: int
    words: frozenset[str]
    person: bool


@dataclass
class Held:
    """One value of a sentence and what holds it."""
    view: View
    value: Amount
    local: list[Name]
    subject: list[Name]
    head: frozenset[str]

    @property
    def words(self) -> frozenset[str]:
        return frozenset().union(*(n.words for n in self.local + self.subject))

    @property
    def local_words(self) -> frozenset[str]:
        return frozenset().union(*(n.words for n in self.local))


def names(v: View, c: Cues) -> list[Name]:
    """Runs of capitalised content words (titles, sentence-initial words outside an entity and months
    next to a number left out), each marked whether the parser tags it a person or a title opens it."""
    doc = v.doc
    people = [(s, t) for s, t, label in doc.entities or () if label == _PERSON]
    entity = [(s, t) for s, t, _ in doc.entities or ()]

    def within(k, spans):
        start = doc.starts[v.idx[k]]
        return any(s <= start < t for s, t in spans)

    def capital(k):
        w = v.word(k)
        if not v.text(k)[:1].isupper() or not v.content(k) or doc.like_num[v.idx[k]] or w in c.titles:
            return False
        if w in c.months and any(0 <= j < len(v) and doc.like_num[v.idx[j]] for j in (k - 1, k + 1)):
            return False
        return k > 0 or within(k, entity)

    out, k = [], 0
    while k < len(v):
        if not capital(k):
            k += 1
            continue
        lo = k
        while k < len(v) and capital(k):
            k += 1
        titled = lo > 0 and v.word(lo - 1) in c.titles
        out.append(Name(lo, k, frozenset(v.word(j) for j in range(lo, k)),
                        titled or any(within(j, people) for j in range(lo, k))))
    return out


def _gap(v: View, lo: int, hi: int) -> tuple[int, bool]:
    """Tokens between lo and hi (punctuation counts two) and whether all are function words."""
    ks = range(lo, hi)
    return sum(2 if v.punct(k) else 1 for k in ks), not any(v.content(k) for k in ks)


def _anaphoric(v: View, lo: int, c: Cues) -> bool:
    k = lo
    while k < len(v) and (v.punct(k) or v.word(k) in ("and", "but", "while", "whereas", "then", "later")):
        k += 1
    return any(tuple(v.word(j) for j in range(k, min(len(v), k + len(a)))) == a for a in c.anaphors)


def _head(v: View, lo: int, hi: int, first_value: int) -> frozenset[str]:
    ks = [k for k in range(lo, min(hi, first_value))
          if v.content(k) and not v.doc.like_num[v.idx[k]] and v.word(k) not in ("while", "whereas")]
    if not ks:
        return frozenset()
    run = [ks[0]]
    while run[-1] + 1 < min(hi, first_value) and v.content(run[-1] + 1) and not v.doc.like_num[v.idx[run[-1] + 1]]:
        run.append(run[-1] + 1)
    return frozenset(x for k in run[:3] for x in v.keys(k))


def held(v: View, lex: Lexicon, c: Cues, before: list[Name] | None = None,
         before_head: frozenset[str] = frozenset()) -> tuple[list[Held], list[Name], frozenset[str]]:
    """The values of sentence v with their holders, and the subject and head the next sentence may take."""
    vals = sorted(values_with_units(v, lex), key=lambda x: min(x.positions))
    runs = names(v, c)
    out: list[Held] = []
    subject, head = list(before or []), before_head
    first_subject, first_head = None, None
    for n, (lo, hi) in enumerate(clauses(v, values(v, lex), lex, sure=True)):
        mine = [x for x in vals if lo <= min(x.positions) < hi]
        inherit = _anaphoric(v, lo, c)
        own: list[Name] = []
        local: dict[int, list[Name]] = {i: [] for i in range(len(mine))}
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
                if d_left != d_right:
                    local[i if d_left < d_right else i + 1].append(r)
            elif d_left <= c.after_reach:
                local[i].append(r)
        if inherit:
            subject = subject + own
        elif own:
            subject = own
        elif n == 0:
            subject = []
        h = _head(v, lo, hi, min(mine[0].positions) if mine else hi)
        if h and not (inherit and n == 0):
            head = h
        if first_subject is None:
            first_subject, first_head = subject, head
        for i, x in enumerate(mine):
            out.append(Held(v, x, local[i], list(subject), head))
    return out, first_subject or [], first_head or frozenset()


def evidence_held(sentences: list[View], lex: Lexicon) -> list[Held]:
    c, out = cues(), []
    subject, head = None, frozenset()
    for s in sentences:
        found, subject, head = held(s, lex, c, subject, head)
        out += found
    return out


def _compatible(x: Amount, y: Amount) -> bool:
    return x.unit == y.unit and x.key.endswith(" year") == y.key.endswith(" year")


def _evidence_words(h: Held, extra: list[Name]) -> str:
    ks = list(h.value.positions) + [k for n in extra for k in range(n.lo, n.hi)]
    lo, hi = min(ks), max(ks)
    if hi - lo > 8:
        return h.view.span_text(ks)
    return h.view.span_text(list(range(lo, hi + 1)))


def _signal(a: View, x: Held, wrong: list[Name], evidence: str) -> Signal:
    ks = list(x.value.positions) + [k for n in wrong for k in range(n.lo, n.hi)]
    return Signal("recombination", tuple(sorted(int(a.idx[k]) for k in ks)), evidence, confident=True)


def swapped(a: View, mine: list[Held], source: list[Held]) -> list[Signal]:
    """An answer value joined to a name the evidence binds locally to another value of its kind,
    while the answer names none of the value's own holders; or, where no name tells, held by the
    head of the other value's clause."""
    every = frozenset().union(*(n.words for n in names(a, cues())))
    my_keys = {x.value.key for x in mine}
    out = []
    for x in mine:
        homes = [h for h in source if h.value.key == x.value.key and _compatible(h.value, x.value)]
        if not homes or len({id(h.view) for h in homes}) > 2:
            continue
        own = frozenset().union(*(h.words for h in homes))
        heads = frozenset().union(*(h.head for h in homes))
        for y in (h for h in source if h.value.key != x.value.key and _compatible(h.value, x.value)):
            theirs = y.local_words - own
            wrong = [n for n in x.local if n.words & theirs and not n.words & own]
            if wrong and own - y.words and not every & (own - y.words):
                out.append(_signal(a, x, wrong[:1], _evidence_words(y, [n for n in y.local if n.words & theirs][:1])))
                break
            mine_head, yours, kept = x.head - heads, y.head - heads, heads - y.head
            if y.value.key in my_keys or x.local_words & own or not (mine_head and yours and kept):
                continue
            if x.head & yours and not a.content_keys & kept and not x.words & (own - y.words):
                out.append(_signal(a, x, [], _evidence_words(y, [])))
                break
    return out


def moved(a: View, mine: list[Held], source: list[Held], evidence_names: frozenset[str]) -> list[Signal]:
    """A bare number (an age) that the evidence binds to one person, joined in the answer to
    another person the evidence names, the answer naming none of the first."""
    every = frozenset().union(*(n.words for n in names(a, cues())))
    out = []
    for x in mine:
        if x.value.unit or x.value.key.endswith(" year"):
            continue
        homes = [h for h in source if h.value.key == x.value.key and not h.value.unit]
        people = [n for h in homes for n in h.local if n.person]
        if not homes or len(people) != len(homes) or every & frozenset().union(*(n.words for n in people)):
            continue
        wrong = [n for n in x.local if n.person and n.words <= evidence_names]
        if wrong and not any(h.subject or len(h.local) > 1 for h in homes):
            out.append(_signal(a, x, [], _evidence_words(homes[0], people[:1])))
    return out


def holder_signals(a: View, source: list[Held], evidence_names: frozenset[str], lex: Lexicon) -> list[Signal]:
    """The signals of one answer sentence against the holders of its source's values."""
    mine, _, _ = held(a, lex, cues())
    out = swapped(a, mine, source)
    taken = {t for s in out for t in s.tokens}
    return out + [s for s in moved(a, mine, source, evidence_names) if not taken & set(s.tokens)]
