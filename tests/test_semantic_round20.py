"""Issue 26: what the twentieth blind suite taught (each with its faithful variant). A negated verb's
next words read across a hyphen inside a word ('a 1.2-kilometre cycle lane'); 'with' put for the
evidence's 'without' is flagged with the negated word; 'run' and 'operate' as near-synonyms for a
negation dropped with 'still'. All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals


def _polarity(evidence: str, answer: str) -> set[str]:
    return {w for c, w, _ in confident_signals(evidence, answer) if c == "polarity"}


@pytest.mark.parametrize("evidence, answer, flagged", [
    ("The Orrin County council voted on Monday to approve the new bus lane on Kell Street, which will run for "
     "2.4 kilometres between the depot and the harbour.",
     "On Monday, councillors in Orrin County did not approve a 2.4-kilometre bus lane on Kell Street linking the "
     "depot to the harbour.", {"not approve"}),
    ("The Orrin County council voted on Monday to approve the new bus lane on Kell Street, which will run for "
     "2.4 kilometres between the depot and the harbour.",
     "On Monday, councillors in Orrin County approved a 2.4-kilometre bus lane on Kell Street linking the "
     "depot to the harbour.", set()),
    ("The Dunmore clinic said its new wing would open without extra parking, despite requests from patients.",
     "Despite requests from patients, the Dunmore clinic said its new wing would open with extra parking.",
     {"with extra"}),
    ("The Dunmore clinic said its new wing would open without extra parking, despite requests from patients.",
     "Despite requests from patients, the Dunmore clinic said its new wing would open with no extra parking.",
     set()),
    ("The Tellow tram line, which once carried workers to the docks every hour, no longer operates on Sundays, "
     "the city said.",
     "The city said the Tellow tram line, which used to take workers to the docks hourly, still runs on Sundays.",
     {"still runs"}),
    ("The Tellow tram line, which once carried workers to the docks every hour, no longer operates on Sundays, "
     "the city said.",
     "The city said the Tellow tram line, which used to take workers to the docks hourly, no longer runs on "
     "Sundays.", set()),
])
def test_a_flip_across_a_reworded_sentence(evidence, answer, flagged):
    assert _polarity(evidence, answer) == flagged
