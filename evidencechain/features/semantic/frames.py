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
from dataclasses import dataclass, replace
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
    durations: frozenset[str]
    irregular_past: frozenset[str]
    min_frame_cover: float
    min_frame_words: int
    min_act_words: int


@cache
def frame_cues() -> FrameCues:
    raw = tomllib.loads(resources.files(__package__).joinpath("data", "holders.toml").read_text(encoding="utf-8"))
    return FrameCues(*(frozenset(raw[k]) for k in ("weekdays", "place_prepositions", "scene_openers", "auxiliaries",
                                                   "determiners", "durations", "irregular_past")),
                     float(raw["min_frame_cover"]), int(raw["min_frame_words"]), int(raw["min_act_words"]))


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
    """A name of a person: tagged so, titled, or described by a role ('the architect Lionel Varga')."""

    @property
    def features(self) -> frozenset[str]:
        return self.names | self.words | self.others


@dataclass(frozen=True)
class _Value:
    positions: tuple[int, ...]
    key: str
    kind: str
    located: bool = False
    """A name after a place's preposition ('on Lake Ferrin')."""


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
            unit = v.lemma(hi + 2) if hyphen else x.unit
            kind = "n:" + ("duration" if unit in fc.durations else unit)
        out.append(_Value(tuple(x.positions), x.key, kind))
    taken = {k for x in out for k in x.positions}
    for n in runs:
        ks = tuple(range(n.lo, n.hi))
        if taken.intersection(ks) or n.words & (fc.weekdays | c.months):
            continue
        kind, located = _kind(v, n, fc)
        out.append(_Value(ks, " ".join(v.word(k) for k in ks), kind, located))
    return sorted(out, key=lambda x: min(x.positions))


def _relatives(v: View, lex: Lexicon, breaks: frozenset[str]) -> list[tuple[int, int, range]]:
    """(start, end, antecedent) of each relative clause opened after a comma; the antecedent runs back
    from the comma to the punctuation or clause word before it."""
    out = []
    for k in range(2, len(v)):
        if v.word(k) in lex.relative and v.word(k - 1) == ",":
            end = next((m for m in range(k + 1, len(v)) if v.word(m) in (",", ";")), len(v))
            j = k - 2
            while j >= 0 and not v.punct(j) and v.word(j) not in breaks:
                j -= 1
            if j > 0 and v.word(j) == "," and all(v.doc.like_num[v.idx[m]] or not v.content(m) for m in range(j + 1, k - 1)):
                j -= 1  # 'Brian Rice, 41, who joined': the name before the age
                while j >= 0 and not v.punct(j) and v.word(j) not in breaks:
                    j -= 1
            out.append((k, end, range(j + 1, k - 1)))
    return out


def _fronted(v: View, lex: Lexicon, fc: FrameCues, breaks: frozenset[str]) -> int | None:
    """The comma that closes an opening participle clause ('Founded in 1926, Marra Textiles ...')."""
    w = v.word(0) if len(v) else ""
    if w in fc.scene_openers or not (w.endswith(("ed", "en")) or w in lex.participles):
        return None
    comma = next((k for k in range(len(v)) if v.word(k) == ","), None)
    return comma if comma is not None and not any(v.word(k) in breaks for k in range(comma)) else None


def _appositions(v: View, runs: list[Name], fc: FrameCues) -> set[int]:
    """Noun phrases set off by commas after a name that only describe it (', the architect of the
    library,'): they open with an article or a possessive and hold no verb group."""
    out: set[int] = set()
    for n in runs:
        if n.hi + 1 < len(v) and v.word(n.hi) == "," and v.word(n.hi + 1) in fc.determiners:
            end = next((m for m in range(n.hi + 1, len(v)) if v.word(m) == ","), None)
            if end is not None and not any(v.word(m) in fc.auxiliaries for m in range(n.hi, end)):
                out.update(range(n.hi, end + 1))
    return out


def _doer(v: View, ks: list[int], n: Name, fc: FrameCues) -> set[int] | None:
    """Whether a name does its clause's act, and the words before it that only describe it: a name that
    opens its clause, or a passive's agent after 'by', with at most an article and a role before it
    ('the architect Lionel Varga'), or set off by commas after the noun phrase that opens the clause
    ('The mayor of Quillsby, Dorota Hensch, cut'). None where the name does not do the act."""
    if n.lo >= 2 and v.word(n.lo - 1) == "," and n.hi < len(v) and v.word(n.hi) == "," and ks and ks[0] < n.lo \
            and v.word(ks[0]) in fc.determiners:  # 'The mayor of Quillsby, Dorota Hensch, cut'
        lead = [k for k in ks if k < n.lo]
        if not any((v.word(k) in fc.auxiliaries and v.word(k) != "'s") or v.doc.like_num[v.idx[k]] for k in lead) \
                and len(lead) <= 8:  # "'s": a possessive there ('The club's captain, Nadia Oyelaran,')
            return set(lead) | {n.hi}
    before = [k for k in ks if k < n.lo and not v.punct(k)]
    by = max((i for i, k in enumerate(before) if v.word(k) == "by"), default=None)
    role = before[by + 1:] if by is not None else before
    words = [k for k in role if v.content(k)]
    if any(v.word(k) in fc.auxiliaries or v.doc.like_num[v.idx[k]] or v.text(k)[:1].isupper() for k in words):
        return None
    if len(words) > 2 or (words and not any(v.word(k) in fc.determiners for k in role)) \
            or any(not v.content(k) and v.word(k) not in fc.determiners for k in role):
        return None
    return set(role)


def _anaphoric(v: View, ks: list[int], c: Cues, fc: FrameCues, breaks: frozenset[str]) -> bool:
    """Whether the clause opens with an anaphor ('its second telescope') or, after a clause word, with a
    definite noun ('and the light was') or without a subject ('and later installed')."""
    rest = [k for k in ks if not v.punct(k)]
    lead = bool(rest) and v.word(rest[0]) in breaks
    rest = rest[lead:]
    if not rest:
        return False
    if any(tuple(v.word(j) for j in rest[:len(a)]) == a for a in c.anaphors):
        return True
    first = rest[0]
    if lead and v.word(first) == "the" and len(rest) > 1 and v.content(rest[1]) and not v.text(rest[1])[:1].isupper():
        return True  # 'and the light was automated': a definite noun of the clause's subject before
    return lead and not (v.word(first) in fc.determiners or v.text(first)[:1].isupper()
                         or v.doc.like_num[v.idx[first]] or v.word(first) in c.anaphors)


def _verb_like(v: View, k: int, lex: Lexicon) -> bool:
    """A past form or participle ('installed', 'won', 'ran'): a word of a verb group, no noun phrase's."""
    w, m = v.word(k), v.lemma(k)
    return w in lex.participles or w in frame_cues().irregular_past or (w.endswith("ed") and m != w) \
        or w in (m + "n", m + "en")


def _subject_run(v: View, ks: list[int], vals: list[_Value], fc: FrameCues, breaks: frozenset[str]) -> list[int]:
    """The subject of a clause: its noun phrase before its first auxiliary before `vals` ('the rowing
    races will'), else its opening run of words less the last, the verb ('Smith scored in 1990', 'Adult
    tickets cost £14'); [] where neither tells."""
    first = min((min(x.positions) for x in vals), default=len(v))
    ks = [k for k in ks if k < first and v.word(k) not in breaks]
    aux = next((k for k in ks if v.word(k) in fc.auxiliaries), None)
    out: list[int] = []
    if aux is not None:
        for k in reversed([k for k in ks if k < aux]):
            if v.punct(k) or not (v.content(k) or v.word(k) in fc.determiners):
                break
            out.append(k)
            if v.word(k) in fc.determiners:
                break
        return [k for k in reversed(out) if v.content(k)]
    for k in ks:
        if out and (v.punct(k) or not v.content(k)):
            break
        if v.content(k) and not v.punct(k):
            out.append(k)
    return out[:-1]


def _gapped(v: View, ks: list[int], vals: list[_Value], lex: Lexicon, fc: FrameCues, breaks: frozenset[str]) -> bool:
    """Whether a conjunct has its verb gapped: after its clause word only a noun phrase (a name too) and
    function words before its first value of another kind ('and the sprint canoe events on the Tarrow
    reservoir', 'and Greta Moll in 2012')."""
    if not vals or not ks or v.word(ks[0]) not in breaks:
        return False
    first = min((min(x.positions) for x in vals if x.kind != "agent"), default=None)
    if first is None:
        return False
    before = [k for k in ks[1:] if k < first]
    if not any(v.content(k) for k in before) or sum(v.content(k) for k in before) > 5:
        return False
    return not any(v.word(k) in (",", ";", ":", "(", ")") or _verb_like(v, k, lex)
                   or (v.word(k) in fc.auxiliaries and v.word(k) != "'s") for k in before)  # 'children's tickets'


def _pieces(v: View, skip: set[int], vals: list[_Value], breaks: frozenset[str]) -> list[list[int]]:
    """The clauses of v outside `skip` (relative clauses) as position lists; a piece joins the one before
    it (the next when first) unless it holds a value and either a content word outside its values or,
    as a gapped conjunct, a name and a value of a kind the piece before holds ('and Greta Moll in 2012')."""
    in_value = {k: x for x in vals for k in x.positions}
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
        mine = {in_value[k].kind for k in ks if k in in_value}
        before = {in_value[k].kind for k in (out[-1] if out else ()) if k in in_value}
        plain = any(v.content(k) and k not in in_value and v.word(k) not in breaks and not v.doc.like_num[v.idx[k]]
                    for k in ks)
        if mine and (plain or ("agent" in mine and (mine - {"agent"}) & before)):
            out.append(ks)
            carried = []
        elif out:
            out[-1] += ks
        else:
            carried = ks
    if carried:
        out.append(carried)
    return out


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

    def __init__(self, v: View, vals: list[_Value], runs: list[Name]):
        self.v, self.vals = v, vals
        self.value_at = {k: x for x in vals for k in x.positions}
        self.name_at = {k: v.word(k) for r in runs for k in range(r.lo, r.hi)}

    def names_in(self, ks) -> frozenset[str]:
        return frozenset(self.name_at[k] for k in ks if k in self.name_at)

    def of(self, ks, x: _Value, holders: frozenset[str], drop=frozenset(), subject: bool = False) -> Bound:
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
    vals = _values(v, lex, c, fc, runs)
    feats = _Features(v, vals, runs)
    relatives = _relatives(v, lex, breaks)
    fronted = _fronted(v, lex, fc, breaks)
    inside = {k for lo, hi, _ in relatives for k in range(lo, hi)} | set(range(fronted + 1 if fronted else 0))
    apposed = _appositions(v, runs, fc)
    scene: list[int] = []
    if len(v) and v.word(0) in fc.scene_openers:
        comma = next((k for k in range(len(v)) if v.word(k) == ","), None)
        if comma is not None and not any(v.word(k) in breaks for k in range(comma)):
            scene = list(range(comma))
    out: list[Bound] = []
    subject, first = before, None
    previous: tuple[list[int], list[_Value]] | None = None
    for ks in _pieces(v, inside, vals, breaks):
        mine = [x for x in vals if min(x.positions) in ks]
        frame = sorted(set(ks) | set(scene))
        cut = min([min(x.positions) for x in mine if x.kind not in ("place", "agent")]
                  + [k for k in ks if v.word(k) in fc.auxiliaries or _verb_like(v, k, lex)] + [len(v)])
        own = feats.names_in(k for k in ks if k < cut and k not in scene and k not in apposed)
        if own:  # 'His co-defendant, Lucas Fenner,': a subject of its own
            subject = own
        gapped = previous is not None and _gapped(v, ks, mine, lex, fc, breaks)
        if gapped:
            pks, pvals = previous
            pvals = [x for x in pvals if x.kind in {x.kind for x in mine}]
            gone = _subject_run(v, [k for k in pks if k not in scene], [x for x in pvals if x.kind != "agent"], fc, breaks)
            if gone:  # the verb and the rest of the clause before, less its subject and its values
                frame = sorted(set(frame) | (set(pks) - set(gone) - {k for x in pvals for k in x.positions}))
        if first is None:
            first = _subject_run(v, ks, [], fc, breaks)
        holders = own or (subject if not gapped and _anaphoric(v, ks, c, fc, breaks) else frozenset())
        for x in mine:
            n = next((r for r in runs if r.lo == min(x.positions)), None)
            role = _doer(v, [k for k in ks if v.word(k) not in breaks and k not in scene], n, fc) \
                if n is not None and x.kind in ("place", "agent") and not x.located else None
            if role is not None:  # a name that does the act is an agent, whatever its entity label
                x = _Value(x.positions, x.key, "agent", x.located)
            b = feats.of(frame, x, holders, apposed | (role or set()), role is not None)
            if n is not None and (n.person or any(v.content(k) for k in role or ()) or n.hi in apposed):
                b = replace(b, person=True)  # a person by its tag, title or role ('the architect X', 'X, the architect')
            out.append(b)
        previous = (ks, mine)
    clauses = [(lo, hi, ante) for lo, hi, ante in relatives]
    if fronted:  # the opening participle clause's antecedent is the subject after it
        clauses.append((0, fronted, first or []))
    for lo, hi, ante in clauses:
        frame = list(range(lo, hi)) + list(ante)
        for x in (x for x in vals if lo <= min(x.positions) < hi):
            out.append(feats.of(frame, x, feats.names_in(ante)))
        for i, b in enumerate(out):  # a name's relative clause is part of its frame
            if b.kind == "agent" and min(b.positions) in ante:
                r = feats.of(range(lo, hi), _Value(b.positions, b.key, b.kind), frozenset())
                out[i] = replace(b, names=b.names | r.names, words=b.words | r.words, others=b.others | r.others)
    return out, subject


def sentence_features(v: View, lex: Lexicon) -> frozenset[str]:
    """The features of a whole sentence: its names, content words and values."""
    runs = _runs(v, cues())
    vals = _values(v, lex, cues(), frame_cues(), runs)
    return _Features(v, vals, runs).of(range(len(v)), _Value((), "", ""), frozenset()).features


def evidence_bound(sentences: list[View], lex: Lexicon) -> list[Bound]:
    """Every value of the evidence's sentences bound to its frame, subjects carried across sentences."""
    out, subject = [], frozenset()
    for s in sentences:
        found, subject = bind(s, lex, subject)
        out += found
    return out
