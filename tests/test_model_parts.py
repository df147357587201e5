"""EvidenceChain assembled from parts (`from_parts`, `calibrate`, `score_tables`, `risk_tables`)
gives what `fit` gives, and `EvidenceChain.predict` returns the same result type as `Detector`."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from evidencechain import DetectionResult, Detector
from evidencechain.data.ragtruth import load_ragtruth
from evidencechain.detect.inputs import records_to_corpus
from evidencechain.errors import ConfigError
from evidencechain.features import FeatureConfig
from evidencechain.model import EvidenceChain

VALID = Path(__file__).parent / "fixtures" / "ragtruth" / "valid"
NAMES = ("Lexical", "EvidenceChain_LR")


@pytest.fixture(scope="module")
def fitted():
    corpus = load_ragtruth(VALID / "response.jsonl", VALID / "source_info.jsonl")
    model = EvidenceChain(NAMES, "EvidenceChain_LR", FeatureConfig(pipeline="blank")).fit(corpus, corpus,
                                                                                          progress=False)
    return model, corpus, model.transform(corpus, progress=False)


def test_a_model_from_parts_matches_the_fitted_one(fitted):
    model, _, tables = fitted
    settings = dict(primary="EvidenceChain_LR", features=model.features)
    fresh = EvidenceChain.from_parts(model.extractor, detectors=NAMES, **settings).fit_tables(tables, tables)
    assert fresh.thresholds == model.thresholds
    reused = EvidenceChain.from_parts(model.extractor, model.detectors, **settings)
    assert reused.detectors == model.detectors and reused.detectors is not model.detectors
    reused.calibrate(tables)
    assert reused.thresholds == model.thresholds and reused.span_rules == model.span_rules
    for name in NAMES:
        a, b = reused.score_tables(tables), model.score_tables(tables)
        assert np.array_equal(a.sentences[f"pred_{name}"], b.sentences[f"pred_{name}"])
        assert np.allclose(a.responses[f"risk_{name}"], b.responses[f"risk_{name}"])


def test_risk_tables_have_risks_but_no_decisions_and_no_evidence(fitted):
    model, _, tables = fitted
    risks = model.risk_tables(tables)
    assert "risk_Lexical" in risks.sentences and "pred_Lexical" not in risks.sentences
    plain = model.score_tables(tables, evidence=False)
    assert "pred_Lexical" in plain.sentences and "evidence_chunk" not in plain.sentences
    assert "evidence_chunk" in model.score_tables(tables).sentences


def test_from_parts_refuses_detectors_that_do_not_match_the_names(fitted):
    model, _, _ = fitted
    with pytest.raises(ConfigError, match="do not match"):
        EvidenceChain.from_parts(model.extractor, model.detectors, detectors=("Lexical",), primary="Lexical")
    with pytest.raises(ConfigError, match="FeatureExtractor"):
        EvidenceChain.from_parts(object(), detectors=NAMES, primary="EvidenceChain_LR")


def test_predict_returns_the_detector_result(fitted):
    model, _, _ = fitted
    record = {"context": ["The museum opened in 1987 in Portland.", "It holds 2,400 paintings."],
              "question": "When did the museum open?", "answer": "The museum opened in 1991. It holds 2,400 paintings."}
    corpus, _ = records_to_corpus([record])
    own = model.predict(record["answer"], corpus.sources["src-1"])
    via = Detector(model).predict(**record)
    assert isinstance(own, DetectionResult) and type(via) is type(own)
    assert own.detector == via.detector == model.primary and own.sentences
    same = {k: v for k, v in own.to_dict().items() if k not in ("id", "model")}
    assert same == {k: v for k, v in via.to_dict().items() if k not in ("id", "model")}
