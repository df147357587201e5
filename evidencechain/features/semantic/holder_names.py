"""Names in a sentence (runs of capitalised words) that may hold a value, and the cues that tell them
(data/holders.toml)."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .align import View, remembered

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



def names(v: View, c: Cues) -> list[Name]:
    """Runs of capitalised content words (titles, sentence-initial words outside an entity and months
    next to a number left out), each marked whether the parser tags it a person or a title opens it."""
    return remembered(v, ("names", c), lambda: _names(v, c))


def _names(v: View, c: Cues) -> list[Name]:
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



def named_in(v: View) -> frozenset[str]:
    """The words of every name of v."""
    return frozenset().union(*(n.words for n in names(v, cues())))
