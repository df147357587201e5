"""Detector interface, thresholds, word-level mapping, aggregation and metrics."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from evidencechain.aggregate import response_risk
from evidencechain.detectors import DETECTORS, make_detector, max_f1_threshold
from evidencechain.features import FeatureTables
from evidencechain.metrics import binary_metrics
from evidencechain.wordlevel import FLOOR, token_risk


def _sentences(n: int = 60, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    label = np.arange(n) % 3 == 0
    return pd.DataFrame({
        "response_id": [f"r{i // 2}" for i in range(n)],
        "sentence_index": [i % 2 for i in range(n)],
        "coverage": np.where(label, rng.uniform(0.3, 0.7, n), rng.uniform(0.7, 1.0, n)),
        "best_chunk_overlap": rng.uniform(0, 1, n),
        "novel_count": np.where(label, 2, 0),
        "bm25_max": np.where(label, rng.uniform(0, 0.4, n), rng.uniform(0.5, 1, n)),
        "tfidf_max": np.where(label, 0.3, 0.8),
        "numeric_mismatch": label.astype(int),
        "entity_mismatch": 0,
        "n_tokens": 12,
        "temperature": 0.7,
        "model": ["gpt-4-0613", "llama-2-7b-chat"] * (n // 2),
        "task_type": "QA",
        "source_collection": "MARCO",
        "label": label.astype(int),
    })


@pytest.mark.parametrize("name", sorted(n for n, c in DETECTORS.items() if c.tags()["level"] == "sentence"))
def test_every_sentence_detector_has_the_same_interface(name):
    s = _sentences()
    tokens = pd.DataFrame({"response_id": ["r0"] * 3, "sentence_index": [0, 0, 0],
                           "novelty": [0, 1, 0], "number_absent": [0, 1, 0], "is_stop": [1, 0, 0],
                           "entity_absent": [0, 0, 0], "is_punct": [0, 0, 1], "label": [0, 1, 0]})
    det = make_detector(name, random_state=3)
    tags = det.tags()
    if tags["needs_checker"]:  # the learned checker's columns, here a stand-in that tracks coverage
        s = s.assign(nli_support=s["coverage"], nli_conflict=0.0, nli_baseless=1 - s["coverage"],
                     nli_conflict_max=0.0)
        tokens = tokens.assign(nli_token=[0.1, 0.9, 0.0])
    if tags["needs_claims"]:  # triplet verdict counts: one Contradiction in every labelled sentence
        lab = s["label"].to_numpy()
        s = s.assign(n_triplets=2, n_entailment=2 - lab, n_neutral=0, n_contradiction=lab,
                     n_triplets_checker=2, n_entailment_checker=2 - lab, n_neutral_checker=lab,
                     n_contradiction_checker=0)
        tokens = tokens.assign(triplet_verdict=[0, 2, 0], triplet_verdict_checker=[0, 1, 0])
    if tags["needs_tiers"]:  # tier-1 gold: small talk is NO-INFO, every other sentence VERIFIABLE
        chat = np.arange(len(s)) % 5 == 4
        s = s.assign(text=np.where(chat, "Let me know if you need anything else!",
                                   "The bridge opened in 1932 with 40 lanes."),
                     no_info_gold=chat.astype(int), label=np.where(chat, 0, s["label"]))
    det = det.fit(FeatureTables(s, tokens))
    risk = det.score_sentences(s)
    assert risk.shape == (len(s),)
    assert np.all((risk >= 0) & (risk <= 1))
    assert binary_metrics(s.label, risk, 0.5)["roc_auc"] > 0.8
    token_risk = det.score_tokens(tokens, s, risk)
    assert token_risk.shape == (3,) and np.all((token_risk >= 0) & (token_risk <= 1))


def test_supervised_detectors_are_seeded():
    s = _sentences()
    a = make_detector("EvidenceChain_RF", random_state=5).fit(s).score_sentences(s)
    b = make_detector("EvidenceChain_RF", random_state=5).fit(s).score_sentences(s)
    assert np.array_equal(a, b)


def test_supervised_detector_errors_are_clear():
    s = _sentences()
    with pytest.raises(ValueError, match="single class"):
        make_detector("EvidenceChain_LR").fit(s.assign(label=0))
    det = make_detector("EvidenceChain_LR").fit(s)
    with pytest.raises(ValueError, match="lacks feature column"):
        det.score_sentences(s.drop(columns=["tfidf_max"]))
    with pytest.raises(ValueError, match="unknown detector"):
        make_detector("GPT-judge")


def test_max_f1_threshold():
    y = np.array([0, 0, 1, 1, 0, 1])
    s = np.array([0.1, 0.2, 0.8, 0.9, 0.3, 0.7])
    assert max_f1_threshold(y, s) == 0.7
    # no positives in calibration: nothing is flagged
    t = max_f1_threshold(np.zeros(3), np.array([0.2, 0.5, 0.9]))
    assert t > 0.9
    # ties in score are never split
    assert max_f1_threshold(np.array([1, 0, 1]), np.array([0.5, 0.5, 0.9])) in (0.5, 0.9)


def test_token_risk_keeps_supported_words_low():
    sentences = pd.DataFrame({"response_id": ["r", "r"], "sentence_index": [0, 1]})
    # sentence 0: supported, supported, novel, stop word, absent number | sentence 1: novel
    tokens = pd.DataFrame({"response_id": ["r"] * 6, "sentence_index": [0, 0, 0, 0, 0, 1],
                           "novelty": [0, 0, 1, 0, 1, 1], "number_absent": [0, 0, 0, 0, 1, 0],
                           "entity_absent": [0, 0, 0, 0, 0, 0], "is_punct": [0, 0, 0, 0, 0, 0]})
    risk = token_risk(tokens, sentences, np.array([0.9, 0.1]))
    assert risk[0] == pytest.approx(0.9 * FLOOR)  # far from any unsupported word
    assert risk[4] > risk[2] > risk[3] > risk[1] > risk[0]  # number > novel > between > next to
    assert risk[5] < risk[2]  # same evidence, lower sentence risk


def test_response_aggregation():
    s = pd.DataFrame({"response_id": ["a", "a", "b"]})
    r = np.array([0.5, 0.5, 0.2])
    assert response_risk(s, r, "max").tolist() == [0.5, 0.2]
    assert response_risk(s, r, "mean").tolist() == [0.5, 0.2]
    assert response_risk(s, r, "noisy_or").tolist() == pytest.approx([0.75, 0.2])
    with pytest.raises(ValueError):
        response_risk(s, r, "median")


def test_binary_metrics_by_hand():
    m = binary_metrics([1, 1, 0, 0], [0.9, 0.4, 0.6, 0.1], 0.5)
    assert (m["precision"], m["recall"], m["accuracy"]) == (0.5, 0.5, 0.5)
    assert m["roc_auc"] == 0.75
    assert np.isnan(binary_metrics([0, 0], [0.1, 0.2], 0.5)["roc_auc"])
