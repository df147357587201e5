"""Issue 26: what the twenty-second blind suite taught, each with its hard negative. A planned noun
said as a realised verb ('is considering a ban' -> 'will ban'); an antonym inside a reordered noun
phrase is no converse ('the east side of X' -> 'X's west side'); a negation flipped in a clause
around a restated relative clause; a gapped second clause ('X was fined A and Y B') is no role
swap. All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import flagged


@pytest.mark.parametrize("evidence, answer", [
    ("The Dunmere county board is considering a ban on fireworks near the harbour.",
     "The Dunmere county board is weighing whether to ban fireworks near the harbour."),
    ("The Corran Stags won the league title against the Tull Rovers in April.",
     "In April the Tull Rovers lost the league title to the Corran Stags."),
    ("Winger Paolo Drent, who broke his wrist in March, is no longer employed by Ashcombe United.",
     "Ashcombe United winger Paolo Drent, who fractured his wrist in March, is no longer employed by the club."),
    ("Marlow Foods was fined 40,000 pounds and its supplier Tenby Farms 12,000 pounds over the recall.",
     "Over the recall, supplier Tenby Farms was fined 12,000 pounds and Marlow Foods was fined 40,000 pounds."),
    ("Of the two new libraries, the one in Kelby lent 2,300 books in its first week and the one in Ash Vale lent 1,100.",
     "In their first week, the new Ash Vale library lent 1,100 books and the Kelby library 2,300."),
])
def test_a_paraphrase_is_left_alone(evidence, answer):
    assert flagged(evidence, answer) == []


@pytest.mark.parametrize("evidence, answer, expected", [
    ("The Dunmere county board is considering a ban on fireworks near the harbour.",
     "The Dunmere county board will ban fireworks near the harbour.", [("modality", "will ban")]),
    ("The new library will be built on the east side of Carlow Square, next to the old post office.",
     "Next to the old post office, on Carlow Square's west side, the new library will be built.",
     [("antonym", "west")]),
    ("Winger Paolo Drent, who broke his wrist in March, is no longer employed by Ashcombe United.",
     "Ashcombe United winger Paolo Drent, who fractured his wrist in March, is still employed by the club.",
     [("polarity", "still employed")]),
    ("Marlow Foods sued its former chairman and Tenby Farms over the recall.",
     "Tenby Farms sued Marlow Foods over the recall.", [("roles", "Tenby Farms Marlow Foods")]),
])
def test_an_error_is_flagged(evidence, answer, expected):
    assert flagged(evidence, answer) == expected
