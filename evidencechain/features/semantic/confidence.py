"""Which signals are confident enough for `detect` to flag by rule (`Signal.confident`).

A signal is confident where the answer sentence is a close restatement of its evidence sentence
apart from the flagged words (minimal edits, the shape of the planted errors), and its class's
own check passes:
  * restated: at least `min_restated` of the answer sentence's other content words are in the
    evidence sentence, and at least `min_covered` of the evidence sentence's other content words
    are in the answer sentence, both counted in the clauses of the evidence sentence that hold the
    evidence's conflicting words ('..., who had owned it since 1890' is another clause; 'where
    she is voiced by X' says nothing of the name in the clause before) (an abstractive sentence mixing several evidence sentences is
    left to the fitted detectors, which weigh the signal as a feature);
  * antonym: not a converse ("B lost to A" for "A beat B", "Y after X" for "X before Y": the
    words before the answer's word stand after the evidence's opposite), and no role swap in
    the same sentence (two flips keep the meaning);
  * roles: the swapped names lie close together on both sides (one clause), and no antonym in
    the same sentence;
  * modality: on the epistemic and status scales only a stronger answer ("may" -> "does",
    "proposed" -> "completed"); a hedge the answer adds weakens the claim, it does not contradict;
    on the epistemic scale a shift of two levels (possible -> certain: "could" -> "will"), not one
    ("expected to" -> "will");
  * recombined across clauses, or bound to the other holder: decided by the class itself
    (`recombination.clause_recombined`, `binding.rebound`), which compares the answer with one
    clause, not the whole sentence; the two values differ and stand in the same slot (as for other
    recombined values), read in the evidence sentence that states the evidence's value; a number
    set off by commas ('Marta Ilves, 52, and') has no slot words and passes, and a value in a
    comparison ('compared to $31,000 for part-time staff') has the slot of the value compared (where
    the evidence states the answer's value too, so it is not read as stated elsewhere);
  * mixed sentences: a polarity, modality or quantity signal of a sentence that mixes two evidence
    sentences passes with `min_restated_mixed` / `min_covered_mixed` when the flagged words keep
    the neighbours of the evidence's words in the sentence that states them ('300 parcels per
    month' for another passage's '300 parcels per week');
  * fused sentences: a modality shift, a polarity or antonym flip, or an amount on another scale
    ('3.1 million' for '3.1 billion') in a sentence that fuses e with other evidence sentences, where
    the words it takes from no other sentence are e's and the flagged words' neighbours are e's
    (`_fused`); a flip or an amount must also take `min_fused_words` words from the other sentences,
    and a negation that is a quantifier ('None of') is left to the quantifier shift;
  * polarity: the negated word's next words are those after the evidence's word, if it has any
    ('was not produced by X' for 'was produced by Y' denies another fact), unless the answer fronts
    the evidence's argument before a relative word ('the appeal ... that the court refused to hear');
  * recombination: the two values differ and stand in the same slot; the answer's number is no
    bound ('after 1999'); the two numbers are not a part and its whole in the evidence ('three of
    six'); the answer's clause that holds the value restates e (`min_clause_restated`); a name is
    a person's (a place or organisation from another sentence is often an alias or a part);
  * unique (every class but the clause recombination): the answer sentence aligns with its evidence sentence by at least
    `min_margin` more than with any other sentence of the source (with several passages on one
    topic the best-aligned sentence is often not the one the answer follows);
  * stated elsewhere (every class): the answer's flagged words are not found anywhere in the
    source's evidence (any sentence or passage) in the answer's own slot, i.e. next to the same
    content word as in the answer, a neighbour that the evidence's conflicting words lack (with
    several passages the best-aligned sentence may be another passage's or mix two, while the
    answer follows the one that states its words).
Thresholds: data/cues.toml [confidence]; chosen on faithful answers of data that may be tuned on
(README, "Meaning errors") and the invented suite (tests/data/invented_suite.jsonl).
"""
from __future__ import annotations

from dataclasses import replace

from .align import View, alignment, asides, frames, neighbours
from .base import Signal
from .binding import in_comparison
from .frames import frames as relation_frames
from .frames import particle_words, relations
from .irrealis import governed, intention, planned
from .lexicon import Lexicon
from .modality import hits
from .polarity import prefixed
from .quantities import rescaled
from .recombination import bound, clause_alignment, clauses, partitive, values
from .roles import aside, relation
from .uniqueness import cues as uniqueness_cues

_MIXED_OK = ("polarity", "modality", "quantity", "antonym")
_FUSED_OK = ("modality", "polarity", "antonym", "quantity")
_RELATIVE = frozenset({"that", "which", "whom"})
_BE = frozenset({"is", "are", "was", "were", "been", "be", "being", "got", "get"})


def _from_source(a: View, e: View, s: Signal, source: frozenset[str], lex: Lexicon) -> float:
    """Share of the answer's other content words that the source states anywhere; 0 when one that
    the clauses of e holding the evidence words lack stands in another clause of e ('Bolt was not
    voiced by X' for 'Mina is Bolt's friend, ... where she is voiced by X': another subject)."""
    own = set(s.tokens)
    home = _home(e, s, lex).content_keys
    ks = [k for k in range(len(a)) if a.content(k) and int(a.idx[k]) not in own]
    if any(a.keys(k) & e.content_keys and not a.keys(k) & home for k in ks):
        return 0.0
    return sum(bool(a.keys(k) & source) for k in ks) / len(ks) if ks else 1.0


def _local(a: View, e: View, s: Signal) -> bool:
    """Most of the flagged words' nearest content words, after them or else before them, are those
    of the evidence's words ('failed to deploy the panels' / 'succeeded in deploying the panels')."""
    ks = _positions(a, s)
    words = s.evidence.lower().split()
    js = [j for j in range(len(e)) if e.word(j) in words]
    if not ks or not js:
        return False
    turned = -1 if _passive_near(a, ks[-1]) != _passive_near(e, js[-1]) else 1  # 'was never inspected by X' / 'X inspected'
    for step, k, j in ((1, ks[-1], js[-1] if turned == 1 else js[0]), (-1, ks[0], js[0] if turned == 1 else js[-1])):
        mine = [a.keys(i) for i in _clause(a, k, step, 3)]
        theirs = frozenset().union(*(e.keys(i) for i in _clause(e, j, step * turned, 4)))
        if mine:
            return sum(bool(x & theirs) for x in mine) * 2 > len(mine)
    return False


def _holder(e: View, others: list[View] | None, s: Signal) -> View:
    """e, or the evidence sentence that states the signal's evidence words where e does not (an
    amount the answer takes from another passage: 'hands out 300 parcels per week')."""
    words = s.evidence.lower().split()
    if not words or _occurrences(e, words):
        return e
    return next((o for o in others or () if _occurrences(o, words)), e)


def _home(e: View, s: Signal, lex: Lexicon) -> View:
    """The clauses of e that hold the signal's evidence words: the part of e the answer contradicts
    ('where she is voiced by X' is another clause than 'She is Daffy Duck's girlfriend')."""
    words = {w for w in s.evidence.lower().split()}
    keep = []
    for part in frames(e, clauses(e, values(e, lex), lex, sure=True), lex.relative):
        if any(e.content(j) and e.word(j) in words for j in part):
            keep += part
    return View(e.doc, e.idx[keep], e.start, e.end) if keep else e


def _quantifier_cue(a: View, s: Signal, lex: Lexicon) -> bool:
    """A polarity signal whose cue is a quantifier ('None of the stations' for 'Several of the
    stations'): in a fused sentence the quantifier shift names it."""
    scale = lex.modality[lex.share_scale]
    return s.cls == "polarity" and any(a.word(k) in scale for k in _positions(a, s))


def _fused(a: View, e: View, s: Signal, others: list[View], lex: Lexicon) -> bool:
    """A shift in a sentence that fuses e with words of other evidence sentences ('Tidewell
    Airways, based at Granby, has agreed to buy' for 'flies ... from its base at Granby' and 'is in
    talks to buy'): the words it takes from no other sentence are e's (`min_restated`, at least
    `min_fused_words`), and one of the two nearest such words on either side of the flagged words
    is next to e's words and in no other sentence (the words the shift bears on are e's). A flip or
    an amount (not a modality shift) also takes at least `min_fused_words` words from the other
    sentences: a word or two shared with another sentence is no fusion ('she refused to sell' for
    'Instead of selling ..., X's mother rented it')."""
    elsewhere = frozenset().union(*(o.content_keys for o in others if o.content_keys != e.content_keys))
    home = _home(e, s, lex).content_keys
    own = set(s.tokens)
    ks = [k for k in range(len(a)) if a.content(k) and int(a.idx[k]) not in own]
    mine = [k for k in ks if not (a.keys(k) & elsewhere and not a.keys(k) & e.content_keys)]
    least = 1 if s.cls == "modality" else lex.confidence["min_fused_words"]
    if len(ks) - len(mine) < least or len(mine) < lex.confidence["min_fused_words"]:
        return False
    if sum(bool(a.keys(k) & home) for k in mine) < lex.confidence["min_restated"] * len(mine):
        return False
    ps = _positions(a, s)
    words = s.evidence.lower().split()
    js = [j for j in range(len(e)) if e.word(j) in words]
    near = frozenset().union(*(e.keys(i) for j in js for step in (1, -1) for i in _clause(e, j, step, 3)))
    if not ps:
        return False
    kept = set(mine)  # the nearest words on each side that are not only another sentence's ('All of the Grand Orme hotel's rooms')
    nearest = [i for k, step in ((ps[-1], 1), (ps[0], -1)) for i in [i for i in _clause(a, k, step, 6) if i in kept][:2]]
    return any(a.keys(i) & near and not a.keys(i) & elsewhere for i in nearest)


def _asides(a: View, e: View, others: list[View], lex: Lexicon) -> set[int]:
    """Positions of the answer's asides (`align.asides`: ', who lived in X for eleven years,') that
    another evidence sentence than e states: a fact added about an argument, not part of the claim
    restated from e."""
    out: set[int] = set()
    for lo, hi in asides(a, lex.relative):
        ks = [i for i in range(lo, hi) if a.content(i)]
        if not ks or sum(bool(a.keys(i) & e.content_keys) for i in ks) * 2 > len(ks):
            continue
        if any(o.content_keys != e.content_keys and sum(bool(a.keys(i) & o.content_keys) for i in ks)
               >= lex.confidence["min_restated"] * len(ks) for o in others):
            out.update(ks)
    return out


def _main_clause(e: View, home: View, lex: Lexicon) -> tuple[frozenset[str], frozenset[str]]:
    """(content keys of e less its asides, with `home`'s; content keys of e's asides): the clause
    an answer restates around a relative clause ('Midfielder X, who missed ..., is no longer ...')."""
    inside = {j for lo, hi in asides(e, lex.relative) for j in range(lo, hi)}
    keys = [(j in inside, e.keys(j)) for j in range(len(e)) if e.content(j)]
    main = frozenset().union(home.content_keys, *(k for aside_word, k in keys if not aside_word))
    return main, frozenset().union(*(k for aside_word, k in keys if aside_word))


def _restated_asides(a: View, main: frozenset[str], side: frozenset[str], own: set[int], lex: Lexicon) -> set[int]:
    """Positions of the answer's asides that restate e's asides (`side`: at least half of their content
    words, and more than `main` has), none of their words flagged."""
    out: set[int] = set()
    for lo, hi in asides(a, lex.relative):
        ks = [i for i in range(lo, hi) if a.content(i)]
        if not ks or any(int(a.idx[i]) in own for i in range(lo, hi)):
            continue
        theirs, ours = (sum(bool(a.keys(i) & keys) for i in ks) for keys in (side, main))
        if theirs * 2 >= len(ks) and theirs > ours:
            out.update(ks)
    return out


def _aside_restated(a: View, ks: list[int], own: set[int], home: View, main: frozenset[str], lex: Lexicon) -> float:
    """A flip inside an answer's aside whose home is e's aside ('Dana Ollerup, a striker who has already
    played for the national team, was named' for 'Striker Dana Ollerup, who has never played for the
    national team, was named'): the share of the aside's other content words (at least two) in the home,
    where the answer's words outside the aside restate e's main clause (`min_restated_mixed`); else 0."""
    for lo, hi in asides(a, lex.relative):
        if not any(int(a.idx[i]) in own for i in range(lo, hi)):
            continue
        inner = [k for k in ks if lo <= k < hi]
        outer = [k for k in ks if not lo <= k < hi]
        if len(inner) < 2 or not outer or sum(bool(a.keys(k) & main) for k in outer) \
                < lex.confidence["min_restated_mixed"] * len(outer):
            return 0.0
        return sum(bool(a.keys(k) & home.content_keys) for k in inner) / len(inner)
    return 0.0


def _restated(a: View, e: View, s: Signal, lex: Lexicon, others: list[View] = ()) -> tuple[float, float]:
    """(share of the answer's other content words in the clauses of e that hold the evidence
    words, less its relative clauses that `others` state (`_asides`), share of those clauses'
    other content words in a)."""
    aside = _asides(a, e, others, lex)
    sentence = whole = e
    e = _home(e, s, lex)
    own = set(s.tokens)
    ks = [k for k in range(len(a)) if a.content(k) and int(a.idx[k]) not in own and k not in aside]
    # the answer restates e's clauses that hold the evidence words, or the whole of e where the
    # flagged words' next content words are those clauses' ('X said ridership rose, linking it to Y'
    # for 'ridership fell, which X attributed to Y'; not 'Bolt was not voiced by Z' for 'Bolt's
    # friend ..., where she is voiced by Z': 'Bolt' is another clause's). Not for a negation, whose
    # scope is its clause ('are not great for specific areas' for 'great for the whole body, but if
    # you have specific areas ...')
    whole = whole if s.cls != "polarity" and _flanked_by(a, s, e) else e
    forward = max(sum(bool(a.keys(k) & v.content_keys) for k in ks) / len(ks) for v in (e, whole)) if ks else 1.0
    if e is not sentence:  # or of e's main clause, less the answer's asides that restate e's ('who sat out
        # the spring season' for 'who missed the spring season'): another clause than the one contradicted
        main, side = _main_clause(sentence, e, lex)
        mine = [k for k in ks if k not in _restated_asides(a, main, side, own, lex)]
        if mine and len(mine) < len(ks):
            forward = max(forward, sum(bool(a.keys(k) & main) for k in mine) / len(mine))
        forward = max(forward, _aside_restated(a, ks, own, e, main, lex))
    shown = set(s.evidence.lower().split())
    js = [j for j in range(len(e)) if e.content(j) and e.word(j) not in shown]
    back = sum(bool(e.keys(j) & a.content_keys) for j in js) / len(js) if js else 1.0
    return forward, back


def _negations(v: View, other: View, lex: Lexicon) -> int:
    """Negation words in v, and words with a negative prefix whose base `other` has: a reworded flip
    is read only where the two sentences hold one between them ('Not a single bus went uninspected'
    for 'Every bus was inspected' holds two)."""
    return sum(v.word(k) in lex.negation or (prefixed(v.word(k), lex) or "") in other.all_keys for k in range(len(v)))


def _ends(v: View, lex: Lexicon) -> frozenset[str]:
    """The words of v at either end of the quantifier scale ('none', 'all', 'every'): a reworded flip
    is not read where one sentence has such a word the other lacks ('None of the 40 crew were
    injured' / 'all 40 of its crew came through unhurt')."""
    scale = lex.modality["quantifier"]
    ends = {w for w, level in scale.items() if level in (0, max(scale.values()))} - {"no"}  # 'no longer': a negation
    return frozenset(v.word(k) for k in range(len(v)) if v.word(k) in ends)


def _flanked_by(a: View, s: Signal, home: View) -> bool:
    """The nearest content word on each side of the flagged words in their clause, where there is
    one, is a word of `home`."""
    ps = _positions(a, s)
    near = [keys for keys in neighbours(a, ps[0], ps[-1]) if keys] if ps else []
    return bool(near) and all(keys & home.content_keys for keys in near)


def _role_restated(a: View, e: View, s: Signal, lex: Lexicon, others: list[View]) -> bool:
    """A role swap of a listed relation (cues.toml [roles]) in a sentence that mixes evidence
    sentences ('In the rain-soaked semi-final, A were defeated by B'): its own words, from the first
    name to the end of the last name's clause, restate e (a form of the same relation counts:
    'defeated' / 'beat') and align with e by the margin; the whole sentence's test judges the
    words around them too."""
    ks = _positions(a, s)
    hi = ks[-1]
    while hi + 1 < len(a) and not a.punct(hi + 1):
        hi += 1
    kept = [k for k in range(ks[0], hi + 1) if k not in aside(a, ks[0], hi)]  # less '..., whose captain scored 22,'
    part = View(a.doc, a.idx[kept], a.start, a.end)
    groups = {found[0] for j in range(len(e)) if (found := relation(e, j, lex))}
    theirs = frozenset().union(*(relations(e, j) for j in range(len(e))))
    told = [k for k in range(len(part)) if kept[k] <= ks[-1] and ((g := relation(part, k, lex))
            and (g[0] in groups or groups & lex.converses.get(g[0], frozenset())) or relations(part, k) & theirs)]
    if not told:  # only a listed relation between the names ('ASU linebacker Davon Durant' is none)
        return False
    told += [p for p in particle_words(part, relation_frames()) if any(0 < p - k <= 3 for k in told)]  # 'filed a lawsuit against'
    own = set(s.tokens)
    stated = [bool(part.keys(k) & e.content_keys) or k in told
              for k in range(len(part)) if part.content(k) and int(part.idx[k]) not in own]
    rivals = [alignment(part, o) for o in others if o is not e and o.content_keys != e.content_keys]
    return (not stated or sum(stated) / len(stated) >= lex.confidence["min_restated"]) \
        and (not rivals or alignment(part, e) - max(rivals) >= lex.confidence["min_margin"])


def _role_words(e: View, s: Signal) -> int:
    """The content words of a role swap's evidence words (the parties and what relates them; not
    an amount passed between them: 'lent 12 million pounds to')."""
    stops = {e.word(j) for j in range(len(e)) if not e.content(j) or e.doc.like_num[e.idx[j]]}
    return sum(w[:1].isalnum() and w.lower() not in stops for w in s.evidence.split())


def _positions(v: View, s: Signal) -> list[int]:
    return [k for k in range(len(v)) if int(v.idx[k]) in s.tokens]


def _position(v: View, token: int) -> int | None:
    hits = [k for k in range(len(v)) if int(v.idx[k]) == token]
    return hits[0] if hits else None


def _clause(v: View, k: int, step: int, limit: int = 5, predicate: bool = False) -> list[int]:
    """Content words from k in direction `step`, up to a punctuation mark (not a hyphen inside a word:
    'a 1.2-kilometre cycle lane'); `predicate`: forward, up to a second predicate too ('wider than
    the old crossing and carries two cycle lanes': 'and' before a word that opens no noun phrase)."""
    out, j = [], k + step
    while 0 <= j < len(v) and len(out) < limit and (not v.punct(j) or _inside_word(v, j)):
        if predicate and v.word(j) in _COORDINATORS and j + 1 < len(v) and not _opens_noun_phrase(v, j + 1):
            break
        if v.content(j):
            out.append(j)
        j += step
    return out


def _clause_past_aside(v: View, k: int, lex: Lexicon) -> list[int]:
    """`_clause` back from k, continued before a relative clause set off by commas that ends the
    clause ('the older crossing, which the new bridge will replace, is shorter': 'older crossing')."""
    out, j = _clause(v, k, -1), k - 1
    while j >= 0 and (not v.punct(j) or _inside_word(v, j)):
        j -= 1
    if j <= 0 or v.word(j) != ",":
        return out
    opened = next((i for i in range(j - 1, -1, -1) if v.punct(i)), None)
    if opened is not None and v.word(opened) == "," and opened + 1 < j and v.word(opened + 1) in lex.relative:
        return out + _clause(v, opened, -1)
    return out


_COORDINATORS = frozenset({"and", "but", "or"})
_DETERMINERS = frozenset({"the", "a", "an", "its", "their", "his", "her", "our", "this", "that", "these", "those"})


def _opens_noun_phrase(v: View, k: int) -> bool:
    return v.word(k) in _DETERMINERS or v.text(k)[:1].isupper() or bool(v.doc.like_num[v.idx[k]])


def _inside_word(v: View, j: int) -> bool:
    """Whether the mark at j joins the tokens on either side with no space ('1.2-kilometre')."""
    starts, ends, i = v.doc.starts, v.doc.ends, v.idx
    return 0 < j < len(v) - 1 and ends[i[j - 1]] == starts[i[j]] and ends[i[j]] == starts[i[j + 1]] \
        and v.word(j) in ("-", "/")


def _number_before(v: View, k: int) -> str | None:
    """The number word nearest before position k, up to four tokens back in its clause ('5.2-mile':
    a hyphen inside a word joins them)."""
    for j in range(k - 1, max(-1, k - 5), -1):
        if v.punct(j) and v.word(j) != "," and not _inside_word(v, j):
            return None
        if v.doc.like_num[v.idx[j]]:
            return v.word(j).replace(",", "")
    return None


def _anchored(a: View, e: View, s: Signal) -> bool:
    """A quantity signal whose flagged unit or period follows the very number that the evidence's
    unit or period follows ('grew by 12 students' / 'rose by 12 percent', '1,800 parcels a week' /
    '1,800 parcels a month'; '2.4 million' / '2.4 billion', whose evidence words hold the number): the
    amount is restated, its kind is changed."""
    ks = _positions(a, s)
    spots = _occurrences(e, s.evidence.lower().split())
    mine = _number_before(a, ks[0]) if ks else None
    return mine is not None and any(mine in (_number_before(e, i), e.word(i).replace(",", "")) for i, _ in spots)


def _passive_verb(v: View, k: int) -> bool:
    """A participle after a form of 'be' ('was convicted', 'has been acquitted')."""
    w = v.word(k)
    return w.endswith(("ed", "en")) and k > 0 and v.word(k - 1) in _BE


def _passive_near(v: View, k: int) -> bool:
    """A participle after a form of 'be', a negation or adverb between ('was never inspected')."""
    w = v.word(k)
    return w.endswith(("ed", "en")) and any(v.word(j) in _BE for j in (k - 1, k - 2) if j >= 0)


def _apposed(v: View, j: int) -> list[int]:
    """The name set off by a comma right after the clause from j ('lost to the incumbent, Mara Lind,
    by 208 votes': 'Mara Lind'), which names the same party."""
    i = j + 1
    while i < len(v) and not v.punct(i):
        i += 1
    out = []
    if i < len(v) and v.word(i) == ",":
        i += 1
        while i < len(v) and not v.punct(i) and v.text(i)[:1].isupper():
            out.append(i)
            i += 1
    return out


def _converse(a: View, e: View, s: Signal, lex: Lexicon) -> bool:
    """Whether an antonym relates the other side's two parties the other way round ('B is shorter than A'
    for 'A is taller than B', 'before releasing X, won Y'); a state after a copula ('will be closed
    overnight' for 'will remain open overnight') has none."""
    k = _position(a, s.tokens[0])
    hits = [j for j in range(len(e)) if e.word(j) == s.evidence.lower()]
    if k is None or not hits or _state(e, hits[0]) or _state(a, k):
        return False
    j = hits[0]
    before = _clause_past_aside(a, _measure(a, k), lex)  # 'Two years after X opened, Y opened': 'two years' is no party
    amounts = _amounts(a)
    before = [i for i in before if i not in amounts]  # nor 'last season's 14 percent fall'
    j0 = _measure(e, j)  # 'X opened in 1998, two years before Y': X is before the comma
    left = {x for i in _clause(e, j0 - 1 if 0 < j0 < j and e.word(j0 - 1) == "," else j0, -1, 12) for x in e.keys(i)}
    right = {x for i in _clause(e, j, 1, 12, predicate=True) + _apposed(e, j) for x in e.keys(i)}
    fronted = not before
    if fronted:  # 'Before releasing X, won Y' for 'released X after it won Y'
        before, left, right = _clause(a, k, 1), right, left
    if _passive_verb(a, k) != _passive_verb(e, j):  # 'X was convicted by a jury' for 'a jury acquitted X'
        left, right = right, left
    same = sum(bool(a.keys(i) & left) and not a.keys(i) & right for i in before)  # 'tower' on both sides says nothing
    other = sum(bool(a.keys(i) & right) and not a.keys(i) & left for i in before)
    if fronted or other <= same:
        return other > same
    # a modifier of the same noun with no word of e's first party after it: a noun phrase reordered
    # ('the Merrow River's north bank' for 'the south bank of the Merrow River'), no converse
    head = k + 1 < len(a) and j + 1 < len(e) and not a.punct(k + 1) and bool(a.keys(k + 1) & e.keys(j + 1)) \
        and a.word(k + 1) not in _RELATING | {"the", "a", "an"}  # ('side' is a stop word: no content test)
    return not (head and not any(a.keys(i) & left and not a.keys(i) & right for i in _clause(a, k, 1)))


_AMOUNTS = frozenset({"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "CARDINAL", "ORDINAL"})


def _amounts(v: View) -> set[int]:
    """Positions of v's numbers and of the words of its dates, times and amounts (the tagger's)."""
    doc = v.doc
    spans = [(x, y) for x, y, label in doc.entities or () if label in _AMOUNTS]
    return {k for k in range(len(v)) if doc.like_num[v.idx[k]] or any(x <= doc.starts[v.idx[k]] < y for x, y in spans)}


_TIME_UNITS = frozenset({"year", "years", "month", "months", "week", "weeks", "day", "days", "hour", "hours",
                         "minute", "minutes", "decade", "decades", "century", "centuries"})


def _measure(v: View, k: int) -> int:
    """Where a measure of time right before k starts ('two years before'), else k."""
    return k - 2 if k >= 2 and v.word(k - 1) in _TIME_UNITS and v.doc.like_num[v.idx[k - 2]] else k


def _reworded_flip(a: View, e: View, s: Signal, lex: Lexicon) -> bool:
    """A polarity, antonym or modality shift may stand in an answer that rewords much of its evidence
    sentence, where no quantifier at an end of its scale differs and the two sentences hold the
    negations of the flip only: one for polarity, none for an antonym ('did not fall' / 'rose' cancel);
    a frequency scale's 'rarely' is a modality level, not a negation to count."""
    if s.cls not in ("polarity", "antonym", "modality") or _ends(a, lex) != _ends(e, lex):
        return False
    return s.cls == "modality" or _negations(a, e, lex) + _negations(e, a, lex) == (s.cls == "polarity")


_RELATING = frozenset({"than", "before", "after", "of", "to", "from", "as", "behind", "ahead", "beyond"})
_COPULAS = frozenset({"be", "is", "are", "was", "were", "been", "being", "remain", "remains", "remained",
                      "stay", "stays", "stayed", "become", "becomes", "became"})


def _state(v: View, k: int) -> bool:
    """A state after a copula that relates no second party ('will remain open overnight', 'will be closed'):
    not a comparative ('is taller'), an order word, or one a preposition of relation follows ('north of')."""
    w = v.word(k)
    after = v.word(k + 1) if k + 1 < len(v) else ""
    relating = w in _RELATING or after in _RELATING or w.endswith("er")
    return k > 0 and v.word(k - 1) in _COPULAS and not relating


def _other_argument(a: View, e: View, s: Signal) -> bool:
    """A negated word whose next words in the answer differ from those after the evidence's word
    ('was not produced by X' for 'was produced by Y'): another fact is denied, not this one."""
    k = _position(a, s.tokens[-1])
    hits = [j for j in range(len(e)) if e.word(j) == s.evidence.lower()]
    if k is None or not hits:
        return False
    after = _clause(a, k, 1, 3)
    stop = next((i for i in range(k + 1, len(a)) if a.word(i) in ("and", "but", "while")), len(a))
    after = [i for i in after if i < stop]  # 'did not rise in price ... and still costs': its own clause's
    step = -1 if any(_passive_near(a, k) != _passive_near(e, j) for j in hits) else 1  # 'was not inspected by X' / 'X inspected'
    theirs = {x for j in hits for i in _clause(e, j, step, 3) for x in e.keys(i)}
    nearest = [e.keys(i[0]) for i in (_clause(e, j, step, 1) for j in hits) if i]
    # the argument fronted ('the case ... that the court refused to hear in October' / 'agreed to hear the case')
    fronted = any(a.keys(i) & x and any(a.word(r) in _RELATIVE for r in range(i + 1, k))
                  for x in nearest for i in range(k) if a.content(i))
    return bool(after) and not any(a.keys(i) & theirs for i in after) and not fronted


def _norm(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _person_or_number(a: View, s: Signal, lex: Lexicon) -> bool:
    """A value put in from another sentence is a number or a person: another place or organisation
    there is often an alias or a part of the answer's ('the U.S.' / 'the United States', 'Italy' /
    'Sicily', 'the Reds' / 'Liverpool')."""
    kinds = {x.kind for x in values(a, lex) if {int(a.idx[k]) for k in x.positions} & set(s.tokens)}
    return not kinds or bool(kinds & {"person", "year", "number"})


def _one_edit(x: str, y: str) -> bool:
    """x and y differ by at most one inserted, deleted or replaced character."""
    if abs(len(x) - len(y)) > 1:
        return False
    i = 0
    while i < min(len(x), len(y)) and x[i] == y[i]:
        i += 1
    return x[i + 1:] == y[i + 1:] or x[i + 1:] == y[i:] or x[i:] == y[i + 1:]


def _distinct(a: View, s: Signal) -> bool:
    """The two values are not one name written two ways ('U.S.' / 'U.S', 'realisticYA' / 'YA',
    'Aurelio De Laurentiis' / 'Di Laurentiis': the end of one a letter away from the other; 'Matt
    Upson' / 'Matthew Upson': one surname, and one given name the start of the other)."""
    words = [_norm(a.doc.token_text(t)) for t in s.tokens]
    mine, theirs = "".join(words), _norm(s.evidence)
    if not (mine and theirs) or mine in theirs or theirs in mine:
        return False
    others = [_norm(w) for w in s.evidence.split()]
    ends = [("".join(words[i:]), theirs) for i in range(len(words))] + \
        [("".join(others[i:]), mine) for i in range(len(others))]
    if any(len(end) >= 5 and _one_edit(end, whole) for end, whole in ends):
        return False
    mine_words, their_words = [w for w in words if w], [w for w in others if w]
    return not (len(mine_words) > 1 and len(their_words) > 1 and mine_words[-1] == their_words[-1]
                and (mine_words[0].startswith(their_words[0]) or their_words[0].startswith(mine_words[0])))


def _cue_first(s: Signal, lex: Lexicon) -> bool:
    """A negation of the evidence that the answer drops ('not host' -> 'host')."""
    first = s.evidence.lower().split()[0]
    return first in lex.negation or first in lex.verb_negation


def _occurrences(v: View, words: list[str]) -> list[tuple[int, int]]:
    """(first, last) positions of every occurrence of the word sequence in v."""
    n = len(words)
    return [(k, k + n - 1) for k in range(len(v) - n + 1)
            if all(v.word(k + i) == w for i, w in enumerate(words))]


def _same_slot(a: View, e: View, s: Signal, own_too: bool = True) -> bool:
    """The answer's words stand where the evidence's words stand: the content word next to them
    is the one next to the evidence's words on one side at least, and (`own_too`) not also the one
    next to the answer's own words where the evidence has them too (a unit on both says nothing;
    in two clauses of the same shape it does not matter)."""
    ks = sorted(k for k in range(len(a)) if int(a.idx[k]) in s.tokens)
    if not ks:
        return False
    mine = neighbours(a, ks[0], ks[-1])
    theirs = [neighbours(e, i, j) for i, j in _occurrences(e, s.evidence.lower().split())]
    own = [neighbours(e, i, j) for i, j in _occurrences(e, [a.word(k) for k in ks])]
    for side in (0, 1):
        if mine[side] and any(mine[side] & t[side] for t in theirs) \
                and not (own_too and any(mine[side] & o[side] for o in own)):
            return True
    # a number set off by commas on both sides ('Marta Ilves, 52, and') has no slot words to compare
    commas = [(i, j) for i, j in _occurrences(e, s.evidence.lower().split())
              if 0 < i and j + 1 < len(e) and e.word(i - 1) == e.word(j + 1) == ","]
    return not own_too and bool(commas) and all(a.doc.like_num[t] for t in s.tokens)


def _level(word: str, lex: Lexicon) -> tuple[str, int] | None:
    for name, scale in lex.modality.items():
        if word in scale:
            return name, scale[word]
    return None


def _weakened(a: View, e: View, s: Signal, lex: Lexicon) -> bool:
    """Whether a modality shift weakens its evidence on a scale where only a stronger answer
    conflicts, or climbs fewer levels than the scale's `min_steps` (an event the evidence only
    governs, 'considering moving', that the answer asserts, 'will move', is stronger)."""
    k = _position(a, s.tokens[0])
    if k is None:
        return True
    first, will = s.evidence.lower().split()[0], any(a.word(i) in ("will", "'ll") for i in _positions(a, s))
    if any(e.word(g) == first and not (will and intention(e, g, lex)) for g, _ in governed(e, lex) + planned(e, lex)):
        return False  # 'plans to build' / 'will build', 'is considering a ban' / 'will ban': the plan's own strength
    own = {a.word(i) for i in _positions(a, s)}
    words = [w for w in s.evidence.lower().split() if w not in own]  # 'expected approved': the hedge, not the word
    mine = [(name, h.level) for name in lex.modality for h in hits(a, name, lex) if h.lo <= k < h.hi]
    if not mine:  # a hedge the answer drops: stronger
        return False
    name, level = next(((n, lv) for n, lv in mine if any(w in lex.modality[n] for w in words)), mine[0])
    scale = lex.modality[name]
    theirs = [scale[w] for w in words if w in scale]
    if not theirs:  # a modal the answer adds where the evidence has none: weaker; a word of another scale
        others = [x for x in map(lambda w: _level(w, lex), words) if x]
        return name in lex.strengthened_only and (not others or name in lex.min_steps)
    if name in lex.strengthened_only:  # 'expected to' -> 'will', 'may' -> 'likely': a step, not possible -> certain
        return not any(level - lv >= lex.min_steps.get(name, 1) for lv in theirs)
    return False


def _stated_elsewhere(a: View, e: View, others: list[View], s: Signal) -> bool:
    """The answer's flagged words stand in some evidence sentence next to a content word that
    stands next to them in the answer, and not next to the conflicting words in `e`."""
    ks = sorted(k for k in range(len(a)) if int(a.idx[k]) in s.tokens)
    if not ks:
        return False
    mine = neighbours(a, ks[0], ks[-1])
    theirs = [neighbours(e, i, j) for i, j in _occurrences(e, s.evidence.lower().split())]
    if not theirs:  # a phrase with a gap ('expected ... approved'): each of its words where it stands
        theirs = [neighbours(e, i, j) for w in s.evidence.lower().split() for i, j in _occurrences(e, [w])]
    words = [a.word(k) for k in ks]
    for o in others:
        if s.cls == "recombination" and _follows_e_not(a, e, o, set(ks)):
            continue  # o states the value of another fact (on other classes this raised false alarms)
        for i, j in _occurrences(o, words):
            if o is e and _partitive_of(e, i, _occurrences(e, s.evidence.lower().split())):
                continue  # the conflicting words' own noun ('30 residents' for '30 percent of the residents')
            near = neighbours(o, i, j)
            for side in (0, 1):
                shared = mine[side] & near[side]
                if shared and not any(shared & t[side] for t in theirs):
                    return True
    return False


def _partitive_of(e: View, i: int, spans: list[tuple[int, int]]) -> bool:
    """Whether the word at i is the noun of a partitive 'of' right after one of `spans` ('percent of
    the residents')."""
    return any(j < i <= j + 3 and "of" in [e.word(x) for x in range(j, i)] for _, j in spans)


def _follows_e(a: View, e: View, others: list[View], s: Signal, margin: float) -> bool:
    """Every other sentence that aligns with the answer within `margin` of e is one that the answer,
    its flagged words aside, does not follow (`_follows_e_not`): a recombined value's answer may align
    as well with the sentence its value comes from (on other classes this raised false alarms)."""
    flagged, best = set(_positions(a, s)), alignment(a, e)
    return all(best - alignment(a, o) >= margin or _follows_e_not(a, e, o, flagged)
               for o in others if o is not e and o.content_keys != e.content_keys)


def _follows_e_not(a: View, e: View, o: View, flagged: set[int]) -> bool:
    """The answer, its flagged words and the words right beside them aside, restates words of e that o
    lacks and none of o that e lacks: it follows e, and o states the flagged words of another fact ('the
    library reopened on 17 April' for 'The library reopened on 3 March.' and 'The pool reopened on 17
    April.')."""
    near = {k + d for k in flagged for d in (-1, 0, 1)}
    rest = [a.keys(k) for k in range(len(a)) if a.content(k) and k not in near]
    return any(x & e.content_keys and not x & o.content_keys for x in rest) \
        and not any(x & o.content_keys and not x & e.content_keys for x in rest)


def mark_confident(signals: list[Signal], a: View, e: View, lex: Lexicon,
                   others: list[View] | None = None) -> list[Signal]:
    """The signals with `confident` set; `others`: every evidence sentence of the source
    (`e` alone when not given)."""
    if not signals:
        return []
    rule = lex.confidence
    ranks = uniqueness_cues().ranks
    classes = {s.cls for s in signals}
    rivals = [alignment(a, o) for o in (others or []) if o is not e and o.content_keys != e.content_keys]
    unique = not rivals or alignment(a, e) - max(rivals) >= rule["min_margin"]
    source = frozenset().union(*(o.content_keys for o in others or [e]))
    out = []
    for s in signals:
        compared = False
        forward, back = _restated(a, e, s, lex, others or [])
        follows = unique or s.cls == "recombination" and _follows_e(a, e, others or [], s, rule["min_margin"])
        ok = follows and back >= rule["min_covered"] and (forward >= rule["min_restated"] or (
            forward >= rule["min_restated_reworded"] and back >= rule["min_covered_reworded"]
            and _reworded_flip(a, e, s, lex)))
        if not ok and s.cls in _MIXED_OK and back >= rule["min_covered_mixed"] \
                and forward >= rule["min_restated_mixed"] and _from_source(a, e, s, source, lex) >= rule["min_restated"] \
                and _local(a, _holder(e, others, s), s):
            ok = True  # a sentence mixing two evidence sentences, whose flagged words keep e's neighbours
        if not ok and s.cls == "quantity" and back >= rule["min_covered_mixed"] \
                and forward >= rule["min_restated_mixed"] and _anchored(a, _holder(e, others, s), s):
            ok = True  # the same number with another unit or period ('12 students' / '12 percent')
        if not ok and s.cls == "quantity" and not {a.doc.lower[t] for t in s.tokens} <= set(s.evidence.lower().split()):
            holder = _holder(e, others, s)  # ... in a sentence fusing several, whose words are the source's
            ok = _from_source(a, holder, s, source, lex) >= rule["min_restated"] and _anchored(a, holder, s) \
                and _restated(a, holder, s, lex, others or [])[1] >= rule["min_covered_mixed"]
            # not a rate's period left out ('310-320mg' for '310-320 mg per day', a daily allowance)
        if not ok and s.cls in _FUSED_OK and not _quantifier_cue(a, s, lex) \
                and (s.cls != "quantity" or rescaled(s, lex)) and back >= rule["min_covered"] \
                and _from_source(a, e, s, source, lex) >= rule["min_restated"] and _fused(a, e, s, others or [e], lex):
            ok = True
        if s.confident:  # decided by its class's own test (recombination.clause_recombined, binding.rebound)
            holder = _holder(e, others, s)
            # a compared value's slot is the value's it is compared with, which the answer keeps
            compared = any(in_comparison(holder, i, lex) for i, _ in _occurrences(holder, s.evidence.lower().split()))
            ok = _distinct(a, s) and (compared or _same_slot(a, holder, s, own_too=False))
        elif ok and s.cls == "antonym":
            ok = "roles" not in classes and not _converse(a, e, s, lex)
        elif s.cls == "roles":
            ok = (ok or (back >= rule["min_covered"] and _role_restated(a, e, s, lex, others or [e]))) \
                and "antonym" not in classes and _role_words(e, s) <= rule["max_role_words"]
        elif ok and s.cls == "modality":
            ok = not _weakened(a, e, s, lex) and not any(a.doc.like_num[t] and a.doc.lower[t] not in ranks
                                                         for t in s.tokens)  # 'the first' of uniqueness: a rank
        elif ok and s.cls == "recombination":
            ok = _distinct(a, s) and _same_slot(a, e, s) and _person_or_number(a, s, lex) and not bound(a, _positions(a, s), lex) \
                and not partitive(e, s.evidence.lower().split(), [a.word(k) for k in _positions(a, s)]) \
                and clause_alignment(a, s.tokens, e, lex) >= rule["min_clause_restated"]
        elif ok and s.cls == "polarity" and len(s.tokens) == 1 and _cue_first(s, lex):
            cue = s.evidence.lower().split()
            ok = _same_slot(a, e, replace(s, evidence=cue[-1]), own_too=cue[0] == "no" and cue[1:2] != ["longer"])
            # 'never attended' / 'attended': e's own word; 'no transfer has been agreed' / 'linked with a
            # transfer': the noun stands elsewhere; 'no longer run' / 'run': the verb's own place
        elif ok and s.cls == "polarity" and len(s.tokens) == 2:
            ok = not _other_argument(a, e, s)
        if ok and rule["stated_elsewhere"] and not (s.confident and compared):
            ok = not _stated_elsewhere(a, e, others if others is not None else [e], s)
        out.append(replace(s, confident=ok))
    return out
