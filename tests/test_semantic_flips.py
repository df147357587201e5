"""Issue 26 (roles and antonyms): a negation elsewhere in a word's clause flips an antonym back,
asides and noun phrases hold no party of a verb, and frames of several words ('take over from',
'got the better of') state one relation with their class. All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals

from evidencechain.features.semantic.align import sentence_views
from evidencechain.features.semantic.antonyms import governing
from evidencechain.features.semantic.frames import Frame, frames, same_relation
from evidencechain.features.semantic.lexicon import lexicon, stem
from evidencechain.text.parse import parse_texts


def test_a_negation_of_another_word_in_the_clause_governs_it():
    (v,) = sentence_views(parse_texts(["At no point during the flood was the bridge closed."], progress=False)[0])
    k = next(i for i in range(len(v)) if v.word(i) == "closed")
    (o,) = sentence_views(parse_texts(["The bridge remained open during the flood."], progress=False)[0])
    assert governing(v, k, o, lexicon()) == 1
    assert governing(o, next(i for i in range(len(o)) if o.word(i) == "open"), v, lexicon()) == 0


def test_multi_word_frames_join_their_class():
    fr = frames()
    assert same_relation(Frame(stem("take"), "from", "over"), Frame(stem("succeed"), ""), fr) is True
    assert same_relation(Frame(stem("get"), "", "the better of"), Frame(stem("lose"), "to"), fr) is False
    assert same_relation(Frame(stem("mentor"), ""), Frame(stem("learn"), "under"), fr) is False


@pytest.mark.parametrize("evidence, answer", [
    # two opposite pairs in reordered clauses, each said in other words ('declined' for 'fell')
    ("Ticket sales at the Tarrow museum rose by 12 percent in the first quarter, while shop sales fell.",
     "At the Tarrow museum, shop sales declined in the first quarter, while ticket sales increased by 12 percent."),
    ("The Melbrook footbridge remained open throughout the January flood.",
     "At no point during the January flood was the Melbrook footbridge closed."),
    ("None of the forty pupils at Brinkley school failed the swimming test.",
     "All forty pupils at Brinkley school passed the swimming test."),
    ("Nobody on the Tarrow committee rejected the proposal.",
     "Everybody on the Tarrow committee accepted the proposal."),
    ("The Harnby district council has approved a new bus lane for the centre of Elverton.",
     "A new bus lane for the centre of Elverton has been approved by the Harnby district council."),
    ("In June, Tobias Renner succeeded Hana Orlik as director of the Castlemere museum.",
     "Tobias Renner, who became director of the Castlemere museum in June, took over from Hana Orlik."),
    ("The Pell Foundation funds the Garrow youth orchestra.",  # 'funding' is the frame's particle, no relation
     "The Garrow youth orchestra receives funding from the Pell Foundation."),
    ("As a junior doctor, Femi Adeyoola was trained by Ruth Calloway at the Dunmere infirmary.",
     "At the Dunmere infirmary, Femi Adeyoola was trained, as a junior doctor, by Ruth Calloway."),
    ("The Tolland gallery shut its north wing for repairs before the storm of 2014.",  # event order, other words
     "The Tolland gallery's north wing was shut for repairs prior to the 2014 storm."),
    ("The Ashby choir recorded its first album following the tour of 1998.",
     "The Ashby choir recorded its first album after the 1998 tour."),
    ("Ticket prices at the Orrin theatre rose in May after they fell in April.",  # each word in its own slot
     "Ticket prices at the Orrin theatre fell in April before they rose in May."),
    ("The Selby library is shut on Sundays but opens late on Thursdays.",  # the word negated: polarity's
     "On Sundays the Selby library is not open, though it opens late on Thursdays."),
    ("The board game Orla was released by Tinder Box Games in 2011 as a follow up to their first title.",
     "Tinder Box Games was in business prior to 2011."),  # 'following' paired as written: no 'follow up'
    ("Rowing machines are great to train the whole body, but if you have specific muscles to build, you "
     "may want other equipment.",  # a negation's scope is its clause: no whole-sentence restatement
     "Rowing machines aren't great for training specific muscles."),
    ("The former Harwick teacher was praised for tutoring Rhys Alder when he was a sixth-grade student at "
     "Elm Road school.",  # a converse noun stated of the other party, not a comparison moved
     "She tutored Rhys Alder when she was his sixth-grade teacher at Elm Road school."),
])
def test_meaning_kept_is_left_alone(evidence, answer):
    assert not confident_signals(evidence, answer)


@pytest.mark.parametrize("evidence, answer, cls, words", [
    ("None of the eight bridges on the Ledd river failed the safety inspection.",
     "None of the eight bridges on the Ledd river passed the safety inspection.", "antonym", "passed"),
    ("The planning committee approved the Ferris Yard housing scheme in May. The scheme had been opposed by "
     "two residents' groups.",
     "The Ferris Yard housing scheme, opposed by two residents' groups, was rejected by the planning committee in May.",
     "antonym", "rejected"),
    ("In her first season, Oona Keswick was coached by Bram Ellery at the Tollmere rowing club.",
     "At the Tollmere rowing club, Bram Ellery was coached, in her first season, by Oona Keswick.", "roles", "Keswick"),
    ("In 2021 Petra Lindqvist replaced Colm Darragh as head coach of Harwick Rovers.",
     "Colm Darragh, who became head coach of Harwick Rovers in 2021, took over from Petra Lindqvist.", "roles", "Darragh"),
    ("In the semi-final at Brackwater, the veteran Ilse Marchetti beat the qualifier Dara Nwosu in three sets.",
     "The qualifier Dara Nwosu got the better of the veteran Ilse Marchetti in three sets in the semi-final at "
     "Brackwater.", "roles", "Nwosu"),
    ("The Tolland gallery shut its north wing for repairs following the storm of 2014.",
     "The Tolland gallery's north wing was shut for repairs prior to the 2014 storm.", "antonym", "prior"),
    # the answer restates the whole evidence sentence, its other clause in other words
    ("Visitor numbers at the Harrowgate aquarium fell by 9 percent in 2023, which the owner, Bluewater Leisure, "
     "blamed on the closure of the Dunford car park.",
     "Bluewater Leisure said visitor numbers at the Harrowgate aquarium rose by 9 percent in 2023, blaming the "
     "closure of the Dunford car park.", "antonym", "rose"),
    # 'running' / 'passing' (WordNet's adjectives) is no pair: 'passes' for 'runs' leaves the real flip alone
    ("The new Carrow cycle path runs east of the river, skirting the old tannery.",
     "The new Carrow cycle path passes to the west of the river, skirting the old tannery.", "antonym", "west"),
    # the evidence has the answer's word too, of another noun; its opposite stands in the answer's slot
    ("The Dunmore ferry is smaller than its predecessor, the Gull, but carries a larger cargo hold.",
     "The Dunmore ferry is larger than its predecessor, the Gull, and has a bigger cargo hold.", "antonym", "larger"),
])
def test_errors_are_caught(evidence, answer, cls, words):
    found = confident_signals(evidence, answer)
    assert any(c == cls and words in w for c, w, _ in found), found
