"""The attribute ruler's matches, found without spaCy's Matcher: the same matches, faster.

spaCy's `AttributeRuler` runs a `Matcher` of its patterns (179 in the English models) over every
token of every text; that is about a fifth of the token pipeline's time. Its patterns are short
runs of token conditions (string equality, IN, NOT_IN, REGEX, a boolean flag) on a few string
attributes, so each token's matching conditions depend only on its values of those attributes:
they are computed once per distinct combination and remembered, and a pattern matches where its
conditions hold on consecutive tokens. `fast_match` replaces the ruler's `match` with that when
every pattern is of this kind (else the ruler is left as it is); the matches, their order and
so what the ruler sets are the Matcher's.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from spacy.attrs import DEP, IS_SPACE, LOWER, NORM, ORTH, TAG

STRING_ATTRS = {"ORTH": ORTH, "LOWER": LOWER, "NORM": NORM, "TAG": TAG, "DEP": DEP}
FLAG_ATTRS = {"IS_SPACE": IS_SPACE}
MEMO_LIMIT = 1_000_000
"""Distinct token rows remembered per ruler (then forgotten and learnt again)."""


def _condition(value) -> Callable[[object], bool] | None:
    """The test of one attribute's pattern value, or None for a kind not handled here."""
    if isinstance(value, bool):
        return lambda v: v == value
    if isinstance(value, str):
        return lambda v: v == value
    if isinstance(value, dict) and len(value) == 1:
        (op, arg), = value.items()
        if op in ("IN", "NOT_IN") and isinstance(arg, list) and all(isinstance(a, str) for a in arg):
            members = frozenset(arg)
            return (lambda v: v in members) if op == "IN" else (lambda v: v not in members)
        if op == "REGEX" and isinstance(arg, str):
            pattern = re.compile(arg)
            return lambda v: pattern.search(v) is not None
    return None


def _element(spec: dict, attrs: list[str]) -> list[tuple[int, Callable]] | None:
    """(attribute position, test) per condition of one token pattern; None if not handled."""
    out = []
    for name, value in spec.items():
        if name not in attrs:
            return None
        test = _condition(value)
        if test is None or isinstance(value, bool) != (name in FLAG_ATTRS):
            return None
        out.append((attrs.index(name), test))
    return out


class RulerMatch:
    """`AttributeRuler.match` for rulers whose patterns `_element` handles (`compiled` is None
    otherwise)."""

    def __init__(self, ruler):
        self.strings = ruler.vocab.strings
        self.compiled: list[tuple[int, int, list]] | None = []
        used = {name for entry in ruler.patterns for pattern in entry["patterns"] for spec in pattern
                if isinstance(spec, dict) for name in spec}
        self.attrs = [a for a in STRING_ATTRS if a in used] + [a for a in FLAG_ATTRS if a in used]
        self.ids = [STRING_ATTRS.get(a) or FLAG_ATTRS[a] for a in self.attrs]
        self.flags = sum(a in STRING_ATTRS for a in self.attrs)
        self.memo: dict[tuple, tuple[tuple, tuple, frozenset]] = {}
        if not self.attrs or not used <= set(self.attrs):
            self.compiled = None
            return
        self.gated: dict[tuple[int, str], list[tuple[int, int]]] = {}
        """(attribute position, value) -> the (pattern, position) conditions that require it."""
        self.ungated: list[tuple[int, int]] = []
        for i, entry in enumerate(ruler.patterns):
            key = self.strings[str(i)]
            for pattern in entry["patterns"]:
                elements = [_element(spec, self.attrs) if isinstance(spec, dict) else None for spec in pattern]
                if not elements or any(e is None for e in elements):
                    self.compiled = None
                    return
                for j, spec in enumerate(pattern):
                    gate = next(((self.attrs.index(a), v) for a, v in spec.items() if isinstance(v, str)), None)
                    (self.gated.setdefault(gate, []) if gate else self.ungated).append((len(self.compiled), j))
                self.compiled.append((i, key, elements))

    def _token(self, row: tuple) -> tuple[tuple, tuple, frozenset]:
        """(patterns matching this token alone, longer patterns it may start, (pattern, position)
        conditions it meets)."""
        values = [self.strings[h] for h in row[:self.flags]] + [bool(f) for f in row[self.flags:]]
        alone, first, met = [], [], set()
        for p, j in (*self.ungated, *(c for a, v in enumerate(values[:self.flags]) for c in self.gated.get((a, v), ()))):
            elements = self.compiled[p][2]
            if all(test(values[a]) for a, test in elements[j]):
                met.add((p, j))
                if len(elements) == 1:
                    alone.append(p)
                elif j == 0:
                    first.append(p)
        alone.sort()
        first.sort()
        return tuple(alone), tuple(first), frozenset(met)

    def __call__(self, doc) -> list[tuple[int, int, int, int]]:
        """The ruler's `match(doc)`: (attribute index, match key, start, end), sorted."""
        n = len(doc)
        if not n:
            return []
        if len(self.memo) > MEMO_LIMIT:
            self.memo.clear()
        memo, compiled = self.memo, self.compiled
        found, met, starts = [], [], []
        for i, row in enumerate(map(tuple, doc.to_array(self.ids).reshape(n, len(self.ids)).tolist())):
            entry = memo.get(row)
            if entry is None:
                entry = memo[row] = self._token(row)
            for p in entry[0]:
                found.append((compiled[p][0], compiled[p][1], i, i + 1))
            starts.extend((p, i) for p in entry[1])
            met.append(entry[2])
        for p, i in starts:
            index, key, elements = compiled[p]
            if i + len(elements) <= n and all((p, j) in met[i + j] for j in range(1, len(elements))):
                found.append((index, key, i, i + len(elements)))
        found.sort()
        return found


def fast_match(nlp) -> None:
    """Give each attribute ruler of `nlp` the Matcher-free `match` (`RulerMatch`) when it handles
    all the ruler's patterns."""
    for name in nlp.component_names:
        if nlp.get_pipe_meta(name).factory != "attribute_ruler":
            continue
        ruler = nlp.get_pipe(name)
        if isinstance(ruler.__dict__.get("match"), RulerMatch):
            continue
        match = RulerMatch(ruler)
        if match.compiled is not None and len(ruler.matcher) == len(ruler.attrs):
            ruler.match = match
