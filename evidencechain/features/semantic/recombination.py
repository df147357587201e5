"""Values recombined from the evidence: a date, amount or name the evidence states, attached in
the answer to another event than in the evidence (two values swapped, or a value taken from
another evidence sentence in place of the one the aligned sentence gives)."""
from __future__ import annotations

from dataclasses import dataclass

from .align import View
from .base import Signal
from .lexicon import Lexicon
from .quantities import quantities

WINDOW = 4
_NAMES = {"PERSON": "name", "ORG": "name", "GPE": "place", "LOC": "place", "FAC": "place", "NORP": "group",
          "EVENT": "event", "WORK_OF_ART": "work", "DATE": "date"}


@dataclass(frozen=True)
class Value:
    key: str
    kind: str
    positions: tuple[int, ...]


def values(v: View, lex: Lexicon) -> list[Value]:
    """Numbers (with their unit as their kind) and named entities of a sentence."""
    out, taken = [], set()
    for q in quantities(v, lex):
        if v.word(q.number_pos) == "one":
            continue
        year = q.scale == "" and not q.unit and 1000 <= q.value <= 2100 and q.value == int(q.value)
        kind = "year" if year else f"number:{q.unit if q.measure else ''}"
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


def _context(v: View, value: Value, others: set[int]) -> frozenset[str]:
    lo, hi = min(value.positions), max(value.positions)
    ks = [k for k in range(max(0, lo - WINDOW), min(len(v), hi + WINDOW + 1))
          if (k < lo or k > hi) and k not in others and v.content(k)]
    return frozenset(v.lemma(k) for k in ks)


def _similarity(x: frozenset[str], y: frozenset[str]) -> float:
    return len(x & y) / len(x | y) if x | y else 0.0


def recombined(a: View, e: View, evidence_values: set[tuple[str, str]], lex: Lexicon) -> list[Signal]:
    """`evidence_values`: (key, kind) of every value anywhere in the source's evidence."""
    mine, theirs = values(a, lex), values(e, lex)
    out = []
    my_keys = {(x.key, x.kind) for x in mine}
    their_keys = {(x.key, x.kind) for x in theirs}
    same_kind = set().union(*(x.positions for x in mine)) if mine else set()
    their_pos = set().union(*(x.positions for x in theirs)) if theirs else set()
    for x in mine:
        if (x.key, x.kind) not in evidence_values:
            continue
        ctx = _context(a, x, same_kind)
        rivals = [y for y in theirs if y.kind == x.kind and y.key != x.key]
        if (x.key, x.kind) in their_keys:  # two values of the sentence swapped
            if not rivals or not x.kind.startswith(("year", "number", "date")):
                continue
            best = max(rivals, key=lambda y: _similarity(ctx, _context(e, y, their_pos)))
            if (best.key, best.kind) not in my_keys:
                continue
            own = max((y for y in theirs if (y.key, y.kind) == (x.key, x.kind)),
                      key=lambda y: _similarity(ctx, _context(e, y, their_pos)))
            partner = max((y for y in mine if (y.key, y.kind) == (best.key, best.kind)),
                          key=lambda y: _similarity(_context(a, y, same_kind), _context(e, best, their_pos)))
            order_kept = (own.positions[0] < best.positions[0]) == (x.positions[0] < partner.positions[0])
            fit = _similarity(ctx, _context(e, best, their_pos))
            if order_kept or fit <= _similarity(ctx, _context(e, own, their_pos)) + 0.1:
                continue
        else:  # a value of another evidence sentence in place of the one this sentence gives
            missing = [y for y in rivals if (y.key, y.kind) not in my_keys]
            if not missing:
                continue
            best = max(missing, key=lambda y: _similarity(ctx, _context(e, y, their_pos)))
        out.append(Signal("recombination", tuple(int(a.idx[k]) for k in x.positions),
                          e.span_text(list(best.positions))))
    return out
