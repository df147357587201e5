"""Issue 26: what the twenty-fourth blind suite taught, each with its hard negative. A negation of a
verb that is a stop word ('voted not to keep', 'did not keep'; not 'does not often' of a scale); a
flip inside a restated relative clause, with 'already' flagged against 'never'. All facts are
invented."""
from __future__ import annotations

import pytest
from semantic_support import flagged


@pytest.mark.parametrize("evidence, answer", [
    ("The Dellow parish council voted on Monday to keep the Old Mill car park free of charge through the summer.",
     "On Monday the Dellow parish council decided to keep the Old Mill car park free of charge through the summer."),
    ("The Ashby stream rarely floods in spring.", "In spring, the Ashby stream does not often flood."),
    ("Goalkeeper Rina Vost, who has never played for Tarrow County, was signed on Monday by Penholt Athletic.",
     "Rina Vost, a goalkeeper who has never played for Tarrow County, was signed by Penholt Athletic on Monday."),
])
def test_a_paraphrase_is_left_alone(evidence, answer):
    assert flagged(evidence, answer) == []


@pytest.mark.parametrize("evidence, answer, expected", [
    ("The Dellow parish council voted on Monday to keep the Old Mill car park free of charge through the summer.",
     "On Monday the Dellow parish council decided not to keep the Old Mill car park free of charge through the "
     "summer.", [("polarity", "not keep")]),
    ("The Corrin rowing club kept its head coach after the regatta defeat.",
     "The Corrin rowing club did not keep its head coach after the regatta defeat.", [("polarity", "not keep")]),
    ("Goalkeeper Rina Vost, who has never played for Tarrow County, was signed on Monday by Penholt Athletic.",
     "Rina Vost, a goalkeeper who has already played for Tarrow County, was signed by Penholt Athletic on Monday.",
     [("polarity", "already played")]),
])
def test_an_error_is_flagged(evidence, answer, expected):
    assert flagged(evidence, answer) == expected
