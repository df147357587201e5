"""Values recombined from the evidence: a date, amount or name the evidence states, attached in
the answer to another event than in the evidence (two values swapped, or a value taken from
another evidence sentence in place of the one the aligned sentence gives)."""
from __future__ import annotations

from dataclasses import dataclass

from .align import View, alignment, remembered
from .base import Signal
from .lexicon import Lexicon
from .quantities import quantities

WINDOW = 4
_NAMES = {"PERSON": "person", "ORG": "organisation", "GPE": "place", "LOC": "place", "FAC": "facility",
          "NORP": "group", "EVENT": "event", "WORK_OF_ART": "work"}
MIN_ALIGNMENT = 0.6
"""A value taken from another evidence sentence counts only where the answer sentence restates
this much of its aligned sentence (abstractive answers mix sentences)."""
MIN_CONTEXT = {"year": 0.2, "number": 0.2}
"""Least context overlap with the rival value (names need more: abstractive answers move them)."""
NAME_CONTEXT = 0.34
TAKEN_MARGIN = 0.2
"""How much better a number's answer context must fit the context of another number of the same
evidence sentence (which the answer drops) than its own, to count as put in that number's place
(names are left out: on real sentences, names taken from the same sentence were mostly rewrites)."""


@dataclass(frozen=True)
class Value:
    key: str
    kind: str
    positions: tuple[int, ...]


def values(v: View, lex: Lexicon) -> list[Value]:
    """Numbers (with their unit as their kind) and named entities of a sentence."""
    return remembered(v, ("values", id(lex)), lambda: _values(v, lex))


def _values(v: View, lex: Lexicon) -> list[Value]:
    out, taken = [], set()
    for q in quantities(v, lex):
        if v.word(q.number_pos) == "one":
            continue
        year = not q.scale and not q.measure and 1000 <= q.value <= 2100 and q.value == int(q.value) \
            and "," not in v.text(q.number_pos)  # '1,500' is a count, not a year
        kind = "year" if year else "number"
        pos = tuple(p for p in (q.number_pos, q.scale_pos) if p is not None)
        out.append(Value(f"{q.value:.6g}", kind, pos))
        taken.update(pos)
    doc = v.doc
    for s, t, label in doc.entities or ():
        if label not in _NAMES or not (v.start <= s and t <= v.end):
            continue
        pos = tuple(k for k in range(len(v)) if s <= doc.starts[v.idx[k]] < t and not v.punct(k))
        if pos and not taken.intersection(pos):
            out.append(Value(" ".join(v.word(k) for k in pos), _NAMES[label], pos))
            taken.update(pos)
    return out


def bound(v: View, positions, lex: Lexicon) -> bool:
    """Whether the number at `positions` is a bound ('after 1999', 'more than 30,000', either end of
    'between 2 and 4'), not a value."""
    k = min(positions) - 1
    if not v.doc.like_num[v.idx[min(positions)]] or k < 0:
        return False
    return v.word(k) in lex.bounds or v.word(k) == "and" and lex.range_opener in v.words[max(0, k - 4):k]


def partitive(e: View, one: list[str], other: list[str]) -> bool:
    """'three of Fukushima's six reactors': two numbers joined by 'of' count a part and its whole."""
    xs = [k for k in range(len(e)) if e.word(k) in one]
    ys = [k for k in range(len(e)) if e.word(k) in other]
    return any(0 < abs(x - y) <= 10 and any(e.word(j) == "of" for j in range(min(x, y) + 1, max(x, y)))
               for x in xs for y in ys)


def clause_alignment(a: View, tokens: tuple[int, ...], e: View, lex: Lexicon) -> float:
    """Share of the content words of the answer's clause that holds `tokens` (they left out) that e has."""
    ks = [k for k in range(len(a)) if int(a.idx[k]) in tokens]
    if not ks:
        return 0.0
    lo, hi = next(c for c in clauses(a, values(a, lex), lex) if c[0] <= ks[0] < c[1])
    rest = [k for k in range(lo, hi) if a.content(k) and k not in ks]
    return sum(bool(a.keys(k) & e.content_keys) for k in rest) / len(rest) if rest else 0.0


def _context(v: View, value: Value, vals: list[Value], lex: Lexicon | None = None) -> frozenset[str]:
    """Content lemmas near the value, or of its whole clause when `lex` is given; values of its own kind are
    left out (they are what moves)."""
    lo, hi = min(value.positions), max(value.positions)
    first, last = max(0, lo - WINDOW), min(len(v), hi + WINDOW + 1)
    if lex is not None:
        first, last = own_clause(v, lo, clauses(v, vals, lex), lex)
    others = {k for x in vals if x.kind == value.kind for k in x.positions}
    ks = [k for k in range(first, last)
          if (k < lo or k > hi) and k not in others and (v.content(k) or v.doc.like_num[v.idx[k]])]
    return frozenset(v.lemma(k) for k in ks)


def _similarity(x: frozenset[str], y: frozenset[str]) -> float:
    return len(x & y) / len(x | y) if x | y else 0.0


def recombined(a: View, e: View, evidence_values: set[tuple[str, str]], lex: Lexicon) -> list[Signal]:
    """`evidence_values`: (key, kind) of every value anywhere in the source's evidence (units
    are the quantity class's business: a number's kind is 'year' or 'number')."""
    mine, theirs = values(a, lex), values(e, lex)
    aligned = alignment(a, e)
    out = []
    my_keys = {(x.key, x.kind) for x in mine}
    their_keys = {(x.key, x.kind) for x in theirs}
    for x in mine:
        if (x.key, x.kind) not in evidence_values:
            continue
        ctx = _context(a, x, mine)
        rivals = [y for y in theirs if y.kind == x.kind and y.key != x.key]
        if (x.key, x.kind) in their_keys:  # two values of the sentence swapped, or one put for the other
            if not rivals:
                continue
            best = max(rivals, key=lambda y: _similarity(ctx, _context(e, y, theirs)))
            own = max((y for y in theirs if (y.key, y.kind) == (x.key, x.kind)),
                      key=lambda y: _similarity(ctx, _context(e, y, theirs)))
            if (best.key, best.kind) not in my_keys:  # the answer drops the value whose place it takes
                fit = _similarity(ctx, _context(e, best, theirs))
                if x.kind not in ("year", "number") or aligned < MIN_ALIGNMENT or fit < MIN_CONTEXT[x.kind] \
                        or fit <= _similarity(ctx, _context(e, own, theirs)) + TAKEN_MARGIN:
                    continue
                out.append(Signal("recombination", tuple(int(a.idx[k]) for k in x.positions),
                                  e.span_text(list(best.positions))))
                continue
            if x.kind not in ("year", "number"):
                continue
            partner = max((y for y in mine if (y.key, y.kind) == (best.key, best.kind)),
                          key=lambda y: _similarity(_context(a, y, mine), _context(e, best, theirs)))
            order_kept = (own.positions[0] < best.positions[0]) == (x.positions[0] < partner.positions[0])
            fit = _similarity(ctx, _context(e, best, theirs))
            near = _context(a, x, mine, lex)  # its whole clause: reordered clauses keep their values
            home, other = _context(e, own, theirs, lex), _context(e, best, theirs, lex)
            if order_kept or fit <= _similarity(ctx, _context(e, own, theirs)) + 0.1 \
                    or (home != other and _similarity(near, home) >= _similarity(near, other)):
                continue
        else:  # a value of another evidence sentence in place of the one this sentence gives
            missing = [y for y in rivals if (y.key, y.kind) not in my_keys]
            if not missing or aligned < MIN_ALIGNMENT:
                continue
            if x.kind not in ("year", "number") and any(a.keys(k) & e.all_keys for k in x.positions):
                continue  # 'McCoy' for 'AP McCoy': the same name, not another one
            best = max(missing, key=lambda y: _similarity(ctx, _context(e, y, theirs)))
            if _similarity(ctx, _context(e, best, theirs)) < MIN_CONTEXT.get(x.kind, NAME_CONTEXT):
                continue
        out.append(Signal("recombination", tuple(int(a.idx[k]) for k in x.positions),
                          e.span_text(list(best.positions))))
    return out


def clauses(v: View, vals: list[Value], lex: Lexicon, sure: bool = False) -> list[tuple[int, int]]:
    """The clauses of a sentence as position ranges [lo, hi): cut before every clause-starting word
    (cues.toml [clauses]); a piece with fewer than two words and values, or without a content word
    outside its values and without a light verb, joins the clause before it (the next one when it
    is the first); a relative clause opened after a comma closes at the next comma. `sure`: a conjunction ('and') starts a clause only after a comma."""
    return remembered(v, ("clauses", tuple(vals), id(lex), sure), lambda: _clauses(v, vals, lex, sure))


def _clauses(v: View, vals: list[Value], lex: Lexicon, sure: bool) -> list[tuple[int, int]]:
    cuts = [0] + [k for k in range(1, len(v)) if v.word(k) in lex.clause_breaks
                  and not (sure and v.word(k) in lex.conjunctions and v.word(k - 1) != ",")]
    for k in list(cuts):  # ', who became director in 2016, had joined': the relative clause ends at its comma
        if k and v.word(k) in lex.relative and v.word(k - 1) == ",":
            close = next((m for m in range(k + 1, len(v) - 1) if v.word(m) == ","), None)
            if close is not None and all(not (k < c <= close) for c in cuts):
                cuts.append(close + 1)
    cuts = sorted(cuts) + [len(v)]
    in_value = {k: n for n, x in enumerate(vals) for k in x.positions}
    out: list[tuple[int, int]] = []
    carried = None  # the start of a first piece too weak to stand alone
    for lo, hi in zip(cuts, cuts[1:]):
        content = [k for k in range(lo, hi) if v.content(k) and v.word(k) not in lex.clause_breaks]
        plain = [k for k in content if k not in in_value]
        units = len(plain) + len({in_value[k] for k in content if k in in_value})
        if units >= 2 and (plain or any(v.word(k) in lex.light_verbs for k in range(lo, hi))):
            out.append((lo if carried is None else carried, hi))
            carried = None
        elif out:
            out[-1] = (out[-1][0], hi)
        elif carried is None:
            carried = lo
    return out or [(0, len(v))]


def own_clause(v: View, k: int, parts: list[tuple[int, int]], lex: Lexicon) -> tuple[int, int]:
    """The clause of `parts` that holds position k, from its relative word after a comma where
    one opens before k ('Ayla Demir, who became director in 2016,': the relative clause's event)."""
    lo, hi = next(c for c in parts if c[0] <= k < c[1])
    opened = [j for j in range(lo + 1, k) if v.word(j) in lex.relative and v.word(j - 1) == ","]
    return (opened[0] if opened else lo), hi


def _kept(a: View, e: View, y: Value) -> bool:
    """Whether the answer has most of a value's words (a name it keeps, split or joined otherwise)."""
    ks = [k for k in y.positions if e.content(k)]
    return sum(bool(e.keys(k) & a.all_keys) for k in ks) * 2 > len(ks)


_PROPER = frozenset({"person", "organisation", "place", "facility"})


def _named(kind: str) -> str:
    """The kind two values must share: people, places, organisations and facilities as one name (the
    tagger gives one name another kind from sentence to sentence: 'Rensby' a person, 'Alder Cross' an
    organisation; `_same_kind` asks more of two names of two kinds)."""
    return "name" if kind in _PROPER else kind


def _same_kind(a: View, x: Value, e: View, y: Value, lex: Lexicon) -> bool:
    """Whether y of e is a value of x's kind: places and organisations count as one; two names the
    tagger gives other kinds stand in the same slot: the same preposition before them ('streets of Rensby'
    for 'streets of Alder Cross'), or none and the same word after them ('when Lena Strom added' for 'and
    Marta Ilves added'; not 'Lloyd Dennis has' for 'the 32-year-old from Eastleigh has')."""
    if _named(x.kind) != _named(y.kind):
        return False
    if x.kind == y.kind or {x.kind, y.kind} <= {"place", "organisation"}:
        return True

    def beside(v: View, z: Value) -> tuple[str | None, str | None]:
        before = [v.word(k) for k in range(min(z.positions)) if not v.punct(k)]
        after = [v.word(k) for k in range(max(z.positions) + 1, len(v)) if not v.punct(k)]
        return (before[-1] if before else None), (after[0] if after else None)

    (p, p_after), (q, q_after) = beside(a, x), beside(e, y)
    if p in lex.prepositions or q in lex.prepositions:
        return p == q
    return p_after is not None and p_after == q_after


def clause_recombined(a: View, e: View, sentences: list[View], lex: Lexicon) -> list[Signal]:
    """A value of the source put into the clause of another event: the answer's clause restates one clause
    of its evidence sentence (at least `min_frame` of its other content words), whose value of the
    same kind (places and organisations counted as one) it drops, and takes its value from another clause of the
    source that states nothing else the answer says (another sentence of the source as a whole: an 'and'
    there may join two nouns; a place or organisation only from the same sentence: across sentences
    one is often another's alias or part, 'the U.S.' / 'the United States', 'Italy' / 'Sicily'). A number after a bound word ('after 1999') is no value, and a value
    the source states in more than `max_homes` sentences is its setting. Decided here, so the signals come confident
    (`confidence.mark_confident` still checks that the two values differ and where else the
    source states the answer's words)."""
    mine = [x for x in values(a, lex) if not (x.kind in ("year", "number") and bound(a, x.positions, lex))]
    share, least = lex.clause_frame
    my_keys = {(x.key, _named(x.kind)) for x in mine}
    my_clauses = clauses(a, mine, lex)
    where = []  # (view, lo, hi, values of the clause)
    for s in sentences:
        vals = values(s, lex)
        for lo, hi in clauses(s, vals, lex):
            where.append((s, lo, hi, [x for x in vals if lo <= x.positions[0] < hi]))
    out = []
    for x in mine:
        if x.kind == "group":  # 'Dutch' / 'Frisian': one nationality contains the other
            continue
        key = (x.key, _named(x.kind))
        lo, hi = own_clause(a, x.positions[0], my_clauses, lex)
        frame = [k for k in range(lo, hi) if a.content(k) and k not in x.positions]
        homes = [c for c in where if any((y.key, _named(y.kind)) == key for y in c[3])
                 and (c[0] is e or x.kind in ("person", "year", "number"))]
        if not frame or not homes or len({id(c[0]) for c in homes}) > lex.max_homes:
            continue

        def matched(c, frame=frame):
            v, lo, hi, _ = c
            keys = frozenset().union(*(v.keys(j) for j in range(lo, hi) if v.content(j)))
            return {k for k in frame if a.keys(k) & keys}

        own = [c for c in where if c[0] is e]
        if not own:
            continue
        best = max(own, key=lambda c: len(matched(c)))
        hits = matched(best)
        rivals = [y for y in best[3] if _same_kind(a, x, e, y, lex) and (y.key, _named(y.kind)) not in my_keys
                  and not _kept(a, e, y)]
        if any(c is best for c in homes) or not rivals or len(hits) < least or len(hits) < share * len(frame):
            continue
        whole = [c if c[0] is e else (c[0], 0, len(c[0]), c[3]) for c in homes]
        if any(len(matched(c)) >= len(hits) or matched(c) - hits for c in whole):
            continue
        y = rivals[0]
        out.append(Signal("recombination", tuple(int(a.idx[k]) for k in x.positions),
                          e.span_text(list(y.positions)), confident=True))
    return out
