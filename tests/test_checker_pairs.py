"""Checker training pairs: spans name exactly what changed, seeded, grouped, never test data."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from evidencechain.checker.pairs import (
    anli_pairs,
    build_pairs,
    cliff_pairs,
    perturbation_pairs,
    split_by_group,
    wice_window,
)
from evidencechain.checker.perturb import Perturber
from evidencechain.checker.pipeline import pairs_hash
from evidencechain.checker.records import describe
from evidencechain.text.windows import split_sentences

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
DOC = ("The Eiffel Tower was completed in March 1889 in Paris. It was designed by Gustave Eiffel, whose "
       "company built it. The tower is 330 metres tall and was the tallest structure in the world until 1930. "
       "Many visitors climb it every year. Stephen Sauvestre worked on the design with Maurice Koechlin.")
OTHER = ("Berlin hosted the Olympic Games in 1936. The stadium held 100,000 people. "
         "Jesse Owens won four gold medals there.")


def _pairs(n=300, seed=5):
    return perturbation_pairs([("eiffel", DOC), ("berlin", OTHER)], n, seed, "perturb_test")


def test_spans_are_inside_the_claim_and_cover_the_change():
    pairs = _pairs()
    kinds = {p.kind for p in pairs}
    assert {"number_swap", "negation", "removed_support", "appended_cause"} <= kinds
    for p in pairs:
        assert p.token_labels
        if p.label == "supported":
            assert p.spans == () and p.claim not in p.premise.split(". ")
            continue
        (start, end), = p.spans
        changed = p.claim[start:end]
        assert changed.strip() == changed and changed
        if p.kind in ("number_swap", "entity_swap", "date_swap", "antonym", "quantifier"):
            assert changed not in DOC.split() or p.kind == "entity_swap" or changed.isdigit()
        if p.kind == "appended_cause":
            assert changed not in p.premise
        if p.kind == "removed_support":
            assert p.claim.rstrip(".") not in p.premise


def test_negation_span_marks_the_negated_auxiliary():
    perturber = Perturber(random.Random(0))
    claim, (a, b) = perturber._negation("The tower was the tallest structure.", "")
    assert claim == "The tower was not the tallest structure." and claim[a:b] == "was not"


def test_pairs_are_seeded():
    assert pairs_hash(_pairs(seed=5)) == pairs_hash(_pairs(seed=5))
    assert pairs_hash(_pairs(seed=5)) != pairs_hash(_pairs(seed=6))


def test_validation_split_never_straddles_a_document():
    pairs = _pairs(200) + perturbation_pairs([(f"d{i}", DOC) for i in range(20)], 200, 1, "x")
    train, validation = split_by_group(pairs, 0.2, 17)
    assert train and validation
    assert not {p.group for p in train} & {p.group for p in validation}
    assert len(train) + len(validation) == len(pairs)
    table = describe(pairs)
    assert table["pairs"].sum() == len(pairs)


def test_cliff_test_cut_is_never_training_data():
    with pytest.raises(ValueError, match="benchmark data"):
        cliff_pairs("unused.jsonl.gz", cuts=("val", "test"))


def test_wice_window_keeps_the_gold_sentences():
    evidence = [f"Sentence {i} about topic {i}." for i in range(30)]
    meta = {"chunk_idx": list(range(100, 130)), "oracle_idx": [117]}
    window = wice_window(evidence, meta, "unrelated claim words", 20)
    assert "Sentence 17 about topic 17." in window


@pytest.mark.skipif(not (DATA / "nli").is_dir(), reason="../shared/data/nli is absent")
def test_real_nli_labels_map_to_three_verdicts():
    pairs = anli_pairs(str(DATA / "nli"))
    assert len(pairs) == 3198
    by_kind = {(p.kind, p.label) for p in pairs}
    assert by_kind == {("entailment", "supported"), ("contradiction", "conflict"), ("neutral", "baseless")}
    assert not any(p.token_labels for p in pairs)


@pytest.mark.skipif(not (DATA / "cliff").is_dir(), reason="../shared/data/cliff is absent")
def test_cliff_val_pairs_carry_real_word_spans():
    pairs = build_pairs({"cliff_val": -1}, 17, {"cliff": str(DATA / "cliff" / "cliff.jsonl.gz")})
    flagged = [p for p in pairs if p.label != "supported"]
    assert flagged and all(p.spans for p in flagged)
    assert all(p.source == "cliff_val" for p in pairs)


def test_sentence_splitting_keeps_text():
    assert split_sentences(DOC)[0] == "The Eiffel Tower was completed in March 1889 in Paris."
