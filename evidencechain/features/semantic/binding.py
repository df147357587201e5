"""Values bound to the wrong holder: the evidence states two amounts, dates or ages of one kind for two
holders ('the Arc costs 129 euros, while the Dome costs 219 euros', 'Marta Ilves, 52, and her deputy,
Jonah Beckett, 38'), and the answer gives one holder the other's value ('the Arc costs 219 euros').

A value of the answer that the source states in a clause X is checked against every value of the
same kind and unit (or, in a comparison, with its unit unsaid: 'versus 9,700') that the answer
drops, in a clause Y of the same sentence (or of the answer's aligned sentence): the answer follows Y
when it shares more of what tells Y from X, decided in this order, the first that tells one from the
other: the people named (NER), the capitalised names,
the modifiers of a noun both clauses have ('full-time staff' / 'part-time staff', 'home games' / 'away
games'), the two content words on each side of the value, the clause's content words. A comparison
('..., compared to $31,000 for part-time staff', 'versus 9,700 for its away games') is a clause of its
own whose value shares the slot of the value it is compared with (`confidence`). Words before the
value of a clause whose partner clause opens with its own value ('gave 40,000 dollars to A and
15,000 dollars to B') belong to both and tell nothing."""
from __future__ import annotations

from dataclasses import dataclass

from .align import View
from .base import Signal
from .lexicon import Lexicon
from .quantities import quantities
from .recombination import clauses, own_clause, partitive, values

NEAR = 2
"""Content words on each side of a value that are its nearest context."""
_OPEN = ("since",)
_CLOCK = ("am", "pm", "o'clock", "o’clock", ":")
MIN_COVERED = 0.6
"""Share of the rival value's clause that the answer restates (its words, not only its names)."""
"""Bound words after which a year still dates the event ('automated since 1897')."""


@dataclass(frozen=True)
class Amount:
    key: str
    """The value, and 'year' for a year ('2015' is no count of 2015 things)."""
    unit: str
    positions: tuple[int, ...]


def _clock(v: View, k: int) -> bool:
    """A clock time ('7 am', '8 p.m.', '9 o'clock'): no amount of anything."""
    return k < len(v) and (v.word(k) in _CLOCK or v.word(k).startswith(("a.m", "p.m")))


def values_with_units(v: View, lex: Lexicon) -> list[Amount]:
    out = []
    for q in quantities(v, lex):
        if v.word(q.number_pos) == "one" or _clock(v, q.number_end):
            continue
        k = q.number_pos - 1
        if k >= 0 and v.word(k) in lex.bounds and v.word(k) not in _OPEN:
            continue
        pos = q.number_positions + ((q.scale_pos,) if q.scale_pos is not None else ())
        year = not q.scale and not q.measure and 1000 <= q.value <= 2100 and q.value == int(q.value) \
            and "," not in v.text(q.number_pos)
        out.append(Amount(f"{q.value:.6g}" + (" year" if year else ""), q.unit, pos))
    return out


@dataclass
class _Side:
    """What tells a value's clause: people, capitalised names, the modifiers of its nouns, nearest
    words, all content words."""
    people: frozenset[str]
    names: frozenset[str]
    modifiers: frozenset[tuple[str, str]]
    """(word, its modifier) pairs: ('staff', 'part') for 'part-time staff', ('game', 'away')."""
    near: frozenset[str]
    far: frozenset[str]

    def minus(self, other: _Side) -> _Side:
        """What tells this side from the other: a near word counts when the other clause lacks it; a
        modifier of a word the other clause has with other modifiers only ('home games' / 'away games')."""
        heads = {w for w, _ in other.modifiers}
        return _Side(self.people - other.people, self.names - other.names,
                     frozenset(p for p in self.modifiers if p[0] in heads and p not in other.modifiers),
                     self.near - other.far, self.far - other.far)

    def without(self, keys: frozenset[str]) -> _Side:
        return _Side(self.people - keys, self.names - keys,
                     frozenset(p for p in self.modifiers if not keys & set(p)), self.near - keys, self.far - keys)


def _people(v: View, lo: int, hi: int) -> frozenset[str]:
    doc, out = v.doc, set()
    for s, t, label in doc.entities or ():
        if label == "PERSON":
            out |= {v.word(k) for k in range(lo, hi) if s <= doc.starts[v.idx[k]] < t and v.content(k)}
    return frozenset(out)


def _capitalised(v: View, k: int) -> bool:
    text = v.text(k)
    return text[:1].isupper() and v.content(k) and not (k == 0 and v.doc.is_stop[v.idx[k]])


def _side(v: View, x: Amount, lo: int, hi: int, skip: set[int]) -> _Side:
    ks = [k for k in range(lo, hi) if k not in skip and v.content(k) and not v.doc.like_num[v.idx[k]]]
    first, last = min(x.positions), max(x.positions)
    before = [k for k in ks if k < first][-NEAR:]
    after = [k for k in ks if k > last][:NEAR]

    def keys(positions) -> frozenset[str]:
        return frozenset().union(*(v.keys(k) for k in positions)) if positions else frozenset()

    return _Side(_people(v, lo, hi), keys(k for k in ks if _capitalised(v, k)), _modifiers(v, ks),
                 keys(before + after), keys(ks))


def _modifiers(v: View, ks: list[int]) -> frozenset[tuple[str, str]]:
    """(word, modifier) for each word of `ks` right after a content word, with the words a hyphen
    joins to that one ('part-time staff': ('staff', 'part'), ('staff', 'time'))."""
    out, doc = set(), v.doc
    for k in ks:
        j = k - 1
        if j < 0 or not v.content(j) or doc.like_num[v.idx[j]]:
            continue
        words = [j]
        while j >= 2 and v.word(j - 1) in ("-", "–") and doc.ends[v.idx[j - 2]] == doc.starts[v.idx[j - 1]] \
                and doc.ends[v.idx[j - 1]] == doc.starts[v.idx[j]] and not v.punct(j - 2):
            j -= 2
            words.append(j)
        out.update((v.lemma(k), v.lemma(m)) for m in words)
    return frozenset(out)


def in_comparison(v: View, k: int, lex: Lexicon) -> bool:
    """Whether the value at position k stands in a comparison ('versus 9,700', 'compared to $31,000'),
    whose unit and slot are those of the value it is compared with."""
    return any(v.word(j) in lex.comparisons for j in range(max(0, k - 3), k))


def _compatible(u: str, v: str) -> bool:
    """Units that may name one amount: equal, or one of them unsaid ('52' / '52 years old')."""
    return not u or not v or u == v


def _parts(v: View, lex: Lexicon) -> list[tuple[int, int]]:
    return clauses(v, values(v, lex), lex)


def _opens_with_value(v: View, lo: int, x: Amount) -> bool:
    return not any(v.content(k) for k in range(lo, min(x.positions)) if v.word(k) not in ("and", "while", "but"))


def _follows(answer: _Side, x: _Side, y: _Side) -> str | None:
    """'x', 'y' or None: which clause the answer follows, by the first kind of words that tells."""
    for field in ("people", "names", "modifiers", "near", "far"):
        mine, xs, ys = (getattr(s, field) for s in (answer, x, y))
        if field in ("people", "names", "modifiers") and not (xs and ys):
            continue
        hx, hy = len(mine & xs), len(mine & ys)
        if hx != hy:
            return "x" if hx > hy else "y"
        if field == "near" and hx:
            return None  # near words of both clauses: the clause words decide nothing
    return None


def _covered(a: View, t: View, lo: int, hi: int, y: Amount) -> float:
    """Share of the content words of t's clause [lo, hi) (its values left out) that the answer has."""
    ks = [k for k in range(lo, hi) if k not in y.positions and t.content(k) and not t.doc.like_num[t.idx[k]]]
    return sum(bool(t.keys(k) & a.content_keys) for k in ks) / len(ks) if ks else 0.0


def rebound(a: View, e: View, sentences: list[View], lex: Lexicon) -> list[Signal]:
    mine = values_with_units(a, lex)
    my_keys = {x.key for x in mine}
    numbers = {k for x in mine for k in x.positions}
    out = []
    for x in mine:
        homes = []  # (sentence, value) of the source stating x
        for s in sentences:
            homes += [(s, y) for y in values_with_units(s, lex) if y.key == x.key and _compatible(y.unit, x.unit)]
        if not homes or len({id(s) for s, _ in homes}) > lex.max_homes:
            continue
        answer = _side(a, x, 0, len(a), numbers - set(x.positions))
        verdicts = []
        for s, home in homes:
            own = own_clause(s, home.positions[0], _parts(s, lex), lex)
            rivals = [(s, y) for y in values_with_units(s, lex) if y.key != x.key]
            if s is not e:
                rivals += [(e, y) for y in values_with_units(e, lex)]
            for t, y in rivals:
                same_unit = y.unit == home.unit or (not y.unit and in_comparison(t, min(y.positions), lex))
                if y.key in my_keys or not same_unit or y.key.endswith(" year") != x.key.endswith(" year") \
                        or (t is s and own[0] <= y.positions[0] < own[1]):
                    continue
                if not y.unit and partitive(t, [t.word(k) for k in y.positions], [s.word(k) for k in home.positions]):
                    continue  # 'three of its six reactors': a part and its whole
                theirs = own_clause(t, y.positions[0], _parts(t, lex), lex)
                sx = _side(s, home, *own, set())
                sy = _side(t, y, *theirs, set())
                if t is s and _opens_with_value(t, theirs[0], y):
                    sx = sx.without(_side(s, home, own[0], min(home.positions), set()).far)
                elif t is s and _opens_with_value(s, own[0], home):
                    sy = sy.without(_side(t, y, theirs[0], min(y.positions), set()).far)
                verdict = _follows(answer, sx.minus(sy), sy.minus(sx))
                if verdict == "y" and _covered(a, t, *theirs, y) < MIN_COVERED:
                    verdict = None
                verdicts.append((verdict, t, y))
        taken = [(t, y) for v, t, y in verdicts if v == "y"]
        if taken and not any(v == "x" for v, _, _ in verdicts):
            t, y = taken[0]
            out.append(Signal("recombination", tuple(int(a.idx[k]) for k in x.positions),
                              t.span_text(list(y.positions)), confident=True))
    return out
