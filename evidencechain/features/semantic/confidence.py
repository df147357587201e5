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
    (`restatement.fused`); a flip or an amount must also take `min_fused_words` words from the other sentences,
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

from .align import View, alignment
from .base import Signal
from .binding import in_comparison
from .lexicon import Lexicon
from .parties import converse, other_argument, role_restated, role_words
from .positions import occurrences, positions
from .quantities import rescaled
from .recombination import bound, clause_alignment, partitive
from .restatement import from_source, fused, holder_of, local, quantifier_cue, restated, reworded_flip
from .slots import anchored, cue_first, distinct, follows_e, person_or_number, same_slot, stated_elsewhere
from .strength import weakened
from .uniqueness import cues as uniqueness_cues

_MIXED_OK = ("polarity", "modality", "quantity", "antonym")
_FUSED_OK = ("modality", "polarity", "antonym", "quantity")


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
        forward, back = restated(a, e, s, lex, others or [])
        follows = unique or s.cls == "recombination" and follows_e(a, e, others or [], s, rule["min_margin"])
        ok = follows and back >= rule["min_covered"] and (forward >= rule["min_restated"] or (
            forward >= rule["min_restated_reworded"] and back >= rule["min_covered_reworded"]
            and reworded_flip(a, e, s, lex)))
        if not ok and s.cls in _MIXED_OK and back >= rule["min_covered_mixed"] \
                and forward >= rule["min_restated_mixed"] and from_source(a, e, s, source, lex) >= rule["min_restated"] \
                and local(a, holder_of(e, others, s), s):
            ok = True  # a sentence mixing two evidence sentences, whose flagged words keep e's neighbours
        if not ok and s.cls == "quantity" and back >= rule["min_covered_mixed"] \
                and forward >= rule["min_restated_mixed"] and anchored(a, holder_of(e, others, s), s):
            ok = True  # the same number with another unit or period ('12 students' / '12 percent')
        if not ok and s.cls == "quantity" and not {a.doc.lower[t] for t in s.tokens} <= set(s.evidence.lower().split()):
            holder = holder_of(e, others, s)  # ... in a sentence fusing several, whose words are the source's
            ok = from_source(a, holder, s, source, lex) >= rule["min_restated"] and anchored(a, holder, s) \
                and restated(a, holder, s, lex, others or [])[1] >= rule["min_covered_mixed"]
            # not a rate's period left out ('310-320mg' for '310-320 mg per day', a daily allowance)
        if not ok and s.cls in _FUSED_OK and not quantifier_cue(a, s, lex) \
                and (s.cls != "quantity" or rescaled(s, lex)) and back >= rule["min_covered"] \
                and from_source(a, e, s, source, lex) >= rule["min_restated"] and fused(a, e, s, others or [e], lex):
            ok = True
        if s.confident:  # decided by its class's own test (recombination.clause_recombined, binding.rebound)
            holder = holder_of(e, others, s)
            # a compared value's slot is the value's it is compared with, which the answer keeps
            compared = any(in_comparison(holder, i, lex) for i, _ in occurrences(holder, s.evidence.lower().split()))
            ok = distinct(a, s) and (compared or same_slot(a, holder, s, own_too=False))
        elif ok and s.cls == "antonym":
            ok = "roles" not in classes and not converse(a, e, s, lex)
        elif s.cls == "roles":
            ok = (ok or (back >= rule["min_covered"] and role_restated(a, e, s, lex, others or [e]))) \
                and "antonym" not in classes and role_words(e, s) <= rule["max_role_words"]
        elif ok and s.cls == "modality":
            ok = not weakened(a, e, s, lex) and not any(a.doc.like_num[t] and a.doc.lower[t] not in ranks
                                                         for t in s.tokens)  # 'the first' of uniqueness: a rank
        elif ok and s.cls == "recombination":
            ok = distinct(a, s) and same_slot(a, e, s) and person_or_number(a, s, lex) and not bound(a, positions(a, s), lex) \
                and not partitive(e, s.evidence.lower().split(), [a.word(k) for k in positions(a, s)]) \
                and clause_alignment(a, s.tokens, e, lex) >= rule["min_clause_restated"]
        elif ok and s.cls == "polarity" and len(s.tokens) == 1 and cue_first(s, lex):
            cue = s.evidence.lower().split()
            ok = same_slot(a, e, replace(s, evidence=cue[-1]), own_too=cue[0] == "no" and cue[1:2] != ["longer"])
            # 'never attended' / 'attended': e's own word; 'no transfer has been agreed' / 'linked with a
            # transfer': the noun stands elsewhere; 'no longer run' / 'run': the verb's own place
        elif ok and s.cls == "polarity" and len(s.tokens) == 2:
            ok = not other_argument(a, e, s)
        if ok and rule["stated_elsewhere"] and not (s.confident and compared):
            ok = not stated_elsewhere(a, e, others if others is not None else [e], s)
        out.append(replace(s, confident=ok))
    return out
