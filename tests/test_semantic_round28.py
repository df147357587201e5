"""Issue 26: what the blind suites' recombination and role misses taught, each with its hard
negative. A value that is the only one of its kind in its evidence sentence takes the whole sentence
as its event ('The new footbridge, which opened a year later, cost £1.9 million': the footbridge, not
the bare 'cost £1.9 million' clause), so two such values that a fused answer sentence gives each to
the other's event are exchanged; a list of amounts from two evidence sentences ('£0.9 million to
school repairs, £2.4 million to parks') is read with two content words between its values (a range
joins values of one sentence, not of two); 'took X to court' states 'sued X', its particle words after
the party; 'three times as much' for 'twice as much' is another factor of one comparison ('two times'
is the same one, and 'scored three times' is a count, left to the other readings); an evidence
sentence with no punctuation mark inside it is one claim, whatever pieces the clause reader cuts it into
('The study found that children | who walked to school slept longer'), so a flip in an answer sentence
that fuses it with another sentence keeps its anchor. All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import flagged

BRIDGE = "The Calder Bridge repair cost £4.6 million. The new footbridge, which opened a year later, cost £1.9 million."
BUDGET = ("Under the new budget, school repairs will receive £2.4 million. The city's parks will receive £0.9 million, "
          "and street lighting is allotted £0.5 million.")
UNION = "The Harlow Tenants Union sued the landlord Brimble Estates in 2020 over unsafe wiring."
RESERVOIR = "The new Ashby reservoir holds twice as much water as the old one, engineers said."
STUDY = ("The study found that children who walked to school slept longer than those driven by car. Researchers at "
         "Harwell College followed 410 pupils aged nine.")
STRIKER = "Striker Nils Kova scored twice in the second half as Dunmore won 3-1."


@pytest.mark.parametrize("evidence, answer", [
    (BRIDGE, "The council spent £4.6 million repairing the Calder Bridge and £1.9 million on a new footbridge that "
             "opened a year later."),
    (BUDGET, "The budget gives £2.4 million to school repairs, £0.9 million to parks and £0.5 million to street "
             "lighting."),
    (UNION, "In 2020 the Harlow Tenants Union took Brimble Estates to court over unsafe wiring."),
    (RESERVOIR, "Engineers said the new Ashby reservoir holds two times as much water as the old one."),
    (STRIKER, "Nils Kova scored two goals in the second half as Dunmore won 3-1."),
    (STUDY, "In a Harwell College study of 410 pupils aged nine, children who walked to school slept longer than "
            "those driven by car."),
])
def test_a_paraphrase_is_left_alone(evidence, answer):
    assert flagged(evidence, answer) == []


@pytest.mark.parametrize("evidence, answer, expected", [
    (BRIDGE, "The council spent £1.9 million repairing the Calder Bridge and £4.6 million on a new footbridge that "
             "opened a year later.", [("recombination", "1.9 million"), ("recombination", "4.6 million")]),
    (BUDGET, "The budget gives £0.9 million to school repairs, £2.4 million to parks and £0.5 million to street "
             "lighting.", [("recombination", "0.9 million"), ("recombination", "2.4 million")]),
    (UNION, "In 2020 Brimble Estates took the Harlow Tenants Union to court over unsafe wiring.",
     [("roles", "Brimble Estates Harlow Tenants Union")]),
    (RESERVOIR, "Engineers said the new Ashby reservoir holds three times as much water as the old one.",
     [("quantity", "three times")]),
    (STUDY, "In a Harwell College study of 410 pupils aged nine, children who walked to school failed to sleep longer "
            "than those driven by car.", [("polarity", "failed sleep")]),
])
def test_an_error_is_flagged(evidence, answer, expected):
    assert flagged(evidence, answer) == expected
