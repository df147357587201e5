"""Issue 26 (recombination): two values of one sentence swapped by moving what they are said of,
while the values keep their order (features/semantic/swapped.py). All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals

CASTLE = "The north tower of Fellham Castle was built in 1410, and the south tower followed in 1455."
RACE = "The Tarn half marathon drew 3,100 runners this year, while the accompanying 5 km family run attracted 900."
SURVEY = ("In the Brenna Vale survey, 58 percent of growers said hail had damaged their orchards.\n\n"
          "Among town residents, the figure was 21 percent.")
PORTS = ("Mayor Ilka Varro of Stenby announced a 3 million crown fund for dock repairs.\n\n"
         "In nearby Holm, Mayor Tavi Brook pledged 400,000 crowns for new ferry shelters.")


@pytest.mark.parametrize("evidence, answer, words", [
    (CASTLE, "Fellham Castle's south tower was completed in 1410, with the north tower finished later, in 1455.",
     {"1410", "1455"}),
    (RACE, "This year 900 runners took part in the Tarn half marathon, with another 3,100 entering the 5 km "
           "family run held alongside it.", {"900", "3,100"}),
    # two values of two evidence sentences that one answer sentence fuses
    (SURVEY, "According to the Brenna Vale survey, 21 percent of growers reported hail damage to their orchards, "
             "compared with 58 percent of town residents.", {"21", "58"}),
    (PORTS, "Stenby's mayor, Ilka Varro, set aside 400,000 crowns for dock repairs, while in nearby Holm Mayor "
            "Tavi Brook pledged 3 million crowns for new ferry shelters.", {"400,000", "3 million"}),
])
def test_values_whose_events_moved_are_flagged(evidence, answer, words):
    flagged = {w for c, w, _ in confident_signals(evidence, answer) if c == "recombination"}
    assert flagged == words


@pytest.mark.parametrize("evidence, answer", [
    (CASTLE, "Fellham Castle's north tower was built in 1410, with the south tower completed later, in 1455."),
    (CASTLE, "The south tower of Fellham Castle followed in 1455, 45 years after the north tower was built in 1410."),
    (RACE, "This year the Tarn half marathon drew 3,100 runners, and 900 took part in the 5 km family run held "
           "alongside it."),
    (SURVEY, "According to the Brenna Vale survey, 58 percent of growers reported hail damage to their orchards, "
             "compared with 21 percent of town residents."),
    (PORTS, "Stenby's mayor, Ilka Varro, set aside 3 million crowns for dock repairs, while in nearby Holm Mayor "
            "Tavi Brook pledged 400,000 crowns for new ferry shelters."),
    # a range is no pair of events
    ("Researchers reviewed the records of 2.1 million soldiers and reservists who joined up between March 3, 1999 "
     "and June 30, 2004.",
     "The study looked at the records of 2.1 million service members from March 3, 1999 to June 30, 2004."),
])
def test_values_that_keep_their_events_are_left_alone(evidence, answer):
    assert not confident_signals(evidence, answer)


def test_a_swap_that_keeps_an_event_word_of_each_is_not_read():
    """A known limit: 'south tower was built in 1410' keeps 'built' (the first value's) beside
    'south' (the second's), so neither value's clause leans to the other's event."""
    assert not confident_signals(CASTLE, "Fellham Castle's south tower was built in 1410, with the north tower "
                                         "completed later, in 1455.")


SHOPS = ("Pell Hardware opened its first store in Ketterby in 1988.\n\nA second store followed in Aldmoor in 2005."
         "\n\nThe firm now employs 95 people.")


def test_a_value_moved_in_a_sentence_fusing_three_is_flagged():
    """No single evidence sentence restates enough of the answer sentence: the value put into another
    event's clause is still read against the sentence that clause restates."""
    answer = ("Pell Hardware, which now employs 95 people, opened its first store in Ketterby in 2005 and later "
              "added a second store in Aldmoor.")
    assert ("recombination", "2005", "1988") in confident_signals(SHOPS, answer)
    faithful = ("Pell Hardware, which now employs 95 people, opened its first store in Ketterby in 1988 and later "
                "added a second store in Aldmoor.")
    assert not confident_signals(SHOPS, faithful)


GOALS = "Mira Oduya scored twice for Tellam in the first half, and Jana Price added a third after the break."


def test_two_names_whose_facts_are_exchanged_are_flagged():
    """Names as values (runs of capitalised words, whatever kind the tagger gives each): each name's
    clause brings the other's event words along."""
    answer = "Jana Price struck twice for Tellam before half-time, and Mira Oduya added a third goal after the break."
    assert {w for c, w, _ in confident_signals(GOALS, answer) if c == "recombination"} == {"Jana Price", "Mira Oduya"}
    faithful = "After the break Jana Price added a third, following Mira Oduya's two first-half goals for Tellam."
    assert not confident_signals(GOALS, faithful)
    reordered = "Mira Oduya struck twice for Tellam before half-time, and Jana Price added a third goal after the break."
    assert not confident_signals(GOALS, reordered)


def test_the_subject_of_two_clauses_keeps_the_one_an_answer_states():
    evidence = ("Tarn Bakery will be paying for the village fete and providing gift boxes, Corran Mugs and paper "
                "hats for the event.")
    assert not confident_signals(evidence, "Tarn Bakery will provide gift boxes, Corran Mugs and hats for the event.")



FERTILISERS = ("Barley plots treated with Grenmix yielded 16 percent more grain than untreated plots.\n\n"
               "Plots treated with Holdane yielded 6 percent more.")


@pytest.mark.parametrize("evidence, answer, flagged", [
    # each value's stretch names the other value's holder: swapped, whatever the other words say
    (FERTILISERS, "Holdane raised barley yields by 16 percent over untreated plots, while Grenmix added 6 percent.",
     True),
    (FERTILISERS, "Grenmix raised barley yields by 16 percent over untreated plots, while Holdane added 6 percent.",
     False),
    ("Tessry Foods reported revenue of 410 million dollars for 2023.\n\nIts rival, Moran Mills, reported 290 "
     "million dollars over the same period.",
     "For 2023, Tessry Foods reported revenue of 290 million dollars, compared with 410 million dollars at rival "
     "Moran Mills.", True),
    # the names stay with their values, only the verbs trade places
    ("The Ellen Bridge was completed in 1887.\n\nThe nearby Corr Viaduct was finished in 1902, fifteen years later.",
     "The Corr Viaduct, completed in 1902, came fifteen years after the nearby Ellen Bridge, finished in 1887.",
     False),
])
def test_the_holders_names_decide_a_swap_across_sentences(evidence, answer, flagged):
    found = [x for x in confident_signals(evidence, answer) if x[0] == "recombination"]
    assert bool(found) == flagged, found


@pytest.mark.parametrize("answer, flagged", [
    ("Farrow Tools cut 120 jobs in Leeds in July and hired 40 engineers in Porto in April.", True),
    ("Farrow Tools cut 120 jobs in Leeds in April and hired 40 engineers in Porto in July.", False),
    ("In April Farrow Tools cut 120 jobs at its Leeds office, and in July it hired 40 engineers in Porto.", False),
])
def test_two_months_whose_events_moved_are_flagged(answer, flagged):
    """Month names without a day or a year are values of their own kind: swapped between two events
    when each one's stretch names the other event's place."""
    found = [x for x in confident_signals("Farrow Tools cut 120 jobs in its Leeds office in April and hired 40 "
                                          "engineers in Porto in July.", answer) if x[0] == "recombination"]
    assert bool(found) == flagged, found
