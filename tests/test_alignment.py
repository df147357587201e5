"""The 'alignment' feature family: answer sentences against their best-aligned evidence sentences."""
from __future__ import annotations

import pytest

from evidencechain.features import FeatureConfig, FeatureExtractor
from evidencechain.features.alignment import ALIGNMENT_FEATURES, EvidencePostings, sentence_alignment
from evidencechain.features.semantic.align import sentence_views
from evidencechain.records import Corpus, Response, Source
from evidencechain.text.parse import parse_texts

EVIDENCE = ("The bridge opened in 1998 in Lyon. The museum closed in 2004 after a flood. "
            "Tourists praised the river walk.")


def _features(answer: str) -> dict[str, float]:
    ev, doc = parse_texts([EVIDENCE, answer], progress=False)
    return dict(zip(ALIGNMENT_FEATURES, sentence_alignment(sentence_views(doc)[0], EvidencePostings(ev))))


def test_a_restated_sentence_is_fully_aligned():
    f = _features("The bridge opened in 1998 in Lyon.")
    assert f["align_best"] == pytest.approx(1.0) and f["align_top"] == pytest.approx(1.0)
    assert f["align_missing"] == 0 and f["pair_unsupported"] == 0 and f["novel_share"] == 0


def test_values_moved_between_evidence_sentences_are_unsupported_pairs():
    # every word is in the evidence, but 'bridge' and '2004' never share a sentence
    f = _features("The bridge closed in 2004.")
    assert f["novel_share"] == 0 and f["pair_unsupported"] >= 1 and f["align_best"] < 1


def test_a_new_word_lowers_alignment_and_counts_as_novel():
    f = _features("The bridge collapsed in 1998 in Lyon.")
    assert f["novel_share"] > 0 and f["align_missing"] == 1 and f["align_best"] < 1


def test_a_sentence_without_content_words_gets_zeros():
    assert set(_features("It is.").values()) == {0}


def test_the_family_adds_its_columns_when_asked_for():
    source = Source("s1", "Summary", "toy", EVIDENCE, "Summarise.")
    answers = [Response(f"r{k}", "s1", "m", 0.0, (), "test", "good", text)
               for k, text in enumerate(["The bridge opened in 1998.", "The bridge closed in 2004."])]
    corpus = Corpus("toy", {"s1": source}, answers)
    tables = FeatureExtractor(FeatureConfig(families=("alignment",))).fit(corpus, progress=False) \
        .transform(corpus, progress=False)
    assert list(tables.sentences.columns[-len(ALIGNMENT_FEATURES):]) == list(ALIGNMENT_FEATURES)
    assert tables.sentences["pair_unsupported"].tolist()[1] >= 1
    plain = FeatureExtractor(FeatureConfig()).fit(corpus, progress=False).transform(corpus, progress=False)
    assert not set(ALIGNMENT_FEATURES) & set(plain.sentences.columns)
