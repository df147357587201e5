"""Values recombined from the evidence: a date, amount or name the evidence states, attached in
the answer to another event than in the evidence (two values swapped, or a value taken from
another evidence sentence in place of the one the aligned sentence gives)."""
from __future__ import annotations

from dataclasses import dataclass

from .align import View, alignment
from .base import Signal
from .lexicon import Lexicon
from .quantities import quantities

WINDOW = 4
_NAMES = {"PERSON": "person", "ORG": "organisation", "GPE": "place", "LOC": "place", "FAC": "place",
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


def _context(v: View, value: Value, vals: list[Value]) -> frozenset[str]:
    """Content lemmas near the value; values of its own kind are left out (they are what moves)."""
    lo, hi = min(value.positions), max(value.positions)
    others = {k for x in vals if x.kind == value.kind for k in x.positions}
    ks = [k for k in range(max(0, lo - WINDOW), min(len(v), hi + WINDOW + 1))
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
            if order_kept or fit <= _similarity(ctx, _context(e, own, theirs)) + 0.1:
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
