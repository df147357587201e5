"""Issue 26: what the twenty-seventh blind suite taught, each with its hard negative. A comparison's
standard ends where a second predicate begins ('larger than the 1970s branch it replaced and holds
two reading rooms'), so the answer's words from that predicate are no party of a converse; a unit
joined to its number by a hyphen ('7.4-mile') follows that number; a scale word whose evidence words
hold the number ('3.1 million' for '3.1 billion') keeps its anchor in a sentence fusing two evidence
sentences; a place after a value's unit and its preposition holds that value ('2,300 nesting pairs on
Hollin Island and 1,450 on nearby Skerne'), and two values the answer gives each to the other's place
are exchanged. All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import flagged

LIBRARY = "The new Marlow Library is larger than the 1970s branch it replaced and holds two reading rooms."
PATH = "The Brent Moor cycle path is 7.4 kilometres long and took two years to build."
PROFIT = ("Ostrel Mining reported annual profit of 3.1 billion dollars, up from 2.6 billion a year earlier. The company "
          "employs 12,000 people.")
BIRDS = "The survey counted 2,300 nesting pairs on Hollin Island and 1,450 on nearby Skerne."


@pytest.mark.parametrize("evidence, answer", [
    (LIBRARY, "The 1970s branch that the Marlow Library replaced is smaller than the new library, which holds two "
              "reading rooms."),
    (PATH, "Built over two years, the 7.4-kilometre Brent Moor cycle path is now open."),
    (PROFIT, "Ostrel Mining, which has a staff of 12,000, said yearly profit rose to 3.1 billion dollars from 2.6 billion "
             "the year before."),
    (BIRDS, "Hollin Island and nearby Skerne both host colonies, with the survey counting 2,300 nesting pairs on Hollin "
            "Island and 1,450 on Skerne."),
])
def test_a_paraphrase_is_left_alone(evidence, answer):
    assert flagged(evidence, answer) == []


@pytest.mark.parametrize("evidence, answer, expected", [
    (LIBRARY, "Opened last spring, the Marlow Library holds two reading rooms and is smaller than the 1970s branch it "
              "replaced.", [("antonym", "smaller")]),
    (PATH, "Built over two years, the 7.4-mile Brent Moor cycle path is now open.", [("quantity", "mile")]),
    (PROFIT, "Ostrel Mining, which has a staff of 12,000, said yearly profit rose to 3.1 million dollars from 2.6 "
             "billion the year before.", [("quantity", "million")]),
    (BIRDS, "Hollin Island and nearby Skerne both host colonies, with the survey counting 1,450 nesting pairs on Hollin "
            "Island and 2,300 on Skerne.", [("recombination", "1,450"), ("recombination", "2,300 Skerne")]),
])
def test_an_error_is_flagged(evidence, answer, expected):
    assert flagged(evidence, answer) == expected
