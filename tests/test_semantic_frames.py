"""Values bound to the frame of their clause (features.semantic.value_frames) and given in the answer to
another value's frame (features.semantic.reassigned), also across clauses of contrast and comparison
(two people each with a role and a place, a cleft's focus, "compared with X for Y"): each error flagged with confidence, naming the
evidence's rival value, and a faithful answer of the same shape, its holders in another order, left
alone. Invented sentences, none of a suite's."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals

from evidencechain.features.semantic.align import evidence_views, sentence_view
from evidencechain.features.semantic.lexicon import lexicon
from evidencechain.features.semantic.value_frames import bind, evidence_bound
from evidencechain.text.parse import parse_texts

FRAMES = [  # (evidence, error, flagged words, evidence words, a faithful answer)
    # a relative clause's year: its frame is its antecedent's, not the sentence's other clause
    ("The Pellam lighthouse was lit in 1871, and its keeper's cottage was rebuilt in 1954.",
     "The Pellam lighthouse, which was lit in 1954, later had its keeper's cottage rebuilt.", "1954", "1871",
     "The keeper's cottage of the Pellam lighthouse, which was lit in 1871, was rebuilt in 1954."),
    # a gapped conjunct: 'and the juniors at Lorne Hall' shares 'will play' with the clause before
    ("On Sunday the seniors will play at Fenwick Hall and the juniors at Lorne Hall.",
     "The juniors will compete at Fenwick Hall on Sunday.", "Fenwick Hall", "Lorne Hall",
     "On Sunday the juniors will play at Lorne Hall, while the seniors compete at Fenwick Hall."),
    # a gapped conjunct whose subject is a name, its value a year
    ("Arno Vilks chaired the board in 2011 and Petra Lang in 2016.",
     "Petra Lang chaired the board in 2011.", "2011", "2016",
     "Petra Lang chaired the board in 2016, five years after Arno Vilks."),
    # two amounts of two sentences: the answer gives the second's to the first's purpose
    ("The Corvel trust granted €90,000 to the village school this spring. Another €15,000 paid for a new "
     "playground.", "The village school got €15,000 from the Corvel trust this spring.", "15,000", "90,000",
     "A new playground cost the Corvel trust €15,000, after it granted the village school €90,000."),
    # one person's term given to the other person, named in another passage
    ("passage 1: At Harrowgate magistrates' court, Dena Pryor was banned from driving for three years.\n\n"
     "passage 2: Her passenger, Colm Reilly, was banned for eight months.",
     "Colm Reilly, who was in the car with Dena Pryor, was banned from driving for three years.", "three", "eight",
     "Dena Pryor, whose passenger was Colm Reilly, was banned from driving for three years."),
    # the act of one person given to another person the evidence names
    ("passage 1: The head teacher, Alma Trent, unveiled the plaque at the new sports hall on Monday.\n\n"
     "passage 2: The hall was funded by the businessman Rufus Onley.",
     "Rufus Onley, the businessman who funded the hall, unveiled the plaque at the new sports hall on Monday.",
     "Rufus Onley", "Alma Trent",
     "The plaque at the new sports hall, funded by the businessman Rufus Onley, was unveiled on Monday by Alma Trent."),
    # clauses of contrast and comparison
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


@pytest.mark.parametrize("evidence, error, words, named, faithful", FRAMES, ids=[f[2] for f in FRAMES])
def test_a_value_given_to_another_frame_is_flagged_and_the_reordered_answer_is_not(evidence, error, words, named,
                                                                                  faithful):
    found = confident_signals(evidence, error)
    assert ("recombination", words, named) in found, found
    assert not confident_signals(evidence, faithful)


def _bound(text: str) -> dict:
    doc, = parse_texts([text], progress=False)
    return {b.key: b for b in evidence_bound(evidence_views(doc), lexicon())}


def test_a_gapped_conjunct_shares_the_verb_but_not_the_subject_of_the_clause_before():
    found = _bound("At the 2030 games, the marathon will start in Ostrava and the relay in Brno.")
    assert {"start", "relay"} <= found["brno"].words and "marathon" not in found["brno"].words
    assert "games" in found["brno"].names or "game" in found["brno"].words  # the opening scene is every clause's
    assert "relay" not in found["ostrava"].words


def test_a_relative_clause_is_framed_with_its_antecedent_and_apart_from_the_main_clause():
    doc, = parse_texts(["The Varne museum, which opened in 1988, added a new wing in 2004."], progress=False)
    found = {b.key: b for b in bind(sentence_view(doc, 0, len(doc.text)), lexicon())[0]}
    assert {"museum", "open"} <= found["1988 year"].words and "wing" not in found["1988 year"].words
    assert "wing" in found["2004 year"].words and "open" not in found["2004 year"].words


def test_an_anaphor_takes_the_subject_before_it_across_passages_and_a_subject_of_its_own_does_not():
    found = _bound("passage 1: Ilona Marsh ran the Tilbury branch for 12 years.\n\n"
                   "passage 2: She then led the Essex region for 5 years. Her successor, Tom Ruddle, served 2 years.")
    assert found["5"].holders == {"ilona", "marsh"}
    assert found["2"].holders == {"tom", "ruddle"}


def test_a_conjunct_with_its_own_verb_is_not_gapped_and_a_quoted_title_is_no_person():
    found = _bound("The plant opened in 1962 and later installed a second kiln in 1979.")
    assert "open" not in found["1979 year"].words and "kiln" in found["1979 year"].words
    doc, = parse_texts(['The raucous "Style," is a fever dream, and the critic Ada Quill praised it.'], progress=False)
    people = {b.key: b.person for b in bind(sentence_view(doc, 0, len(doc.text)), lexicon())[0] if b.kind == "agent"}
    assert people.get("style") is not True and people.get("ada quill") is True


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
