"""Feature families on hand-made cases, plus the no-leakage rule for TF-IDF."""
from __future__ import annotations

import numpy as np
import pytest

from evidencechain.features import FeatureExtractor, feature_columns
from evidencechain.features.numeric import (
    ORDINALS,
    WORD_NUMBERS,
    absent_number_mask,
    absent_numbers,
    numbers_in_text,
    token_number_values,
)
from evidencechain.features.retrieval import BM25Plus
from evidencechain.features.table import FeatureConfig
from evidencechain.records import Corpus, Label, Response, Source

ARTICLE = (
    "Maria Lopez opened the Golden Fork in Austin in 1998.\n\n"
    "The restaurant has 1,200 square feet, 120 seats and a rating of 4.5 stars.\n\n"
    "Critics praised its tacos and its patio, which seats 40 guests."
)


def _corpus(answer: str, labels=(), pipeline_name="t") -> Corpus:
    src = Source("s1", "Summary", "CNN/DM", ARTICLE, "Summarise.")
    resp = Response("r1", "s1", "gpt-4-0613", 0.7, tuple(labels), "train", "good", answer)
    return Corpus(pipeline_name, {"s1": src}, [resp])


def _features(answer: str, pipeline: str = "auto"):
    corpus = _corpus(answer)
    fx = FeatureExtractor(FeatureConfig(pipeline=pipeline)).fit(corpus, progress=False)
    return fx.transform(corpus, progress=False)


def test_copied_sentence_is_covered_and_attributed_to_its_chunk():
    t = _features("The restaurant has 1,200 square feet, 120 seats and a rating of 4.5 stars.")
    row = t.sentences.iloc[0]
    assert row.coverage == 1.0
    assert row.numeric_mismatch == 0 and row.entity_mismatch == 0
    assert row.overlap_chunk == row.bm25_chunk == row.tfidf_chunk == 1
    assert row.tfidf_max == pytest.approx(1.0)


def test_changed_number_raises_numeric_mismatch():
    base = _features("The restaurant has 120 seats.").sentences.iloc[0]
    changed = _features("The restaurant has 150 seats.")
    row = changed.sentences.iloc[0]
    assert base.numeric_mismatch == 0
    assert row.numeric_mismatch == 1
    assert row.coverage < base.coverage
    tok = changed.tokens.set_index("text")
    assert tok.loc["150", "number_absent"] == 1 and tok.loc["seats", "number_absent"] == 0


@pytest.mark.parametrize("pipeline", ["auto", "blank"])
def test_invented_person_raises_entity_mismatch(pipeline):
    row_ok = _features("Maria Lopez opened the Golden Fork.", pipeline).sentences.iloc[0]
    t = _features("John Smith opened the Golden Fork.", pipeline)
    assert row_ok.entity_mismatch == 0
    assert t.sentences.iloc[0].entity_mismatch == 1
    flagged = t.tokens[t.tokens.entity_absent == 1].text.tolist()
    assert flagged == ["John", "Smith"]


def test_number_normalisation():
    assert numbers_in_text("1,200 people") == numbers_in_text("1200 people") == {"1200"}
    assert "20" in numbers_in_text("20%") and "20" in numbers_in_text("20 percent")
    assert token_number_values("third") == token_number_values("3rd") == {"3"}
    assert "2.5e+06" in numbers_in_text("2.5 million")
    assert absent_numbers(("1,200", "twelve", "one"), {"1200"}) == [False, True, False]


def test_token_numbers_are_the_same_worked_out_once():
    """The cached per-token numbers give what the per-call rule gave, odd digits included."""
    tokens = ("1,200", "3rd", "third", "Twelve", "one", "²", "٣", "x2", "20%", "2.5", "İ", "", "ok")
    for tok in tokens:
        low = tok.lower()
        expected = ({f"{WORD_NUMBERS[low]:.6g}"} if low in WORD_NUMBERS else
                    {f"{ORDINALS[low]:.6g}"} if low in ORDINALS else
                    numbers_in_text(low) if any(c.isdigit() for c in low) else set())
        assert token_number_values(tok) == expected and isinstance(token_number_values(tok), set)
    known = {"1200", "3"}
    assert absent_numbers(tokens, known) == [
        bool(token_number_values(t)) and t.lower() not in ("one", "second", "first")
        and not token_number_values(t) & known for t in tokens]
    lowered = tuple(t.lower() for t in tokens)
    has, _ = absent_number_mask(" ".join(lowered), np.zeros(len(tokens)), np.zeros(len(tokens)), lowered, known)
    assert has.tolist() == [any(c.isdigit() for c in t) or t in WORD_NUMBERS or t in ORDINALS for t in lowered]


def test_written_and_formatted_numbers_match_the_evidence():
    row = _features("The restaurant has 1200 square feet.").sentences.iloc[0]
    assert row.numeric_mismatch == 0


def test_bm25_plus_scores_are_normalised_and_rank_the_copy_first():
    chunks = [["golden", "fork", "austin"], ["taco", "patio", "seat"], ["rating", "star"]]
    bm = BM25Plus(chunks)
    scores = bm.scores(["taco", "patio", "seat"])
    assert scores.argmax() == 1
    assert np.all((scores >= 0) & (scores <= 1))
    assert bm.scores(["unknown"]).max() == 0.0
    assert all(v > 0 for v in bm.idf.values())  # BM25+ IDF stays positive with few chunks


def test_tfidf_vocabulary_comes_from_training_text_only():
    train = _corpus("Maria Lopez opened the Golden Fork.")
    test = Corpus("test", {"s2": Source("s2", "Summary", "CNN/DM", "Zebras graze quietly.", "p")},
                  [Response("r2", "s2", "m", 0.5, (), "test", "good", "Zebras graze quietly.")])
    fx = FeatureExtractor().fit(train, progress=False)
    vocab = fx.vectorizer.vocabulary_
    assert "golden" in vocab and "zebras" not in vocab
    fx.transform(test, progress=False)
    assert "zebras" not in fx.vectorizer.vocabulary_


def test_gold_labels_map_to_tokens_and_sentences():
    answer = "Maria Lopez opened it in Austin. It has 150 seats."
    start = answer.index("150")
    corpus = _corpus(answer, [Label(start, start + 3, "150", "Evident Conflict")])
    fx = FeatureExtractor().fit(corpus, progress=False)
    t = fx.transform(corpus, progress=False)
    assert t.sentences.label.tolist() == [0, 1]
    assert t.tokens[t.tokens.label == 1].text.tolist() == ["150"]


def test_feature_groups():
    numeric, categorical = feature_columns(("lexical", "metadata"))
    assert "coverage" in numeric and "temperature" in numeric and "model" in categorical
    assert feature_columns(("coverage_only",)) == (["coverage"], [])
    with pytest.raises(ValueError, match="unknown feature group"):
        feature_columns(("nope",))


def test_transform_requires_fit():
    with pytest.raises(RuntimeError, match="fit"):
        FeatureExtractor().transform(_corpus("x"), progress=False)
