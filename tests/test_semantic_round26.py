"""Issue 26: what the twenty-sixth blind suite taught, each with its hard negative. A bare number
that ends its clause takes the unit of its sentence's other values ('won 5,400 votes and ... won
3,870'), so the answer's '3,870 votes' is the evidence's own value for its holder; a value set beside
a person ('Owen Farrant, 67,') is that person's, whoever else the answer names. All facts are
invented."""
from __future__ import annotations

import pytest
from semantic_support import flagged

VOTES = "In the Hartwell council election, the Civic Party won 5,400 votes and Green Forum candidate Lena Brisk won 3,870."
AGES = "Dr. Owen Farrant, 61, will head the Selby clinic's renal unit, succeeding Dr. Paula Marsh, 67, who is retiring."


@pytest.mark.parametrize("evidence, answer", [
    (VOTES, "Lena Brisk of the Green Forum took 3,870 votes in the Hartwell council election, trailing the Civic "
            "Party's 5,400."),
    (AGES, "Dr. Owen Farrant, 61, is taking over the Selby clinic's renal unit from the retiring Dr. Paula Marsh, 67."),
    (AGES, "Dr. Owen Farrant is taking over the Selby clinic's renal unit from Dr. Paula Marsh, 67, who is retiring."),
])
def test_a_paraphrase_is_left_alone(evidence, answer):
    assert flagged(evidence, answer) == []


@pytest.mark.parametrize("evidence, answer, expected", [
    (VOTES, "Lena Brisk of the Green Forum took 5,400 votes in the Hartwell council election, ahead of the Civic "
            "Party's 3,870.", [("recombination", "Civic Party"), ("recombination", "Green Forum"),
                               ("recombination", "Lena Brisk")]),
    (AGES, "Dr. Owen Farrant, 67, is taking over the Selby clinic's renal unit from the retiring Dr. Paula Marsh.",
     [("recombination", "Owen Farrant 67")]),
])
def test_an_error_is_flagged(evidence, answer, expected):
    assert flagged(evidence, answer) == expected
