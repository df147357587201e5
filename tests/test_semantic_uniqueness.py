"""Issue 26 (quantifier shifts): one of several stated as the only one ('the oldest race' for 'one
of the oldest races'), and the restatements that keep the group. All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals


@pytest.mark.parametrize("evidence, answer, words", [
    ("Ida Brenner was one of the first women to qualify as a pilot in Harlow, in 1931.",
     "In 1931 Ida Brenner became the first woman to qualify as a pilot in Harlow.", "the first"),
    ("The Corran Fair is one of the largest livestock shows in the county of Westmere.",
     "The Corran Fair is the largest livestock show in the county of Westmere.", "the largest"),
    ("Built in 1402, the Tallow bridge is one of the most photographed landmarks of Ebbington.",
     "Built in 1402, the Tallow bridge is the most photographed landmark of Ebbington.", "the most"),
])
def test_one_of_several_stated_as_the_only_one_is_flagged(evidence, answer, words):
    found = confident_signals(evidence, answer)
    assert any(c == "modality" and w == words and e.startswith("one of the") for c, w, e in found), found


@pytest.mark.parametrize("evidence, answer", [
    ("The Tarn corn mill is one of the oldest working mills in the valley.",
     "The Tarn corn mill is among the oldest working mills in the valley."),
    ("Ida Brenner was one of the first women to qualify as a pilot in Harlow.",
     "Ida Brenner was among the first women in Harlow to qualify as a pilot."),
    ("Mara Quill is one of the best players in the league and its best goalkeeper.",
     "Mara Quill is the best goalkeeper in the league."),
    ("The Aldwick tower is the oldest building in the town and one of the tallest.",
     "The Aldwick tower is the oldest building in the town."),
    ("The Harlow interest rate panel is one of the forests' owners.",  # '-est' that is no superlative
     "The Harlow interest rate panel owns the forest."),
])
def test_the_group_kept_or_another_noun_is_left_alone(evidence, answer):
    assert not [f for f in confident_signals(evidence, answer) if f[0] == "modality"]
