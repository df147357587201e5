"""The benchmark configs: valid as shipped, and each runs end to end on a small slice of the real
data (blank spaCy pipeline, few records) with its report table beside the published rows."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from evidencechain.config import load_config, revalidate
from evidencechain.data.audit import generate_audit_corpus
from evidencechain.data.ragtruth import write_ragtruth
from evidencechain.errors import ConfigError
from evidencechain.report import build_benchmark_report
from evidencechain.runner import run

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
CONFIGS = sorted(p for p in (ROOT / "experiments").glob("*.toml") if not p.name.startswith("checker"))
CHECKER_CONFIGS = sorted((ROOT / "experiments").glob("checker*.toml"))  # their own schema


def _need(*names: str) -> None:
    missing = [n for n in names if not (SHARED / n).is_dir()]
    if missing:
        pytest.skip(f"real data absent: {', '.join(str(SHARED / n) for n in missing)}")


@pytest.mark.parametrize("path", CONFIGS, ids=[p.stem for p in CONFIGS])
def test_every_shipped_config_is_valid(path):
    config = load_config(path)
    assert config.evaluations and config.corpora


@pytest.mark.parametrize("path", CHECKER_CONFIGS, ids=[p.stem for p in CHECKER_CONFIGS])
def test_every_shipped_checker_config_is_valid(path):
    from evidencechain.checker.config import load_checker_config

    config = load_checker_config(path)
    assert config.data.recipe and config.output_dir


@pytest.fixture(scope="module")
def audit_dir(tmp_path_factory) -> Path:
    """A third of the audit corpus's sources (every task): the fit corpus of the cut-down configs."""
    out = tmp_path_factory.mktemp("audit")
    audit = generate_audit_corpus(17)
    write_ragtruth(audit.subset(source_ids=set(sorted(audit.sources)[::3])), out)
    return out


def _small(name: str, audit_dir: Path, tmp: Path, limit: int = 40):
    """A benchmark config cut down for a test: blank pipeline, small forests, few records."""
    config = load_config(ROOT / "experiments" / f"{name}.toml")
    config.cache_dir = str(tmp / "cache")
    config.features.pipeline = "blank"
    config.features.checker = None  # the same runs whether or not `make checker` has run here
    for corpus in config.corpora.values():
        if corpus.format == "ragtruth" and "audit" in corpus.response_jsonl:
            corpus.response_jsonl = str(audit_dir / "response.jsonl")
            corpus.source_info_jsonl = str(audit_dir / "source_info.jsonl")
        for key in ("response_jsonl", "source_info_jsonl", "path"):
            value = getattr(corpus, key)
            if value.startswith("../shared/"):
                setattr(corpus, key, str(ROOT.parent / value[3:]))
        if corpus.format in ("halueval", "summedits"):
            corpus.limit = limit
    config.detectors.params.setdefault("EvidenceChain_RF", {}).update(n_estimators=20, n_jobs=1)
    config.evaluation.ablation = False
    return revalidate(config)


def _report(out: Path, tmp: Path) -> dict[str, pd.DataFrame]:
    build_benchmark_report(out, tmp / "tables", tmp / "figures", log=None)
    return {p.stem: pd.read_csv(p) for p in (tmp / "tables").glob("*.csv")}


def test_ragtruth_qa_is_scored_once_with_thresholds_from_elsewhere(audit_dir, tmp_path):
    _need("ragtruth_qa", "halueval")
    out = run(_small("ragtruth_qa", audit_dir, tmp_path), tmp_path / "out", progress=False)
    units = pd.read_csv(out / "units.csv").set_index("fit")
    assert set(units["test"]) == {"ragtruth_qa"} and (units["calibrated_on"] == units.index).all()
    assert (units["test_answers"] == 437).all()
    metrics = pd.read_csv(out / "metrics.csv")
    audit = metrics[metrics["fit"] == "audit"]
    assert {"response", "sentence", "word", "span"} <= set(audit["level"])
    assert set(metrics[metrics["fit"] == "halueval_qa"]["level"]) == {"response"}  # no word threshold
    assert "response-level labels only" in units.loc["halueval_qa", "skipped"]
    floor = audit[(audit["level"] == "response") & (audit["family"] == "floor")]
    assert floor["f1"].round(3).tolist() == [0.286]  # 73 of 437 hallucinated, as the data's README says
    table = _report(out, tmp_path)["ragtruth_qa"]
    assert "LettuceDetect-large (ModernBERT), published" in set(table["method"])


def test_summedits_follows_the_paper_protocol(audit_dir, tmp_path):
    _need("summedits", "halueval")
    out = run(_small("summedits", audit_dir, tmp_path, limit=12), tmp_path / "out", progress=False)
    metrics = pd.read_csv(out / "metrics.csv", keep_default_na=False, na_values=[""])
    response = metrics[metrics["level"] == "response"]
    assert set(response["level"]) == {"response"} and len(set(response["subset"])) == 8
    lodo = response[response["unit"].str.contains(r"\[-")]
    assert len(set(lodo["unit"])) == 8
    for unit in set(lodo["unit"]):
        held = unit.split("[-")[1].split("]")[0]
        assert unit.endswith(f"summedits[{held}]")
    run_json = json.loads((out / "run.json").read_text())
    assert all(u["threshold_metric"] == "balanced_accuracy" for u in run_json["units"])
    table = _report(out, tmp_path)["summedits"]
    assert {"QAFactEval", "GPT-4"} <= set(table["method"])
    ours = table[table["fitted_on"] == "summedits (leave-one-domain-out)"]
    assert ours["mean"].between(0, 1).all()


def test_cliff_thresholds_on_val_scored_on_test(audit_dir, tmp_path):
    _need("cliff", "halueval")
    config = _small("cliff", audit_dir, tmp_path)
    config.evaluations = config.evaluations[:1]
    out = run(revalidate(config), tmp_path / "out", progress=False)
    units = pd.read_csv(out / "units.csv")
    assert units["calibration_answers"].tolist() == [300] and units["test_answers"].tolist() == [300]
    metrics = pd.read_csv(out / "metrics.csv")
    assert {"response", "word", "span"} <= set(metrics["level"])
    table = _report(out, tmp_path)["cliff"]
    assert table["word_f1"].dropna().between(0, 1).all()


def test_test_only_corpus_can_never_be_fitted_or_calibrated_on(tmp_path):
    text = (ROOT / "experiments" / "ragtruth_qa.toml").read_text()
    path = tmp_path / "leak.toml"
    path.write_text(text.replace('fit = "audit"', 'fit = "ragtruth_qa"', 1))
    with pytest.raises(ConfigError, match="test_only"):
        load_config(path)
