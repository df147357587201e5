"""One of several stated as the only one: 'the oldest horse race' for 'one of the oldest horse
races', 'the first woman admitted' for 'one of the first women admitted' (a quantifier shift, class
modality). The answer has the evidence's rank word after 'the' with no group before it, and the
noun after it in the singular where the evidence's is plural."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .align import View, remembered
from .base import Signal


@dataclass(frozen=True)
class UniquenessCues:
    groups: tuple[tuple[str, ...], ...]
    ranks: frozenset[str]
    not_superlatives: frozenset[str]
    reach: int


@cache
def cues() -> UniquenessCues:
    raw = tomllib.loads(resources.files(__package__).joinpath("data", "cues.toml").read_text(encoding="utf-8"))
    u = raw["uniqueness"]
    return UniquenessCues(tuple(tuple(g.split()) for g in u["groups"]), frozenset(u["ranks"]),
                          frozenset(u["not_superlatives"]), int(u["reach"]))


def _rank(v: View, k: int, c: UniquenessCues) -> bool:
    w = v.word(k)
    return w in c.ranks or (len(w) >= 5 and w.endswith("est") and w not in c.not_superlatives)


def _after(v: View, k: int, reach: int) -> list[int]:
    """The `reach` words after position k, up to the end of the clause ('show' is a stop word)."""
    out = []
    for j in range(k + 1, min(len(v), k + 1 + reach)):
        if v.punct(j):
            break
        out.append(j)
    return out


def _plural(v: View, j: int) -> bool:
    w = v.word(j)
    return w != v.lemma(j) and not w.endswith(("ed", "ing", "est", "er"))


def _opens_group(v: View, k: int, c: UniquenessCues) -> int | None:
    """The first position of a group ending right before k ('one of the' before 'oldest'), if any."""
    for g in c.groups:
        lo = k - len(g)
        if lo >= 0 and tuple(v.word(i) for i in range(lo, k)) == g:
            return lo
    return None


def grouped_ranks(e: View, c: UniquenessCues) -> list[tuple[int, int, list[int]]]:
    """(group start, rank position, plural nouns after it) of every ranked group of e."""
    def compute():
        out = []
        for k in range(1, len(e)):
            lo = _opens_group(e, k, c)
            if lo is None or not _rank(e, k, c):
                continue
            plural = [j for j in _after(e, k, c.reach) if _plural(e, j)]
            if plural:
                out.append((lo, k, plural))
        return out
    return remembered(e, ("uniqueness",), compute)


def uniqueness_shifts(a: View, e: View) -> list[Signal]:
    c = cues()
    out = []
    for lo, r, plural in grouped_ranks(e, c):
        nouns = frozenset().union(*(e.keys(j) for j in plural))
        for k in range(1, len(a)):
            if a.word(k) != e.word(r) or a.word(k - 1) != "the" or _opens_group(a, k, c) is not None:
                continue
            if any(a.word(i) in ("one", "among", "some", "several") for i in range(max(0, k - 4), k)):
                continue
            single = [j for j in _after(a, k, c.reach) if a.keys(j) & nouns and a.word(j) == a.lemma(j)]
            if single:
                out.append(Signal("modality", (int(a.idx[k - 1]), int(a.idx[k])), e.span_text(list(range(lo, r + 1)))))
    return out
