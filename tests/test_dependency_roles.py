"""Role swaps read from dependency arcs (features.semantic.dependency_roles): shown by `detect`'s
conflict rule on the exchanged names, never a count of the fitted features."""
from __future__ import annotations

import pandas as pd
import pytest
from semantic_support import semantic_table

from evidencechain.features.semantic.align import evidence_views, sentence_views
from evidencechain.features.semantic.dependency_roles import candidates, swaps
from evidencechain.features.semantic.lexicon import lexicon
from evidencechain.text.parse import parse_texts

dependency = pytest.importorskip("evidencechain.text.dependency")
if dependency.dependency_pipeline_name() is None:
    pytest.skip("no spaCy model with a parser is installed", allow_module_level=True)


def _swapped(evidence: str, answer: str) -> list[str]:
    parses = dependency.dependency_parses([answer, evidence], progress=False)
    found = swaps(parses[0], parses[1:], lexicon())
    return sorted(answer[a:b] for s in found for a, b in s.names)


@pytest.mark.parametrize("evidence, answer, names", [
    ("The defender Tomasz Reinholt was fouled by the striker Kofi Ampadu in the 80th minute.",
     "The referee awarded a penalty after Tomasz Reinholt fouled Kofi Ampadu.", ["Kofi Ampadu", "Tomasz Reinholt"]),
    ("His rival Johann Falk copied Wendt's survey and published it in 1745.",
     "It was Elias Wendt who copied Johann Falk's survey.", ["Elias Wendt", "Johann Falk"]),
    ("The Ravel family sold the Montclair estate to the county of Upper Brede in 1952.",
     "The Montclair estate was sold that year by the county of Upper Brede to the Ravel family.",
     ["Ravel", "Upper Brede"]),
    ("The Ferris Institute licensed its battery patent to the startup Voltmere in 2021.",
     "In 2021 the startup Voltmere licensed its battery patent to the Ferris Institute.",
     ["Ferris Institute", "Voltmere"]),
    # a verb of the same relation (data/relations.tsv)
    ("Harcourt Foods acquired the bakery chain Olsen Bakeries in May for an undisclosed sum.",
     "In May, Olsen Bakeries bought Harcourt Foods for an undisclosed price.", ["Harcourt Foods", "Olsen Bakeries"]),
    ("The county of Wexmoor hired the surveyor Ines Tavor to map the old canal.",
     "Ines Tavor recruited the county of Wexmoor to map the old canal.", ["Ines Tavor", "Wexmoor"]),
    # the 'from' and 'to' parties exchanged
    ("The engineer Luka Senn was transferred from the Pirna plant to the Koval plant in June.",
     "In June Luka Senn moved from the Koval plant to the Pirna plant.", ["Koval", "Pirna"]),
])
def test_exchanged_parties_of_one_verb_are_found_whatever_the_word_order(evidence, answer, names):
    assert _swapped(evidence, answer) == names


@pytest.mark.parametrize("evidence, answer", [
    ("The defender Tomasz Reinholt was fouled by the striker Kofi Ampadu.",
     "The striker Kofi Ampadu fouled Tomasz Reinholt."),                               # passive turned active
    ("Johann Falk copied Elias Wendt's survey.", "It was Johann Falk who copied the survey of Elias Wendt."),
    ("The Ferris Institute licensed its patent to Voltmere.", "Voltmere was licensed the patent by the Ferris Institute."),
    ("Anna Berg married Tomas Lind in 2010.", "Tomas Lind married Anna Berg in 2010."),  # a symmetric relation
    ("Marco Ilves sold the mill to Dana Quist.", "Dana Quist bought the mill from Marco Ilves."),  # another verb
    ("Harcourt Foods acquired Olsen Bakeries in May.", "Olsen Bakeries was bought by Harcourt Foods in May."),
    ("The engineer Luka Senn was transferred from the Pirna plant to the Koval plant in June.",
     "In June Luka Senn moved to the Koval plant from the Pirna plant."),
    ("A retrospective of Malik Shapiro opens at the Anderson Art Museum on May 3.",
     "On May 3, the Anderson Art Museum opens a retrospective of Malik Shapiro."),      # a place is no party
    ("QPR's Clint Hill and Chris Ramsey were praised by their club's chairman on Twitter.",
     "The QPR chairman praised Clint Hill and Chris Ramsey on Twitter."),
])
def test_meaning_kept_is_no_swap(evidence, answer):
    assert _swapped(evidence, answer) == []


def test_no_swap_where_some_evidence_sentence_states_the_answers_order():
    parses = dependency.dependency_parses(["Rhea Moss coached Ilan Dorr.", "Ilan Dorr coached Rhea Moss.",
                                           "Years later Rhea Moss coached Ilan Dorr."], progress=False)
    assert swaps(parses[0], parses[1:2], lexicon()) and not swaps(parses[0], parses[1:], lexicon())


def test_only_sentences_sharing_two_names_are_parsed():
    evidence, answer = parse_texts(["Ada Rusk hired Ben Oyelaran. The weather was fine in Corran.",
                                    "In 2020 Ben Oyelaran hired Ada Rusk."], progress=False)
    [a] = sentence_views(answer)
    assert [e.doc.text[e.start:e.end] for e in candidates(a, evidence_views(evidence))] == ["Ada Rusk hired Ben Oyelaran."]


def test_the_rule_shows_the_swap_but_no_fitted_count_moves(monkeypatch):
    from evidencechain.features.semantic import table

    pair = ("His rival Johann Falk copied Wendt's survey and published it in 1745.",
            "It was Elias Wendt who copied Johann Falk's survey.")
    answer, sentences, tokens = semantic_table(*pair)
    shown = [answer.token_text(i) for i in tokens.index[tokens["semantic_confident"] > 0]]
    assert shown == ["Elias", "Wendt", "Johann", "Falk"]
    assert set(tokens.loc[tokens["semantic_confident"] > 0, "semantic_class"]) == {"roles"}
    monkeypatch.setattr(table, "swaps_of", lambda pairs, cache: [[] for _ in pairs])
    _, plain_sentences, plain_tokens = semantic_table(*pair)
    assert not plain_tokens["semantic_confident"].any()
    pd.testing.assert_frame_equal(sentences, plain_sentences)
    assert tokens["semantic_conflict"].tolist() == plain_tokens["semantic_conflict"].tolist()


@pytest.mark.parametrize("evidence, answer", [
    ("The Ormsby reservoir holds more water than the Kettlewell reservoir.",
     "The Kettlewell reservoir holds less water than the Ormsby reservoir."),
    ("The Harlan library opened before the Corvin museum, which is on Dale Street.",
     "The Corvin museum, which is on Dale Street, opened after the Harlan library."),
])
def test_a_converse_comparison_is_not_shown_as_a_swap(evidence, answer):
    answer_doc, _, tokens = semantic_table(evidence, answer)
    assert not tokens["semantic_confident"].any()
