"""Issue 26 (polarity): a flip in an answer that rewords the rest of its evidence sentence
(`confidence`, `min_restated_reworded` / `min_covered_reworded`): read where the answer states most
of the evidence sentence and the two hold one negation between them, not where a double negation or
a quantifier at an end of its scale may carry the meaning back. All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals


@pytest.mark.parametrize("evidence, answer, word", [
    ("Winger Pavel Orsk, who has never scored in a cup match for Tolley Athletic, signed a new contract on Monday.",
     "Tolley Athletic winger Pavel Orsk, who has scored in cup matches for the club, agreed a new contract on "
     "Monday.", "scored"),
    ("The Kestrel ferry is no longer running on Saturdays, the operator said, though weekday sailings go on as usual.",
     "The operator said that weekday sailings are going on as usual and that the Kestrel ferry still runs on "
     "Saturdays.", "still"),
])
def test_a_flip_in_a_reworded_answer_is_flagged(evidence, answer, word):
    assert any(c == "polarity" and word in w.split() for c, w, _ in confident_signals(evidence, answer))


@pytest.mark.parametrize("evidence, answer", [
    ("Every lift in the Harrow Street tower was serviced before the inspection began.",
     "Not a single lift in the Harrow Street tower went unserviced before the inspection began."),
    ("None of the 25 passengers on the Marn coach were injured when it slid off the road last winter.",
     "When the Marn coach slid off the road last winter, all 25 of its passengers came through unhurt."),
])
def test_a_reworded_double_negation_is_left_alone(evidence, answer):
    assert not confident_signals(evidence, answer)
