"""Claim triplets (evidencechain.text.triplets) and the rule checker (features.triplets)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import spacy
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from evidencechain.features.triplets import (
    VERDICTS,
    TripletVerdict,
    aggregate,
    check_triplets,
    copy_rate,
    copy_rates,
    sentence_verdict_counts,
)
from evidencechain.text.triplets import (
    Element,
    Triplet,
    extract_triplets,
    load_dependency_pipeline,
    triplet_token_mask,
)

needs_parser = pytest.mark.skipif(
    load_dependency_pipeline() is None,
    reason="no spaCy model with a dependency parser installed (only the blank pipeline)")
BLANK = spacy.blank("en")


def _tuples(text: str, **kw) -> list[tuple[str, str, str]]:
    return [(t.subject.text, t.relation.text, t.object.text) for t in extract_triplets(text, **kw)]


@needs_parser
@pytest.mark.parametrize("text, expected", [
    ("The Eiffel Tower was designed by Gustave Eiffel.",
     [("The Eiffel Tower", "was designed by", "Gustave Eiffel")]),
    ("Marie Curie was born in Warsaw.", [("Marie Curie", "was born in", "Warsaw")]),
    ("Paris is the capital of France.", [("Paris", "is", "the capital of France")]),
    ("The museum opened in 1987.", [("The museum", "opened in", "1987")]),
    ("The company has 500 employees.", [("The company", "has", "500 employees")]),
    ("He wants to buy a red car.", [("He", "wants to buy", "a red car")]),
    ("The museum is located in Berlin.", [("The museum", "is located in", "Berlin")]),
])
def test_single_triplet_sentences(text, expected):
    assert _tuples(text) == expected


@needs_parser
def test_apposition_reads_as_is():
    triplets = extract_triplets("Paris, the capital of France, is a large city.")
    assert [(t.subject.text, t.relation_text, t.object.text) for t in triplets] == [
        ("Paris", "is", "the capital of France"), ("Paris", "is", "a large city")]
    assert triplets[0].relation.text == ","
    assert triplets[0].as_text() == "Paris is the capital of France"


@needs_parser
def test_conjunctions_multiply_subjects_and_objects():
    assert sorted(_tuples("Larry Page and Sergey Brin founded Google and YouTube.")) == [
        ("Larry Page", "founded", "Google"), ("Larry Page", "founded", "YouTube"),
        ("Sergey Brin", "founded", "Google"), ("Sergey Brin", "founded", "YouTube")]


@needs_parser
def test_coordinated_verbs_inherit_the_subject():
    found = _tuples("The museum is located in Berlin and was not opened until 1999.")
    assert found == [("The museum", "is located in", "Berlin"),
                     ("The museum", "was not opened until", "1999")]


@needs_parser
def test_prepositional_and_date_objects():
    found = _tuples("Marie Curie was born in Warsaw on 7 November 1867.")
    assert ("Marie Curie", "was born", "on 7 November 1867") in found
    # a preposition after a direct object opens its own object
    found = _tuples("He moved the company to Paris in 1990.")
    assert found == [("He", "moved", "the company"), ("He", "moved", "to Paris"),
                     ("He", "moved", "in 1990")]


@needs_parser
def test_relative_and_reduced_clauses_take_their_noun():
    found = _tuples("The tower, which was built in 1889, is 330 metres tall.")
    assert found == [("The tower", "was built in", "1889"), ("The tower", "is", "330 metres tall")]
    assert ("Google", "founded in", "1998") in _tuples("Google, founded in 1998, is in California.")


@needs_parser
def test_given_sentence_spans_set_indices_and_offsets():
    text = "Intro words here.  The museum opened in 1987. It is. It has 500 rooms."
    spans = [(0, 17), (19, 45), (46, 52), (53, len(text))]
    triplets = extract_triplets(text, sentences=spans)
    assert [t.sentence_index for t in triplets] == [0, 1, 3]
    museum = triplets[1]
    assert (museum.object.start, museum.object.end) == (text.index("1987"), text.index("1987") + 4)
    assert museum.start == text.index("The museum") and museum.end == text.index("1987") + 4
    for t in triplets:
        a, b = spans[t.sentence_index]
        assert a <= t.start <= t.end <= b


def test_fallback_without_parser():
    blank = BLANK
    assert _tuples("The museum was opened in 1987.", nlp=blank) == [
        ("The museum", "was opened in", "1987")]
    assert _tuples("The museum opened in 1987.", nlp=blank) == [("The museum", "opened in", "1987")]
    assert _tuples("Thanks!", nlp=blank) == [("Thanks", "", "")]
    assert _tuples("Hello friend", nlp=blank) == [("Hello", " ", "friend")]
    assert _tuples("It is. And so it was.", nlp=blank) == []


@needs_parser
def test_every_content_sentence_yields_a_triplet():
    text = "The river flows. Yes. Is it? Great food, nice staff, friendly service."
    triplets = extract_triplets(text)
    assert sorted({t.sentence_index for t in triplets}) == [0, 1, 3]
    assert ("The river", "flows", "") in [(t.subject.text, t.relation.text, t.object.text)
                                           for t in triplets]


@settings(derandomize=True, max_examples=50, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text(max_size=6) | st.sampled_from(
    [" was born in ", " and ", "The tower", " designed by ", " 1,200 ", "Paris, the city, ", ". "]),
    max_size=16).map("".join), st.lists(st.floats(0, 1), max_size=4))
@example(" Paris, the city, was born in  1,200 . The tower\n designed by é and X.", [0.45])
def test_offsets_always_match_the_text(text, fractions):
    bounds = [0, *sorted(int(f * len(text)) for f in fractions), len(text)]
    spans = [(a, b) for a, b in zip(bounds, bounds[1:])]
    for kw in ({}, {"sentences": spans}, {"nlp": BLANK}):
        triplets = extract_triplets(text, **kw)
        for t in triplets:
            for e in (t.subject, t.relation, t.object):
                assert 0 <= e.start <= e.end <= len(text)
                assert text[e.start:e.end] == e.text
            if "sentences" in kw:
                a, b = spans[t.sentence_index]
                assert a <= t.start and t.end <= b


def test_token_mask():
    t = Triplet(Element(0, 3, "The"), Element(4, 7, "cat"), Element(8, 8, ""), 0)
    mask = triplet_token_mask([t], np.array([0, 4, 8, 12]), np.array([3, 7, 11, 15]))
    assert mask.tolist() == [True, True, False, False]
    assert triplet_token_mask([], [0], [1]).tolist() == [False]


# -- checker ------------------------------------------------------------------------------

EVIDENCE = [
    "The Eiffel Tower is a wrought-iron lattice tower in Paris.",
    "It was designed by the engineering company of Gustave Eiffel and completed in 1889.",
    "The tower is 330 metres tall.",
    "Marie Curie was born in Warsaw in 1867.",
]


def _verdict(claim: str) -> TripletVerdict:
    triplets = extract_triplets(claim)
    assert len(triplets) == 1, triplets
    return check_triplets(triplets, EVIDENCE)[0]


@needs_parser
@pytest.mark.parametrize("claim, verdict, index", [
    ("The tower was completed in 1887.", "Contradiction", 0),        # number swap
    ("The Eiffel Tower is 300 metres tall.", "Contradiction", 2),     # number swap
    ("Marie Curie was born in Krakow.", "Contradiction", 3),          # entity swap
    ("The tower was designed by Thomas Edison.", "Contradiction", 0),  # entity swap
    ("The tower hosts a famous restaurant.", "Neutral", 0),           # unrelated
    ("Curie won two Nobel prizes.", "Neutral", 3),                    # nothing to compare
    ("Gustave Eiffel's engineering company designed the tower.", "Entailment", 1),  # paraphrase
    ("The tower was completed in 1889.", "Entailment", 1),
])
def test_verdicts(claim, verdict, index):
    v = _verdict(claim)
    assert (v.verdict, v.evidence_index) == (verdict, index), v.reason
    assert 0.0 <= v.coverage <= 1.0 and v.reason


@needs_parser
def test_no_shared_words_and_no_evidence():
    [v] = check_triplets(extract_triplets("Bananas contain potassium."), EVIDENCE)
    assert (v.verdict, v.evidence_index, v.coverage) == ("Neutral", -1, 0.0)
    [v] = check_triplets(extract_triplets("Bananas contain potassium."), [])
    assert v.verdict == "Neutral"
    assert check_triplets([], EVIDENCE) == []


@needs_parser
def test_an_amount_whose_unit_is_a_rate_is_an_amount_not_a_number():
    # '890 hertz' states the key '1 / [time]:8.9e+02' (HaluEval text stopped make halueval on it)
    evidence = ["The transmitter near Dunmore broadcasts at 890 hertz every night."]
    [v] = check_triplets(extract_triplets("The transmitter near Dunmore broadcasts at 900 hertz."), evidence)
    assert v.verdict in ("Contradiction", "Neutral") and v.reason


@needs_parser
def test_coverage_threshold_decides_entailment():
    triplets = extract_triplets("The Eiffel Tower is a tall lattice tower.")
    assert check_triplets(triplets, EVIDENCE, coverage_threshold=0.7)[0].verdict == "Entailment"
    assert check_triplets(triplets, EVIDENCE, coverage_threshold=1.0)[0].verdict == "Neutral"


def test_blank_pipeline_checker():
    blank = BLANK
    triplets = extract_triplets("The tower was completed in 1887.", nlp=blank)
    assert check_triplets(triplets, EVIDENCE, pipeline="blank")[0].verdict == "Contradiction"
    triplets = extract_triplets("Marie Curie was born in Krakow.", nlp=blank)
    assert check_triplets(triplets, EVIDENCE, pipeline="blank")[0].verdict == "Contradiction"


def _v(sentence: int, verdict: str) -> TripletVerdict:
    e = Element(0, 1, "x")
    return TripletVerdict(Triplet(e, e, e, sentence), verdict, 0, 1.0, "")


def test_sentence_verdict_counts():
    frame = sentence_verdict_counts(
        [_v(0, "Entailment"), _v(0, "Contradiction"), _v(2, "Neutral")], 3)
    assert list(frame.columns) == ["sentence_index", "n_triplets", "n_entailment", "n_neutral",
                                   "n_contradiction"]
    assert frame.values.tolist() == [[0, 2, 1, 0, 1], [1, 0, 0, 0, 0], [2, 1, 0, 1, 0]]
    with pytest.raises(ValueError):
        sentence_verdict_counts([_v(3, "Neutral")], 3)
    assert aggregate(frame, "strict") == 1.0
    assert aggregate(frame.iloc[2], "ratio") == 0.5


@pytest.mark.parametrize("counts, strict, ratio, majority", [
    ({}, 0.0, 0.0, 0.0),
    ({"Entailment": 4}, 0.0, 0.0, 0.0),
    ({"Entailment": 3, "Neutral": 1}, 0.125, 0.125, 0.25),
    ({"Entailment": 2, "Neutral": 2}, 0.25, 0.25, 0.5),
    ({"Entailment": 1, "Neutral": 2}, 1 / 3, 1 / 3, 1.0),
    ({"Entailment": 3, "Contradiction": 1}, 1.0, 0.25, 0.25),
    ({"n_contradiction": 2}, 1.0, 1.0, 1.0),
    ({"neutral": 2}, 0.5, 0.5, 1.0),
])
def test_aggregation_rules(counts, strict, ratio, majority):
    assert aggregate(counts, "strict") == pytest.approx(strict)
    assert aggregate(counts, "ratio") == pytest.approx(ratio)
    assert aggregate(counts, "majority") == pytest.approx(majority)
    assert aggregate(pd.Series(counts, dtype=float), "ratio") == pytest.approx(ratio)


def test_aggregation_orders_and_errors():
    # strict pools Entailment < Neutral < Contradiction: any contradiction outranks any neutral
    assert aggregate({"Entailment": 9, "Contradiction": 1}, "strict") > \
        aggregate({"Neutral": 5}, "strict") > aggregate({"Entailment": 5}, "strict")
    with pytest.raises(ValueError, match="strict, ratio, majority"):
        aggregate({"Neutral": 1}, "mean")
    with pytest.raises(TypeError):
        aggregate([1, 2, 3], "ratio")
    assert set(VERDICTS) == {"Entailment", "Neutral", "Contradiction"}


def test_copy_rate():
    evidence = "The museum opened in 1987 in Berlin."
    assert copy_rate("The museum opened in 1987.", evidence, 1) == 1.0
    assert copy_rate("The museum opened in 1991.", evidence, 1) == 0.8
    assert copy_rate("The museum opened in 1991.", evidence, 2) == 0.75
    assert copy_rate("the MUSEUM opened", evidence, 3) == 1.0
    assert copy_rate("museum opened", evidence, 4) == 0.0
    assert copy_rate("", evidence, 1) == 0.0
    assert copy_rate("word word", "word", 1) == 1.0
    with pytest.raises(ValueError):
        copy_rate("a", "a", 0)


@given(st.text(alphabet="ab cé.\n1", max_size=40), st.text(alphabet="ab cé.\n1", max_size=60))
def test_copy_rates_are_ngram_set_membership(answer, evidence):
    """The joined-string search gives the n-gram set definition, every n at once."""
    import re

    def by_sets(n):
        words, ev = re.findall(r"\w+", answer.lower()), re.findall(r"\w+", evidence.lower())
        grams = [tuple(words[i:i + n]) for i in range(len(words) - n + 1)]
        known = {tuple(ev[i:i + n]) for i in range(len(ev) - n + 1)}
        return sum(g in known for g in grams) / len(grams) if grams else 0.0

    assert copy_rates(answer, evidence, (1, 2, 3, 4)) == [by_sets(n) for n in (1, 2, 3, 4)]
