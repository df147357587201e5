"""Swapped roles: the same relation with subject and object exchanged ("A defeated B" for
"B defeated A"); a passive on one side only ("B was defeated by A") reverses the order back."""
from __future__ import annotations

from .align import View
from .base import Signal

_LINKS = frozenset({"the", "a", "an", "and", "or", "but", "'s", "'", "-"})
_NAMED = frozenset({"PERSON", "ORG", "GPE", "NORP", "LOC", "FAC", "PRODUCT", "EVENT", "WORK_OF_ART"})
_BE = frozenset({"is", "are", "was", "were", "been", "being", "be", "'s", "got", "get", "gets"})


def _passive(v: View, k: int) -> bool:
    """A form of 'be' just before the word and 'by' just after it: 'was acquired by'."""
    before = any(v.word(j) in _BE for j in range(max(0, k - 2), k))
    return before and k + 1 < len(v) and v.word(k + 1) == "by"


def _argument(v: View, k: int, step: int, shared: frozenset[str], names: dict) -> int | None:
    """The nearest shared name (else content word) from position k in direction `step`, in the clause."""
    j, first = k + step, None
    while 0 <= j < len(v):
        if v.punct(j) and v.word(j) not in ("'s", "-"):
            break
        if v.keys(j) & shared and (v.content(j) or j in names):
            if j in names:
                return j
            first = j if first is None else first
        j += step
    return first


def _names(v: View) -> dict[int, tuple[int, ...]]:
    """Position of every token inside a named entity -> the positions of its whole entity."""
    doc, out = v.doc, {}
    for s, t, label in v.doc.entities or ():
        if label in _NAMED:
            whole = tuple(k for k in range(len(v)) if s <= doc.starts[v.idx[k]] < t)
            out.update({k: whole for k in whole})
    return out


def _unique(v: View, keys: frozenset[str]) -> int | None:
    hits = v.find(keys)
    return hits[0] if len(hits) == 1 else None


def role_swaps(a: View, e: View) -> list[Signal]:
    out, seen = [], set()
    shared = a.all_keys & e.all_keys
    names, their_names = _names(a), _names(e)
    for r in range(len(a)):
        if a.punct(r) or r in names or a.word(r) in _LINKS or not (a.keys(r) & shared):
            continue
        x, y = _argument(a, r, -1, shared, names), _argument(a, r, 1, shared, names)
        if x is None or y is None or a.keys(x) & a.keys(y):
            continue
        er, ex, ey = _unique(e, a.keys(r)), _unique(e, a.keys(x)), _unique(e, a.keys(y))
        if er is None or ex is None or ey is None:
            continue
        named = (x in names or ex in their_names, y in names or ey in their_names)
        if named[0] != named[1] or (not named[0] and not a.content(r)):
            continue
        if not (min(ex, ey) < er < max(ex, ey)):
            continue
        swapped = (ex > er) != (_passive(a, r) != _passive(e, er))
        if swapped and (x, y) not in seen:
            seen.add((x, y))
            shown = e.span_text(list(range(min(ex, ey), max(ex, ey) + 1)))
            words = sorted({*names.get(x, (x,)), *names.get(y, (y,))})
            out.append(Signal("roles", tuple(int(a.idx[k]) for k in words), shown))
    return out
