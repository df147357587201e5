"""HaluEval adapter (fixture and real files) and the HaluEval experiment end to end."""
from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from evidencechain.config import config_from_dict
from evidencechain.data.halueval import SUBSETS, halueval_available, load_halueval_corpus
from evidencechain.data.load import load_split_corpus
from evidencechain.data.ragtruth import DataValidationError
from evidencechain.data.splits import assign_splits
from evidencechain.report.benchmarks import benchmark_figures, benchmark_tables
from evidencechain.report.render import write_table
from evidencechain.report.runs import load_run
from evidencechain.runner import run
from evidencechain.text.chunks import build_evidence

FIXTURE = Path(__file__).parent / "fixtures" / "halueval"
RAGTRUTH_VALID = Path(__file__).parent / "fixtures" / "ragtruth" / "valid"
ROOT = Path(__file__).resolve().parents[1]
PAPER, FIGURES = ROOT / "paper", ROOT / "figures"
REAL = ROOT / ".." / "shared" / "data" / "halueval"
_skip_real = pytest.mark.skipif(
    not halueval_available(REAL),
    reason=f"HaluEval data not found at {REAL.resolve()} (needs {{qa,dialogue,summarization}}_data.jsonl.gz)")


def needs_real(test):
    return pytest.mark.halueval(_skip_real(test))


def _copy(tmp_path: Path, gz: bool = True) -> Path:
    out = tmp_path / "halueval"
    out.mkdir()
    for s in SUBSETS:
        src = FIXTURE / f"{s}_data.jsonl"
        if gz:
            with open(src, "rb") as fin, gzip.open(out / f"{s}_data.jsonl.gz", "wb") as fout:
                shutil.copyfileobj(fin, fout)
        else:
            shutil.copy(src, out / f"{s}_data.jsonl")
    return out


def _rows(subset: str) -> list[dict]:
    return [json.loads(line) for line in (FIXTURE / f"{subset}_data.jsonl").read_text("utf-8").splitlines()]


# -- adapter on the fixture -------------------------------------------------------------------


def test_fixture_corpus_shape():
    corpus = load_halueval_corpus(FIXTURE)
    assert corpus.span_labels is False
    assert len(corpus.sources) == 31 and len(corpus.responses) == 62
    tasks = {s.task_type for s in corpus.sources.values()}
    assert tasks == {"QA", "Dialogue", "Summary"}
    assert {s.source for s in corpus.sources.values()} == {
        "HaluEval-QA", "HaluEval-Dialogue", "HaluEval-Summarization"}
    for r in corpus.responses:
        assert r.labels == ()  # no invented spans
        assert r.response_label in (0, 1)
        assert r.hallucinated == bool(r.response_label)
        assert r.split in ("train", "test")
        assert r.id == f"{r.source_id}-{'right' if r.response_label == 0 else 'hallucinated'}"
    # two responses per source: the right one (0) and the hallucinated one (1)
    per = pd.DataFrame([(r.source_id, r.response_label) for r in corpus.responses], columns=["s", "y"])
    assert all(sorted(g) == [0, 1] for g in per.groupby("s")["y"].apply(list))


def test_fixture_fields_map_to_evidence_and_query():
    corpus = load_halueval_corpus(FIXTURE)
    qa_row, dia_row, sum_row = _rows("qa")[0], _rows("dialogue")[0], _rows("summarization")[0]
    qa = corpus.sources["halueval-qa-00001"]
    assert qa.query == qa_row["question"]
    ev = build_evidence(qa)
    assert ev.text == qa_row["knowledge"] and ev.query == qa_row["question"]
    dia = corpus.sources["halueval-dialogue-00001"]
    assert dia.query == dia_row["dialogue_history"]
    assert build_evidence(dia).text == dia_row["knowledge"]
    summ = corpus.sources["halueval-summarization-00001"]
    assert summ.query is None
    assert build_evidence(summ).text == sum_row["document"]
    by_id = {r.id: r for r in corpus.responses}
    assert by_id["halueval-qa-00001-right"].response == qa_row["right_answer"]
    assert by_id["halueval-qa-00001-hallucinated"].response == qa_row["hallucinated_answer"]
    assert by_id["halueval-summarization-00001-hallucinated"].response == sum_row["hallucinated_summary"]
    # the generator label is the same for both answers (it must not leak the gold label)
    assert len({r.model for r in corpus.responses}) == 1


def test_gzip_and_plain_files_give_the_same_corpus(tmp_path):
    a = load_halueval_corpus(_copy(tmp_path, gz=True))
    b = load_halueval_corpus(FIXTURE)
    assert [r.to_json() for r in a.responses] == [r.to_json() for r in b.responses]


def test_split_is_seeded_by_source_and_groups_shared_evidence():
    a = load_halueval_corpus(FIXTURE, seed=17)
    b = load_halueval_corpus(FIXTURE, seed=17)
    assert [r.split for r in a.responses] == [r.split for r in b.responses]
    split_of = {}
    for r in a.responses:
        split_of.setdefault(r.source_id, set()).add(r.split)
    assert all(len(v) == 1 for v in split_of.values())  # never split within a source
    # records 1 and 11 of the QA fixture share their knowledge text: same split
    assert split_of["halueval-qa-00001"] == split_of["halueval-qa-00011"]
    # test = round(0.3 * evidence groups) per subset: qa 10 groups -> 3, others 10 -> 3
    tests = {s: sum(1 for sid, v in split_of.items() if sid.startswith(f"halueval-{s}-") and "test" in v)
             for s in SUBSETS}
    assert tests["dialogue"] == 3 and tests["summarization"] == 3 and tests["qa"] in (3, 4)
    others = [load_halueval_corpus(FIXTURE, seed=s) for s in (1, 2, 3)]
    assert any([r.split for r in o.responses] != [r.split for r in a.responses] for o in others)
    # calibration is carved from train sources only
    assignment = assign_splits(a, 0.2, 17)
    assert {v for k, v in assignment.items() if "test" in split_of[k]} == {"test"}
    assert "calibration" in assignment.values()


def test_limit_takes_a_seeded_sample_and_counts_the_rest():
    corpus = load_halueval_corpus(FIXTURE, subsets=["dialogue"], limit=4)
    assert len(corpus.sources) == 4 and len(corpus.responses) == 8
    assert corpus.filtered == {"dialogue: not sampled (limit=4)": 6}
    assert corpus.name == "halueval-dialogue"
    again = load_halueval_corpus(FIXTURE, subsets=["dialogue"], limit=4)
    assert list(again.sources) == list(corpus.sources)


def test_malformed_record_names_file_and_line(tmp_path):
    d = _copy(tmp_path, gz=False)
    lines = (d / "qa_data.jsonl").read_text("utf-8").splitlines()
    lines[2] = '{"knowledge": "x", "question": "q", "right_answer": 3'  # broken JSON
    bad = json.loads(lines[4])
    del bad["hallucinated_answer"]
    lines[4] = json.dumps(bad)
    (d / "qa_data.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DataValidationError) as err:
        load_halueval_corpus(d, subsets=["qa"])
    text = str(err.value)
    assert f"{d / 'qa_data.jsonl'}:3" in text and "malformed JSON" in text
    assert f"{d / 'qa_data.jsonl'}:5: field 'hallucinated_answer': missing" in text
    assert err.value.total == 2


def test_malformed_gzip_record_names_line(tmp_path):
    d = tmp_path / "gz"
    d.mkdir()
    rows = _rows("summarization")
    rows[1]["right_summary"] = ["not", "a", "string"]
    with gzip.open(d / "summarization_data.jsonl.gz", "wt", encoding="utf-8") as fh:
        fh.write("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(DataValidationError, match=r"summarization_data.jsonl.gz:2: field 'right_summary'"):
        load_halueval_corpus(d, subsets=["summarization"])


def test_empty_and_identical_answers_are_filtered_and_counted(tmp_path):
    d = _copy(tmp_path, gz=False)
    rows = _rows("qa")
    rows[0]["right_answer"] = "   "
    rows[1]["hallucinated_answer"] = rows[1]["right_answer"]
    (d / "qa_data.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    corpus = load_halueval_corpus(d, subsets=["qa"])
    assert len(corpus.sources) == 9
    assert corpus.filtered == {"qa: empty answer": 1, "qa: identical right and hallucinated answers": 1}


def test_missing_file_and_bad_arguments(tmp_path):
    with pytest.raises(FileNotFoundError, match="qa"):
        load_halueval_corpus(tmp_path, subsets=["qa"])
    with pytest.raises(ValueError, match="unknown HaluEval subset"):
        load_halueval_corpus(FIXTURE, subsets=["general"])
    with pytest.raises(ValueError, match="test_fraction"):
        load_halueval_corpus(FIXTURE, test_fraction=1.0)
    assert not halueval_available(tmp_path)
    assert halueval_available(FIXTURE)


# -- the experiment end to end on the fixture ------------------------------------------------------


def _fixture_raw(tmp_path: Path, data_dir: Path, subsets: list[str] | None = None, **provenance) -> dict:
    """A HaluEval run on `data_dir`: per subset, fit on its train split, calibrate, score its test split."""
    return {
        "name": "halueval", "seed": 17,
        "output_dir": str(tmp_path / "out"), "cache_dir": str(tmp_path / "cache"),
        "corpora": {"halueval": {"format": "halueval", "path": str(data_dir), "subsets": subsets or list(SUBSETS)}},
        "evaluations": [{"fit": "halueval", "test": ["halueval"], "per_subset": True}],
        "features": {"pipeline": "blank", "response_features": True},
        "detectors": {
            "names": ["Lexical", "BM25", "TFIDF", "NLI_Rules", "EvidenceChain_LR", "EvidenceChain_RF"],
            "primary": "EvidenceChain_RF", "response_aggregation": "auto",
            "response_methods": ["Provenance", "Length"],
            "params": {"EvidenceChain_RF": {"n_estimators": 20, "max_depth": 4},
                       "Provenance": {"relevance": ["bm25", "tfidf", "cross-encoder"], **provenance}},
        },
    }


def _fixture_config(tmp_path: Path, data_dir: Path, subsets: list[str] | None = None, **provenance):
    return config_from_dict(_fixture_raw(tmp_path, data_dir, subsets, **provenance), "<halueval fixture>")


def _listing(*dirs: Path) -> list[tuple[str, int, int]]:
    """Every file under `dirs`: (path, size, mtime in ns)."""
    return sorted((str(p), p.stat().st_size, p.stat().st_mtime_ns)
                  for d in dirs if d.is_dir() for p in d.rglob("*") if p.is_file())


@pytest.fixture(scope="module")
def fixture_run(tmp_path_factory):
    """One run of every subset of the fixture (no transfer corpus); listings of paper/ and figures/
    before and after it."""
    tmp = tmp_path_factory.mktemp("halueval-run")
    before = _listing(PAPER, FIGURES)
    out = run(_fixture_config(tmp, FIXTURE, nli_model=str(tmp / "missing-nli")), progress=False)
    return out, before, _listing(PAPER, FIGURES)


def test_experiment_on_fixture_writes_response_level_results_only(fixture_run, tmp_path):
    out = fixture_run[0]
    names = {p.name for p in out.iterdir()}
    assert {"metrics.csv", "units.csv", "response_scores.csv", "provenance_grid.csv", "provenance_components.csv",
            "feature_shift.csv", "split_summary.csv", "run.json"} <= names
    assert not any(n.startswith(("metrics_word", "metrics_span", "tokens", "coverage_bins")) for n in names)
    metrics = pd.read_csv(out / "metrics.csv", keep_default_na=False, na_values=[""])
    assert set(metrics["level"]) == {"response"}  # HaluEval has response labels only
    assert set(metrics["unit"]) == {f"halueval -> halueval[{s}]" for s in SUBSETS}
    assert set(metrics["subset"]) == set(SUBSETS)
    methods = {"Lexical", "BM25", "TFIDF", "NLI_Rules", "EvidenceChain_LR", "EvidenceChain_RF",
               "Provenance (ours, best on calibration)", "Length only (diagnostic)"}
    for _, part in metrics.groupby("subset"):
        assert methods <= set(part["method"])
    assert metrics["roc_auc"].between(0, 1).all()
    assert (metrics["n"] > 0).all()
    run_meta = json.loads((out / "run.json").read_text())
    assert sorted(u["unit"] for u in run_meta["units"]) == sorted(f"halueval -> halueval[{s}]" for s in SUBSETS)
    assert run_meta["corpora"]["halueval"]["span_labels"] is False
    for level in ("word", "span"):
        assert "response-level labels only" in run_meta["skipped_metrics"][level]
    comps = pd.read_csv(out / "provenance_components.csv", keep_default_na=False, na_values=[""])
    # absent models are reported as absent (with the reason), never replaced
    nli = comps[comps["component"] == "nli-cross-encoder"]
    assert len(nli) and (nli["status"] == "absent").all() and nli["detail"].str.contains("missing-nli").all()
    rerank = comps[comps["component"] == "cross-encoder"]
    assert len(rerank) and (rerank["status"] == "absent").all()
    assert rerank["detail"].str.contains("not configured").all()
    assert not (metrics["fit"] != "halueval").any()  # no transfer corpus: no transfer rows
    grid = pd.read_csv(out / "provenance_grid.csv", keep_default_na=False, na_values=[""])
    absent_rows = grid[grid["checker"] == "nli-cross-encoder"]
    assert len(absent_rows) and absent_rows["status"].str.startswith("absent").all()
    assert absent_rows["roc_auc"].isna().all()
    assert (grid[(grid["checker"] != "nli-cross-encoder") & (grid["relevance"] != "cross-encoder")]["status"]
            == "present").all()
    # tables and figures come from the run directory, written wherever the caller says
    result = load_run(out)
    for table in benchmark_tables(result):
        write_table(table, tmp_path / "tables")
    md = (tmp_path / "tables" / "halueval_comparison.md").read_text()
    assert "Provenance (published)" in md and "0.740" in md and "HALT-RAG (published)" in md
    assert "Length only (diagnostic)" in md and "Provenance (ours, best on calibration)" in md
    figures = benchmark_figures(result)
    figures["halueval_roc"].savefig(tmp_path / "halueval_roc.png")
    assert (tmp_path / "halueval_roc.png").stat().st_size > 0


def test_run_writes_nothing_under_paper_or_figures(fixture_run):
    out, before, after = fixture_run
    assert (out / "metrics.csv").is_file()
    assert after == before


def test_transfer_evaluation_fitted_on_a_ragtruth_corpus(tmp_path):
    raw = _fixture_raw(tmp_path, FIXTURE, ["qa", "dialogue"])
    raw["corpora"]["audit"] = {"format": "ragtruth", "response_jsonl": str(RAGTRUTH_VALID / "response.jsonl"),
                               "source_info_jsonl": str(RAGTRUTH_VALID / "source_info.jsonl")}
    raw["evaluations"].append({"fit": "audit", "test": ["halueval"], "per_subset": True, "calibrate": "test",
                               "response_methods": False})
    raw["detectors"]["response_methods"] = ["Length"]
    config = config_from_dict(raw, "<transfer fixture>")
    audit = load_split_corpus(config.corpora["audit"], "audit", config.seed)
    assert audit.counts()["train"] > 0  # calibration comes from each HaluEval subset (calibrate = "test")
    out = run(config, progress=False)
    metrics = pd.read_csv(out / "metrics.csv", keep_default_na=False, na_values=[""])
    transfer = metrics[metrics["fit"] == "audit"]
    assert set(transfer["unit"]) == {"audit -> halueval[qa]", "audit -> halueval[dialogue]"}
    assert set(transfer["calibrated_on"]) == {"halueval"} and set(transfer["level"]) == {"response"}
    # Provenance and Length are scored once, in the in-distribution evaluation
    assert "Length only (diagnostic)" not in set(transfer["method"])
    assert {"EvidenceChain_LR", "EvidenceChain_RF"} <= set(transfer["method"])
    assert transfer["roc_auc"].between(0, 1).all()
    units = pd.read_csv(out / "units.csv", keep_default_na=False, na_values=[""]).set_index("unit")
    assert units.loc["audit -> halueval[qa]", "fit_answers"] == audit.counts()["train"]
    assert units.loc["audit -> halueval[qa]", "calibrated_on"] == "halueval"
    assert not units["metadata_features"].loc[["audit -> halueval[qa]", "audit -> halueval[dialogue]"]].any()
    table = {t.name: t for t in benchmark_tables(load_run(out))}["halueval_comparison"]
    assert "EvidenceChain_RF (fit on audit)" in set(table.frame["method"])
    assert "Lexical (fit on audit)" not in set(table.frame["method"])  # unsupervised: same as in-distribution


def test_per_subset_fits_reuse_the_evidence_indices_of_the_corpus_tables(tmp_path):
    """The second subset's extractor indexes no source again: its fit takes the indices the
    corpus tables were built with (the same objects), and its columns are those of a fresh fit."""
    from evidencechain.runinfo import Stopwatch
    from evidencechain.runner import TableStore, load_corpora

    config = _fixture_config(tmp_path, FIXTURE, ["qa", "dialogue"])
    corpus = load_corpora(config)["halueval"]
    qa, dialogue = corpus.ids("train", subset="qa"), corpus.ids("train", subset="dialogue")
    store = TableStore(config, None, False, Stopwatch())
    base = store.tables(corpus, qa, store.extractor(corpus, qa))
    second = store.extractor(corpus, dialogue)
    sources = {r.source_id for r in corpus.corpus.responses if r.id in set(dialogue)}
    assert sources and all(any(ix is base.indices[s] for ix in second.index_memo.values()) for s in sources)
    fresh = TableStore(config, None, False, Stopwatch()).extractor(corpus, dialogue)
    assert fresh.vectorizer.vocabulary_ == second.vectorizer.vocabulary_


def test_experiment_csvs_are_byte_identical_across_runs(tmp_path):
    outs = []
    for k in range(2):
        config = _fixture_config(tmp_path / f"cfg{k}", FIXTURE, ["qa"])
        outs.append(run(config, out_dir=tmp_path / f"run{k}", progress=False))
        for table in benchmark_tables(load_run(outs[-1])):
            write_table(table, tmp_path / f"tables{k}")
    csvs = sorted(p.name for p in outs[0].glob("*.csv"))
    assert {"metrics.csv", "response_scores.csv", "provenance_grid.csv"} <= set(csvs)
    assert csvs == sorted(p.name for p in outs[1].glob("*.csv"))
    for name in csvs:
        assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes(), name
    assert (tmp_path / "tables0" / "halueval_comparison.md").read_bytes() == \
        (tmp_path / "tables1" / "halueval_comparison.md").read_bytes()


def test_cli_dispatches_halueval(tmp_path):
    from evidencechain.cli import main

    toml = f"""
name = "halueval-cli"
output_dir = "{tmp_path / 'out'}"
cache_dir = "{tmp_path / 'cache'}"
[corpora.halueval]
format = "halueval"
path = "{FIXTURE}"
subsets = ["dialogue"]
[[evaluations]]
fit = "halueval"
test = ["halueval"]
per_subset = true
[features]
pipeline = "blank"
response_features = true
[detectors]
names = ["Lexical", "EvidenceChain_LR"]
primary = "EvidenceChain_LR"
response_methods = ["Provenance"]
[detectors.params.Provenance]
relevance = ["bm25"]
checkers = ["nli-rules"]
"""
    cfg = tmp_path / "h.toml"
    cfg.write_text(toml)
    assert main(["run", "--config", str(cfg), "-q", "--out", str(tmp_path / "cli")]) == 0
    metrics = pd.read_csv(tmp_path / "cli" / "metrics.csv")
    assert set(metrics["method"]) >= {"Lexical", "EvidenceChain_LR", "Provenance (ours, best on calibration)"}
    assert set(metrics["unit"]) == {"halueval -> halueval[dialogue]"}
    assert (tmp_path / "cli" / "provenance_grid.csv").is_file()
    assert not (tmp_path / "out").exists()  # --out replaces the config's output_dir
    assert "response-level labels only" in json.loads((tmp_path / "cli" / "run.json").read_text())[
        "skipped_metrics"]["word"]


# -- the real files (CI has them; skipped with a reason when absent) -------------------------------


@needs_real
def test_real_halueval_files_load_with_limit():
    corpus = load_halueval_corpus(REAL, limit=200, seed=17)
    assert len(corpus.sources) == 600 and len(corpus.responses) == 1200
    assert corpus.span_labels is False
    for s in SUBSETS:
        assert corpus.filtered.get(f"{s}: not sampled (limit=200)") == 9800
    by_subset = {}
    for r in corpus.responses:
        by_subset.setdefault(r.source_id.split("-")[1], []).append(r)
    for s, rows in by_subset.items():
        assert sum(r.response_label for r in rows) == len(rows) // 2
        test = sum(r.split == "test" for r in rows) / len(rows)
        assert 0.25 <= test <= 0.35, (s, test)


@needs_real
def test_real_halueval_quick_experiment(tmp_path):
    raw = _fixture_raw(tmp_path, REAL, ["qa"])
    raw["corpora"]["halueval"]["limit"] = 150
    out = run(config_from_dict(raw, "<real halueval, limit 150>"), progress=False)
    metrics = pd.read_csv(out / "metrics.csv")
    metrics = metrics[(metrics["level"] == "response") & (metrics["unit"] == "halueval -> halueval[qa]")]
    rf = metrics.set_index("method").loc["EvidenceChain_RF"]
    assert rf["n"] > 0
    assert rf["roc_auc"] > 0.74  # above Provenance's published QA AUC
