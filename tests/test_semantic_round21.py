"""Issue 26: what the twenty-first blind suite taught, each with its hard negative. An auxiliary is no
relation of a role swap ('X will conduct Y' for 'Y will be conducted by X'); a party after a comma
that opens another clause is no party of the relation; two names swapped, read by the dates and
amounts of their clauses too, and a sentence's first word as a holder's name; a realised event the
evidence states in other words; 'with' a few words before the word 'without' negates. All facts are
invented."""
from __future__ import annotations

import pytest
from semantic_support import flagged


@pytest.mark.parametrize("evidence, answer", [
    ("The Harlan Youth Choir will be conducted by Ines Morrow at the opening of the Wexley Festival in May.",
     "Ines Morrow will conduct the Harlan Youth Choir when the Wexley Festival opens in May."),
    ("Brackley recorded 64 millimetres of rain last month, while neighbouring Osterby recorded 31 millimetres.",
     "Last month Osterby received 31 millimetres of rain, compared with 64 millimetres in neighbouring Brackley."),
    ("None of the 9 ferries scheduled to leave Carrow Quay on Friday evening departed on time because of gales.",
     "Gales meant that not one of the 9 ferries due to depart Carrow Quay on Friday evening left on schedule."),
])
def test_a_paraphrase_is_left_alone(evidence, answer):
    assert flagged(evidence, answer) == []


@pytest.mark.parametrize("evidence, answer, expected", [
    ("The Harlan Youth Choir will be conducted by Ines Morrow at the opening of the Wexley Festival in May.",
     "The Harlan Youth Choir will conduct Ines Morrow when the Wexley Festival opens in May.",
     [("roles", "Harlan Youth Choir conduct Ines Morrow")]),
    ("The 1907 map of the Dellow estate was drawn without the consent of the owner, according to papers at the "
     "Ferrick Record Office.",
     "Papers at the Ferrick Record Office show that the 1907 map of the Dellow estate was drawn with the owner's "
     "consent.", [("polarity", "with consent")]),
    ("The storm moved east across the Corran Hills overnight, bringing snow to the villages of Ashby and Tull, "
     "forecasters said.",
     "Snow reached the villages of Ashby and Tull overnight as the storm moved west across the Corran Hills, "
     "forecasters said.", [("antonym", "west")]),
])
def test_an_error_is_flagged(evidence, answer, expected):
    assert flagged(evidence, answer) == expected
