"""Values bound to the frame of their clause: every value of a sentence (a year, a day, an amount with
its unit, a place, a name) with the names, content words and other values of the clause that holds
it, the event it belongs to.

A sentence is cut into clauses at its clause words ('and', 'while', ';', ...); a piece without a
value or without a word besides its values joins the clause before it ('between Tolvik and Greer
Island'). A relative clause after a comma (', which opened in 1979,') is a clause of its own, framed
with its antecedent; a gapped conjunct, one with only its subject and its value ('the rowing races
will be held on Lake Ferrin and the sprint canoe events on the Tarrow reservoir'), shares the verb
and the rest of the clause before it, less that clause's subject; a sentence that opens with a
scene ('At the 2026 regatta,') sets it for all its clauses; a clause that opens with an anaphor or
without a subject ('its second telescope was', 'and later installed') takes the names of the
subject before it, across sentences and passages. A name that opens its clause is its subject
(`Bound.subject`): its frame leaves out a description around it ('Lionel Varga, the architect of
the library, cut').
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .align import View
from .binding import values_with_units
from .holder_names import Cues, Name, cues, names
from .lexicon import Lexicon, stem

_PLACES = ("GPE", "LOC", "FAC")
_MARKS = (".", ")", "]", ":")


@dataclass(frozen=True)
class FrameCues:
    weekdays: frozenset[str]
    place_prepositions: frozenset[str]
    scene_openers: frozenset[str]
    auxiliaries: frozenset[str]
    determiners: frozenset[str]
    min_frame_cover: float
    min_frame_words: int


@cache
def frame_cues() -> FrameCues:
    raw = tomllib.loads(resources.files(__package__).joinpath("data", "holders.toml").read_text(encoding="utf-8"))
    return FrameCues(*(frozenset(raw[k]) for k in ("weekdays", "place_prepositions", "scene_openers", "auxiliaries",
                                                   "determiners")),
                     float(raw["min_frame_cover"]), int(raw["min_frame_words"]))


@dataclass(frozen=True)
class Bound:
    """One value of a sentence and the frame of the clause that holds it."""
    view: View
    positions: tuple[int, ...]
    key: str
    kind: str
    """'year', 'day', 'n:UNIT' (an amount, its unit or ''), 'place' or 'agent' (any other name)."""
    names: frozenset[str]
    words: frozenset[str]
    """Stems of the frame's content words outside names and values."""
    others: frozenset[str]
    """'key|kind' of the frame's values of other kinds."""
    subject: bool = False

    @property
    def features(self) -> frozenset[str]:
        return self.names | self.words | self.others


@dataclass(frozen=True)
class _Value:
    positions: tuple[int, ...]
    key: str
    kind: str


def _place(v: View, n: Name, fc: FrameCues) -> bool:
    doc, start = v.doc, v.doc.starts[v.idx[n.lo]]
    if any(s <= start < t and label in _PLACES for s, t, label in doc.entities or ()):
        return True
    k = n.lo - 1 - (n.lo > 1 and v.word(n.lo - 1) == "the")
    return k >= 0 and v.word(k) in fc.place_prepositions


def _values(v: View, lex: Lexicon, c: Cues, fc: FrameCues, runs: list[Name]) -> list[_Value]:
    out = []
    for x in values_with_units(v, lex):
        lo, hi = min(x.positions), max(x.positions)
        if lo == 0 and hi + 1 < len(v) and v.word(hi + 1) in _MARKS:
            continue  # a list item's number
        if x.key.endswith(" year"):
            kind = "year"
        elif any(0 <= k < len(v) and v.word(k) in c.months for k in (lo - 1, hi + 1)):
            kind = "day"
        else:  # 'a two-year sentence': the unit after a hyphen
            hyphen = not x.unit and hi + 2 < len(v) and v.word(hi + 1) == "-"
            kind = "n:" + (v.lemma(hi + 2) if hyphen else x.unit)
        out.append(_Value(tuple(x.positions), x.key, kind))
    taken = {k for x in out for k in x.positions}
    for n in runs:
        ks = tuple(range(n.lo, n.hi))
        if taken.intersection(ks) or n.words & (fc.weekdays | c.months):
            continue
        out.append(_Value(ks, " ".join(v.word(k) for k in ks), "place" if _place(v, n, fc) else "agent"))
    return sorted(out, key=lambda x: min(x.positions))


def _relatives(v: View, lex: Lexicon, breaks: frozenset[str]) -> list[tuple[int, int, int]]:
    """(start, end, antecedent start) of each relative clause opened after a comma; the antecedent
    runs back from the comma to the punctuation or clause word before it."""
    out = []
    for k in range(2, len(v)):
        if v.word(k) in lex.relative and v.word(k - 1) == ",":
            end = next((m for m in range(k + 1, len(v)) if v.word(m) in (",", ";")), len(v))
            j = k - 2
            while j >= 0 and not v.punct(j) and v.word(j) not in breaks:
                j -= 1
            out.append((k, end, j + 1))
    return out


def _description(v: View, n: Name, lo: int, hi: int, fc: FrameCues) -> set[int]:
    """The words around a name that opens its clause and only describe it: a role before it ('the
    architect Lionel Varga') and an apposition after it (', the architect of the library,')."""
    out = set(range(lo, n.lo))
    if n.hi + 1 < hi and v.word(n.hi) == "," and v.word(n.hi + 1) in fc.determiners:
        end = next((m for m in range(n.hi + 1, hi) if v.word(m) == ","), None)
        if end is not None and not any(v.word(m) in fc.auxiliaries for m in range(n.hi, end)):
            out.update(range(n.hi, end + 1))
    return out


def _opens(v: View, ks: list[int], n: Name, fc: FrameCues) -> bool:
    """Whether the name opens the clause of positions ks: before it only clause words, punctuation,
    articles and a role ('the architect')."""
    before = [k for k in ks if k < n.lo]
    words = [k for k in before if v.content(k) and not v.punct(k)]
    plain = not any(v.word(k) in fc.auxiliaries or v.doc.like_num[v.idx[k]] or v.text(k)[:1].isupper() for k in words)
    return plain and len(words) <= 2 and (not words or any(v.word(k) in fc.determiners for k in before))


def _anaphoric(v: View, ks: list[int], c: Cues, fc: FrameCues, breaks: frozenset[str]) -> bool:
    """Whether the clause opens with an anaphor ('its second telescope') or, after a clause word,
    without a subject ('and later installed')."""
    rest = [k for k in ks if not v.punct(k)]
    lead = bool(rest) and v.word(rest[0]) in breaks
    rest = rest[lead:]
    if not rest:
        return False
    if any(tuple(v.word(j) for j in rest[:len(a)]) == a for a in c.anaphors):
        return True
    first = rest[0]
    return lead and not (v.word(first) in fc.determiners or v.text(first)[:1].isupper()
                         or v.doc.like_num[v.idx[first]] or v.word(first) in c.anaphors)


def _subject_run(v: View, ks: list[int], vals: list[_Value], runs: list[Name], fc: FrameCues) -> list[int]:
    """The subject of a clause: its words before its first auxiliary before `vals` ('the rowing races
    will'), else the name that opens it ('Smith scored in 1990'); [] where neither tells."""
    first = min((min(x.positions) for x in vals), default=len(v))
    aux = next((k for k in ks if k < first and v.word(k) in fc.auxiliaries), None)
    if aux is not None:
        out = []
        for k in reversed([k for k in ks if k < aux]):
            if v.punct(k) or not (v.content(k) or v.word(k) in fc.determiners):
                break
            out.append(k)
        return [k for k in out if v.content(k)]
    content = [k for k in ks if v.content(k)]
    run = next((r for r in runs if content and r.lo == content[0]), None)
    return list(range(run.lo, run.hi)) if run else []


def _gapped(v: View, ks: list[int], vals: list[_Value], fc: FrameCues, breaks: frozenset[str]) -> bool:
    """Whether a conjunct has its verb gapped: after its clause word only a noun phrase and function
    words before its first value ('and the sprint canoe events on the Tarrow reservoir')."""
    if not vals or not ks or v.word(ks[0]) not in breaks:
        return False
    first = min(min(x.positions) for x in vals)
    before = [k for k in ks[1:] if k < first and not v.punct(k)]
    content = [k for k in before if v.content(k)]
    if not content or content != list(range(content[0], content[-1] + 1)):
        return False
    return not any(v.word(k) in fc.auxiliaries for k in before)


def _pieces(v: View, skip: set[int], vals: list[_Value], breaks: frozenset[str]) -> list[list[int]]:
    """The clauses of v outside `skip` (relative clauses) as position lists; a piece without a value
    or without a content word outside its values joins the one before it (the next when first)."""
    in_value = {k for x in vals for k in x.positions}
    raw: list[list[int]] = [[]]
    for k in range(len(v)):
        if k in skip:
            continue
        if (v.word(k) in breaks or v.word(k) == ";") and raw[-1]:
            raw.append([])
        raw[-1].append(k)
    out: list[list[int]] = []
    carried: list[int] = []
    for ks in raw:
        ks = carried + ks
        strong = any(k in in_value for k in ks) and any(v.content(k) and k not in in_value and v.word(k) not in breaks
                                                       and not v.doc.like_num[v.idx[k]] for k in ks)
        if strong:
            out.append(ks)
            carried = []
        elif out:
            out[-1] += ks
        else:
            carried = ks
    if carried:
        out.append(carried)
    return out


class _Features:
    """Features of positions of one sentence."""

    def __init__(self, v: View, vals: list[_Value], runs: list[Name]):
        self.v, self.vals = v, vals
        self.value_at = {k: x for x in vals for k in x.positions}
        self.name_at = {k: v.word(k) for r in runs for k in range(r.lo, r.hi)}

    def of(self, ks, x: _Value, extra_names: frozenset[str] = frozenset(), drop: set[int] = frozenset(),
           subject: bool = False) -> Bound:
        v, names_, words, others = self.v, set(extra_names), set(), set()
        for k in ks:
            y = self.value_at.get(k)
            if k in x.positions or k in drop or (y is not None and y.kind == x.kind):
                continue
            if k in self.name_at:
                names_.add(self.name_at[k])
            elif y is not None:
                others.add(f"{y.key}|{y.kind}")
            elif v.content(k) and not v.doc.like_num[v.idx[k]]:
                words.add(stem(v.lemma(k)))
        names_ -= {v.word(k) for k in x.positions}
        return Bound(v, x.positions, x.key, x.kind, frozenset(names_), frozenset(words), frozenset(others), subject)


def bind(v: View, lex: Lexicon, before: frozenset[str] = frozenset()) -> tuple[list[Bound], frozenset[str]]:
    """The values of sentence v bound to their frames, and the subject names the next sentence may take
    (`before`: those of the sentence before)."""
    c, fc = cues(), frame_cues()
    breaks = (lex.clause_breaks - lex.relative) | {";"}
    runs = names(v, c)
    vals = _values(v, lex, c, fc, runs)
    feats = _Features(v, vals, runs)
    relatives = _relatives(v, lex, breaks)
    inside = {k for lo, hi, _ in relatives for k in range(lo, hi)}
    scene: list[int] = []
    if len(v) and v.word(0) in fc.scene_openers:
        comma = next((k for k in range(len(v)) if v.word(k) == ","), None)
        if comma is not None and not any(v.word(k) in breaks for k in range(comma)):
            scene = list(range(comma))
    out: list[Bound] = []
    subject = before
    previous: tuple[list[int], list[_Value]] | None = None
    for ks in _pieces(v, inside, vals, breaks):
        mine = [x for x in vals if min(x.positions) in ks]
        frame = sorted(set(ks) | set(scene))
        own = frozenset(v.word(k) for k in ks if k in feats.name_at and k < min(
            (min(x.positions) for x in mine if x.kind not in ("place", "agent")), default=len(v)))
        inherited = frozenset()
        if own:  # 'His co-defendant, Lucas Fenner,': a subject of its own
            subject = own
        elif _anaphoric(v, ks, c, fc, breaks):
            inherited = subject
        if previous is not None and _gapped(v, ks, mine, fc, breaks):
            pks, pvals = previous
            kinds = {x.kind for x in mine}
            pvals = [x for x in pvals if x.kind in kinds]
            drop = set(_subject_run(v, pks, pvals, runs, fc)) | {k for x in pvals for k in x.positions}
            if drop:
                frame = sorted(set(frame) | (set(pks) - drop))
        for x in mine:
            n = next((r for r in runs if r.lo == min(x.positions)), None)
            opens = x.kind == "agent" and n is not None and _opens(v, ks, n, fc)
            drop = _description(v, n, ks[0], ks[-1] + 1, fc) if opens else set()
            out.append(feats.of(frame, x, inherited, drop, opens))
        previous = (ks, mine)
    for lo, hi, ante in relatives:
        frame = list(range(ante, hi))
        for x in (x for x in vals if lo <= min(x.positions) < hi):
            out.append(feats.of(frame, x))
        for i, b in enumerate(out):  # a name's relative clause is part of its frame
            if b.kind == "agent" and ante <= min(b.positions) and max(b.positions) < lo:
                r = feats.of(range(lo, hi), _Value(b.positions, b.key, b.kind))
                out[i] = Bound(v, b.positions, b.key, b.kind, b.names | r.names, b.words | r.words,
                               b.others | r.others, b.subject)
    return out, subject


def evidence_bound(sentences: list[View], lex: Lexicon) -> list[Bound]:
    """Every value of the evidence's sentences bound to its frame, subjects carried across sentences."""
    out, subject = [], frozenset()
    for s in sentences:
        found, subject = bind(s, lex, subject)
        out += found
    return out
