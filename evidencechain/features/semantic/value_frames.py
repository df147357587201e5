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
the library, cut'). The parts of a sentence that tell all this: `frame_clauses`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .align import View
from .binding import values_with_units
from .frame_clauses import (
    FrameCues,
    FrameValue,
    anaphoric,
    appositions,
    cleft,
    comparisons,
    doer,
    frame_cues,
    fronted,
    gapped,
    lead_subject,
    opening_scene,
    pieces,
    possessive,
    relatives,
    subject_run,
    verb_like,
)
from .holder_names import Cues, Name, cues, names
from .lexicon import Lexicon, stem

_PLACES = ("GPE", "LOC", "FAC")
_MARKS = (".", ")", "]", ":")
_QUOTES = ('"', "“", "”", "'", "‘", "’", "``", "''")
"""Marks around a name that make it a title ('the raucous "Style,"'), no person."""


@dataclass(frozen=True, eq=False)
class Bound:
    """One value of a sentence and the frame of the clause that holds it."""
    view: View
    positions: tuple[int, ...]
    key: str
    kind: str
    """'year', 'day', 'n:UNIT' (an amount, its unit or '', 'duration' for any unit of time), 'place' or
    'agent' (any other name)."""
    names: frozenset[str]
    words: frozenset[str]
    """Stems of the frame's content words outside names and values."""
    others: frozenset[str]
    """'key|kind' of the frame's values of other kinds."""
    holders: frozenset[str] = frozenset()
    """The names of the clause's subject, its own or, through an anaphor, the one before it."""
    subject: bool = False
    """A name that does its clause's act (its subject, or a passive's agent)."""
    located: bool = False
    """A name after a place's preposition ('on Lake Ferrin')."""
    paired: bool = False
    """A number of a score or a range ('138-113', 'between 1989 and 2005'): no value of its own."""
    person: bool = False
    """A name of a person: tagged so, titled, or of two words or more described by a role ('the architect
    Lionel Varga', 'Lionel Varga, the architect of'); never one in quotation marks."""

    @property
    def features(self) -> frozenset[str]:
        return self.names | self.words | self.others


def _runs(v: View, c: Cues) -> list[Name]:
    """The sentence's names, a capitalised first word joined to a name right after it ('Tomasz Wielki,
    the striker'), which `names` leaves out where the tagger does not call it an entity."""
    runs = names(v, c)
    if runs and runs[0].lo == 1 and v.content(0) and v.text(0)[:1].isupper() and not v.doc.like_num[v.idx[0]] \
            and v.word(0) not in c.titles and v.word(0) not in c.months:
        runs[0] = Name(0, runs[0].hi, runs[0].words | {v.word(0)}, runs[0].person)
    return runs


def _kind(v: View, n: Name, fc: FrameCues) -> tuple[str, bool]:
    """A name's kind ('place' after a place's preposition, 'agent' for a person, else by its entity
    label) and whether a preposition tells it."""
    k = n.lo - 1 - (n.lo > 1 and v.word(n.lo - 1) == "the")
    if k >= 0 and v.word(k) in fc.place_prepositions:
        return "place", True
    doc, start = v.doc, v.doc.starts[v.idx[n.lo]]
    label = next((lab for s, t, lab in doc.entities or () if s <= start < t), "")
    return ("place" if label in _PLACES and not n.person else "agent"), False


def _values(v: View, lex: Lexicon, c: Cues, fc: FrameCues, runs: list[Name]) -> list[FrameValue]:
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
            unit = v.lemma(hi + 2) if hyphen else x.unit
            kind = "n:" + ("duration" if unit in fc.durations else unit)
        out.append(FrameValue(tuple(x.positions), x.key, kind))
    taken = {k for x in out for k in x.positions}
    for n in runs:
        ks = tuple(range(n.lo, n.hi))
        if taken.intersection(ks) or n.words & (fc.weekdays | c.months):
            continue
        kind, located = _kind(v, n, fc)
        out.append(FrameValue(ks, " ".join(v.word(k) for k in ks), kind, located))
    return sorted(out, key=lambda x: min(x.positions))


def _paired(v: View, positions: tuple[int, ...]) -> bool:
    if not positions:
        return False
    lo, hi = min(positions), max(positions)
    dash = ("-", "–", "—", "to")
    if 0 < hi + 2 < len(v) and v.word(hi + 1) in dash and v.doc.like_num[v.idx[hi + 2]]:
        return True
    if lo >= 2 and v.word(lo - 1) in dash and v.doc.like_num[v.idx[lo - 2]]:
        return True
    return any(v.word(k) == "between" for k in range(max(0, lo - 5), lo))


class _Features:
    """Features of positions of one sentence."""

    def __init__(self, v: View, vals: list[FrameValue], runs: list[Name]):
        self.v, self.vals = v, vals
        self.value_at = {k: x for x in vals for k in x.positions}
        self.name_at = {k: v.word(k) for r in runs for k in range(r.lo, r.hi)}

    def names_in(self, ks) -> frozenset[str]:
        return frozenset(self.name_at[k] for k in ks if k in self.name_at)

    def of(self, ks, x: FrameValue, holders: frozenset[str], drop=frozenset(), subject: bool = False) -> Bound:
        v, names_, words, others = self.v, set(), set(), set()
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
        own = {v.word(k) for k in x.positions}
        return Bound(v, x.positions, x.key, x.kind, frozenset(names_ | holders) - own, frozenset(words),
                     frozenset(others), frozenset(holders) - own, subject, x.located, _paired(v, x.positions))


def bind(v: View, lex: Lexicon, before: frozenset[str] = frozenset()) -> tuple[list[Bound], frozenset[str]]:
    """The values of sentence v bound to their frames, and the subject names the next sentence may take
    (`before`: those of the sentence before)."""
    c, fc = cues(), frame_cues()
    breaks = (lex.clause_breaks - lex.relative) | {";"}
    runs = _runs(v, c)
    compared, vals = comparisons(v, _values(v, lex, c, fc, runs), fc)
    feats = _Features(v, vals, runs)
    rels = relatives(v, lex, breaks)
    opening = fronted(v, lex, fc, breaks)
    inside = {k for lo, hi, _ in rels for k in range(lo, hi)} | set(range(opening + 1 if opening else 0))
    apposed = appositions(v, runs, fc)
    scene = opening_scene(v, fc, breaks)
    out: list[Bound] = []
    subject, first = before, None
    previous: tuple[list[int], list[FrameValue]] | None = None
    for ks in pieces(v, inside, vals, breaks, frozenset(compared)):
        mine = [x for x in vals if min(x.positions) in ks]
        frame = sorted(set(ks) | set(scene))
        opener = cleft(v, ks, lex, fc)  # 'It was X who scored': X scored
        cut = min([min(x.positions) for x in mine if x.kind not in ("place", "agent")]
                  + [k for k in ks if k not in opener and ((v.word(k) in fc.auxiliaries and not possessive(v, k, lex))
                                                           or verb_like(v, k, lex))] + [len(v)])
        own = feats.names_in(k for k in ks if k < cut and k not in scene and k not in apposed)
        comparison = previous is not None and ks[0] in compared
        if comparison:  # ', compared with 24 months for mice on the standard diet': its own group, the verb before
            pks, pvals = previous
            kinds = {x.kind for x in mine}
            end = min([min(x.positions) for x in pvals if x.kind in kinds] + [len(v)])
            group = lead_subject(v, [k for k in pks if k not in scene and k not in inside], end, lex, fc)
            setting: set[int] = set()
            for k in group:  # a name there with its noun ('at the Quay hospital') sets both groups
                if k in feats.name_at or (k - 1 in setting and v.content(k)):
                    setting.add(k)
            gone = [k for k in group if k not in setting]
            own = feats.names_in(k for k in ks if k >= compared[ks[0]]) | feats.names_in(group)
            frame = sorted((set(frame) - set(range(ks[0], compared[ks[0]])))
                           | (set(pks) - set(gone) - {k for x in pvals if x.kind in kinds for k in x.positions}))
        elif own:  # 'His co-defendant, Lucas Fenner,': a subject of its own
            subject = own
        is_gapped = not comparison and previous is not None and gapped(v, ks, mine, lex, fc, breaks)
        if is_gapped:
            pks, pvals = previous
            pvals = [x for x in pvals if x.kind in {x.kind for x in mine}]
            gone = subject_run(v, [k for k in pks if k not in scene], [x for x in pvals if x.kind != "agent"], fc, breaks)
            if gone:  # the verb and the rest of the clause before, less its subject and its values
                frame = sorted(set(frame) | (set(pks) - set(gone) - {k for x in pvals for k in x.positions}))
        if first is None:
            first = subject_run(v, ks, [], fc, breaks)
        holders = own or (subject if not is_gapped and anaphoric(v, ks, c, fc, breaks) else frozenset())
        for x in mine:
            n = next((r for r in runs if r.lo == min(x.positions)), None)
            role = doer(v, [k for k in ks if v.word(k) not in breaks and k not in scene and k not in opener], n, fc) \
                if n is not None and x.kind in ("place", "agent") and not x.located else None
            if role is not None:  # a name that does the act is an agent, whatever its entity label
                x = FrameValue(x.positions, x.key, "agent", x.located)
            b = feats.of(frame, x, holders, apposed | (role or set()), role is not None)
            quoted = n is not None and any(0 <= k < len(v) and v.word(k) in _QUOTES for k in (n.lo - 1, n.hi))
            described = n is not None and len(n.words) > 1 and (any(v.content(k) for k in role or ()) or n.hi in apposed)
            if n is not None and not quoted and (n.person or described):
                b = replace(b, person=True)  # by its tag, title or role ('the architect X', 'X, the architect')
            out.append(b)
        previous = (ks, mine)
    clauses = [(lo, hi, ante) for lo, hi, ante in rels]
    if opening:  # the opening participle clause's antecedent is the subject after it
        clauses.append((0, opening, first or []))
    for lo, hi, ante in clauses:
        frame = list(range(lo, hi)) + list(ante)
        for x in (x for x in vals if lo <= min(x.positions) < hi):
            out.append(feats.of(frame, x, feats.names_in(ante)))
        for i, b in enumerate(out):  # a name's relative clause is part of its frame
            if b.kind == "agent" and min(b.positions) in ante:
                r = feats.of(range(lo, hi), FrameValue(b.positions, b.key, b.kind), frozenset())
                out[i] = replace(b, names=b.names | r.names, words=b.words | r.words, others=b.others | r.others)
    return out, subject


def sentence_features(v: View, lex: Lexicon) -> frozenset[str]:
    """The features of a whole sentence: its names, content words and values."""
    runs = _runs(v, cues())
    vals = _values(v, lex, cues(), frame_cues(), runs)
    return _Features(v, vals, runs).of(range(len(v)), FrameValue((), "", ""), frozenset()).features


def evidence_bound(sentences: list[View], lex: Lexicon) -> list[Bound]:
    """Every value of the evidence's sentences bound to its frame, subjects carried across sentences."""
    out, subject = [], frozenset()
    for s in sentences:
        found, subject = bind(s, lex, subject)
        out += found
    return out
