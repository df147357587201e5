"""The planted-error generator (data.planted): each class plants a grammatical, meaning-changing
edit outside names and dates, and leaves alone the sentences where it cannot (one test per kind of
bad edit found reading a seed-17 sample of the shipped passages)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from evidencechain.data.planted.corpus import generate_planted_corpus, load_passages
from evidencechain.data.planted.plant import (
    plant_antonym,
    plant_modality,
    plant_polarity,
    plant_quantity,
    plant_roles,
)
from evidencechain.data.planted.values import plant_recombination, values
from evidencechain.text.parse import parse_texts

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"


def edits_of(fn, text: str, *context: str, seeds=range(12)) -> set[str]:
    """Every edited text the planting function makes of `text` over a few seeds."""
    doc = parse_texts([text], progress=False)[0]
    out = set()
    for seed in seeds:
        rng = random.Random(seed)
        edit = fn(text, doc, rng, list(context)) if context else fn(text, doc, rng)
        if edit is not None:
            out.add(edit.text)
            for a, b in edit.spans:
                assert 0 <= a < b <= len(edit.text) and edit.text[a:b].strip() == edit.text[a:b]
    return out


# modality

def test_modality_leaves_the_month_may_and_superlative_most_alone():
    assert edits_of(plant_modality, "The festival opens on May 20 and is one of the most famous in Europe.") == set()
    assert edits_of(plant_modality, "The concert was held in May and drew a large crowd.") == set()
    assert edits_of(plant_modality, "It is the most powerful and most expensive machine ever built.") == set()


def test_modality_most_before_a_plural_noun_becomes_all():
    assert edits_of(plant_modality, "Officials said most people left the city on Friday.") == \
        {"Officials said all people left the city on Friday."}


def test_modality_skips_quantifiers_inside_larger_phrases():
    for text in ("So many people came to the show a few days ago.", "As many as 108 students were admitted.",
                 "There are few places left in the city.", "Some 200 people attended the meeting.",
                 "He was shot in the back several times by an officer.", "Too many fans waited outside."):
        assert edits_of(plant_modality, text) == set(), text


def test_modality_modal_before_have_and_contractions():
    assert edits_of(plant_modality, "I couldn't breathe and I couldn't move.") == set()
    assert edits_of(plant_modality, "Officials said the maneuver could have triggered a serious incident.") == \
        {"Officials said the maneuver must have triggered a serious incident."}
    assert edits_of(plant_modality, "If the attack damaged the oil fields, it could have a significant impact.") == \
        {"If the attack damaged the oil fields, it will have a significant impact."}


def test_modality_adverb_likely_and_concessions():
    assert edits_of(plant_modality, "The video likely contributed to his swift arrest.") == \
        {"The video certainly contributed to his swift arrest."}
    assert edits_of(plant_modality, "That may be true, but fans were feeling a little jilted.") == set()
    assert edits_of(plant_modality, "So far, 20 states have some version of the law.") == set()


# polarity

def test_polarity_not_after_have_or_do_as_main_verbs():
    assert edits_of(plant_polarity, "He said that a person who has such a video needs to hand it over.") == set()
    assert edits_of(plant_polarity, "As we do each Wednesday, we list the songs in the top 10.") == set()
    assert edits_of(plant_polarity, "The interior of the plane also has an Adventure Time theme.") == set()


def test_polarity_skips_questions_names_compounds_and_adverbs():
    assert edits_of(plant_polarity, '"Senator," he said, "can I pray with you real quick?"') == set()
    assert edits_of(plant_polarity, "It has been a busy week for The Price Is Right fans.") == \
        {"It has not been a busy week for The Price Is Right fans."}
    assert edits_of(plant_polarity, "The story listed items on his things-to-do list.") == set()
    assert edits_of(plant_polarity, "Kim Ki-Jong has also been charged with assault.") == set()
    assert edits_of(plant_polarity, "Paul Walker is hardly the first actor to die during a production.") == set()


def test_polarity_negates_the_modal_not_have():
    assert edits_of(plant_polarity, "The pesticide may have resulted in the illness of a family.") == set()
    assert edits_of(plant_polarity, "The student was identified by campus police.") == \
        {"The student was not identified by campus police."}


# antonym

def test_antonym_never_inside_names_or_hyphenated_words():
    for text in ("The International Criminal Court opened an examination in January.",
                 "A friendly black-and-white dog was taken in by a worker.",
                 "The state-run media said the storm was moving west."):
        made = edits_of(plant_antonym, text)
        assert not any(("National Criminal" in t) or ("white-and-white" in t) or ("state-idle" in t)
                       for t in made), made
    assert edits_of(plant_antonym, "The International Criminal Court opened an examination in January.") == \
        {"The International Criminal Court closed an examination in January."}


def test_antonym_fixes_the_article_and_skips_idioms():
    assert edits_of(plant_antonym, "She is an older sister of the singer.") == {"She is a younger sister of the singer."}
    assert edits_of(plant_antonym, "Governments are resorting to executions as never before.") == set()
    assert edits_of(plant_antonym, "Prosecutors charged a convicted felon with possession.") == set()
    assert edits_of(plant_antonym, "The company shut down one of its plants.") == set()
    assert edits_of(plant_antonym, "A NASA scientist named an asteroid after the activist.") == set()


def test_antonym_keeps_the_part_of_speech():
    """WordNet's surface pairs mixed nouns and verbs ('growing support' -> 'growing oppose',
    'the show' -> 'the hide'): planting uses its own same-part-of-speech list."""
    assert edits_of(plant_antonym, "It is the evidence of growing support for the show.") == set()
    assert edits_of(plant_antonym, "Prices rose last year for these items.") == {"Prices fell last year for these items."}


# roles

def test_roles_swaps_names_around_a_verb_only():
    assert edits_of(plant_roles, "McLean told Rolling Stone that it was time to part with it.") == \
        {"Rolling Stone told McLean that it was time to part with it."}
    for text in ("Marseille prosecutor Brice Robin told CNN that no videos were used.",
                 "Benjamin Netanyahu told CNN's Jim Acosta that he sees better options.",
                 "Crystal O'Connor told CNN affiliate WBND-TV in South Bend that they would refuse."):
        assert edits_of(plant_roles, text) == set(), text


# quantity

def test_quantity_skips_conversions_and_percent_of():
    assert edits_of(plant_quantity, "The beams circulate inside the LHC's 17 mile (27 km) ring.") == set()
    assert edits_of(plant_quantity, "The party won 30% of the vote in the election.") == set()
    assert edits_of(plant_quantity, "He walked 5 km to the station.") == {"He walked 5 miles to the station."}


# recombination

def test_recombination_value_kinds():
    text = "Police said the Furious 7 star was 40 on March 15, 1945, and drove 30 miles at 7 a.m. in season 2."
    kinds = {text[s:e]: k for s, e, k in values(text)}
    assert kinds == {"40": "number", "15": "day", "1945": "year", "30": "amount:mile", "7": "time"}
    assert values("He was 91 years old and lived at 120 Vermilyea Ave.") == [(7, 9, "age")]


def test_recombination_replaces_with_the_same_kind_only():
    made = edits_of(plant_recombination, "The women were detained on March 6 in Beijing.",
                    "The crash killed 149 people.", "Charges were filed on April 14.")
    assert made == {"The women were detained on March 14 in Beijing."}


def test_recombination_does_not_swap_the_ends_of_a_range():
    for text in ("The show aired for eight seasons from 1986 to 1994.", "A boat 20 or 30 feet long was seen.",
                 "Nearly 1 out of 4 people in the world are Muslim."):
        assert edits_of(plant_recombination, text, "The report said nothing more.") == set(), text


# the corpus

def test_planted_corpus_is_byte_identical_across_runs():
    a, b = generate_planted_corpus(17, limit=40), generate_planted_corpus(17, limit=40)
    assert [r.to_json() for r in a.responses] == [r.to_json() for r in b.responses]
    assert "Will" not in {lab.text for r in a.responses for lab in r.labels}


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"real data absent: {SHARED}")
def test_no_passage_sentence_is_benchmark_test_text():
    from evidencechain.features.semantic.build_suite import held_out_text

    text = held_out_text(SHARED)
    assert text
    leaked = [s for _, sents in load_passages() for s in sents if s in text]
    assert leaked == []
