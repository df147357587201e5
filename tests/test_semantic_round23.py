"""Issue 26: what the twenty-third blind suite taught, each with its hard negative. 'All but one of
the twelve' is eleven of twelve, not 'all'; a count said of the noun a percentage was of is a
quantity conflict ('30 residents' for '30 percent of the residents'); 'not every' bears on the
quantifier; a measure of time and amounts are no parties of a converse ('Two years after X opened,
Y opened'; 'a 14 percent fall'); a noun with a passive of its own ('its score was composed by Y');
the words after a negated verb are read in its own clause. All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import flagged


@pytest.mark.parametrize("evidence, answer", [
    ("Nine of the ten members of the Orrin harbour board voted to raise mooring fees on Monday, with one against.",
     "On Monday all but one of the ten Orrin harbour board members voted to raise mooring fees."),
    ("Around 40 percent of the households in Tallow Green signed the petition against the new car park.",
     "About 40 percent of Tallow Green's households signed the petition against the new car park."),
    ("Some, but not all, of the buses on the Carrow route will stop at the new Denby interchange when it opens.",
     "When the new Denby interchange opens, not every bus on the Carrow route will stop there, though some will."),
    ("The Marwick bakery on Mill Lane opened in 2004, three years before the nearby Tolland Bookshop.",
     "Three years after the Marwick bakery opened on Mill Lane in 2004, the nearby Tolland Bookshop opened."),
    ("Rhea Lund directed the film Cold Harbour, while its music was composed by Piet Sand.",
     "The film Cold Harbour was scored by Piet Sand and directed by Rhea Lund."),
    ("The fare for a weekly ferry ticket to Osk stayed the same this year, at 30 pounds, despite rising fuel "
     "costs, the operator said.",
     "The operator said that, despite fuel costs going up, the weekly ferry ticket to Osk did not rise in price "
     "this year and still costs 30 pounds."),
])
def test_a_paraphrase_is_left_alone(evidence, answer):
    assert flagged(evidence, answer) == []


@pytest.mark.parametrize("evidence, answer, expected", [
    ("Nine of the ten members of the Orrin harbour board voted to raise mooring fees on Monday.",
     "On Monday all of the ten Orrin harbour board members voted to raise mooring fees.",
     [("modality", "all")]),
    ("Around 40 percent of the households in Tallow Green signed the petition against the new car park.",
     "About 40 households in Tallow Green signed the petition against the new car park.",
     [("quantity", "households")]),
    ("Visits to the Tarn Valley museum rose by 12 percent last year, which curator Ola Brisk credited to "
     "free Sunday entry.",
     "Curator Ola Brisk attributed last year's 12 percent fall in visits to the Tarn Valley museum to free "
     "Sunday entry.", [("antonym", "fall")]),
    ("All of the buses on the Carrow route will stop at the new Denby interchange when it opens.",
     "When the new Denby interchange opens, not all of the buses on the Carrow route will stop there.",
     [("polarity", "not all")]),
])
def test_an_error_is_flagged(evidence, answer, expected):
    assert flagged(evidence, answer) == expected
