"""Semantic error classes: signals for meaning errors that reuse the evidence's own words.

Each answer sentence is compared with its best-aligned evidence sentence of the same source
(`align.best_evidence`); every class returns `Signal`s naming the answer's wrong words and the
evidence words they conflict with. Polarity and antonym flips are counted together: an even
number of them keeps the meaning ("not uncommon" for "common", "did not fall" for "rose").
"""
from __future__ import annotations

from dataclasses import replace

from ...text.parse import ParsedText
from .align import MIN_ALIGNMENT, View, alignment, best_evidence, evidence_views, main_frame, sentence_view
from .antonyms import antonym_flips
from .base import CLASSES, Signal
from .binding import rebound
from .comparatives import exchanged, order_swapped
from .confidence import mark_confident
from .groups import grouped_shifts
from .holder_names import cues, names
from .holders import evidence_held
from .lexicon import lexicon
from .misbound import holder_signals
from .modality import modality_shifts
from .polarity import polarity_flips
from .quantities import quantity_conflicts, rescaled
from .recombination import clause_recombined, clauses, recombined, values
from .roles import aside, role_swaps
from .swapped import names_across, swapped_across, swapped_values
from .uniqueness import uniqueness_shifts
from .value_frames import evidence_bound

_CONVERSE = ("polarity", "antonym", "roles")
_FRAMED = ("polarity", "modality", "quantity", "antonym")
_FLIPS = ("polarity", "antonym")
__all__ = ["CLASSES", "Signal", "EvidenceSide", "sentence_signals", "shown_signals", "text_signals"]


class EvidenceSide:
    """The evidence of one source as sentence views, with every value it states."""

    def __init__(self, doc: ParsedText):
        lex = lexicon()
        self.sentences = evidence_views(doc)
        self.values = {(x.key, x.kind) for s in self.sentences for x in values(s, lex)}
        self.held = evidence_held(self.sentences, lex)
        self.bound = evidence_bound(self.sentences, lex)
        self.names = frozenset(w for s in self.sentences for n in names(s, cues()) for w in n.words)


def sentence_signals(answer: View, evidence: EvidenceSide) -> list[Signal]:
    """The signals of one answer sentence, one per answer token at most (first class wins); then
    those of each of its clauses against the evidence sentence it follows, where confident
    ('X reopened on 14 December, but it didn't carry skiers' mixes two sentences; a clause restates
    its sentence more closely than the whole does)."""
    lex = lexicon()
    e, _ = best_evidence(answer, evidence.sentences)
    if e is None:
        return _unaligned(answer, evidence, lex)
    out = _signals(answer, e, evidence, lex)
    views = _clause_views(answer, lex)
    out = [replace(s, confident=False) if s.confident and s.cls in _FLIPS and _misread(s, e, views, evidence, lex)
           else s for s in out]
    main = main_frame(answer, lex.relative)  # 'X, who lived in Y, was never adapted': 'X was never adapted'
    for part in views + ([main] if main is not None else []):
        other, _ = best_evidence(part, evidence.sentences)
        if other is None:
            continue
        for s in _signals(part, other, evidence, lex, whole=False):
            if part is main and s.cls not in _FRAMED:
                continue  # the main frame serves the classes of one predicate, not names in it
            if s.cls == "antonym" and answer.find(other.keys(_first(other, s.evidence))):
                continue  # the sentence has the opposite too ('up ..., but down'): the clause alone misleads
            clash = [x for x in out if set(x.tokens) & set(s.tokens)]
            if not clash or (s.confident and not any(x.confident for x in clash)):
                out = [x for x in out if x not in clash] + [s]
    kept = [k for k in range(len(answer)) if k not in aside(answer, 0, len(answer))]
    if len(kept) < len(answer):  # the sentence less its asides ('X, whose captain scored 22, beat Y')
        main = View(answer.doc, answer.idx[kept], answer.start, answer.end)
        other, _ = best_evidence(main, evidence.sentences)
        for s in _signals(main, other, evidence, lex, whole=False) if other is not None and other is not e else ():
            if s.cls == "roles" and s.confident and not any(set(x.tokens) & set(s.tokens) for x in out):
                out.append(s)
    held, confirmed = holder_signals(answer, evidence.sentences, evidence.held, evidence.names, lex,
                                     evidence.bound)
    out = [x for x in out if not (x.cls == "recombination" and set(x.tokens) <= confirmed)]
    for s in held:  # values given to another holder
        clash = [x for x in out if set(x.tokens) & set(s.tokens)]
        if all(x.cls == "recombination" or not x.confident for x in clash):
            out = [x for x in out if x not in clash] + [s]
    return out


def shown_signals(answer: View, evidence: EvidenceSide, found: list[Signal]) -> list[Signal]:
    """Signals `detect` shows by rule only for an answer sentence whose signals `found` hold no
    confident one: the confident signals of its `read_parts`, then its doubtful quantifier shifts
    (found, or read in its parts) on one named group (`groups.grouped_shifts`). No count or fitted
    feature moves."""
    if any(s.confident for s in found):
        return []
    lex = lexicon()
    read = read_parts(answer, evidence, lex)
    out = [s for s in read if s.confident]
    taken = {t for s in out for t in s.tokens}
    return out + [s for s in grouped_shifts(found + read, answer, evidence.sentences, lex) if not taken & set(s.tokens)]


def _clause_views(answer: View, lex) -> list[View]:
    """The sentence's clauses as views, none where it is one clause."""
    parts = clauses(answer, values(answer, lex), lex, sure=True)
    return [View(answer.doc, answer.idx[lo:hi], answer.start, answer.end) for lo, hi in parts] if len(parts) > 1 else []


def read_parts(answer: View, evidence: EvidenceSide, lex) -> list[Signal]:
    """Polarity, modality, quantity and antonym signals of parts of an answer sentence that
    `sentence_signals` does not read alone, each against the evidence sentence it follows best: the
    sentence without the phrase fronted before its main clause or closing it (`align.asides`: 'With
    the permit extended to 2 a.m., all 40 stalls ...'; ', ahead of the council's decision'), which
    often restates another evidence sentence than the main clause does; and, for a sentence that
    follows no one evidence sentence (it fuses two), each of its clauses but a relative one ('which
    opens on 14 March' says nothing of the depot that closes then). Flips guarded as in
    `sentence_signals` (the opposite in the sentence too, a clause misread)."""
    frame = main_frame(answer, lex.relative, lex.fronted, lex.trailing)
    plain = main_frame(answer, lex.relative)
    views = _clause_views(answer, lex)
    parts = [frame] if frame is not None and (plain is None or len(plain) != len(frame)) else []
    if views and best_evidence(answer, evidence.sentences)[0] is None:
        parts += [v for v in views if v.word(0) not in lex.relative]  # a relative clause's subject is outside it
    out: list[Signal] = []
    for part in parts:
        other, _ = best_evidence(part, evidence.sentences)
        if other is None:
            continue
        taken = {t for s in out for t in s.tokens}
        out += [s for s in _signals(part, other, evidence, lex, whole=False) if s.cls in _FRAMED
                and not taken & set(s.tokens)
                and not (s.cls == "antonym" and answer.find(other.keys(_first(other, s.evidence))))
                and not (s.cls in _FLIPS and _misread(s, other, views, evidence, lex))]
    return out


def _unaligned(answer: View, evidence: EvidenceSide, lex) -> list[Signal]:
    """The signals of an answer sentence that restates no one evidence sentence enough (one fusing three
    'Norrow Tools, which now employs 140 people, opened its first shop in Ashcarrow in 2003 and later
    added a second branch'): the recombination checks that decide by their own tests, a value (a number,
    a year, a person) put into another event's clause against the sentence it restates most, and values
    swapped across sentences."""
    nearest = max(evidence.sentences, key=lambda o: alignment(answer, o), default=None)
    if nearest is None:
        return []
    found = [s for s in clause_recombined(answer, nearest, evidence.sentences, lex) if _plain_value(answer, s)]
    found += quantity_conflicts(answer, nearest, lex, evidence.sentences)
    out = mark_confident(found, answer, nearest, lex, evidence.sentences)
    taken = {t for s in out for t in s.tokens}
    return out + [s for s in _across(answer, evidence, lex) if not taken & set(s.tokens)]


def _across(answer: View, evidence: EvidenceSide, lex) -> list[Signal]:
    """Values, then names, of two evidence sentences swapped in one answer sentence."""
    out = swapped_across(answer, evidence.sentences, lex)
    taken = {t for s in out for t in s.tokens}
    return out + [s for s in names_across(answer, evidence.sentences, lex) if not taken & set(s.tokens)]


def _plain_value(a: View, s: Signal) -> bool:
    """A number, a year or a person's name: a long run of words the tagger calls a name ("Candy's
    competition for her dad's affection was not with a sibling", a work) is none."""
    doc = a.doc
    people = [(x, y) for x, y, label in doc.entities or () if label == "PERSON"]
    return all(doc.like_num[t] or any(x <= doc.starts[t] < y for x, y in people) for t in s.tokens)


def _misread(s: Signal, e: View, views: list[View], evidence: EvidenceSide, lex) -> bool:
    """A flip read against e, the sentence the whole answer sentence follows best, where the clause that
    holds the flipped words follows another evidence sentence better, names none of e's names but one
    of that sentence's (another party's fact, not e's fact said of e's subject in other words), and no
    flip is read against that sentence ('Corrin Savings rose 2 percent, while Halloway Mutual lost 6
    percent' for 'Shares in Halloway Mutual fell 6 percent.' and 'Corrin Savings gained 2 percent')."""
    part = next((p for p in views if set(s.tokens) <= {int(i) for i in p.idx}), None)
    if part is None:
        return False
    other, _ = best_evidence(part, evidence.sentences)
    if other is None or other is e or alignment(part, other) <= alignment(part, e):
        return False
    names_of = [{x.key for x in values(v, lex) if x.kind not in ("year", "number")} for v in (part, e, other)]
    mine, theirs, its = names_of
    if not theirs or mine & theirs or not mine & its:
        return False
    return not any(x.confident and set(x.tokens) & set(s.tokens)
                   for x in _signals(part, other, evidence, lex, whole=False))


def _first(v: View, words: str) -> int:
    return next((k for k in range(len(v)) if v.word(k) == words.lower().split()[0]), 0)


def _signals(answer: View, e: View, evidence: EvidenceSide, lex, whole: bool = True) -> list[Signal]:
    """`whole`: answer is a whole sentence (values recombined are judged on whole sentences only:
    a clause lacks the values its sentence keeps elsewhere)."""
    flips = polarity_flips(answer, e, lex) + antonym_flips(answer, e, lex)
    swapped = exchanged(answer, e, lex) if flips else 0  # 'B holds more than A' for 'A holds less than B'
    converse = swapped and (len(flips) + swapped) % 2 == 0  # its exchanged names are no role swap either
    found = flips if len(flips) % 2 else order_swapped(answer, e, lex) if not flips else []
    found += quantity_conflicts(answer, e, lex, evidence.sentences)
    if whole:
        found += clause_recombined(answer, e, evidence.sentences, lex)
        found += rebound(answer, e, evidence.sentences, lex)
        found += recombined(answer, e, evidence.values, lex)
    found += role_swaps(answer, e, lex)
    found += modality_shifts(answer, e, lex)
    found += uniqueness_shifts(answer, e)
    out, taken, later = [], set(), []
    for s in found:
        if not taken.intersection(s.tokens):
            out.append(s)
            taken.update(s.tokens)
        elif s.cls == "modality":
            later.append(s)
    out = mark_confident(out, answer, e, lex, evidence.sentences)
    if converse:  # a converse comparison: its flip and its exchanged names keep the meaning
        out = [replace(x, confident=False) if x.cls in _CONVERSE else x for x in out]
    kept = _complemented(out, answer, e, lex)  # words of a complemented quantifier and its negation
    out = [replace(x, confident=False) if kept & set(x.tokens) else x for x in out]
    better = [s for s in mark_confident(later, answer, e, lex, evidence.sentences) if s.confident
              and not kept & set(s.tokens)]
    if whole and not any(s.confident for s in out):
        better += _fused_shifts(answer, e, evidence, lex, set())
    if whole:  # values swapped by moving their events ('the western wing ... 1762' for 'the eastern ... 1762')
        better += swapped_values(answer, e, lex, evidence.sentences)
        taken = {t for s in better for t in s.tokens}
        better += [s for s in _across(answer, evidence, lex) if not taken & set(s.tokens)]
    # a confident shift displaces a doubtful signal of another class on its words ('None of the branches')
    better = [s for s in better if not any(x.confident and set(x.tokens) & set(s.tokens) for x in out)]
    return [x for x in out if not any(set(x.tokens) & set(s.tokens) for s in better)] + better


def _complemented(out: list[Signal], answer: View, e: View, lex) -> set[int]:
    """A quantifier taken to its complement with the predicate negated keeps the meaning ('Most of the
    cottages have no garden' for 'Only a few of the cottages have gardens'; 'all ... unhurt' for 'none
    ... hurt'): one polarity flip and one quantifier shift whose two levels sum to the scale's top; the
    tokens of both (no signal on them is confident)."""
    scale = lex.modality["quantifier"]
    top = max(scale.values())

    def level(words: str) -> int | None:
        words = words.lower()
        return scale.get(words, next((scale[w] for w in words.split() if w in scale), None))

    flips = [s for s in out if s.cls == "polarity"]
    shifts = [s for s in out if s.cls == "modality" and (m := level(" ".join(answer.doc.lower[t] for t in s.tokens)))
              is not None and (n := level(s.evidence)) is not None and m != n and m + n == top]
    if len(flips) == 1 and not shifts and (_some_not(answer, e, scale, top) or _some_not(e, answer, scale, top)):
        return set(flips[0].tokens)  # 'Some of the members did not back it' for 'Not all of them supported it'
    if len(flips) != 1 or len(shifts) != 1:
        return set()
    return {*flips[0].tokens, *shifts[0].tokens}


def _some_not(v: View, other: View, scale: dict, top: int) -> bool:
    """`other` negates a universal ('Not all of the members', 'not every') and v has an existential
    quantifier and no universal (its negated predicate then says the same)."""
    negated = any(other.word(k) in ("not", "n't") and scale.get(other.word(k + 1)) == top for k in range(len(other) - 1))
    levels = {scale.get(v.word(k)) for k in range(len(v))}
    return negated and bool(levels & set(range(1, top))) and top not in levels


def _fused_shifts(answer: View, e: View, evidence: EvidenceSide, lex, taken: set[int]) -> list[Signal]:
    """Confident modality shifts, polarity and antonym flips and quantity conflicts against another
    evidence sentence that the answer restates too (a sentence fusing two: 'Tidewell Airways, based
    at Granby, has agreed to buy' for '... its base at Granby.' and 'The airline is in talks to buy';
    'X's trial at Y failed to meet its goal' for 'X led the trial at Y.' and 'The trial met its
    goal'): one that aligns with the answer, or that
    states every content word of the answer that e lacks ('..., which would add 120 megawatts to the
    grid, will start in 2027' for '... add 120 megawatts to the grid.' and 'construction might start
    in 2027')."""
    out = []
    rest = [answer.keys(k) for k in range(len(answer)) if answer.content(k) and not answer.keys(k) & e.content_keys]
    for o in evidence.sentences:
        if o is e or o.content_keys == e.content_keys:
            continue
        unsaid = sum(not x & o.content_keys for x in rest)  # one may be the shifted word, where there are four
        if alignment(answer, o) < MIN_ALIGNMENT and not (len(rest) >= 2 and unsaid <= (1 if len(rest) >= 4 else 0)):
            continue  # restates too little of the answer, and does not say the rest of it either
        flips = polarity_flips(answer, o, lex) + antonym_flips(answer, o, lex)
        found = modality_shifts(answer, o, lex, best=e) + (flips if len(flips) % 2 else []) \
            + [q for q in quantity_conflicts(answer, o, lex) if rescaled(q, lex)]
        for s in mark_confident(found, answer, o, lex, evidence.sentences):
            if s.confident and not taken.intersection(s.tokens):
                out.append(s)
                taken.update(s.tokens)
    return out


def text_signals(answer: ParsedText, evidence: EvidenceSide,
                 sentences: list[tuple[int, int]] | None = None) -> list[list[Signal]]:
    """Signals of every sentence of a parsed answer (its own sentences unless given), with the
    `shown_signals` of a sentence that has no confident one (what `detect` shows)."""
    spans = sentences if sentences is not None else (answer.sentences or ((0, len(answer.text)),))
    out = []
    for a, b in spans:
        view = sentence_view(answer, a, b)
        found = sentence_signals(view, evidence)
        out.append(found + shown_signals(view, evidence, found))
    return out
