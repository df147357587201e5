"""How closely an answer sentence restates its evidence sentence e apart from the flagged words
(`confidence.mark_confident`): the shares of content words restated each way, counted in the
clauses of e that hold the evidence's words (less asides that another evidence sentence states);
the share of the answer's words that the source states anywhere; whether the flagged words keep
e's neighbours in a sentence that mixes evidence sentences or fuses e with others; and whether a
flip may stand in an answer that rewords much of e."""
from __future__ import annotations

from .align import View, asides, frames, neighbours
from .base import Signal
from .lexicon import Lexicon
from .polarity import prefixed
from .positions import clause, inside_word, occurrences, passive_near, positions
from .recombination import clauses, values


def from_source(a: View, e: View, s: Signal, source: frozenset[str], lex: Lexicon) -> float:
    """Share of the answer's other content words that the source states anywhere; 0 when one that
    the clauses of e holding the evidence words lack stands in another clause of e ('Bolt was not
    voiced by X' for 'Mina is Bolt's friend, ... where she is voiced by X': another subject; `_claim`)."""
    own = set(s.tokens)
    home = _claim(e, s, lex)
    ks = [k for k in range(len(a)) if a.content(k) and int(a.idx[k]) not in own]
    if any(a.keys(k) & e.content_keys and not a.keys(k) & home for k in ks):
        return 0.0
    return sum(bool(a.keys(k) & source) for k in ks) / len(ks) if ks else 1.0


def local(a: View, e: View, s: Signal) -> bool:
    """Most of the flagged words' nearest content words, after them or else before them, are those
    of the evidence's words ('failed to deploy the panels' / 'succeeded in deploying the panels')."""
    ks = positions(a, s)
    words = s.evidence.lower().split()
    js = [j for j in range(len(e)) if e.word(j) in words]
    if not ks or not js:
        return False
    turned = -1 if passive_near(a, ks[-1]) != passive_near(e, js[-1]) else 1  # 'was never inspected by X' / 'X inspected'
    for step, k, j in ((1, ks[-1], js[-1] if turned == 1 else js[0]), (-1, ks[0], js[0] if turned == 1 else js[-1])):
        mine = [a.keys(i) for i in clause(a, k, step, 3)]
        theirs = frozenset().union(*(e.keys(i) for i in clause(e, j, step * turned, 4)))
        if mine:
            return sum(bool(x & theirs) for x in mine) * 2 > len(mine)
    return False


def holder_of(e: View, others: list[View] | None, s: Signal) -> View:
    """e, or the evidence sentence that states the signal's evidence words where e does not (an
    amount the answer takes from another passage: 'hands out 300 parcels per week')."""
    words = s.evidence.lower().split()
    if not words or occurrences(e, words):
        return e
    return next((o for o in others or () if occurrences(o, words)), e)


def _home(e: View, s: Signal, lex: Lexicon) -> View:
    """The clauses of e that hold the signal's evidence words: the part of e the answer contradicts
    ('where she is voiced by X' is another clause than 'She is Daffy Duck's girlfriend')."""
    words = {w for w in s.evidence.lower().split()}
    keep = []
    for part in frames(e, clauses(e, values(e, lex), lex, sure=True), lex.relative):
        if any(e.content(j) and e.word(j) in words for j in part):
            keep += part
    return View(e.doc, e.idx[keep], e.start, e.end) if keep else e


def _claim(e: View, s: Signal, lex: Lexicon) -> frozenset[str]:
    """Content keys of the claim of e that the signal contradicts: its home clauses (`_home`) where e
    has a punctuation mark inside it ('..., but is named only in one, where she is voiced by X'; 'X
    demanded ... - in a move which would cost billions -'); else the whole of e, whose pieces are one
    claim ('Patients receiving X showed no reduction ... compared with the placebo group'; 'The trial
    found that patients who received X recovered faster'). A hyphen inside a word is none."""
    marked = any(e.punct(j) and not inside_word(e, j) for j in range(len(e) - 1))
    return _home(e, s, lex).content_keys if marked else e.content_keys


def quantifier_cue(a: View, s: Signal, lex: Lexicon) -> bool:
    """A polarity signal whose cue is a quantifier ('None of the stations' for 'Several of the
    stations'): in a fused sentence the quantifier shift names it."""
    scale = lex.modality[lex.share_scale]
    return s.cls == "polarity" and any(a.word(k) in scale for k in positions(a, s))


def fused(a: View, e: View, s: Signal, others: list[View], lex: Lexicon) -> bool:
    """A shift in a sentence that fuses e with words of other evidence sentences ('Tidewell
    Airways, based at Granby, has agreed to buy' for 'flies ... from its base at Granby' and 'is in
    talks to buy'): the words it takes from no other sentence are e's (`min_restated`, at least
    `min_fused_words`), and one of the two nearest such words on either side of the flagged words
    is next to e's words and in no other sentence (the words the shift bears on are e's). A flip or
    an amount (not a modality shift) also takes at least `min_fused_words` words from the other
    sentences: a word or two shared with another sentence is no fusion ('she refused to sell' for
    'Instead of selling ..., X's mother rented it')."""
    elsewhere = frozenset().union(*(o.content_keys for o in others if o.content_keys != e.content_keys))
    home = _claim(e, s, lex)
    own = set(s.tokens)
    ks = [k for k in range(len(a)) if a.content(k) and int(a.idx[k]) not in own]
    mine = [k for k in ks if not (a.keys(k) & elsewhere and not a.keys(k) & e.content_keys)]
    least = 1 if s.cls == "modality" else lex.confidence["min_fused_words"]
    if len(ks) - len(mine) < least or len(mine) < lex.confidence["min_fused_words"]:
        return False
    if sum(bool(a.keys(k) & home) for k in mine) < lex.confidence["min_restated"] * len(mine):
        return False
    ps = positions(a, s)
    words = s.evidence.lower().split()
    js = [j for j in range(len(e)) if e.word(j) in words]
    near = frozenset().union(*(e.keys(i) for j in js for step in (1, -1) for i in clause(e, j, step, 3)))
    if not ps:
        return False
    kept = set(mine)  # the nearest words on each side that are not only another sentence's ('All of the Grand Orme hotel's rooms')
    nearest = [i for k, step in ((ps[-1], 1), (ps[0], -1)) for i in [i for i in clause(a, k, step, 6) if i in kept][:2]]
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


def restated(a: View, e: View, s: Signal, lex: Lexicon, others: list[View] = ()) -> tuple[float, float]:
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


def _flanked_by(a: View, s: Signal, home: View) -> bool:
    """The nearest content word on each side of the flagged words in their clause, where there is
    one, is a word of `home`."""
    ps = positions(a, s)
    near = [keys for keys in neighbours(a, ps[0], ps[-1]) if keys] if ps else []
    return bool(near) and all(keys & home.content_keys for keys in near)


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


def reworded_flip(a: View, e: View, s: Signal, lex: Lexicon) -> bool:
    """A polarity, antonym or modality shift may stand in an answer that rewords much of its evidence
    sentence, where no quantifier at an end of its scale differs and the two sentences hold the
    negations of the flip only: one for polarity, none for an antonym ('did not fall' / 'rose' cancel);
    a frequency scale's 'rarely' is a modality level, not a negation to count."""
    if s.cls not in ("polarity", "antonym", "modality") or _ends(a, lex) != _ends(e, lex):
        return False
    return s.cls == "modality" or _negations(a, e, lex) + _negations(e, a, lex) == (s.cls == "polarity")
