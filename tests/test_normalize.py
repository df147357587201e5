"""`normalize = "collection"` / `"source"` of the fitted sentence detectors: features standardised
within each source collection (or source document), so a shift of a whole domain's (document's)
feature levels does not move its risks."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from evidencechain.config import load_config
from evidencechain.detectors import make_detector
from evidencechain.detectors.supervised import collection_standardised
from evidencechain.errors import ConfigError


def _domain(name: str, n: int, shift: float, seed: int) -> pd.DataFrame:
    """Sentences of one collection: hallucinated ones have lower coverage than the collection's own
    faithful ones, and every value of the collection is offset by `shift`."""
    rng = np.random.default_rng(seed)
    label = np.arange(n) % 3 == 0
    coverage = np.where(label, 0.55, 0.8) + rng.normal(0, 0.05, n) + shift
    return pd.DataFrame({
        "response_id": [f"{name}{i}" for i in range(n)], "sentence_index": 0,
        "coverage": coverage, "best_chunk_overlap": coverage + rng.normal(0, 0.02, n),
        "novel_count": np.where(label, 2, 0) + rng.integers(0, 2, n),
        "bm25_max": rng.uniform(0, 1, n), "tfidf_max": rng.uniform(0, 1, n),
        "numeric_mismatch": 0, "entity_mismatch": 0, "temperature": 0.0,
        "model": "m", "task_type": "Summary", "source_collection": name, "label": label.astype(int),
    })


def test_collection_standardised_is_a_z_score_per_collection():
    frame = pd.DataFrame({"source_collection": ["a", "a", "a", "b", "b", "c"],
                          "x": [1.0, 2.0, 3.0, 10.0, 30.0, 7.0], "y": [5.0, 5.0, 5.0, 0.0, 1.0, 2.0]})
    z = collection_standardised(frame, ["x", "y"])
    assert np.allclose(z["x"], [-1, 0, 1, -np.sqrt(0.5), np.sqrt(0.5), 0])
    assert np.allclose(z["y"][:3], 0) and z.loc[5, "y"] == 0  # constant or single row: centred only
    assert list(z.index) == list(frame.index)
    no_column = collection_standardised(frame.drop(columns="source_collection"), ["x"])
    assert np.isclose(no_column["x"].mean(), 0) and np.isclose(no_column["x"].std(), 1)


@pytest.mark.parametrize("name", ["EvidenceChain_LR", "EvidenceChain_RF"])
def test_normalize_carries_a_rule_across_shifted_collections(name):
    train = pd.concat([_domain("a", 90, 0.0, 1), _domain("b", 90, 0.1, 2)], ignore_index=True)
    shifted = _domain("c", 90, -0.4, 3)  # every coverage below anything the fit saw
    plain = make_detector(name, random_state=17).fit(train)
    norm = make_detector(name, random_state=17, normalize="collection").fit(train)
    y = shifted["label"].to_numpy()
    plain_risk, norm_risk = plain.score_sentences(shifted), norm.score_sentences(shifted)
    accuracy = lambda risk: float(((risk >= 0.5) == y).mean())  # noqa: E731
    assert accuracy(norm_risk) > 0.9 > accuracy(plain_risk)
    again = make_detector(name, random_state=17, normalize="collection").fit(train).score_sentences(shifted)
    assert np.array_equal(norm_risk, again)


def test_normalize_scores_a_collection_from_its_own_rows_only():
    train = pd.concat([_domain("a", 60, 0.0, 1), _domain("b", 60, 0.2, 2)], ignore_index=True)
    det = make_detector("EvidenceChain_LR", normalize="collection").fit(train)
    target, other = _domain("c", 30, 0.0, 3), _domain("d", 30, 0.5, 4)
    alone = det.score_sentences(target)
    together = det.score_sentences(pd.concat([other, target], ignore_index=True))[len(other):]
    assert np.allclose(alone, together)
    assert det.get_params()["normalize"] == "collection"


def test_collection_standardised_by_source_document():
    frame = pd.DataFrame({"source_collection": "a", "source_id": ["d1", "d1", "d2", "d2"],
                          "x": [1.0, 3.0, 10.0, 10.0]})
    z = collection_standardised(frame, ["x"], "source_id")
    assert np.allclose(z["x"], [-np.sqrt(0.5), np.sqrt(0.5), 0, 0])


def test_normalize_source_ranks_answers_against_their_siblings():
    """Every document has its own level of coverage (as summaries of a dialogue and of a news
    article differ); the hallucinated answer is the one below its siblings."""
    rng = np.random.default_rng(5)
    rows = []
    for doc in range(120):
        level = rng.uniform(0.2, 0.9)
        for k in range(4):
            label = int(k == 0)
            rows.append({"response_id": f"r{doc}-{k}", "source_id": f"d{doc}", "sentence_index": 0,
                         "coverage": level - 0.1 * label + rng.normal(0, 0.01), "best_chunk_overlap": 0.5,
                         "novel_count": 1, "bm25_max": 0.5, "tfidf_max": 0.5, "numeric_mismatch": 0,
                         "entity_mismatch": 0, "temperature": 0.0, "model": "m", "task_type": "Summary",
                         "source_collection": "a", "label": label})
    frame = pd.DataFrame(rows)
    train, test = frame.iloc[:240].reset_index(drop=True), frame.iloc[240:].reset_index(drop=True)
    y = test["label"].to_numpy() == 1
    accuracy = lambda risk: float(((risk >= 0.5) == y).mean())  # noqa: E731
    plain = make_detector("EvidenceChain_LR", random_state=17).fit(train).score_sentences(test)
    det = make_detector("EvidenceChain_LR", random_state=17, normalize="source").fit(train)
    by_source = det.score_sentences(test)
    assert accuracy(by_source) > 0.95 > accuracy(plain)
    one_document = test[test["source_id"] == "d70"]
    assert np.allclose(det.score_sentences(one_document), by_source[one_document.index])


def test_normalize_value_is_checked(tmp_path):
    with pytest.raises(ConfigError, match="normalize: expected one of"):
        make_detector("EvidenceChain_RF", normalize="domain")
    config = tmp_path / "c.toml"
    config.write_text('name = "x"\noutput_dir = "out"\n[corpora.a]\nformat = "plain"\npath = "a.jsonl"\n'
                      '[[evaluations]]\nfit = "a"\ntest = ["a"]\n'
                      '[detectors]\nnames = ["EvidenceChain_LR"]\nprimary = "EvidenceChain_LR"\n'
                      '[detectors.params.EvidenceChain_LR]\nnormalize = "domain"\n')
    with pytest.raises(ConfigError, match=r"EvidenceChain_LR normalize: expected one of"):
        load_config(config)
    config.write_text(config.read_text().replace('"domain"', '"collection"'))
    assert load_config(config).detectors.params["EvidenceChain_LR"] == {"normalize": "collection"}
    config.write_text(config.read_text().replace('"collection"', '"source"'))
    assert load_config(config).detectors.params["EvidenceChain_LR"] == {"normalize": "source"}
