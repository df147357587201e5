"""End-to-end experiment: outputs, determinism, no leakage, cross-corpus, detect, persistence."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from evidencechain import cli
from evidencechain.config import apply_overrides, load_config, revalidate
from evidencechain.data.audit import generate_audit_corpus
from evidencechain.data.ragtruth import load_ragtruth, write_ragtruth
from evidencechain.data.splits import split_corpus
from evidencechain.errors import ConfigError
from evidencechain.model import EvidenceChain
from evidencechain.records import Source
from evidencechain.runner import run

ROOT = Path(__file__).resolve().parents[1]
EXPECTED_CSVS = {
    "split_summary", "task_rates", "generator_rates", "metrics_word", "metrics_sentence",
    "metrics_response", "metrics_span", "metrics_by_task", "ablation", "attribution",
    "coverage_bins", "thresholds", "runtime", "sentences", "tokens", "responses",
    "triplet_verdicts", "no_info_false_positives", "copy_rate",
}


def _config(corpus_dir: Path, tmp: Path, **overrides):
    config = load_config(ROOT / "experiments" / "audit.toml")
    config.cache_dir = str(tmp / "cache")
    return apply_overrides(config, response_jsonl=str(corpus_dir / "response.jsonl"),
                           source_info_jsonl=str(corpus_dir / "source_info.jsonl"), **overrides)


@pytest.fixture(scope="session")
def audit_dir(audit_corpus) -> Path:
    return audit_corpus


@pytest.fixture(scope="session")
def spied_run(audit_run):
    """The session's one full audit run (conftest `audit_run`), with spies on everything that learns."""
    return audit_run


def test_run_writes_every_output(spied_run):
    out, _ = spied_run
    names = {p.stem for p in out.glob("*.csv")}
    assert EXPECTED_CSVS <= names
    run = json.loads((out / "run.json").read_text())
    assert run["seed"] == 17 and run["corpora"]["audit"]["splits"] == {"train": 468, "calibration": 120,
                                                                      "test": 252}
    assert run["inputs"] and all(len(h) == 64 for h in run["inputs"].values())
    assert "spacy_pipeline" in run["components"] and "embedding_model" in run["components"]
    assert (out / "model" / "model.skops").exists()
    word = pd.read_csv(out / "metrics_word.csv")
    assert list(word.method) == ["Lexical", "BM25", "TFIDF", "NLI_Rules", "EvidenceChain_LR",
                                 "EvidenceChain_RF", "EvidenceChain_Token", "RefChecker", "RAGHalu"]
    assert word.roc_auc.between(0.5, 1.0).all()
    ablation = pd.read_csv(out / "ablation.csv")
    assert ablation.variant.nunique() == 5
    families = run["feature_families"]
    assert families["claims"]["state"] == "runs" and families["claims"]["seconds"] > 0
    assert families["sentence"]["state"] == "runs"
    assert families["embedding"]["state"].startswith("not configured") and families["embedding"]["seconds"] == 0


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
    assert seen["fit_detectors"] and seen["calibrate"]
    for fit_ids in seen["fit_detectors"]:
        assert fit_ids == train
    for calibration_ids in seen["calibrate"]:
        assert calibration_ids == calibration  # thresholds: calibration subset only


@pytest.mark.slow
def test_two_runs_give_byte_identical_csvs(spied_run, audit_dir, tmp_path, monkeypatch):
    """The second run parses in one process, the first in two: the same bytes."""
    first, _ = spied_run
    monkeypatch.setenv("EVIDENCECHAIN_WORKERS", "1")
    second = run(_config(audit_dir, tmp_path), tmp_path / "out", progress=False)
    csvs = sorted(p.name for p in first.glob("*.csv"))
    assert csvs == sorted(p.name for p in second.glob("*.csv"))
    for name in csvs:
        if name == "runtime.csv":  # its runtime class is a timing: a loaded machine can cross a bound
            assert pd.read_csv(first / name).drop(columns="runtime_class").equals(
                pd.read_csv(second / name).drop(columns="runtime_class"))
            continue
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def _other_corpus(tmp_path: Path, temperature: float | None = None, model: str | None = None) -> Path:
    other = tmp_path / "other"
    corpus = generate_audit_corpus(seed=18)
    write_ragtruth(corpus.subset(source_ids=set(sorted(corpus.sources)[::3])), other)  # a third: every task
    if temperature is not None or model is not None:
        lines = []
        for line in (other / "response.jsonl").read_text().splitlines():
            row = json.loads(line)
            row["temperature"] = row["temperature"] if temperature is None else temperature
            row["model"] = row["model"] if model is None else model
            lines.append(json.dumps(row))
        (other / "response.jsonl").write_text("\n".join(lines) + "\n")
    return other


@pytest.fixture(scope="session")
def blank_cache(tmp_path_factory) -> Path:
    """One parse cache for the cross-corpus tests (blank pipeline: fast, rule-based entities)."""
    return tmp_path_factory.mktemp("blank_cache")


def _cross_config(audit_dir: Path, other: Path, cache: Path):
    config = _config(audit_dir, cache, test_response_jsonl=str(other / "response.jsonl"),
                     test_source_info_jsonl=str(other / "source_info.jsonl"))
    config.features.pipeline = "blank"
    config.evaluation.ablation = False
    config.detectors.names = ["Lexical", "EvidenceChain_LR"]
    config.detectors.primary = "EvidenceChain_LR"
    return revalidate(config)


def test_cross_corpus_fit_on_one_evaluate_on_another(audit_dir, tmp_path, blank_cache):
    other = _other_corpus(tmp_path)
    out = run(_cross_config(audit_dir, other, blank_cache), tmp_path / "out", progress=False)
    run_json = json.loads((out / "run.json").read_text())
    assert str(other / "response.jsonl") in run_json["inputs"]
    scored = pd.read_csv(out / "responses.csv")
    corpus = load_ragtruth(other / "response.jsonl", other / "source_info.jsonl")
    assert set(scored.response_id) == {r.id for r in corpus.responses}  # every answer of a test-only corpus
    assert pd.read_csv(out / "metrics_sentence.csv").roc_auc.min() > 0.6
    # each dataset table names the corpus it describes (not the fit corpus's statistics as the test's)
    split = pd.read_csv(out / "split_summary.csv").set_index("split")
    assert split.loc["train", "corpus"] == "audit" and split.loc["test", "corpus"] == "test"
    assert split.loc["test", "responses"] == len(corpus.responses)
    assert set(pd.read_csv(out / "task_rates.csv")["corpus"]) == {"test"}
    assert set(pd.read_csv(out / "generator_rates.csv")["corpus"]) == {"test"}
    assert run_json["test_corpus"] == "test" and run_json["details_unit"] == "audit -> test"


def test_cross_corpus_units_drop_metadata_and_report_shift(audit_dir, tmp_path, blank_cache):
    """A temperature of 0.0 against a training mean of 0.85 and an unseen generator label used to
    push EvidenceChain_LR silently; metadata is now off across corpora and any shift is reported."""
    other = _other_corpus(tmp_path, temperature=0.0, model="unseen-generator")
    out = run(_cross_config(audit_dir, other, blank_cache), tmp_path / "out", progress=False)
    units = pd.read_csv(out / "units.csv")
    assert not units["metadata_features"].any()
    model = json.loads((out / "model" / "model.json").read_text())
    assert "temperature" not in model["detectors"]["EvidenceChain_LR"]["features"]
    config = _cross_config(audit_dir, other, blank_cache)
    config.evaluation.cross_corpus_metadata = True
    out = run(revalidate(config), tmp_path / "kept", progress=False)
    shift = pd.read_csv(out / "feature_shift.csv").set_index("feature")
    assert shift.loc["temperature", "share"] == 1.0
    assert shift.loc["model", "share"] == 1.0 and "unseen-generator" in shift.loc["model", "detail"]
    assert any("temperature" in line for line in json.loads((out / "run.json").read_text())
               ["feature_shift"]["audit -> test"])


def test_flagged_share_is_reported_beside_every_threshold(spied_run):
    out, _ = spied_run
    metrics = pd.read_csv(out / "metrics.csv")
    detectors = metrics[metrics["family"].isin(["supervised", "unsupervised"]) & (metrics["level"] != "span")]
    assert len(detectors) == 9 * 3
    assert detectors["flagged_share"].between(0, 1).all()
    assert detectors["flagged_share_calibration"].between(0, 1).all()


def test_configuration_errors_come_before_any_work(tmp_path):
    base = (ROOT / "experiments" / "audit.toml").read_text()
    cases = {
        'response_aggregation = "max"': ('response_aggregation = "median"', "did you mean"),
        "seed = 17": ('seed = "17"', "expected int"),
        "bm25_k1 = 1.5": ('bm25_k1 = "1.5"', "bm25_k1"),
        "ablation = true": ('ablation = "no"', "expected bool"),
        "n_estimators = 300": ("n_estimatorz = 300", "did you mean 'n_estimators'"),
        '"EvidenceChain_Token",': ('"EvidenceChain_Tokn",', "did you mean 'EvidenceChain_Token'"),
    }
    for old, (new, message) in cases.items():
        path = tmp_path / "bad.toml"
        path.write_text(base.replace(old, new, 1))
        with pytest.raises(ConfigError, match=message) as info:
            load_config(path)
        assert str(path) in str(info.value)
    with pytest.raises(ConfigError, match="response_aggregation"):
        EvidenceChain(response_aggregation="median")


def test_auto_aggregation_is_part_of_the_model(spied_run, audit_dir):
    corpus = load_ragtruth(audit_dir / "response.jsonl", audit_dir / "source_info.jsonl")
    parts = split_corpus(corpus, 0.2, 17)
    model = EvidenceChain(("Lexical", "EvidenceChain_LR"), "EvidenceChain_LR", response_aggregation="auto")
    model.fit(parts["train"], parts["calibration"], progress=False)
    assert set(model.aggregations) == {"Lexical", "EvidenceChain_LR"}
    assert set(model.aggregations.values()) <= {"max", "mean", "noisy_or"}
    scored = model.score(parts["test"], progress=False)
    assert scored.responses["risk_Lexical"].between(0, 1).all()


def test_test_files_replace_the_scored_corpus_of_any_config(tmp_path):
    config = load_config(ROOT / "experiments" / "halueval.toml")
    fixture = ROOT / "tests" / "fixtures" / "ragtruth" / "valid"
    config = apply_overrides(config, test_response_jsonl=str(fixture / "response.jsonl"),
                             test_source_info_jsonl=str(fixture / "source_info.jsonl"))
    assert all(e.test == ["test"] for e in config.evaluations)
    assert config.corpora["test"].test_only


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
    with pytest.raises(Exception, match="refit"):
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
    assert first.evidence.chunk == 0 and second.evidence.chunk == 1
    assert second.risk > first.risk
    assert any("7,100" in span.text for span in result.spans)
    assert not any("Alice" in span.text for span in result.spans)
