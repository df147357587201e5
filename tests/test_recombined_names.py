"""Issue 26, recombination: names put into another event's clause. Two names of two evidence sentences
exchanged in one answer sentence, the other names of each clause telling the events apart; a name of
another clause in a short restated clause; one name for another whatever kind the tagger gives each.
Two names of one sentence exchanged in an answer sentence that fuses it with another. Each with its
faithful variant. All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals

TRIALS = ("Harwick Labs tested its Melavir vaccine on 600 volunteers in Chile. "
          "Its trial of Ostamir enrolled 250 volunteers in Norway.")
SCHOOLS = "Castell School is in Brinmoor, and its partner school, Ashby College, is in Lowfield."
GOALS = ("Pia Lund scored twice in the first half, and Greta Voss added a third goal in the 70th minute "
         "to seal Arden's win.")


def _recombined(evidence: str, answer: str) -> set[str]:
    return {w for c, w, _ in confident_signals(evidence, answer) if c == "recombination"}


def test_two_names_of_two_sentences_exchanged_are_flagged():
    answer = "Harwick Labs ran its Melavir trial in Norway with 600 volunteers, and tested Ostamir on 250 " \
             "volunteers in Chile."
    assert _recombined(TRIALS, answer) == {"Norway", "Chile"}


def test_two_names_of_two_sentences_each_with_its_event_are_left_alone():
    answer = "Harwick Labs ran its Melavir trial in Chile with 600 volunteers, and tested Ostamir on 250 " \
             "volunteers in Norway."
    assert _recombined(TRIALS, answer) == set()


@pytest.mark.parametrize("evidence, answer, flagged", [
    (SCHOOLS, "Castell School is in Lowfield.", {"Lowfield"}),
    (SCHOOLS, "Castell School is in Brinmoor.", set()),
    (GOALS, "Arden's win was sealed when Pia Lund added a third goal in the 70th minute.", {"Pia Lund"}),
    (GOALS, "Arden's win was sealed when Greta Voss added a third goal in the 70th minute.", set()),
])
def test_a_name_of_another_clause_in_a_restated_clause(evidence, answer, flagged):
    assert _recombined(evidence, answer) == flagged


BRIDGE = ("Two local engineers worked on the Callow footbridge over the Wend estuary. Ada Mercer designed the "
          "steel deck, and Tomas Reed tested the cables.")
FUSED = "The Callow footbridge over the Wend estuary was the work of two local engineers: {} designed the steel " \
        "deck and {} tested the cables."


@pytest.mark.parametrize("answer, flagged", [
    (FUSED.format("Tomas Reed", "Ada Mercer"), {"Tomas Reed", "Ada Mercer"}),
    (FUSED.format("Ada Mercer", "Tomas Reed"), set()),
])
def test_names_swapped_in_a_sentence_that_fuses_two(answer, flagged):
    assert _recombined(BRIDGE, answer) == flagged


def _view(text: str):
    from evidencechain.features.semantic.align import sentence_view
    from evidencechain.text.parse import parse_texts

    doc = parse_texts([text], progress=False)[0]
    return sentence_view(doc, 0, len(text))


def _value(v, words: str):
    from evidencechain.features.semantic.recombination import Value

    first = v.words.index(words.split()[0].lower())
    return Value(words.lower(), "person", tuple(range(first, first + len(words.split()))))


def test_both_ends_of_a_range_are_bounds_not_values():
    from evidencechain.features.semantic.lexicon import lexicon
    from evidencechain.features.semantic.recombination import bound

    v = _view("The band has released between 2 and 4 live albums and 3 studio albums.")
    at = {w: v.words.index(w) for w in ("2", "4", "3")}
    assert bound(v, (at["2"],), lexicon()) and bound(v, (at["4"],), lexicon())
    assert not bound(v, (at["3"],), lexicon())


@pytest.mark.parametrize("answer, name, evidence, other, same", [
    ("The parade will move through the streets of Rensby.", "Rensby",
     "The parade will move through the streets of Alder Cross.", "Alder Cross", True),
    ("The win was sealed when Lena Strom added a third goal.", "Lena Strom",
     "Marta Ilves added a third goal to seal the win.", "Marta Ilves", True),
    ("Lloyd Dennis has been charged with 28 offences.", "Lloyd Dennis",
     "The 32-year-old from Eastleigh has been charged with 28 offences.", "Eastleigh", False),
])
def test_names_of_two_tagger_kinds_are_one_kind_only_in_one_slot(answer, name, evidence, other, same):
    from dataclasses import replace

    from evidencechain.features.semantic.lexicon import lexicon
    from evidencechain.features.semantic.recombination import _same_kind

    a, e = _view(answer), _view(evidence)
    x, y = _value(a, name), replace(_value(e, other), kind="place")
    assert _same_kind(a, x, e, y, lexicon()) is same
