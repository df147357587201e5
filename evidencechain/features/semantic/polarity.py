"""Polarity: a negation on one side only ("not", "never", "no longer", "failed to", "unlikely")."""
from __future__ import annotations

from .align import View
from .base import Signal
from .lexicon import Lexicon, stem


def is_cue(v: View, k: int, lex: Lexicon) -> bool:
    """Whether the word at k is a negation cue ('not', 'failed' before 'to', 'stopped' before '-ing'
    or 'from', 'hardly' before 'ever', 'from' after 'kept the ferry'; not a pair before an amount: 'gave
    up 25 pennies')."""
    w = v.word(k)
    after = v.word(k + 1) if k + 1 < len(v) else ""
    return w in lex.negation or (w in lex.verb_negation and after == "to") \
        or (w in lex.ending_negation and (after.endswith("ing") or after == "from")) \
        or ((w, after) in lex.pair_cues and not (k + 2 < len(v) and v.doc.like_num[v.idx[k + 2]])) \
        or (w in lex.comparative_cues and k + 1 < len(v) and v.content(k + 1) and not v.doc.like_num[v.idx[k + 1]]) \
        or (w == "from" and after.endswith("ing") and _prevented(v, k, lex))


def _prevented(v: View, k: int, lex: Lexicon) -> bool:
    """Whether 'from' at k follows a verb that keeps its object from acting ('kept the ferry from
    sailing'), in its clause and within `cue_reach` words."""
    for j in range(k - 1, max(-1, k - 1 - lex.cue_reach), -1):
        if v.punct(j):
            return False
        if v.word(j) in lex.preventers:
            return True
    return False


_DO = frozenset({"do", "does", "did", "done", "doing"})


def _pro_verb(v: View, k: int) -> int | None:
    """Where a form of 'do' that ends its clause stands at k ('... is something the observatory no
    longer does'), the verb it stands for: the first verb in '-ing' before it (the sentence's
    gerund subject, 'opening the telescope')."""
    if k >= len(v) or v.word(k) not in _DO or (k + 1 < len(v) and not v.punct(k + 1)):
        return None
    return next((i for i in range(k) if v.word(i).endswith("ing") and v.word(i) != v.lemma(i)
                 and v.content(i)), None)


def _subject_scope(v: View, k: int) -> int | None:
    """The first content word after a subject cue that is no name ('neither Ana nor Ben attended')."""
    j = v.next_content(k)
    while j is not None and v.text(j)[:1].isupper():
        j = v.next_content(j, limit=4)
    return j


def _coordinated(v: View, k: int, lex: Lexicon) -> int | None:
    """The verb that 'neither ... nor ...' at k negates: the first content word after an auxiliary
    that follows 'nor' ('neither A nor B will stay open': 'stay'); None when there is none in reach."""
    aux, reach = lex.coordination
    nor = k if v.word(k) == "nor" else next(
        (i for i in range(k + 1, min(len(v), k + reach)) if v.word(i) == "nor"), None)
    if nor is None:
        return None
    for i in range(nor + 1, min(len(v), nor + reach)):
        if v.punct(i) and v.word(i) != ",":
            return None
        if v.word(i) in aux:
            return v.next_content(i)
    return None


def _cues(v: View, lex: Lexicon) -> list[tuple[int, int | None]]:
    """(cue position, position of the content word it scopes over or None)."""
    out = []
    for k in range(len(v)):
        w = v.word(k)
        if is_cue(v, k, lex):
            after = v.word(k + 1) if k + 1 < len(v) else ""
            pair = (w, after) in lex.pair_cues or (w in ("no", *lex.verb_negation) and after in ("longer", "to"))
            j = v.next_content(k + 1 if pair else k)
            bare = k + 2 if after == "to" else k + 1 if k > 0 and v.word(k - 1) in _DO else None
            if bare is not None and _bare_verb(v, bare, lex):  # 'not to keep', 'did not keep': a stop word is negated too
                j = bare
            verb = _pro_verb(v, k + 2 if pair else k + 1)
            if verb is not None:  # 'opening the telescope is something it no longer does': 'opening'
                j = verb
            named = j is not None and v.text(j)[:1].isupper() and verb is None  # a name is not what a negation negates
            if named and w in lex.subject_cues:
                j, named = _subject_scope(v, k), False
            verb = _coordinated(v, k, lex) if w in ("neither", "nor") else None
            if verb is not None:  # 'neither the library nor the pool will stay open': 'stay'
                j, named = verb, False
            exclusive = [i for i in range(k + 1, min(len(v), k + 3)) if v.word(i) in lex.exclusives]
            if exclusive:  # 'not the only symptom': the negation bears on 'only'
                j, named = exclusive[0], False
            elif k + 1 < len(v) and v.word(k + 1) in lex.universals:  # 'not every train', 'not all of': on the
                j, named = k + 1, False  # quantifier, whose word the other side must state to be flipped
            out.append((k, None if named else j))
    return out


_NOT_VERBS = frozenset({"be", "have", "the", "a", "an", "only", "just", "even", "yet", "all", "every", "any", "so",
                        "as", "much", "more", "very", "too", "always", "ever", "at", "in", "on", "for"})


def _bare_verb(v: View, k: int, lex: Lexicon) -> bool:
    """Whether the word at k can be the bare verb after 'to' or 'did not': a lower-case word of no
    other kind ('keep', which is a stop word, in 'voted not to keep'; not 'often' of a scale, nor an
    adverb in '-ly')."""
    if k >= len(v) or not v.text(k).isalpha() or not v.text(k).islower():
        return False
    w = v.word(k)
    return w not in _NOT_VERBS and w not in _DO and not w.endswith("ly") and w not in lex.scale_words


def cue_scopes(v: View, lex: Lexicon) -> list[tuple[int, int | None]]:
    """(cue position, position of the word it negates or None), one cue per negated word."""
    return _once(_cues(v, lex))


def _uncancelled(cues: list[tuple[int, int | None]]) -> list[tuple[int, int | None]]:
    """The cues less each cue that negates another cue, and the cue it negates ('did not fail to
    reduce', 'never stopped selling': a double negation keeps the meaning)."""
    at = {k for k, _ in cues}
    gone = {k for k, j in cues if j in at} | {j for k, j in cues if j in at}
    return [(k, j) for k, j in cues if k not in gone]


def _once(cues: list[tuple[int, int | None]]) -> list[tuple[int, int | None]]:
    """One cue per negated word ('neither ... nor' negates its verb once)."""
    seen, out = set(), []
    for k, j in cues:
        if j is None or j not in seen:
            out.append((k, j))
            seen.add(j)
    return out


def negated_near(v: View, k: int, lex: Lexicon) -> bool:
    """A negation cue up to `cue_reach` tokens before position k, in the same clause ('won't let
    them entertain such talk'), or a '-free' right after it ('cavity-free' = 'free of cavities'): the word
    is negated on that side too, only further away."""
    if k + 2 < len(v) and v.word(k + 1) == "-" and v.word(k + 2) == "free":
        return True
    for j in range(k - 1, max(-1, k - 1 - lex.cue_reach), -1):
        if v.punct(j):
            return False
        if is_cue(v, j, lex):
            return True
    return False


def prefixed(word: str, lex: Lexicon) -> str | None:
    """The stem of `word` without its negative prefix ('unlikely' -> stem('likely'))."""
    for p in lex.prefixes:
        rest = word[len(p):]
        if word.startswith(p) and len(rest) >= lex.min_stem:
            return stem(rest)
    return None


def _related(v: View, k: int, other: View, lex: Lexicon) -> list[int]:
    """Positions in `other` of the word at k, of its base without a negative prefix, or of its antonym."""
    keys = set(v.keys(k))
    base = prefixed(v.word(k), lex)
    if base:
        keys.add(base)
    for s in v.keys(k):
        keys |= lex.antonyms.get(s, frozenset()) | lex.synonyms.get(s, frozenset())
    return sorted(other.find(frozenset(keys)), key=lambda j: not other.keys(j) & v.keys(k))  # the word itself first


def _clause_keys(v: View, k: int, lex: Lexicon) -> frozenset[str]:
    """Keys of the content words of the clause around k (between punctuation or clause breaks)."""
    out = set()
    for step in (-1, 1):
        j = k + step
        while 0 <= j < len(v) and not v.punct(j) and v.word(j) not in lex.clause_breaks:
            out |= v.keys(j) if v.content(j) else set()
            j += step
    return frozenset(out)


def _placed(v: View, k: int, other: View, found: list[int], lex: Lexicon) -> int:
    """The one of `found` (positions in `other` of the word at k or its opposite) whose clause
    shares most words with k's clause; the word itself on a tie."""
    mine = _clause_keys(v, k, lex)
    return min(found, key=lambda j: (-len(_clause_keys(other, j, lex) & mine), not other.keys(j) & v.keys(k)))


def _opposite_placed(v: View, k: int, other: View, found: list[int], lex: Lexicon) -> bool:
    """Whether `other` states the word at k in another clause and its opposite in k's own clause
    ('is not open on Sundays' for 'is closed on Sundays but opens late on Thursdays')."""
    opposite = frozenset().union(*(lex.antonyms.get(x, frozenset()) for x in v.keys(k)))
    placed = _placed(v, k, other, found, lex)
    return bool(other.keys(placed) & opposite) and any(other.keys(j) & v.keys(k) for j in found)


def _restates_opposite(v: View, j: int, other: View, anchor: int, lex: Lexicon) -> bool:
    """Whether `other`'s word at `anchor` is the opposite of v's negated word at j (not the word
    itself) and v states that word too, unnegated ('did not rise in May; it dropped' for 'fell')."""
    if other.keys(anchor) & v.keys(j) or prefixed(v.word(j), lex):
        return False  # the word itself; a prefixed word's negations cancel as two flips ('not disordered')
    said = set(other.keys(anchor))
    for x in other.keys(anchor):
        said |= lex.synonyms.get(x, frozenset())
    return any(i != j and v.content(i) and v.keys(i) & said and not negated_near(v, i, lex) for i in range(len(v)))


def _persisting(v: View, k: int, lex: Lexicon, opposite: frozenset[str]) -> int | None:
    """A word before k in its clause that asserts what the evidence's cue denies: that the state
    goes on ('still', 'continues to' for 'no longer'), or the cue's opposite ('more' for 'less')."""
    for j in range(k - 1, max(-1, k - 1 - lex.cue_reach), -1):
        if v.punct(j):
            return None
        if v.word(j) in lex.persistence or v.keys(j) & opposite:
            return j
    return None


def _delayed(e: View, j: int, a: View, lex: Lexicon) -> bool:
    """'could not reach them until the wind dropped' / 'only once the wind dropped ... reach them': the
    negated word j of one side waits for an event ('until' later in its clause) that the other side puts
    after 'only' + 'once', 'when' or 'after', or after a plain 'after' or 'once'."""
    until, then, alone = lex.delay
    k = next((m for m in range(j + 1, len(e)) if e.punct(m) or e.word(m) in until), None)
    return k is not None and e.word(k) in until \
        and any(a.word(i) == "only" and i + 1 < len(a) and a.word(i + 1) in then or a.word(i) in alone
                for i in range(len(a)))


def polarity_flips(a: View, e: View, lex: Lexicon) -> list[Signal]:
    """Negations that one sentence has and the other lacks, where the negated word (or its
    opposite) is in both: each is one flip of meaning, and an even number of flips cancels."""
    out = []
    a_all, e_all = _once(_cues(a, lex)), _once(_cues(e, lex))
    a_cues, e_cues = _uncancelled(a_all), _uncancelled(e_all)
    e_scoped = [e.keys(j) for _, j in e_cues if j is not None]
    a_scoped = [a.keys(j) for _, j in a_cues if j is not None]
    # cue positions that flipped their word (or cancel another cue), answer side and evidence side
    flipped = ({k for k, _ in a_all} - {k for k, _ in a_cues}, {k for k, _ in e_all} - {k for k, _ in e_cues})
    for k, j in a_cues:
        if j is None or any(a.keys(j) & s for s in e_scoped) or _delayed(a, j, e, lex):
            continue
        anchor = _related(a, j, e, lex)
        if anchor and _opposite_placed(a, j, e, anchor, lex):
            continue  # 'is not open' for 'is closed' in the same clause: a negation and an opposite agree
        if anchor and _restates_opposite(a, j, e, anchor[0], lex):
            continue  # 'did not rise; it dropped' for 'fell': the negated opposite and e's word agree
        if anchor and not any(negated_near(e, p, lex) for p in anchor):
            out.append(Signal("polarity", (int(a.idx[k]), int(a.idx[j])), e.text(anchor[0])))
            flipped[0].add(k)
    for k, j in e_cues:
        if j is None or any(e.keys(j) & s for s in a_scoped) or _delayed(e, j, a, lex):
            continue
        hits = _related(e, j, a, lex)
        if hits and not any(negated_near(a, p, lex) for p in hits):
            shown = e.span_text(list(range(k, j + 1))) if j - k <= 3 else f"{e.text(k)} ... {e.text(j)}"
            opposite = frozenset().union(*(lex.antonyms.get(x, frozenset()) for x in e.keys(k)))
            said = _persisting(a, hits[0], lex, opposite)  # 'still runs' for 'no longer runs': 'still' says it
            if said is None and e.word(k) in lex.privatives:  # 'with additional parking' for 'without ...'
                said = next((i for i in range(hits[0] - 1, max(-1, hits[0] - 5), -1)
                             if a.word(i) == lex.privatives[e.word(k)]), None)
            tokens = (int(a.idx[hits[0]]),) if said is None else (int(a.idx[said]), int(a.idx[hits[0]]))
            out.append(Signal("polarity", tokens, shown))  # 'Neither ... attended': names between
            flipped[1].add(k)
    for side, other, answer_side, cued in ((a, e, True, flipped[0]), (e, a, False, flipped[1])):
        # the other side's negated words whose negation took no flip: a prefix there agrees with it
        agree = {j for c, j in (e_cues if answer_side else a_cues) if c not in flipped[answer_side]}
        for k in range(len(side)):
            if not side.content(k) or k in cued:
                continue  # 'unable to sign' / 'able to sign' flipped 'sign' already: one flip, not two
            base = prefixed(side.word(k), lex)
            if base is None or side.word(k) in other.all_keys:
                continue
            hits = [j for j in range(len(other)) if base in other.keys(j)]
            if hits and not agree.intersection(hits):  # 'unbuilt' / 'not yet built' agree
                pos = int(a.idx[k]) if answer_side else int(a.idx[hits[0]])
                shown = e.text(hits[0]) if answer_side else e.text(k)
                out.append(Signal("polarity", (pos,), shown))
    return out
