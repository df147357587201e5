"""Issue 26: flips in a sentence that fuses two evidence sentences, an antonym in the main frame of a
sentence with an aside, a negated verb whose object the answer fronts, 'instead of' as a negation, an
idiom that is a quantifier before 'of', a request stated as an order, an exact number for a bound, a
scale word inside a number phrase ('nine thousand'), an amount of another sentence the answer
fuses in, 'kept X from' as a negation, two words for one opposite (one flip) and a converse whose
party is set off by commas ('lost to the incumbent, Mara Lind,'). For each, an error
the rule flags and a faithful answer it leaves alone. All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals

from evidencechain.features.semantic.align import sentence_views
from evidencechain.features.semantic.antonyms import antonym_flips
from evidencechain.features.semantic.lexicon import lexicon
from evidencechain.text.parse import parse_texts


@pytest.mark.parametrize("evidence, answer, cls, word", [
    # a negation against the second passage, while the subject comes from the first
    ("passage 1: Dr. Ines Varga ran the phase III study of the asthma inhaler Brellix at the Tormund "
     "Research Hospital.\n\npassage 2: The study met its main goal, with night-time attacks cut in 48 "
     "percent of patients.",
     "Dr. Ines Varga's phase III Brellix study at the Tormund Research Hospital failed to meet its main "
     "goal, although night-time attacks were cut in 48 percent of patients.", "polarity", "failed"),
    # an antonym in the main clause, the apposition restating the first passage
    ("passage 1: The shoe maker Corran Boots employs 210 people in Dunmere.\n\n"
     "passage 2: For the 2022 financial year, Corran Boots reported a trading surplus, its first since 2015.",
     "Corran Boots, a shoe maker that employs 210 people in Dunmere, reported a trading deficit for the "
     "2022 financial year.", "antonym", "deficit"),
    # opposite directions of height
    ("After the pilots of the Arvel Air flight from Tesk saw the oil pressure dropping, the aircraft "
     "descended to 2,000 metres and was diverted to Lunde.",
     "The Arvel Air aircraft from Tesk, whose pilots had seen the oil pressure dropping, climbed to "
     "2,000 metres and was diverted to Lunde.", "antonym", "climbed"),
    # the object fronted in a relative clause: the same fact denied
    ("In March, the Oldcastle high court agreed to hear the appeal that the tenants had lodged against "
     "the council.",
     "The appeal lodged by the tenants against the council was one that the Oldcastle high court "
     "refused to hear in March.", "polarity", "refused"),
    # 'instead of' negates what follows it
    ("Instead of selling her farm, Mrs Pell leased it to a neighbour.",
     "Mrs Pell sold her farm to a neighbour.", "polarity", "sold"),
    # ... as 'rather than' does: the two cancel, the antonym stays
    ("Because of roadworks, the last bus from Penfold to Arlow will leave at 21:50 instead of 22:30 during May.",
     "During May, the first bus from Penfold to Arlow will leave at 21:50 rather than 22:30, owing to roadworks.",
     "antonym", "first"),
])
def test_flips_across_fused_sentences_and_frames_are_caught(evidence, answer, cls, word):
    assert any(c == cls and word in w for c, w, _ in confident_signals(evidence, answer))


@pytest.mark.parametrize("evidence, answer", [
    ("passage 1: Dr. Ines Varga ran the phase III study of the asthma inhaler Brellix at the Tormund "
     "Research Hospital.\n\npassage 2: The study met its main goal, with night-time attacks cut in 48 "
     "percent of patients.",
     "Dr. Ines Varga's phase III Brellix study at the Tormund Research Hospital met its main goal, with "
     "night-time attacks cut in 48 percent of patients."),
    ("passage 1: The shoe maker Corran Boots employs 210 people in Dunmere.\n\n"
     "passage 2: For the 2022 financial year, Corran Boots reported a trading surplus, its first since 2015.",
     "Corran Boots, a shoe maker that employs 210 people in Dunmere, reported a trading surplus for the "
     "2022 financial year."),
    ("After the pilots of the Arvel Air flight from Tesk saw the oil pressure dropping, the aircraft "
     "descended to 2,000 metres and was diverted to Lunde.",
     "The Arvel Air aircraft from Tesk, whose pilots had seen the oil pressure dropping, came down to "
     "2,000 metres and was diverted to Lunde."),
    ("In March, the Oldcastle high court agreed to hear the appeal that the tenants had lodged against "
     "the council.",
     "The appeal lodged by the tenants against the council was one that the Oldcastle high court agreed "
     "to hear in March."),
    # the negated verb has another object than the evidence's, and the answer does not front it
    ("The Oldcastle high court agreed to hear the appeal of the tenants.",
     "The Oldcastle high court refused to hear the complaint of the landlords."),
    # another place denied: the evidence's next word also names the subject, which is no fronted object
    ("Tarrow Baptist Chapel is located in Tarrow, north Devon. It was built in 1841.",
     "Tarrow Baptist Chapel is not located on Mill Lane."),
    # a sentence restating one evidence sentence in other words: the fused route is not for it
    ("Instead of selling her farm, as her son advised, Mrs Pell leased it to a neighbour. She moved to "
     "Exeter in 1998.",
     "But she refused to sell her farm and leased it to a neighbour."),
    ("Because of roadworks, the last bus from Penfold to Arlow will leave at 21:50 instead of 22:30 during May.",
     "During May, the last bus from Penfold to Arlow will leave at 21:50 rather than 22:30, owing to roadworks."),
])
def test_their_faithful_versions_are_left_alone(evidence, answer):
    assert not confident_signals(evidence, answer)


@pytest.mark.parametrize("evidence, answer, cls, word", [
    ("A handful of the Pell valley footpaths are open to cyclists.",
     "Cyclists may use at most of the Pell valley footpaths.", "modality", "most"),
    ("Tenants of the Garrow Street towers could be asked to leave their flats if surveys find damp.",
     "Tenants of the Garrow Street towers have been ordered to leave their flats if surveys find damp.",
     "modality", "ordered"),
    ("At least 31 species of moth live in the Carrick Wood reserve, according to a 2021 survey.",
     "A 2021 survey found exactly 31 moth species living in the Carrick Wood reserve.", "quantity", "exactly"),
    ("The bakery Hollin & Rudd sold nine thousand loaves during the winter of 2021.",
     "During the winter of 2021, 9 million loaves were sold by the bakery Hollin & Rudd.", "quantity", "million"),
    # an amount of the first passage in a sentence that goes on with the second
    ("Brask Mining reported revenue of 2.7 billion rand for 2020.\n\nIts exploration spending that year was "
     "410 million rand, up from 380 million rand in 2019.",
     "Brask Mining had revenue of 2.7 million rand in 2020 and spent 410 million rand on exploration that year.",
     "quantity", "million"),
])
def test_scale_and_bound_shifts_are_caught(evidence, answer, cls, word):
    assert any(c == cls and word in w for c, w, _ in confident_signals(evidence, answer))


@pytest.mark.parametrize("evidence, answer", [
    ("At most two of the Pell valley footpaths are open to cyclists.",
     "No more than two of the Pell valley footpaths are open to cyclists."),
    ("Tenants of the Garrow Street towers could be asked to leave their flats if surveys find damp.",
     "If surveys find damp, tenants of the Garrow Street towers may be asked to leave their flats."),
    ("At least 31 species of moth live in the Carrick Wood reserve, according to a 2021 survey.",
     "A 2021 survey found no fewer than 31 moth species living in the Carrick Wood reserve."),
    ("Exactly 31 species of moth live in the Carrick Wood reserve.",
     "Precisely 31 moth species live in the Carrick Wood reserve."),
    ("The bakery Hollin & Rudd sold nine thousand loaves during the winter of 2021.",
     "During the winter of 2021, 9,000 loaves were sold by the bakery Hollin & Rudd."),
    ("Brask Mining reported revenue of 2.7 billion rand for 2020.\n\nIts exploration spending that year was "
     "410 million rand, up from 380 million rand in 2019.",
     "Brask Mining had revenue of 2.7 billion rand in 2020 and spent 410 million rand on exploration that year."),
])
def test_equivalent_scales_and_bounds_are_left_alone(evidence, answer):
    assert not confident_signals(evidence, answer)



def test_kept_from_negates_what_follows():
    evidence = "Fog kept the Marr Island ferry from sailing on Friday."
    assert any(c == "polarity" and "sailed" in w for c, w, _ in
               confident_signals(evidence, "The Marr Island ferry sailed on Friday despite the fog."))
    assert not confident_signals("The Marr Island ferry did not sail on Friday because of fog.", evidence)


def test_two_words_for_one_opposite_are_one_flip():
    (e,), (a,) = [sentence_views(d) for d in parse_texts(
        ["Ticket sales at the Dunmore theatre fell in May.",
         "Ticket sales at the Dunmore theatre rose in May, increasing for a second month."], progress=False)]
    (flip,) = antonym_flips(a, e, lexicon())
    assert [a.doc.token_text(t) for t in flip.tokens] == ["rose", "increasing"] and flip.evidence == "fell"


def test_a_converse_reads_the_name_set_off_after_the_evidence_word():
    evidence = "In the 2019 council election in Harwell, Owen Pryce lost to the incumbent, Mara Lind, by 208 votes."
    assert not confident_signals(evidence, "Mara Lind won the 2019 council election in Harwell, beating Owen "
                                           "Pryce by 208 votes.")
    assert any(c == "antonym" and w == "won" for c, w, _ in confident_signals(
        evidence, "Owen Pryce won the 2019 council election in Harwell, beating Mara Lind by 208 votes."))


@pytest.mark.parametrize("evidence, answer", [
    # 'not ... until' states a delay, which 'only once' states too
    ("Engineers could not restore power to the Tolvik estate until the storm passed on Sunday evening.",
     "It was only once the storm passed on Sunday evening that engineers were able to restore power to the "
     "Tolvik estate."),
    ("The Sallow footbridge did not reopen until June, after its deck was replaced.",
     "Only in June, once its deck had been replaced, was the Sallow footbridge reopened."),
    # a condition after a comma ('provided') keeps the evidence's 'if'
    ("The Brell Street cinema may reopen next spring if a new tenant is found, the landlord said.",
     "According to the landlord, the Brell Street cinema could reopen next spring, provided a new tenant is found."),
    # two parties' opposite moves fused into one sentence: each clause follows its own evidence sentence
    ("Shares in Marrow Foods fell 4 percent on Monday.\n\nIts rival Tessel Farms gained 3 percent on the same day.",
     "On Monday, shares in rival Tessel Farms rose 3 percent, while Marrow Foods lost 4 percent."),
    # an opening scene sets every clause: its words say nothing of which value is whose
    ("In the county election, the Fenn Valley party won 17 seats and the Coastal League won 8, while turnout "
     "fell to 71 percent.",
     "Turnout dropped to 71 percent in the county election, in which the Coastal League took 8 seats and the "
     "Fenn Valley party 17."),
])
def test_fused_and_reworded_faithful_answers_are_left_alone(evidence, answer):
    assert not confident_signals(evidence, answer)


@pytest.mark.parametrize("evidence, answer, flagged", [
    # two events exchanged around the same order word: the order is turned round
    ("The Harl ferry terminal opened in 1961, three years before the coast road reached the village.",
     "The coast road reached Harl three years before the village's ferry terminal opened in 1961.", True),
    ("The choir rehearsed before the mayor arrived at the hall.",
     "The mayor arrived at the hall before the choir rehearsed.", True),
    # the order word turned round with the events keeps the order
    ("The choir rehearsed before the mayor arrived at the hall.",
     "The mayor arrived at the hall after the choir rehearsed.", False),
    # the clauses moved, the order kept
    ("The choir rehearsed before the mayor arrived at the hall.",
     "Before the mayor arrived at the hall, the choir rehearsed.", False),
    # three events ordered: the answer pairs two of them in their own order
    ("Some 4,000 residents left their homes before the dam was breached following two days of rain.",
     "The dam was breached after two days of rain, and some 4,000 residents left their homes.", False),
])
def test_events_exchanged_around_an_order_word(evidence, answer, flagged):
    found = [(c, w) for c, w, _ in confident_signals(evidence, answer)]
    assert (("antonym", "before") in found) == flagged, found


FROST = ("Temperatures in Carrowby fell to minus 11 degrees overnight, the lowest since 1994.\n\n"
         "Council crews spread grit on the valley roads north of the town.\n\nBuses will run a reduced timetable on Friday.")


def test_a_flip_against_a_sentence_that_states_all_the_rest_but_one_word_is_caught():
    """The answer fuses two sentences; the one it takes the flipped word from states every other word
    the best-aligned one lacks, but one ('gritted' for 'spread grit')."""
    wrong = ("Council crews gritted the valley roads south of Carrowby after overnight temperatures fell to minus 11 "
             "degrees, the lowest since 1994.")
    assert ("antonym", "south", "north") in confident_signals(FROST, wrong)
    assert not confident_signals(FROST, wrong.replace("south", "north"))


HARLE = "The Harle museum reopened on 3 March after repairs.\n\nThe Harle ice rink reopened on 17 April."


@pytest.mark.parametrize("answer, flagged", [
    # the answer follows the first sentence, the date is the second's: another fact's date
    ("After repairs, the Harle museum reopened on 17 April.", True),
    ("After repairs, the Harle museum reopened on 3 March, and the ice rink on 17 April.", False),
    ("The Harle ice rink reopened on 17 April.", False),
])
def test_a_value_of_another_sentence_on_the_sentence_the_answer_follows(answer, flagged):
    """Two evidence sentences that align equally well with the answer: the words it takes from one
    and not the other, its flagged words and their neighbours aside, say which one it follows."""
    found = [x for x in confident_signals(HARLE, answer) if x[0] == "recombination"]
    assert bool(found) == flagged, found
    if flagged:
        assert found[0][1:] == ("17", "3")


def test_a_value_the_other_sentence_states_of_the_same_subject_is_left_alone():
    evidence = "The Ostley library closed for renovation in January.\n\nIt reopened on 17 April."
    assert not confident_signals(evidence, "After renovation, the Ostley library reopened on 17 April.")


@pytest.mark.parametrize("answer, flagged", [
    ("Ivy Pell lost in straight sets to Carla Dunne, who went on to take the Fairhaven Open title.", False),
    ("Carla Dunne lost in straight sets to Ivy Pell in the Fairhaven Open.", True),
])
def test_a_converse_from_the_other_partys_side_is_no_antonym(answer, flagged):
    """'Y lost to X' for 'X beat Y to win': 'lost' restates 'beat' from Y's side, it does not flip 'win'."""
    found = confident_signals("Carla Dunne beat Ivy Pell in straight sets to win the Fairhaven Open.", answer)
    assert bool(found) == flagged, found
