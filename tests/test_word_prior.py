"""The 'word_prior' feature family: learned log-odds of words absent from the evidence."""
from __future__ import annotations

import pytest

from evidencechain.features import FeatureConfig, FeatureExtractor
from evidencechain.features.word_prior import (
    FOLDS,
    MIN_COUNT,
    fit_counts,
    fold_of,
    log_odds,
    novel_lemmas,
)
from evidencechain.records import Corpus, Response, Source
from evidencechain.text.parse import parse_texts

EVIDENCE = "The council approved the new budget on Monday after a long debate."


def test_novel_lemmas_are_the_content_words_the_evidence_lacks():
    ev, doc = parse_texts([EVIDENCE, "The council rejected the budget in 2020."], progress=False)
    vocab = frozenset(ev.lower) | frozenset(ev.lemma)
    assert novel_lemmas(doc, vocab) == ["reject"]  # the number is left to the numeric features


def test_a_word_of_hallucinated_answers_gets_positive_log_odds_and_a_rare_one_none():
    words = [["reject"]] * 4 + [["discuss"]] * 4 + [["rare"]] * (MIN_COUNT - 1) + [[]] * 4
    labels = [1] * 4 + [0] * 4 + [1] * (MIN_COUNT - 1) + [0] * 4
    counts = fit_counts(words, labels, [k % FOLDS for k in range(len(words))])
    assert log_odds(counts, ["reject"])[0] > 0 > log_odds(counts, ["discuss"])[0]
    assert log_odds(counts, ["rare"]) == (0.0, 0.0)
    both = log_odds(counts, ["reject", "discuss"])
    assert both[0] == pytest.approx(log_odds(counts, ["reject"])[0] + log_odds(counts, ["discuss"])[0])
    assert both[1] == pytest.approx(log_odds(counts, ["reject"])[0])


def test_a_fold_left_out_loses_its_own_counts():
    words, labels, folds = [["reject"]] * 3, [1, 1, 1], [0, 1, 2]
    counts = fit_counts(words + [[]] * 3, labels + [0] * 3, folds + [0, 1, 2])
    assert log_odds(counts, ["reject"])[0] > 0
    assert log_odds(counts, ["reject"], fold=0) == (0.0, 0.0)  # 2 answers left: under MIN_COUNT


def _corpus(name: str, answers: list[tuple[str, bool]]) -> Corpus:
    sources = {f"s{k}": Source(f"s{k}", "Summary", "toy", EVIDENCE, "Summarise.") for k in range(len(answers))}
    responses = [Response(f"{name}{k}", f"s{k}", "m", 0.0, (), "train", "good", text, response_label=int(bad))
                 for k, (text, bad) in enumerate(answers)]
    return Corpus(name, sources, responses)


def test_the_family_cross_fits_training_answers_and_scores_new_ones_with_every_count():
    train = _corpus("t", [("The council rejected the budget.", True)] * 6 +
                    [("The council discussed the budget.", False)] * 6)
    fx = FeatureExtractor(FeatureConfig(families=("word_prior",))).fit(train, progress=False)
    assert fx.family_plan()["word_prior"] == "runs"
    fitted = fx.transform(train, progress=False).sentences
    new = fx.transform(_corpus("n", [("The council rejected the budget.", True)]), progress=False).sentences
    full = log_odds(fx.word_prior["counts"], ["reject"])[0]
    assert new["word_prior_sum"].iloc[0] == pytest.approx(full) and full > 0
    own = fitted[fitted.response_id == "t0"]["word_prior_sum"].iloc[0]
    assert own == pytest.approx(log_odds(fx.word_prior["counts"], ["reject"], fold_of("s0"))[0])
    refit = FeatureExtractor(FeatureConfig(families=("word_prior",))).fit(
        _corpus("t", [("The council rejected the budget.", False)] * 6 +
                [("The council discussed the budget.", True)] * 6), progress=False)
    tables = fx.transform(_corpus("n", [("The council rejected the budget.", True)]), progress=False)
    refit.refit_columns(tables)
    assert tables.sentences["word_prior_sum"].iloc[0] < 0  # the other fit's counts, from the saved words


def test_the_family_is_off_unless_asked_for():
    corpus = _corpus("t", [("The council rejected the budget.", True), ("The council met.", False)])
    fx = FeatureExtractor(FeatureConfig()).fit(corpus, progress=False)
    assert fx.family_plan()["word_prior"] != "runs"
    assert "word_prior_sum" not in fx.transform(corpus, progress=False).sentences.columns
