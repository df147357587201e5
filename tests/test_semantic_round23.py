"""Issue 26: what the twenty-third blind suite taught, each with its hard negative. 'All but one of
the twelve' is eleven of twelve, not 'all'; a count said of the noun a percentage was of is a
quantity conflict ('30 residents' for '30 percent of the residents'). All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals


def _flagged(evidence: str, answer: str) -> list[tuple[str, str]]:
    return sorted((c, w) for c, w, _ in confident_signals(evidence, answer))


@pytest.mark.parametrize("evidence, answer", [
    ("Nine of the ten members of the Orrin harbour board voted to raise mooring fees on Monday, with one against.",
     "On Monday all but one of the ten Orrin harbour board members voted to raise mooring fees."),
    ("Around 40 percent of the households in Tallow Green signed the petition against the new car park.",
     "About 40 percent of Tallow Green's households signed the petition against the new car park."),
])
def test_a_paraphrase_is_left_alone(evidence, answer):
    assert _flagged(evidence, answer) == []


@pytest.mark.parametrize("evidence, answer, expected", [
    ("Nine of the ten members of the Orrin harbour board voted to raise mooring fees on Monday.",
     "On Monday all of the ten Orrin harbour board members voted to raise mooring fees.",
     [("modality", "all")]),
    ("Around 40 percent of the households in Tallow Green signed the petition against the new car park.",
     "About 40 households in Tallow Green signed the petition against the new car park.",
     [("quantity", "households")]),
])
def test_an_error_is_flagged(evidence, answer, expected):
    assert _flagged(evidence, answer) == expected
