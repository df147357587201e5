"""Swapped roles read through relation frames (features.semantic.frames, data/frames.toml): the
logical first party of each side (a subject, a passive's 'by' party), asides stripped, and converse
frames that map the parties ('A buys from B' = 'B supplies to A'). All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals

from evidencechain.features.semantic.align import sentence_views
from evidencechain.features.semantic.frames import Frame, frame_at, frames, same_relation
from evidencechain.text.parse import parse_texts


def test_frames_join_through_converse_pairs():
    fr = frames()
    assert same_relation(Frame("buy", "from"), Frame("supply", "to"), fr) is False
    assert same_relation(Frame("beat", ""), Frame("defeat", ""), fr) is True  # both the converse of 'lose to'
    assert same_relation(Frame("sell", "to"), Frame("supply", "to"), fr) is True
    assert same_relation(Frame("lose", "to"), Frame("lend", "to"), fr) is None


def test_a_frame_is_read_from_the_marker_nearest_its_party_that_makes_one():
    (v,) = sentence_views(parse_texts(["Kelso buys its wool from the weaving mill at Drummore."], progress=False)[0])
    r, y = next(k for k in range(len(v)) if v.word(k) == "buys"), len(v) - 2
    assert frame_at(v, r, y, y, frames()) == Frame("buy", "from")


@pytest.mark.parametrize("evidence, answer, words", [
    # a converse frame with the parties kept in their places: the relation's words are flagged too
    ("The Vell bakery buys its flour from the Ostrow mill under a deal agreed in 2019.",
     "Under a deal agreed in 2019, the Vell bakery supplies flour to the Ostrow mill.", "supplies"),
    ("The Corran sailing club rents its boathouse from the Pellow harbour trust under a lease signed in 2016.",
     "Under a lease signed in 2016, the Corran sailing club lets its boathouse to the Pellow harbour trust.", "lets"),
    ("The Morrow Hawks lost the league decider to the Tilby Rovers by two goals.",
     "The Morrow Hawks beat the Tilby Rovers by two goals in the league decider.", "beat"),
    # the same verb, a passive against a phrasal active; a passive on both sides with the 'by' moved
    ("In the quarter-final, Rovan City were thrown out of the cup by Oldmere United.",
     "Rovan City threw Oldmere United out of the cup in the quarter-final.", "Oldmere"),
    ("The Greyfield clinic was funded by the Astley Foundation from 2018.",
     "From 2018 the Astley Foundation was funded by the Greyfield clinic.", "Astley"),
    # a cleft's focus is its verb's subject ('It was X that sued Y')
    ("It was the Dorran council that sued the Helm water company over the flooding in 2019.",
     "In 2019 the Helm water company sued the Dorran council over the flooding.", "Helm"),
    # an apposition or a relative clause between a party and the verb says nothing of the relation
    ("Halbrook Mills, a paper company founded in 1890, took over the printing firm Zennor Press in 2019.",
     "In 2019 the printing firm Zennor Press took over Halbrook Mills, a paper company founded in 1890.", "Zennor"),
    ("passage 1: The Saltry Herons lost the regional final to the Cobbleton Foxes by four points.\n\npassage 2: "
     "Herons captain Dario Pinsent scored 22 points in the final.",
     "The Saltry Herons, whose captain Dario Pinsent scored 22 points, defeated the Cobbleton Foxes by four "
     "points in the regional final.", "defeated"),
    # a frame whose second party follows the object ('took over the museum from X')
    ("passage 1: Osk Lindqvist was succeeded by Mira Holm as head of the Tarrow Museum in 2018.\n\n"
     "passage 2: Lindqvist had run the museum for twelve years.",
     "In 2018 Osk Lindqvist took over the Tarrow Museum from Mira Holm, who had run it for twelve years.",
     "Lindqvist"),
])
def test_a_swap_through_frames_is_confident(evidence, answer, words):
    found = confident_signals(evidence, answer)
    assert any(c == "roles" and words in w for c, w, _ in found), found


@pytest.mark.parametrize("evidence, answer", [
    ("The town of Marlow Cross buys its electricity from the Ashby wind farm.",
     "The Ashby wind farm supplies electricity to the town of Marlow Cross."),
    ("The Pelton Owls lost the final to the Brisk Harriers by a single point.",
     "The Brisk Harriers defeated the Pelton Owls by a single point in the final."),
    ("Nils Ober lent 2,000 euros to his friend Carla Moen.", "Carla Moen borrowed 2,000 euros from her friend Nils Ober."),
    ("The Dunmore Lions knocked the Keld Wolves out of the cup.",
     "The Keld Wolves were knocked out of the cup by the Dunmore Lions."),
    ("Hanne Vos succeeded Piet Lamm as head of the Orrin museum in 2019.",
     "In 2019 Piet Lamm was succeeded as head of the Orrin museum by Hanne Vos."),
    ("passage 1: Osk Lindqvist was succeeded by Mira Holm as head of the Tarrow Museum in 2018.\n\n"
     "passage 2: Lindqvist had run the museum for twelve years.",
     "In 2018 Mira Holm took over the Tarrow Museum from Osk Lindqvist, who had run it for twelve years."),
    ("The Fenwick Rangers drew 2-2 with the Castor Blues on Sunday.",
     "On Sunday the Castor Blues drew 2-2 with the Fenwick Rangers."),
    ("The Tarrow Post interviewed the minister Ada Quist on Monday.",
     "It was the Tarrow Post that interviewed the minister Ada Quist on Monday."),
    # a noun between the parties is no relation where a verb stands before it
    ("Alder Systems, based in Corby Vale, supplies the engines for the Pemberton ferry fleet.",
     "The Pemberton ferry fleet is supplied with its engines by Alder Systems."),
    # a comparison of two clauses' facts is no relation 'long' with its parties swapped
    ("The coastal path via Orla Point is 12 kilometres long, while the inland path through Brackwell is "
     "19 kilometres and avoids the cliffs.",
     "At 19 kilometres, the inland path through Brackwell is longer than the 12-kilometre coastal path via "
     "Orla Point, and it avoids the cliffs."),
    # nouns round an adjective or a noun are no parties of a relation
    ("At 640 metres, Skelby Pike is taller than Dorr Fell, and the path to its summit is the steepest in the park.",
     "Dorr Fell is lower than Skelby Pike, which rises to 640 metres and has the park's steepest summit path."),
    # the converse comparison: the parties exchanged and each comparative turned round
    ("The Wenlow bridge is older than the Castry bridge but carries fewer cars each day, the council says.",
     "The council says the Castry bridge is newer than the Wenlow bridge, yet it carries more cars a day."),
])
def test_a_frame_paraphrase_is_left_alone(evidence, answer):
    assert not [x for x in confident_signals(evidence, answer) if x[0] == "roles"]


CHESS = "In the county chess final, Petra Voll defeated the defending champion Ines Garr in 38 moves."


@pytest.mark.parametrize("answer", [
    "The county chess final saw the defending champion, Ines Garr, defeat Petra Voll in 38 moves.",
    "It took 38 moves for Ines Garr, the defending champion, to defeat Petra Voll in the county chess final.",
])
def test_a_party_set_off_by_commas_is_the_verbs_argument(answer):
    """A name that is itself the apposition ('the champion, Ines Garr, defeat'), and the subject of an
    infinitive after 'for' ('for Ines Garr, the champion, to defeat'), are the relation's first party."""
    assert any(c == "roles" and "Ines Garr" in w for c, w, _ in confident_signals(CHESS, answer))
    faithful = answer.replace("Ines Garr", "@").replace("Petra Voll", "Ines Garr").replace("@", "Petra Voll")
    faithful = faithful.replace("the defending champion", "the challenger")
    assert not [x for x in confident_signals(CHESS, faithful) if x[0] == "roles"]



def test_a_voice_changed_with_the_parties_in_place_flags_the_relation_words():
    found = confident_signals("The Orrin Society sued the builder Calder Homes over a felled oak.",
                              "The Orrin Society was sued by the builder Calder Homes over a felled oak.")
    assert [w for c, w, _ in found if c == "roles"] == ["Orrin Society was sued by builder"]


@pytest.mark.parametrize("evidence, answer", [
    ("The path via Orla Point is longer than the path through Brackwell, which avoids the cliffs.",
     "The path through Brackwell is longer than the path via Orla Point, which avoids the cliffs."),
    ("Hessa Moor is taller than Dunmere Fell, according to the 2019 survey.",
     "According to the 2019 survey, Dunmere Fell is taller than Hessa Moor."),
])
def test_a_comparison_with_its_parties_exchanged_is_a_swap(evidence, answer):
    assert [x for x in confident_signals(evidence, answer) if x[0] == "roles"]


@pytest.mark.parametrize("answer, flagged", [
    ("Tenby's, the family bakery chain, has agreed to acquire Harrow Foods for an undisclosed sum.", True),
    ("Harrow Foods has agreed to buy Tenby's, the family bakery chain, for an undisclosed sum.", False),
])
def test_the_subject_of_a_verb_chain_before_an_apposition(answer, flagged):
    """'X's, the chain, has agreed to acquire Y': the relation's first party is the name before the
    apposition, not the verb whose infinitive it is."""
    found = [x for x in confident_signals("Harrow Foods has agreed to acquire the family bakery chain Tenby's for an "
                                          "undisclosed sum.", answer) if x[0] == "roles"]
    assert bool(found) == flagged, found
