"""End-to-end experiment: outputs, determinism, no leakage, cross-corpus, detect, persistence."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from evidencechain import cli
from evidencechain.config import load_config
from evidencechain.data.audit import write_audit_corpus
from evidencechain.data.ragtruth import load_ragtruth
from evidencechain.data.records import Source
from evidencechain.data.splits import split_corpus
from evidencechain.experiment import run_experiment
from evidencechain.features import FeatureExtractor
from evidencechain.model import EvidenceChain

ROOT = Path(__file__).resolve().parents[1]
EXPECTED_CSVS = {
    "split_summary", "task_rates", "generator_rates", "metrics_word", "metrics_sentence",
    "metrics_response", "metrics_span", "metrics_by_task", "ablation", "attribution",
    "coverage_bins", "thresholds", "runtime", "sentences", "tokens", "responses",
}


def _config(corpus_dir: Path, tmp: Path, **data):
    config = load_config(ROOT / "experiments" / "audit.toml")
    config.data.response_jsonl = str(corpus_dir / "response.jsonl")
    config.data.source_info_jsonl = str(corpus_dir / "source_info.jsonl")
    config.cache_dir = str(tmp / "cache")
    for key, value in data.items():
        setattr(config.data, key, value)
    return config


@pytest.fixture(scope="session")
def audit_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("audit")
    write_audit_corpus(out, seed=17)
    return out


@pytest.fixture(scope="session")
def spied_run(audit_dir, tmp_path_factory):
    """One full run with spies on everything that learns from data."""
    tmp = tmp_path_factory.mktemp("run1")
    seen = {"extractor_fit": [], "fit_tables": []}
    original_fit, original_fit_tables = FeatureExtractor.fit, EvidenceChain.fit_tables

    def fit(self, corpus, progress=True):
        seen["extractor_fit"].append({r.source_id for r in corpus.responses})
        return original_fit(self, corpus, progress)

    def fit_tables(self, train, calibration, span_labels=True):
        seen["fit_tables"].append((set(train.sentences.source_id), set(calibration.sentences.source_id)))
        return original_fit_tables(self, train, calibration, span_labels)

    mp = pytest.MonkeyPatch()
    mp.setattr(FeatureExtractor, "fit", fit)
    mp.setattr(EvidenceChain, "fit_tables", fit_tables)
    try:
        out = run_experiment(_config(audit_dir, tmp), tmp / "out", progress=False)
    finally:
        mp.undo()
    return out, seen


def test_run_writes_every_output(spied_run):
    out, _ = spied_run
    names = {p.stem for p in out.glob("*.csv")}
    assert EXPECTED_CSVS <= names
    run = json.loads((out / "run.json").read_text())
    assert run["seed"] == 17 and run["splits"] == {"train": 78, "calibration": 20, "test": 42}
    assert run["inputs"] and all(len(h) == 64 for h in run["inputs"].values())
    assert "spacy_pipeline" in run["components"] and "embedding_model" in run["components"]
    assert (out / "model" / "model.pkl").exists()
    word = pd.read_csv(out / "metrics_word.csv")
    assert list(word.method) == ["Lexical", "BM25", "TFIDF", "NLI_Rules", "EvidenceChain_LR",
                                 "EvidenceChain_RF"]
    assert word.roc_auc.between(0.5, 1.0).all()
    ablation = pd.read_csv(out / "ablation.csv")
    assert ablation.variant.nunique() == 5


def test_no_leakage_between_splits(spied_run, audit_dir):
    _, seen = spied_run
    corpus = load_ragtruth(audit_dir / "response.jsonl", audit_dir / "source_info.jsonl")
    parts = split_corpus(corpus, 0.2, 17)
    train = set(parts["train"].sources)
    calibration = set(parts["calibration"].sources)
    test = set(parts["test"].sources)
    assert train and calibration and test
    assert not (train & calibration) and not (train & test) and not (calibration & test)
    for fitted in seen["extractor_fit"]:
        assert fitted == train  # TF-IDF vocabulary: training text only
    assert seen["fit_tables"]
    for fit_ids, calibration_ids in seen["fit_tables"]:
        assert fit_ids == train
        assert calibration_ids == calibration  # thresholds: calibration subset only


def test_two_runs_give_byte_identical_csvs(spied_run, audit_dir, tmp_path):
    first, _ = spied_run
    second = run_experiment(_config(audit_dir, tmp_path), tmp_path / "out", progress=False)
    csvs = sorted(p.name for p in first.glob("*.csv"))
    assert csvs == sorted(p.name for p in second.glob("*.csv"))
    for name in csvs:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_cross_corpus_fit_on_one_evaluate_on_another(audit_dir, tmp_path):
    other = tmp_path / "other"
    write_audit_corpus(other, seed=18)
    config = _config(audit_dir, tmp_path, test_response_jsonl=str(other / "response.jsonl"),
                     test_source_info_jsonl=str(other / "source_info.jsonl"))
    config.evaluation.ablation = False
    config.detectors.names = ["Lexical", "EvidenceChain_LR"]
    config.detectors.primary = "EvidenceChain_LR"
    out = run_experiment(config, tmp_path / "out", progress=False)
    run = json.loads((out / "run.json").read_text())
    assert str(other / "response.jsonl") in run["inputs"]
    scored = pd.read_csv(out / "responses.csv")
    evaluated = set(scored.source_id)
    corpus = load_ragtruth(other / "response.jsonl", other / "source_info.jsonl")
    assert evaluated == {r.source_id for r in corpus.responses if r.split == "test"}
    assert pd.read_csv(out / "metrics_sentence.csv").roc_auc.min() > 0.6


def test_detect_scores_new_files_with_a_saved_model(spied_run, ragtruth_paths, tmp_path, capsys):
    out, _ = spied_run
    response, source = ragtruth_paths
    code = cli.main(["detect", "--model", str(out / "model"), "--response-jsonl", str(response),
                     "--source-info-jsonl", str(source), "--out", str(tmp_path / "scores"), "-q"])
    assert code == 0
    sentences = pd.read_csv(tmp_path / "scores" / "sentences.csv")
    for column in ("risk_EvidenceChain_RF", "pred_EvidenceChain_RF", "evidence_chunk", "evidence_text"):
        assert column in sentences
    tokens = pd.read_csv(tmp_path / "scores" / "tokens.csv")
    assert tokens.risk_EvidenceChain_RF.between(0, 1).all()


def test_model_with_a_different_feature_set_is_refused(spied_run, tmp_path):
    out, _ = spied_run
    copy = tmp_path / "model"
    shutil.copytree(out / "model", copy)
    meta = json.loads((copy / "model.json").read_text())
    meta["detectors"]["EvidenceChain_RF"]["features"] = ["coverage"]
    (copy / "model.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="refit"):
        EvidenceChain.load(copy)
    meta["feature_schema"] = 999
    (copy / "model.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="feature schema"):
        EvidenceChain.load(copy)
    with pytest.raises(FileNotFoundError):
        EvidenceChain.load(tmp_path / "nowhere")


def test_predict_api_returns_sentences_with_evidence_and_spans(spied_run):
    out, _ = spied_run
    model = EvidenceChain.load(out / "model")
    article = ("The Harbor Museum in Portland was founded by Alice Moreno in 1987.\n\n"
               "It holds 2,400 paintings and draws 90,000 visitors a year.")
    source = Source("new", "Summary", "CNN/DM", article, "Summarise.")
    answer = "The Harbor Museum was founded by Alice Moreno in 1987. It holds 7,100 paintings."
    result = model.predict(answer, source, model="llama-2-7b-chat", temperature=0.9)
    assert [s.text for s in result.sentences] == [
        "The Harbor Museum was founded by Alice Moreno in 1987.", "It holds 7,100 paintings."]
    first, second = result.sentences
    assert first.evidence_chunk == "new#0" and second.evidence_chunk == "new#1"
    assert second.risk > first.risk
    assert any("7,100" in span.text for span in result.spans)
    assert not any("Alice" in span.text for span in result.spans)
