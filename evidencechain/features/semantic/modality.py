"""Quantifier and modality shifts: some -> all, may -> does, proposed -> completed.

Each scale of data/cues.toml [modality] orders words and phrases by strength ("a handful",
"the majority", "in talks"); a share ("one of the four", "40 percent of", "two thirds") stands at
the level its value falls in. An answer word at one level against an evidence word at another
level of the same scale, in the same place, is a shift. Same place: the two words share the
content word they bear on (the next one) or the one before them, or the token before or after
them ("may seem ... make" -> "will make" is no shift); where the evidence has several words of
the scale ("few said they cycle, while most said they drive"), the one whose clause has the smallest
share of words the answer's clause lacks (then the most words it has) is compared, and a tie keeps the answer's level. A scale word under a
negation ("not always") is polarity's. A hedge the answer drops is kept by an auxiliary in the
answer ("may live" / "can live", "is expected to cost $1.8 billion and open" / "should open ... at
a cost of"), and an attributing hedge ("allegedly hit") by a verb of saying before the word ("X
said he hit")."""
from __future__ import annotations

from dataclasses import dataclass

from ..numeric import WORD_NUMBERS
from .align import View, remembered, sentence_view
from .base import Signal
from .irrealis import done_on, governed, irrealis_shifts
from .lexicon import Lexicon, stem
from .polarity import is_cue, prefixed

_MODALS = frozenset({"may", "might", "could"})
_NEGATION_REACH = 2
_FOLLOWING = 8
_SHARED_CLAUSE_WORDS = 4
"""Keys (a word's forms and stems count apart) that two clauses share to be the same place."""


@dataclass(frozen=True)
class Hit:
    lo: int
    hi: int
    """Tokens lo..hi-1 of the view: a scale word or phrase."""
    level: int
    subject: tuple[int, ...] = ()
    """A floating quantifier's subject ('the schools have all replaced'): the words it bears on."""


def _subject(v: View, k: int, lex: Lexicon) -> tuple[int, ...] | None:
    """The content words of the subject before the auxiliary at k, back to the clause's start;
    None where it is a list ('Ana, Ben and Cy are all') or has no content word ('they have all')."""
    j, out = k - 1, []
    while j >= 0 and not v.punct(j) and v.word(j) not in lex.clause_breaks - lex.conjunctions:
        if v.word(j) in lex.conjunctions or v.word(j) == "or":
            return None
        if v.content(j):
            out.append(j)
        j -= 1
    if j >= 0 and v.word(j) == "," and any(v.word(i) in lex.conjunctions for i in range(max(0, j - 4), j)):
        return None
    return tuple(reversed(out)) or None


def _before_verb(v: View, k: int) -> bool:
    """A floater between its subject's last content word and an inflected verb ('the residents at the
    meeting all opposed')."""
    if not 0 < k < len(v) - 1 or not (v.content(k - 1) and v.content(k + 1)):
        return False
    return v.lemma(k + 1) != v.word(k + 1) and v.word(k + 1).endswith(("ed", "s"))


_TABLES: dict[tuple[int, str], dict[str, list[tuple[tuple[str, ...], int]]]] = {}


def _phrases(lex: Lexicon, name: str) -> dict[str, list[tuple[tuple[str, ...], int]]]:
    """First word -> (words, level) of every entry of a scale, longest first."""
    key = (id(lex), name)
    if key not in _TABLES:
        out: dict[str, list[tuple[tuple[str, ...], int]]] = {}
        for entry, level in lex.modality[name].items():
            words = tuple(entry.split())
            out.setdefault(words[0], []).append((words, level))
        _TABLES[key] = {w: sorted(v, key=lambda x: -len(x[0])) for w, v in out.items()}
    return _TABLES[key]


def _token(v: View, k: int) -> str:
    return v.word(k) if 0 <= k < len(v) else ""


def _number(word: str) -> float | None:
    if word in WORD_NUMBERS:
        return float(WORD_NUMBERS[word])
    digits = word.replace(",", "")
    return float(digits) if digits.replace(".", "", 1).isdigit() else None


def _at(v: View, k: int, words: tuple[str, ...]) -> bool:
    return tuple(_token(v, k + i) for i in range(len(words))) == words


def _share(v: View, k: int, lex: Lexicon) -> tuple[float, int] | None:
    """(value, end) of a share starting at k: '40 percent of', 'one of the four', 'one in five',
    'two thirds', 'a quarter'."""
    n = 1.0 if _token(v, k) in ("a", "one") else _number(_token(v, k))
    if n is None:
        return None
    if _token(v, k + 1) in lex.shares:
        return n / lex.shares[_token(v, k + 1)], k + 2
    if v.word(k) == "a":
        return None
    if _token(v, k + 1) in lex.percent and _token(v, k + 2) == "of":
        return n / 100, k + 3
    if _token(v, k + 1) in ("in", "of") or (_token(v, k + 1), _token(v, k + 2)) == ("out", "of"):
        start = k + (3 if _token(v, k + 1) == "out" else 2)
        for j in range(start, min(len(v), start + 4)):
            m = _number(v.word(j))
            if m is not None and m >= n > 0 and not v.punct(j):
                return n / m, start
        if _token(v, k + 1) == "of" and n < 1000:  # 'one of the classrooms'
            return min(n, 0.5), k + 2
    return None


def _share_level(value: float, lex: Lexicon) -> int:
    for bound, level in lex.share_levels:
        if value <= bound:
            return level
    return lex.share_levels[-1][1]


def _negated(v: View, k: int, lex: Lexicon) -> bool:
    return any(is_cue(v, j, lex) for j in range(max(0, k - _NEGATION_REACH), k))


def hits(v: View, name: str, lex: Lexicon) -> list[Hit]:
    """The words and phrases of a scale in the sentence, in order ('a few' read as 'several'; a
    quantifier right before another, 'only some', takes the other's level; names, 'on May 4', and
    idioms, 'each other', are passed over)."""
    return remembered(v, ("hits", name), lambda: _hits(v, name, lex))


def _hits(v: View, name: str, lex: Lexicon) -> list[Hit]:
    table, scale, out, k = _phrases(lex, name), lex.modality[name], [], 0
    lifted = scale.get(lex.after_article)
    while k < len(v):
        if name == lex.share_scale and v.word(k) in lex.floaters and (_token(v, k - 1) in lex.floating
                                                                       or _before_verb(v, k)):
            subject = _subject(v, k - 1 if _token(v, k - 1) in lex.floating else k, lex)
            if subject is not None and not _negated(v, k, lex):
                out.append(Hit(k, k + 1, scale[v.word(k)], subject))
            k += 1
            continue
        if name == lex.share_scale and _at(v, k, ("all", "but")):  # an exception, not 'all': 'all but one of
            share = _share(v, k + 2, lex)  # the twelve' is eleven of twelve; 'all but finished' states no level
            if share is not None and not _negated(v, k, lex):
                out.append(Hit(k, share[1], _share_level(1 - share[0], lex)))
            k = share[1] if share is not None else k + 2
            continue
        idiom = next((len(w) for w in lex.idioms_by_first.get(v.word(k), ()) if _at(v, k, w)), 0)
        if idiom > 1 and v.word(k + idiom - 1) in scale and _token(v, k + idiom) == "of":
            k += idiom - 1  # 'at most of the stops', 'after all of them': the quantifier of a part
            continue
        if idiom:
            k += idiom
            continue
        found = None
        if name == lex.share_scale:
            share = _share(v, k, lex)
            found = (share[1], _share_level(share[0], lex)) if share else None
        for words, level in table.get(v.word(k), []) if found is None else ():
            if _at(v, k, words):
                found = (k + len(words), level)
                break
        if found is None or (k > 0 and v.text(k)[:1].isupper() and not v.punct(k - 1)):  # 'on May 4'
            k = k + 1 if found is None else found[0]
            continue
        end, level = found
        if lifted is not None and _token(v, k - 1) == "a" and level < lifted and end == k + 1:
            level = lifted
        if out and out[-1].hi == k and name == lex.share_scale:
            out.pop()  # 'only some', 'only one of': the modifier takes the word's level
        if name == lex.belief_scale and level > 0 and any(  # 'believes it will help': a belief, one step down
                v.word(j) in lex.belief for j in range(max(0, k - lex.cue_reach), k)):
            level -= 1
        if not _negated(v, k, lex):
            out.append(Hit(k, end, level))
        k = end
    return _capped(v, out, lex) if name == lex.belief_scale else out


def _capped(v: View, found: list[Hit], lex: Lexicon) -> list[Hit]:
    """The hits with those inside a clause that a hedge opens ('it is possible that she will ride':
    'will') at most at the hedge's level, up to the sentence's end or a ';'."""
    cap, out = None, []
    hedges = {k: lex.clause_hedges[v.word(k)] for k in range(len(v)) if v.word(k) in lex.clause_hedges and (
        _token(v, k + 1) == "that" or (_token(v, k + 1), _token(v, k + 2)) == ("be", "that"))}
    for k in range(len(v)):
        if v.word(k) == ";":
            cap = None
        if k in hedges:
            cap = hedges[k] if cap is None else min(cap, hedges[k])
        out += [h if cap is None or h.level <= cap or h.lo in hedges else Hit(h.lo, h.hi, cap, h.subject)
                for h in found if h.lo == k]
    return out


def _window(v: View, h: Hit, limit: int = 1) -> frozenset[str]:
    """Keys of up to `limit` content words after the hit (in its clause), and of the one before it."""
    if h.subject:
        return frozenset().union(*(v.keys(j) for j in h.subject))
    keys, j = set(), h.hi
    while j < len(v) and limit and not v.punct(j):
        if v.content(j):
            keys |= v.keys(j)
            limit -= 1
        j += 1
    j = h.lo - 1
    while j >= 0 and h.lo - j <= 4 and not v.punct(j):
        if v.content(j):
            return frozenset(keys | v.keys(j))
        j -= 1
    return frozenset(keys)


def _same_place(a: View, h: Hit, e: View, g: Hit) -> bool:
    return bool(_window(a, h) & _window(e, g, 3) or _window(a, h, 3) & _window(e, g)) \
        or _token(a, h.lo - 1) == _token(e, g.lo - 1) or _token(a, h.hi) == _token(e, g.hi)


def _clause_keys(v: View, h: Hit, lex: Lexicon) -> frozenset[str]:
    """Keys of the content words of the hit's clause, both sides of it, with a fronted partitive
    that opens the sentence ('Of the 200 species recorded, only a few were migrants')."""
    out, j = set(), h.lo - 1
    while j >= 0 and not v.punct(j) and v.word(j) not in lex.clause_breaks:
        out |= v.keys(j) if v.content(j) else set()
        j -= 1
    if j > 0 and v.word(j) == "," and v.word(0) == "of" and not any(v.punct(i) for i in range(1, j)):
        out.update(*(v.keys(i) for i in range(1, j) if v.content(i)))
    return frozenset(out).union(*_following(v, h, lex))


def _following(v: View, h: Hit, lex: Lexicon) -> list[frozenset[str]]:
    """Keys of the content words after the hit up to the end of its clause; a hit that opens the
    sentence before a comma ('Occasionally, the ferry is delayed') is the next clause's adverb."""
    out, j = [], h.hi
    if h.lo == 0 and j < len(v) and v.word(j) == ",":
        j += 1
    while j < len(v) and len(out) < _FOLLOWING and not v.punct(j) and v.word(j) not in lex.clause_breaks:
        if v.content(j):
            out.append(v.keys(j))
        j += 1
    return out


def _counterpart(a: View, h: Hit, e: View, theirs: list[Hit], lex: Lexicon) -> Hit | None:
    """The evidence's scale word that the answer's word restates: the one whose clause has the
    smallest share of words that the answer's clause lacks, then the most words it has; the answer's
    own level on a tie
    ('few said they cycle, while most said they drive': 'most said they drive' is the same claim)."""
    mine = frozenset().union(*_following(a, h, lex))

    def rank(g: Hit) -> tuple[float, int, bool]:
        theirs = _following(e, g, lex)
        return sum(not x & mine for x in theirs) / max(1, len(theirs)), -sum(bool(x & mine) for x in theirs), \
            g.level != h.level

    return min(theirs, key=rank) if theirs else None


def _kept(a: View, k: int, e: View, j: int, lex: Lexicon) -> bool:
    """Whether the answer keeps the evidence's hedge at j on its word at k by other means: negated
    ('likely' / 'unlikely': polarity's business), or an attributing hedge by a verb of saying."""
    if any(prefixed(a.word(i), lex) == stem(e.word(j)) for i in range(len(a))):
        return True
    whole = sentence_view(a.doc, a.start, a.end)  # a clause's sentence: 'It is believed the men who ... attended'
    return e.word(j) in lex.attribution and any(whole.word(i) in lex.reporting for i in range(len(whole))
                                                 if whole.idx[i] < a.idx[k])


def _hedged(a: View, k: int, mine: list[Hit], top: int, lex: Lexicon) -> bool:
    """Whether the answer's word at k keeps a hedge: a scale word below `top` anywhere, or an
    auxiliary or an attributing hedge before it in its clause ('so that larger ships can dock' hedges
    'dock', not 'dredged'; 'allegedly took' keeps 'is alleged to have taken')."""
    if any(h.level < top for h in mine):
        return True
    j = k - 1
    while j >= 0 and k - j <= lex.cue_reach and not a.punct(j):
        if a.word(j) in lex.auxiliaries or a.word(j) in lex.attribution:
            return True
        j -= 1
    return False


def _words(v: View, h: Hit) -> str:
    return v.span_text(list(range(h.lo, h.hi)))


def _tokens(v: View, h: Hit, scale: dict[str, int]) -> tuple[int, ...]:
    """The hit's tokens; for a phrase of the scale ('every one of'), less its number words (a
    number of a share, 'one of the four', keeps it: shares are numbers)."""
    ks = range(h.lo, h.hi)
    if " ".join(v.word(k) for k in ks) in scale:
        ks = [k for k in ks if not v.doc.like_num[v.idx[k]]] or ks
    return tuple(int(v.idx[k]) for k in ks)


def _shifts(a: View, e: View, mine: list[Hit], theirs: list[Hit], name: str, lex: Lexicon) -> list[Signal]:
    out, top = [], max(lex.modality[name].values())
    inside = {j for g in theirs for j in (*range(g.lo, g.hi), e.next_content(g.hi - 1, 4))}  # hedges and their words
    near = {h: [g for g in theirs if _same_place(a, h, e, g)] for h in mine}
    if len(mine) == len(theirs) == 1 and not near[mine[0]] \
            and len(_clause_keys(a, mine[0], lex) & _clause_keys(e, theirs[0], lex)) >= _SHARED_CLAUSE_WORDS:
        near[mine[0]] = theirs  # the one word of the scale on each side, in a clause both state ('seldom meets' / 'meetings usually go ahead')
    own = {h: _counterpart(a, h, e, near[h], lex) for h in mine}
    for h in mine:  # an evidence word that another answer word restates is not this one's ('draft plan' / 'approved a plan')
        g = _counterpart(a, h, e, [g for g in near[h] if not any(
            x is not h and own[x] is g and x.level == g.level for x in mine)], lex)
        last = next((i for i in range(h.hi - 1, h.lo - 1, -1) if a.content(i)), h.lo)  # 'certain' of 'certain to'
        if g is None or g.level == h.level or any(  # the evidence says the answer's word unhedged too
                e.keys(j) & a.keys(last) for j in range(len(e)) if j not in inside and not _negated(e, j, lex)):
            continue
        if name in lex.polar_scales and {g.level, h.level} == {0, top}:
            continue  # 'None of them passed' = 'All of them failed': polarity's
        out.append(Signal("modality", _tokens(a, h, lex.modality[name]), _words(e, g)))
    return out


def modality_shifts(a: View, e: View, lex: Lexicon, best: View | None = None) -> list[Signal]:
    """`best`: e is another evidence sentence than the best-aligned one (a sentence fusing two);
    then only shifts between two scale words, on scales that `best` has no word of."""
    out = []
    for name, scale in lex.modality.items():
        if best is not None and hits(best, name, lex):
            continue
        mine, theirs = hits(a, name, lex), hits(e, name, lex)
        out += _shifts(a, e, mine, theirs, name, lex)
        if name not in ("epistemic", "status") or best is not None:
            continue
        top = max(scale.values())
        for g in theirs:  # a hedge the answer drops: "may reduce", "proposed dredging" -> "dredged"
            j = g.lo
            scoped = e.next_content(g.hi - 1, 4)
            if g.level == top or scoped is None or e.word(j) in lex.attribution \
                    or (name == "status" and e.word(j) not in lex.unreached) \
                    or (g.hi < len(e) and e.word(g.hi) in lex.negation):
                continue  # 'could not reach': a negated modal is polarity's ('was unable to reach')
            done = [h.lo for h in mine if h.level == top]  # 'allege that X took' -> 'X was convicted of taking'
            found = [k for k in a.find(e.keys(scoped)) if not _hedged(a, k, mine, top, lex)
                     and (name == "epistemic" or done or done_on(a, k, lex) is not None)]
            if found and not _kept(a, found[0], e, j, lex):
                k = min(done, key=lambda k: abs(k - found[0])) if done else found[0]
                k = k if done or name == "epistemic" else done_on(a, k, lex)
                if any(e.keys(i) & lex.with_synonyms(a.keys(k)) for i in range(len(e)) if i != scoped):
                    continue  # the evidence states the answer's word elsewhere ('nominated ... promise to appoint'),
                    # maybe in other words ('scheduled to leave ... departed' / 'left')
                out.append(Signal("modality", (int(a.idx[k]),), e.span_text([j, scoped])))
        if name != "epistemic":
            continue
        their_levels = {g.level for g in theirs}
        for h in mine:  # a modal the answer adds: "reduces" -> "may reduce"
            scoped = a.next_content(h.lo, 4)
            if h.level == 0 and a.word(h.lo) in _MODALS and 0 not in their_levels and scoped is not None \
                    and e.find(a.keys(scoped)):
                hit = e.find(a.keys(scoped))[0]
                out.append(Signal("modality", (int(a.idx[h.lo]),), e.text(hit)))
    taken = {t for s in out for t in s.tokens}  # a scale's own shift first ('proposed' -> 'completed')
    irrealis = irrealis_shifts(a, e, lex) if best is None or not governed(best, lex) else []
    return out + [s for s in irrealis if not taken.intersection(s.tokens)]
