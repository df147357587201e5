"""RefChecker- and RAGHalu-style detectors in the framework: rule choice on calibration, pooling
over an answer's triplets, tier-1 filtering, and the claim evaluation tables."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from evidencechain.detectors import make_detector
from evidencechain.evaluate import no_info_table, triplet_verdict_table
from evidencechain.plan import unit_detectors
from evidencechain.records import Corpus, Label, Response, SentenceGold, Source


def _counts(rows):
    """Sentences of answers: (response_id, entailment, neutral, contradiction)."""
    frame = pd.DataFrame(rows, columns=["response_id", "n_entailment", "n_neutral", "n_contradiction"])
    frame["n_triplets"] = frame[["n_entailment", "n_neutral", "n_contradiction"]].sum(axis=1)
    frame["sentence_index"] = frame.groupby("response_id").cumcount()
    return frame


def test_refchecker_pools_every_triplet_of_an_answer():
    det = make_detector("RefChecker", rule="ratio")
    s = _counts([("a", 2, 0, 0), ("a", 0, 1, 1), ("b", 0, 0, 0)])
    assert det.score_sentences(s).tolist() == [0.0, 0.75, 0.0]
    pooled = det.score_responses(s)
    assert pooled["a"] == pytest.approx((1 + 2 * 1) / (2 * 4)) and pooled["b"] == 0.0   # not max of sentences
    assert make_detector("RefChecker", rule="strict").score_responses(s)["a"] == 1.0


def test_refchecker_chooses_its_rule_on_calibration():
    # hallucinated answers have a single neutral triplet among many entailed ones; faithful ones
    # have none: 'majority' (needs N + C > E) ranks them like 'ratio', 'strict' too; the first wins
    s = _counts([("h1", 5, 1, 0), ("h2", 6, 1, 0), ("f1", 3, 0, 0), ("f2", 7, 0, 0)])
    labels = pd.Series([1, 1, 0, 0], index=["h1", "h2", "f1", "f2"])
    det = make_detector("RefChecker").calibrate(s, labels)
    assert det.chosen == "strict"
    # contradictions in faithful answers, neutral doubts in hallucinated ones: strict ranks wrongly
    s = _counts([("h1", 0, 3, 0), ("h2", 1, 3, 0), ("f1", 5, 0, 1), ("f2", 6, 0, 1)])
    det = make_detector("RefChecker").calibrate(s, labels)
    assert det.chosen == "ratio" and "ratio" in det.pooling()      # ties with majority: the first wins
    with pytest.raises(ValueError, match="rule"):
        make_detector("RefChecker", rule="vote")


def _tier_sentences():
    texts = ["Let me know if you need anything else.", "I hope this helps!", "Sure, here is what I found.",
             "Would you like more detail?", "Great question!", "Happy to help with anything else.",
             "The bridge opened in 1932.", "It has 12 lanes and a toll.", "The museum holds 3,000 paintings.",
             "Paris is the capital of France.", "The store closes at 9 pm.", "He founded the firm in 1990."]
    no_info = [1] * 6 + [0] * 6
    label = [0] * 6 + [0, 1, 0, 1, 0, 1]
    rng = np.random.default_rng(0)
    return pd.DataFrame({"response_id": [f"r{i // 2}" for i in range(12)], "sentence_index": [i % 2 for i in range(12)],
                         "text": texts, "no_info_gold": no_info, "label": label,
                         "coverage": np.where(label, 0.3, 0.95) + rng.normal(0, 0.01, 12),
                         "best_chunk_overlap": np.where(label, 0.2, 0.9), "novel_count": np.array(label) * 3,
                         "bm25_max": 0.5, "tfidf_max": 0.4, "numeric_mismatch": label, "entity_mismatch": 0})


def test_raghalu_never_flags_no_info_sentences():
    s = _tier_sentences()
    det = make_detector("RAGHalu", random_state=17).fit(s)
    risk = det.score_sentences(s)
    tiers = det.sentence_columns(s)["tier"]
    assert (risk[tiers == "NO-INFO"] == 0).all()
    assert (tiers[:6] == "NO-INFO").sum() >= 5 and (tiers[6:] == "VERIFIABLE").all()
    without = s.assign(no_info_gold=0)
    with pytest.raises(ValueError, match="NO-INFO"):
        make_detector("RAGHalu").fit(without)


def _corpus(tier: str):
    src = Source("s1", "QA", "MARCO", "The bridge opened in 1932.", "When did the bridge open?")
    text = "Sure! The bridge opened in 1931."
    gold = (SentenceGold(0, 5, None, True, tier=tier), SentenceGold(6, 32, None, False))
    r = Response("r1", "s1", "m", 0.0, (Label(27, 31, "1931", "Evident Conflict"),), "train", "good", text, gold)
    return Corpus("toy", {"s1": src}, [r])


def test_runner_skips_raghalu_without_tier_labels_and_says_why():
    from evidencechain.config import config_from_dict

    config = config_from_dict({"name": "t", "corpora": {"toy": {"format": "plain", "path": "x.jsonl"}},
                               "evaluations": [{"fit": "toy", "test": ["toy"]}],
                               "detectors": {"names": ["Lexical", "RAGHalu"], "primary": "Lexical"}})
    names, _, dropped = unit_detectors(config, _corpus("verifiable"))
    assert names == ("Lexical",) and any("RAGHalu" in d and "NO-INFO" in d for d in dropped)
    names, _, _ = unit_detectors(config, _corpus("no_info"))
    assert names == ("Lexical", "RAGHalu")


def test_triplet_gold_comes_from_the_spans_and_no_info_rates_from_decisions():
    corpus = _corpus("no_info")
    claims = pd.DataFrame({"response_id": ["r1", "r1"], "start": [6, 6], "end": [20, 32],
                           "verdict": ["Entailment", "Contradiction"]})
    table = triplet_verdict_table(claims, corpus)
    assert table.to_dict("records") == [
        {"checker": "rules", "gold": "Contradiction", "predicted": "Contradiction", "triplets": 1},
        {"checker": "rules", "gold": "Entailment", "predicted": "Entailment", "triplets": 1}]
    with_checker = triplet_verdict_table(claims.assign(verdict_checker=["Neutral", "Contradiction"]), corpus)
    assert list(with_checker["checker"]) == ["rules", "rules", "learned checker", "learned checker"]
    assert with_checker.iloc[2:].to_dict("records") == [
        {"checker": "learned checker", "gold": "Contradiction", "predicted": "Contradiction", "triplets": 1},
        {"checker": "learned checker", "gold": "Entailment", "predicted": "Neutral", "triplets": 1}]
    scored = type("S", (), {})()
    scored.sentences = pd.DataFrame({"no_info_gold": [1, 0, 1], "label": [0, 1, 0],
                                     "pred_A": [1, 1, 0], "pred_B": [0, 1, 0]})
    rates = no_info_table(scored, ["A", "B"]).set_index("method")
    assert rates.loc["A", "false_positive_rate"] == 0.5 and rates.loc["B", "flagged"] == 0
    assert (rates["basis"] == "gold tier").all() and (rates["sentences"] == 2).all()
