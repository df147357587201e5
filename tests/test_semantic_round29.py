"""Issue 26: what the twenty-eighth blind suite taught, with its hard negatives. A rate's period moved
('twice a month' for 'twice a week') is a minimal edit of one amount, like a scale word ('3.1 million'
for '3.1 billion'), and is trusted in an answer sentence that fuses two evidence sentences; a period the
answer leaves out ('310-320mg' for '310-320 mg per day') is not one. Two readings tried with it were
dropped because they fired on faithful real answers (README, "Meaning errors"); their cases stay here
as hard negatives. All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import flagged

RAILWAY = "The Ardle mountain railway runs trains twice a week during the winter. A return fare costs 16 pounds."
LIBRARY = ("The Dunmore council approved a new library on Monday. Building work is scheduled to begin in June and "
           "will cost 3.8 million pounds.")
PRICES = ("House prices in Arden rose 6 percent last year, the Marsh Index reported. Agents credited the stronger local "
          "economy.")


@pytest.mark.parametrize("evidence, answer", [
    (RAILWAY, "A return fare on the Ardle mountain railway is 16 pounds, with services running twice a week through "
              "the winter."),
    (RAILWAY, "A return fare on the Ardle mountain railway is 16 pounds, with services running twice weekly through "
              "the winter."),
    (LIBRARY, "A new library costing 3.8 million pounds, with building work set to start in June, was approved by the "
              "Dunmore council on Monday."),
    (PRICES, "Agents gave the credit to a stronger local economy after the Marsh Index showed Arden house prices "
             "climbing 6 percent in a year."),
])
def test_a_paraphrase_is_left_alone(evidence, answer):
    assert flagged(evidence, answer) == []


@pytest.mark.parametrize("evidence, answer, expected", [
    (RAILWAY, "A return fare on the Ardle mountain railway is 16 pounds, with services running twice a month through "
              "the winter.", [("quantity", "month")]),
])
def test_an_error_is_flagged(evidence, answer, expected):
    assert flagged(evidence, answer) == expected
