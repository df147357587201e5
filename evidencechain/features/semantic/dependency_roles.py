"""Swapped roles read from dependency arcs: the parties on each side of one verb, where word order
does not tell them ('It was X who copied Y's survey' for 'Y copied X's survey'; 'X fouled Y' for
'X was fouled by Y'; 'X licensed its patent to Y' for 'Y licensed its patent to X').

For a verb that the answer sentence and an evidence sentence of its source share (same stem, or a
verb of its relation in data/relations.tsv, 'bought' / 'acquired'; not a symmetric relation), each
side's proper nouns are split into the agent's (the subject's subtree, a passive's 'by' phrase, the
noun a relative clause's 'who' stands for) and the others' (objects, objects of 'to', 'from',
'against', 'with' and 'for', a passive subject). A swap is a name on the answer's agent side that the
evidence has on the other side and a name on the answer's other side that the evidence has as agent,
with neither name on its own side in the evidence; or, the same way, the names of a 'from' and a 'to'
party exchanged ('moved from Denby United to Harlow Town' for 'was transferred from Harlow Town to
Denby United'); in a sentence without a polarity or antonym flip (a flip with exchanged parties is a
converse, `open_to_swaps`). It is shown by rule only (`detect`'s conflict rule): the fitted features
keep the word-order signals (`roles`), so fitted models are unchanged.
The parses come from `text.dependency` (cached, batched); nothing is parsed when no parser is installed.
"""
from __future__ import annotations

from dataclasses import dataclass

from .align import View
from .lexicon import Lexicon, stem

_AGENT = frozenset({"nsubj", "csubj"})
_OTHER = frozenset({"dobj", "dative", "nsubjpass", "attr", "oprd"})
_RELATIVE = frozenset({"who", "that", "which", "whom"})
_PARTY = frozenset({"to", "from", "against", "with", "for"})
"""Prepositions whose object is a party of the verb ('licensed it to Y'); 'at', 'in', 'on' name a
place or a time ('opens at the museum', 'praised on Twitter')."""
_PASSED = frozenset({"to", "from"})


@dataclass(frozen=True)
class Swap:
    names: tuple[tuple[int, int], ...]
    """Character spans, in the answer sentence, of the two exchanged names."""
    evidence: str
    """The evidence sentence's words from one party to the other."""


class Tree:
    """One parse (`text.dependency.DependencyParse`) as children lists and character offsets."""

    def __init__(self, parse):
        self.p = parse
        self.children = [[] for _ in parse.words]
        for i, h in enumerate(parse.heads):
            if h != i:
                self.children[h].append(i)
        self.offsets, at = [], 0
        for w, space in zip(parse.words, parse.spaces):
            self.offsets.append((at, at + len(w)))
            at += len(w) + bool(space)

    def subtree(self, i: int) -> list[int]:
        """The party at i with its dependents, less phrases of place or time ('Ramsey on Twitter')."""
        out, todo = [], [i]
        while todo:
            j = todo.pop()
            out.append(j)
            todo += [k for k in self.children[j]
                     if self.p.deps[k] != "prep" or self.p.words[k].lower() in _PARTY | {"of"}]
        return out

    def names(self, tokens) -> dict[str, int]:
        """Proper nouns among `tokens`, lower case -> position."""
        return {self.p.words[j].lower(): j for j in tokens if self.p.pos[j] == "PROPN"}

    def sides(self, v: int) -> tuple[dict[str, int], dict[str, int]]:
        """(agent's names, the other parties' names) of the verb at v."""
        agent, other = [], []
        kids = self.children[v]
        if not any(self.p.deps[c] in _AGENT | {"nsubjpass"} for c in kids) and self.p.deps[v] == "conj":
            kids = kids + [c for c in self.children[self.p.heads[v]] if self.p.deps[c] in _AGENT | {"nsubjpass"}]
        for c in kids:
            dep = self.p.deps[c]
            if dep in _AGENT and self.p.words[c].lower() in _RELATIVE and self.p.deps[v] == "relcl":
                head = self.p.heads[v]  # 'X who copied': the noun the clause is about
                agent += [head, *(k for k in self.children[head] if self.p.deps[k] in ("compound", "flat", "appos"))]
            elif dep in _AGENT:
                agent += self.subtree(c)
            elif dep == "agent":  # 'by X': its 'to Y' is the verb's ('was lent by X to Y', often misattached)
                for k in self.children[c]:
                    moved = [m for m in self.children[k] if self.p.deps[m] == "prep"
                             and self.p.words[m].lower() in _PASSED]
                    other += [j for m in moved for j in self.subtree(m)]
                    agent += [j for j in self.subtree(k) if j not in set(other)]
            elif dep in _OTHER:
                other += self.subtree(c)
            elif dep == "prep" and self.p.words[c].lower() in _PARTY:
                other += [j for k in self.children[c] if self.p.deps[k] == "pobj" for j in self.subtree(k)]
        return self.names(agent), self.names(other)

    def directions(self, v: int) -> tuple[dict[str, int], dict[str, int]]:
        """(names of the verb's 'from' party, names of its 'to' party): 'moved from X to Y'."""
        ends = {"from": [], "to": []}
        for c in self.children[v]:
            w = self.p.words[c].lower()
            if self.p.deps[c] == "prep" and w in ends:
                ends[w] += [j for k in self.children[c] if self.p.deps[k] == "pobj" for j in self.subtree(k)]
        return self.names(ends["from"]), self.names(ends["to"])

    def verbs(self, lex: Lexicon) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for i, (w, pos) in enumerate(zip(self.p.words, self.p.pos)):
            if pos == "VERB" and w.lower() not in lex.symmetric:
                out.setdefault(stem(w.lower()), []).append(i)
        return out

    def name_span(self, i: int) -> tuple[int, int]:
        """The whole name the proper noun at i belongs to (its compound / flat chain)."""
        lo = hi = i
        while lo > 0 and self.p.pos[lo - 1] == "PROPN":
            lo -= 1
        while hi + 1 < len(self.p.words) and self.p.pos[hi + 1] == "PROPN":
            hi += 1
        return self.offsets[lo][0], self.offsets[hi][1]


def swaps(answer, evidence: list, lex: Lexicon) -> list[Swap]:
    """Role swaps of the answer sentence's parse against its evidence sentences' parses: only where
    some evidence sentence states the exchange and none has the answer's agent as the verb's agent
    (the other parties may well be shared: 'the estate' is sold on both sides)."""
    a = Tree(answer)
    stated = [(e, e.verbs(lex)) for e in map(Tree, evidence)]
    out = []
    for key, positions in a.verbs(lex).items():
        for v in positions:
            matched = [(e, w) for e, verbs in stated for k in (key, *lex.verb_relations.get(key, ()))
                       for w in verbs.get(k, ())]
            for mine, yours, side in ((*a.sides(v), Tree.sides), (*a.directions(v), Tree.directions)):
                found = _exchanged(a, mine, yours, matched, side)
                if found is not None:
                    out.append(found)
    return out


def _exchanged(a: Tree, mine: dict[str, int], yours: dict[str, int], verbs: list[tuple[Tree, int]], side) -> Swap | None:
    """The swap of the answer verb's two parties (`mine`: its agent's or 'from' names, `yours`: the
    others' or 'to' names) against the evidence verbs, read the same way (`side`); None where some
    evidence verb has the answer's first party where the answer has it."""
    found, kept = None, False
    for e, w in verbs:
        first, second = side(e, w)
        kept |= bool(set(mine) & set(first))
        xs = [x for x in mine if x in second and x not in first]
        ys = [y for y in yours if y in first and y not in second]
        if xs and ys and found is None:
            (s1, t1), (s2, t2) = e.name_span(second[xs[0]]), e.name_span(first[ys[0]])
            found = Swap((a.name_span(mine[xs[0]]), a.name_span(yours[ys[0]])), e.p.text[min(s1, s2):max(t1, t2)])
    return None if kept else found


def open_to_swaps(signals) -> bool:
    """Whether an answer sentence with these word-order signals is read for dependency swaps: none
    is confident, and none is a polarity or antonym flip (a flip with exchanged parties is a
    converse, 'Y holds less than X' for 'X holds more than Y', which keeps the meaning)."""
    return not any(s.confident or s.cls in ("polarity", "antonym") for s in signals)


def candidates(a: View, sentences: list[View]) -> list[View]:
    """Evidence sentences worth a dependency parse against answer sentence a: they share at least
    two capitalised words (not sentence-initial) with it, and a content word that is not one."""
    caps = [a.keys(k) for k in range(1, len(a)) if a.content(k) and a.text(k)[:1].isupper()]
    rest = [a.keys(k) for k in range(len(a)) if a.content(k) and not a.text(k)[:1].isupper()]
    if len(caps) < 2:
        return []
    return [e for e in sentences if sum(bool(c & e.all_keys) for c in caps) >= 2
            and any(r & e.content_keys for r in rest)]


def read_pairs(pairs: list[tuple[str, list[str]]], read, cache=None) -> list[list]:
    """`read(answer parse, evidence parses, lexicon)` of each (answer sentence, its candidate evidence
    sentences), every distinct text parsed once, in one batch; none where no parser is installed."""
    from ...text.dependency import dependency_parses
    from .lexicon import lexicon

    texts = sorted({t for answer, others in pairs for t in (answer, *others)})
    try:
        parses = dict(zip(texts, dependency_parses(texts, cache=cache, progress=False))) if texts else {}
    except LookupError:
        return [[] for _ in pairs]
    lex = lexicon()
    return [read(parses[answer], [parses[t] for t in others], lex) for answer, others in pairs]


def swaps_of(pairs: list[tuple[str, list[str]]], cache=None) -> list[list[Swap]]:
    """`swaps` of each (answer sentence, its candidate evidence sentences) (`read_pairs`)."""
    return read_pairs(pairs, swaps, cache)
