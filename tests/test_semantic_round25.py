"""Issue 26: what the twenty-fifth blind suite taught, each with its hard negative. An amount passed
between two parties is no word of their relation ('lent 9 million pounds to'); the words of a frame
('filed a lawsuit against') restate the evidence's verb ('sued'); a passive's 'to' party is the
thing's receiver, not the relation's other party ('was sold by X to Y'), also where the parser hangs
it on the 'by' party; a negated opposite that the answer restates with the evidence's own word agrees
('did not rise; it dropped' for 'fell'); a comparison whose subject stands before a relative clause
keeps its parties ('the old bridge, which the viaduct will replace, is narrower than its
successor'). All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import flagged

LOAN = "The regional bank Hallam Trust lent 9 million pounds to the shoe maker Kerr & Dunn to fund a new factory in Lowick."
SUIT = "The Tilsey Rowing Club has sued the builder Marrick Homes over cracks that appeared in its boathouse last winter."
SALE = "Farrow Press bought the weekly newspaper Dunmore Echo from the Pask family in 2011 for an undisclosed sum."
RATE = "Inflation in the Corvale region fell to 2.3 percent in June from 2.9 percent in May, the regional bank said."
SPAN = ("Surveyors said the new Harle Road viaduct is wider than the old Tenby Lane bridge, which it will replace as "
        "the main route into Osk.")


@pytest.mark.parametrize("evidence, answer", [
    (LOAN, "Hallam Trust, a regional bank, lent 9 million pounds to the shoe maker Kerr & Dunn for a new factory in Lowick."),
    (SUIT, "Over cracks that appeared in its boathouse last winter, the Tilsey Rowing Club has filed a lawsuit against "
           "Marrick Homes."),
    (SALE, "In 2011, the weekly newspaper Dunmore Echo was sold by the Pask family to Farrow Press for an undisclosed sum."),
    (RATE, "According to the regional bank, inflation in the Corvale region did not rise in June; it dropped to 2.3 "
           "percent from 2.9 percent in May."),
    (SPAN, "According to surveyors, the old Tenby Lane bridge, which the new Harle Road viaduct will replace as the main "
           "route into Osk, is narrower than its successor."),
])
def test_a_paraphrase_is_left_alone(evidence, answer):
    assert flagged(evidence, answer) == []


@pytest.mark.parametrize("evidence, answer, expected", [
    (LOAN, "Kerr & Dunn lent 9 million pounds to the regional bank Hallam Trust to fund a new factory in Lowick.",
     [("roles", "Kerr & Dunn Hallam Trust")]),
    (SUIT, "Over cracks that appeared in its boathouse last winter, Marrick Homes has filed a lawsuit against the Tilsey "
           "Rowing Club.", [("roles", "Marrick Homes Tilsey Rowing Club")]),
    (SALE, "In 2011, the weekly newspaper Dunmore Echo was sold by Farrow Press to the Pask family for an undisclosed sum.",
     [("roles", "Dunmore Echo sold Farrow Press")]),
    (RATE, "According to the regional bank, inflation in the Corvale region did not fall in June; it rose to 2.3 "
           "percent from 2.9 percent in May.", [("polarity", "not fall")]),
    (SPAN, "According to surveyors, the new Harle Road viaduct, which will replace the old Tenby Lane bridge as the main "
           "route into Osk, is narrower than its predecessor.", [("antonym", "narrower")]),
])
def test_an_error_is_flagged(evidence, answer, expected):
    assert flagged(evidence, answer) == expected


def test_a_passive_to_party_hung_on_the_by_party_is_the_verbs():
    dependency = pytest.importorskip("evidencechain.text.dependency")
    if dependency.dependency_pipeline_name() is None:
        pytest.skip("no spaCy model with a parser is installed")
    from evidencechain.features.semantic.dependency_roles import swaps
    from evidencechain.features.semantic.lexicon import lexicon

    evidence = "The Gellan Credit Union lent 3 million dollars to the Orrin Street housing cooperative to fund new roofs."

    def swapped(answer: str) -> list[str]:
        parses = dependency.dependency_parses([answer, evidence], progress=False)
        return sorted(answer[a:b] for s in swaps(parses[0], parses[1:], lexicon()) for a, b in s.names)

    assert swapped("Three million dollars was lent by the Orrin Street housing cooperative to the Gellan Credit Union "
                   "to pay for new roofs.") == ["Gellan Credit Union", "Orrin Street"]
    assert swapped("Three million dollars was lent by the Gellan Credit Union to the Orrin Street housing cooperative "
                   "to pay for new roofs.") == []


def test_a_double_negation_with_a_prefix_still_cancels_where_the_answer_restates_the_word():
    """'just not disordered' beside a restated 'orders' (the semantic suite's antonym-paraphrase-039): the
    negation and the prefix are two flips that cancel; the agreeing-opposite reading leaves prefixed words alone."""
    import json
    from pathlib import Path

    from evidencechain.features.semantic import EvidenceSide, text_signals
    from evidencechain.text.parse import parse_texts

    lines = Path(__file__).parent.joinpath("data", "semantic_suite.jsonl").read_text(encoding="utf-8").splitlines()
    case = next(c for c in map(json.loads, lines) if c["id"] == "antonym-paraphrase-039")
    ev, doc = parse_texts([case["evidence"], case["answer"]], progress=False)
    assert [s for ss in text_signals(doc, EvidenceSide(ev)) for s in ss] == []
