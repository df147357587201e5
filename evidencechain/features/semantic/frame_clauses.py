"""The parts of a sentence that frame its values (`value_frames`): relative clauses and their antecedents,
an opening participle clause, appositions after a name, a name that does its clause's act, a clause
that takes its subject from before, a clause's subject, a gapped conjunct, and the clauses
themselves. Cue lists: data/holders.toml."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .align import View
from .holder_names import Cues, Name
from .lexicon import Lexicon


@dataclass(frozen=True)
class FrameCues:
    weekdays: frozenset[str]
    place_prepositions: frozenset[str]
    scene_openers: frozenset[str]
    auxiliaries: frozenset[str]
    determiners: frozenset[str]
    durations: frozenset[str]
    irregular_past: frozenset[str]
    cleft_verbs: frozenset[str]
    comparisons: tuple[tuple[str, ...], ...]
    min_frame_cover: float
    min_frame_words: int
    min_act_words: int


@cache
def frame_cues() -> FrameCues:
    raw = tomllib.loads(resources.files(__package__).joinpath("data", "holders.toml").read_text(encoding="utf-8"))
    return FrameCues(*(frozenset(raw[k]) for k in ("weekdays", "place_prepositions", "scene_openers", "auxiliaries",
                                                   "determiners", "durations", "irregular_past", "cleft_verbs")),
                     tuple(tuple(x.split()) for x in raw["comparisons"]),
                     float(raw["min_frame_cover"]), int(raw["min_frame_words"]), int(raw["min_act_words"]))


@dataclass(frozen=True)
class FrameValue:
    positions: tuple[int, ...]
    key: str
    kind: str
    located: bool = False
    """A name after a place's preposition ('on Lake Ferrin')."""


def opening_scene(v: View, fc: FrameCues, breaks: frozenset[str]) -> list[int]:
    """The positions of a scene the sentence opens with, up to its first comma ('In the council
    election, ...', 'At the 2026 regatta, ...'): it sets every clause of the sentence."""
    if len(v) and v.word(0) in fc.scene_openers:
        comma = next((k for k in range(len(v)) if v.word(k) == ","), None)
        if comma is not None and not any(v.word(k) in breaks for k in range(comma)):
            return list(range(comma))
    return []


def relatives(v: View, lex: Lexicon, breaks: frozenset[str]) -> list[tuple[int, int, range]]:
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


def fronted(v: View, lex: Lexicon, fc: FrameCues, breaks: frozenset[str]) -> int | None:
    """The comma that closes an opening participle clause ('Founded in 1926, Marra Textiles ...')."""
    w = v.word(0) if len(v) else ""
    if w in fc.scene_openers or not (w.endswith(("ed", "en")) or w in lex.participles):
        return None
    comma = next((k for k in range(len(v)) if v.word(k) == ","), None)
    return comma if comma is not None and not any(v.word(k) in breaks for k in range(comma)) else None


def appositions(v: View, runs: list[Name], fc: FrameCues) -> set[int]:
    """Noun phrases set off by commas after a name that only describe it (', the architect of the
    library,'): they open with an article or a possessive and hold no verb group."""
    out: set[int] = set()
    for n in runs:
        if n.hi + 1 < len(v) and v.word(n.hi) == "," and v.word(n.hi + 1) in fc.determiners:
            end = next((m for m in range(n.hi + 1, len(v)) if v.word(m) == ","), None)
            if end is not None and not any(v.word(m) in fc.auxiliaries for m in range(n.hi, end)):
                out.update(range(n.hi, end + 1))
    return out


def doer(v: View, ks: list[int], n: Name, fc: FrameCues) -> set[int] | None:
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


def anaphoric(v: View, ks: list[int], c: Cues, fc: FrameCues, breaks: frozenset[str]) -> bool:
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


def verb_like(v: View, k: int, lex: Lexicon) -> bool:
    """A past form or participle ('installed', 'won', 'ran'): a word of a verb group, no noun phrase's."""
    w, m = v.word(k), v.lemma(k)
    return w in lex.participles or w in frame_cues().irregular_past or (w.endswith("ed") and m != w) \
        or w in (m + "n", m + "en")


def subject_run(v: View, ks: list[int], vals: list[FrameValue], fc: FrameCues, breaks: frozenset[str]) -> list[int]:
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


def gapped(v: View, ks: list[int], vals: list[FrameValue], lex: Lexicon, fc: FrameCues, breaks: frozenset[str]) -> bool:
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
    return not any(v.word(k) in (",", ";", ":", "(", ")") or verb_like(v, k, lex)
                   or (v.word(k) in fc.auxiliaries and v.word(k) != "'s") for k in before)  # 'children's tickets'


def possessive(v: View, k: int, lex: Lexicon) -> bool:
    """A "'s" between two nouns ('the quartet's cellist'): no verb."""
    return v.word(k) == "'s" and 0 < k < len(v) - 1 and v.content(k - 1) and v.content(k + 1) \
        and not verb_like(v, k + 1, lex) and not v.doc.like_num[v.idx[k + 1]]


def cleft(v: View, ks: list[int], lex: Lexicon, fc: FrameCues) -> list[int]:
    """The opening 'it was' of a cleft whose focus is a name ('It was the goalkeeper Jiri Palomo who
    scored twice'): without it, the focus is the subject of the act after the relative word. [] where
    the clause is no such cleft."""
    rest = [k for k in ks if not v.punct(k)]
    if len(rest) < 4 or v.word(rest[0]) != "it" or v.word(rest[1]) not in fc.cleft_verbs:
        return []
    for k in rest[2:]:
        if v.word(k) in lex.relative:
            named = v.text(k - 1)[:1].isupper() and v.content(k - 1)
            return rest[:2] if named and v.word(k) in ("who", "that") else []
        if v.word(k) in fc.auxiliaries or verb_like(v, k, lex):
            return []
    return []


def comparisons(v: View, vals: list[FrameValue], fc: FrameCues) -> tuple[dict[int, int], list[FrameValue]]:
    """Where a comparison after a comma opens a clause of its own ('..., compared with 24 months for mice
    on the standard diet', ', against $42,000 for Hanne'), to the position after its opening words: it
    must hold a value of a kind the words before it hold; a bare number there takes the unit of the
    last amount before it (', versus 9,700 for its away games'). And the values, so completed."""
    out: dict[int, int] = {}
    for k in range(1, len(v)):
        if v.word(k - 1) != ",":
            continue
        cue = next((c for c in fc.comparisons if tuple(v.word(j) for j in range(k, min(len(v), k + len(c)))) == c), None)
        if cue is None:
            continue
        end = next((m for m in range(k + len(cue), len(v)) if v.word(m) in (",", ";")), len(v))
        last = next((x.kind for x in reversed(vals) if min(x.positions) < k and x.kind.startswith("n:")), None)
        vals = [FrameValue(x.positions, x.key, last, x.located) if x.kind == "n:" and last and k <= min(x.positions) < end
                else x for x in vals]
        after = {x.kind for x in vals if k <= min(x.positions) < end and x.kind not in ("place", "agent")}
        if after & {x.kind for x in vals if min(x.positions) < k}:
            out[k] = k + len(cue)
    return out, vals


def lead_subject(v: View, ks: list[int], end: int, lex: Lexicon, fc: FrameCues) -> list[int]:
    """A clause's words before the last verb word before `end`, its value ('mice on a low-salt diet' of
    'mice on a low-salt diet lived for an average of 29 months', 'patients given the inhaler' of
    'patients given the inhaler had 3 attacks'); [] where no verb word is there."""
    verbs = [k for k in ks if k < end and ((v.word(k) in fc.auxiliaries and not possessive(v, k, lex))
                                           or verb_like(v, k, lex))]
    if not verbs:
        return []
    first = verbs[-1]
    while first - 1 in verbs:  # 'had been given'
        first -= 1
    return [k for k in ks if k < first]


def pieces(v: View, skip: set[int], vals: list[FrameValue], breaks: frozenset[str],
           starts: frozenset[int] = frozenset()) -> list[list[int]]:
    """The clauses of v outside `skip` (relative clauses) as position lists; a piece joins the one before
    it (the next when first) unless it holds a value and either a content word outside its values or,
    as a gapped conjunct, a name and a value of a kind the piece before holds ('and Greta Moll in 2012')."""
    in_value = {k: x for x in vals for k in x.positions}
    raw: list[list[int]] = [[]]
    for k in range(len(v)):
        if k in skip:
            continue
        if (v.word(k) in breaks or v.word(k) == ";" or k in starts) and raw[-1]:
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
