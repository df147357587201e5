"""Clauses of contrast and comparison (features.semantic.value_frames, frame_clauses, reassigned): two
people each with a role and a place, a cleft's focus read as the subject of its act, and a comparison's
value bound to its own group with the verb of the clause before. Each error flagged with confidence,
naming the evidence's rival, and a faithful answer, its holders in another order, left alone. Invented
sentences, none of a suite's."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals

from evidencechain.features.semantic.align import evidence_views, sentence_view
from evidencechain.features.semantic.lexicon import lexicon
from evidencechain.features.semantic.value_frames import bind, evidence_bound
from evidencechain.text.parse import parse_texts

CASES = [  # (evidence, error, flagged words, evidence words, a faithful answer)
    # a possessive's role before the name ("The choir's soprano, X,"): the name is the clause's holder
    ("The choir's soprano, Ingrid Dahl, grew up in Narvik, while its tenor, Luca Ferri, was raised in Bergamo.",
     "Ingrid Dahl, the choir's soprano, was raised in Bergamo.", "Bergamo", "Narvik",
     "Luca Ferri, the tenor, was raised in Bergamo, and the soprano Ingrid Dahl grew up in Narvik."),
    # a cleft gives one person's act to the other
    ("At the Marlow regatta, the rower Nils Berg broke the course record and the cox Ada Kimura steered the eight.",
     "It was the cox Ada Kimura who broke the course record at the Marlow regatta.", "Ada Kimura", "Nils Berg",
     "It was the rower Nils Berg who broke the course record at the Marlow regatta."),
    # "compared with X for Y": X is Y's
    ("In the Tarbet trial, plots sown with clover yielded 41 tonnes of hay, compared with 26 tonnes for bare plots.",
     "Bare plots in the Tarbet trial yielded 41 tonnes of hay.", "41", "26",
     "Bare plots yielded 26 tonnes of hay in the Tarbet trial, against 41 tonnes for plots sown with clover."),
]


@pytest.mark.parametrize("evidence, error, words, named, faithful", CASES, ids=[c[2] for c in CASES])
def test_a_value_or_act_given_to_the_other_holder_is_flagged_and_the_reordered_answer_is_not(
        evidence, error, words, named, faithful):
    found = confident_signals(evidence, error)
    assert ("recombination", words, named) in found, found
    assert not confident_signals(evidence, faithful)


def _bound(text: str) -> dict:
    doc, = parse_texts([text], progress=False)
    return {b.key: b for b in evidence_bound(evidence_views(doc), lexicon())}


def test_a_comparison_binds_its_value_to_its_own_group_and_shares_the_verb_before():
    found = _bound("Pupils taught in small classes scored 71 points on average, compared with 58 points for pupils "
                   "in large classes.")
    assert {"small", "taught"} & found["71"].words and "larg" not in found["71"].words
    assert {"scor", "larg"} <= found["58"].words and "small" not in found["58"].words


def test_a_bare_number_in_a_comparison_takes_the_unit_before_it():
    found = _bound("The Kell line carried 8,200 passengers a day, versus 5,100 for the Orm line.")
    assert found["8200"].kind == found["5100"].kind == "n:passenger"
    assert "orm" in found["5100"].holders and "kell" not in found["5100"].names


def test_a_cleft_focus_does_the_act_and_a_possessive_is_no_verb():
    doc, = parse_texts(["It was the pilot Rhea Castel who landed the plane at Dunmore."], progress=False)
    found = {b.key: b for b in bind(sentence_view(doc, 0, len(doc.text)), lexicon())[0]}
    assert found["rhea castel"].subject and found["dunmore"].holders == {"rhea", "castel"}
    assert _bound("The band's drummer, Otto Lind, lived in Malmo.")["malmo"].holders >= {"otto", "lind"}
