"""Report layer: tables, figures, manuscript, README block and notebooks, built from one small run."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest

from evidencechain.cli import main
from evidencechain.report import TemplateError, build_tables, explore, load_run
from evidencechain.report.figures import FIGURES, write_figures
from evidencechain.report.manuscript import PLACEHOLDER, render
from evidencechain.report.notebooks import NOTEBOOKS, execute_notebook, write_notebooks
from evidencechain.report.readme import END, START, update_readme
from evidencechain.report.render import latex_escape
from evidencechain.report.tables import TABLES, write_tables

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "paper" / "template.md"
NOTEBOOK_DIR = ROOT / "experiments" / "notebooks"
METHODS = ["Lexical", "BM25", "TFIDF", "NLI_Rules", "EvidenceChain_LR", "EvidenceChain_RF", "EvidenceChain_Token",
           "RefChecker", "RAGHalu"]
CLAIM_TABLES = ["audit_triplet_verdicts", "audit_no_info", "audit_copy_rate"]  # the audit config runs both systems


@pytest.fixture(scope="session")
def run_dir(audit_run) -> Path:
    """The audit experiment (seed 17) on a freshly generated audit corpus, ablation included: the
    session's one full audit run (conftest `audit_run`, shared with test_experiment; read-only)."""
    return audit_run[0]


@pytest.fixture(scope="session")
def report(run_dir, tmp_path_factory) -> dict[str, Path]:
    """Tables, figures and manuscript built once through the CLI."""
    out = tmp_path_factory.mktemp("report_out")
    dirs = {"tables": out / "paper" / "tables", "figures": out / "figures", "paper": out / "paper"}
    rc = main(["report", "--run", str(run_dir), "--tables", str(dirs["tables"]), "--figures",
               str(dirs["figures"]), "--paper", str(dirs["paper"]), "--template", str(TEMPLATE),
               "--halueval", str(out / "no-halueval")])
    assert rc == 0
    return dirs


def csv(run_dir: Path, name: str) -> pd.DataFrame:
    return pd.read_csv(run_dir / f"{name}.csv", keep_default_na=False, na_values=[""])


def written(report, name: str) -> pd.DataFrame:
    return pd.read_csv(report["tables"] / f"{name}.csv", keep_default_na=False, na_values=[""])


# ---------------------------------------------------------------- tables

EXPECTED_COLUMNS = {
    "split_summary": ["corpus", "split", "sources", "responses", "hallucinated_responses", "sentences", "tokens",
                      "hallucinated_tokens", "hallucinated_token_rate"],
    "schema": ["file", "field", "type", "use"],
    "task_rates": ["corpus", "task_type", "source", "sources", "responses", "hallucinated_responses",
                   "hallucination_rate"],
    "generator_rates": ["corpus", "model", "responses", "hallucinated_responses", "mean_temperature",
                        "hallucination_rate"],
    "word_level": ["method", "precision", "recall", "f1", "accuracy", "roc_auc", "pr_auc", "threshold",
                   "n", "positives"],
    "span_level": ["method", "precision", "recall", "f1", "predicted_chars", "gold_chars", "overlap_chars"],
    "word_by_task": ["task_type", "method", "precision", "recall", "f1", "roc_auc", "pr_auc", "n",
                     "positives"],
    "ablation": ["level", "variant", "precision", "recall", "f1", "roc_auc", "pr_auc"],
    "attribution": ["method", "supported_sentences", "top1_accuracy"],
    "coverage_bins": ["coverage_bin", "responses", "mean_source_coverage", "mean_hallucinated_token_rate"],
    "runtime": ["method", "training", "main_signal", "runtime_class", "word_threshold",
                "sentence_threshold", "response_threshold"],
    "reproducibility": ["item", "value"],
    "summary": ["method", "word_f1", "sentence_f1", "response_f1", "span_f1", "word_roc_auc"],
}


def test_every_table_is_written_with_its_columns(report):
    for name in TABLES:
        for ext in ("csv", "md", "tex"):
            assert (report["tables"] / f"{name}.{ext}").stat().st_size > 0, (name, ext)
    for name, columns in EXPECTED_COLUMNS.items():
        assert list(written(report, name).columns) == columns, name
    for level in ("sentence_level", "response_level"):
        assert list(written(report, level).columns) == EXPECTED_COLUMNS["word_level"]


@pytest.mark.parametrize("level", ["word", "sentence", "response"])
def test_level_tables_equal_the_run_metrics(run_dir, report, level):
    table = written(report, f"{level}_level")
    source = csv(run_dir, f"metrics_{level}")
    assert list(table["method"]) == METHODS
    pd.testing.assert_frame_equal(table.set_index("method"), source.set_index("method").loc[METHODS],
                                  check_dtype=False)


def test_dataset_tables_equal_the_run_csvs(run_dir, report):
    split = written(report, "split_summary").set_index("split")
    source = csv(run_dir, "split_summary").set_index("split")
    assert list(split.index) == ["train", "calibration", "test", "total"]
    for s in ("train", "calibration", "test"):
        assert split.loc[s, "responses"] == source.loc[s, "responses"]
        assert split.loc[s, "hallucinated_tokens"] == source.loc[s, "hallucinated_tokens"]
    assert split.loc["total", "tokens"] == source["tokens"].sum()
    assert split.loc["total", "responses"] == 840
    assert split.loc["total", "hallucinated_token_rate"] == pytest.approx(
        source["hallucinated_tokens"].sum() / source["tokens"].sum(), abs=1e-6)
    pd.testing.assert_frame_equal(written(report, "task_rates"), csv(run_dir, "task_rates"))
    pd.testing.assert_frame_equal(written(report, "generator_rates"), csv(run_dir, "generator_rates"))
    assert set(written(report, "schema")["field"]) >= {"id", "source_id", "labels", "source_info", "prompt"}


def test_result_tables_equal_the_run_csvs(run_dir, report):
    span = written(report, "span_level").set_index("method")
    pd.testing.assert_frame_equal(span, csv(run_dir, "metrics_span").set_index("method").loc[METHODS])
    by_task = written(report, "word_by_task")
    src = csv(run_dir, "metrics_by_task")
    src = src[src["level"] == "word"].set_index(["task_type", "method"])
    for _, row in by_task.iterrows():
        assert row["f1"] == pytest.approx(src.loc[(row["task_type"], row["method"]), "f1"], abs=1e-9)
    assert len(by_task) == len(src)
    ablation = written(report, "ablation")
    source = csv(run_dir, "ablation")
    assert len(ablation) == len(source)
    merged = ablation.merge(source, on=["level", "variant"], suffixes=("", "_src"))
    assert (merged["f1"] - merged["f1_src"]).abs().max() < 1e-9
    pd.testing.assert_frame_equal(written(report, "attribution"), csv(run_dir, "attribution"))
    pd.testing.assert_frame_equal(written(report, "coverage_bins"), csv(run_dir, "coverage_bins"))
    runtime = written(report, "runtime").set_index("method")
    th = csv(run_dir, "thresholds").set_index(["method", "level"])["threshold"]
    for m in METHODS:
        assert runtime.loc[m, "word_threshold"] == pytest.approx(th[(m, "word")], abs=1e-9)
    summary = written(report, "summary").set_index("method")
    words = csv(run_dir, "metrics_word").set_index("method")
    assert summary.loc["EvidenceChain_RF", "word_f1"] == pytest.approx(words.loc["EvidenceChain_RF", "f1"])


def test_reproducibility_table_carries_seed_and_input_hashes(run_dir, report):
    meta = json.loads((run_dir / "run.json").read_text())
    items = dict(written(report, "reproducibility").itertuples(index=False, name=None))
    assert items["seed"] == "17"
    assert items["run id"] == load_run(run_dir).run_id
    for digest in meta["inputs"].values():
        assert f"sha256 {digest}" in items.values()


def test_markdown_and_latex_renderings(run_dir, report):
    md = (report["tables"] / "word_level.md").read_text()
    tex = (report["tables"] / "word_level.tex").read_text()
    f1 = csv(run_dir, "metrics_word").set_index("method").loc["EvidenceChain_RF", "f1"]
    assert md.startswith("**") and "| Method | Precision |" in md and f"{f1:.3f}" in md
    for command in (r"\toprule", r"\midrule", r"\bottomrule", r"\begin{tabular}{lrrrrrrrrr}",
                    r"\label{tab:word_level}"):
        assert command in tex
    assert r"EvidenceChain\_RF" in tex and f"{f1:.3f}" in tex
    assert latex_escape("a_b & 50% #1 {x} ~") == r"a\_b \& 50\% \#1 \{x\} \textasciitilde{}"


def test_tables_are_byte_identical_when_rebuilt(run_dir, report, tmp_path):
    write_tables(load_run(run_dir), tmp_path, log=None)
    for name in TABLES:
        for ext in ("csv", "md", "tex"):
            assert (tmp_path / f"{name}.{ext}").read_bytes() == (report["tables"] / f"{name}.{ext}").read_bytes()


def test_word_tables_and_figures_skipped_without_span_labels(run_dir, tmp_path):
    copy = tmp_path / "run"
    shutil.copytree(run_dir, copy, ignore=shutil.ignore_patterns("model"))
    for name in ("tokens", "metrics_word", "metrics_span", "coverage_bins"):
        (copy / f"{name}.csv").unlink()
    by_task = pd.read_csv(copy / "metrics_by_task.csv")
    by_task[by_task["level"] != "word"].to_csv(copy / "metrics_by_task.csv", index=False)
    run = load_run(copy)
    tables = build_tables(run)
    assert {"word_level", "span_level", "word_by_task", "coverage_bins"}.isdisjoint(tables)
    assert {"sentence_level", "response_level", "split_summary"} <= set(tables)
    assert "word_f1" not in tables["summary"].frame
    figures = write_figures(run, tmp_path / "figures", log=None)
    assert set(figures) == {"pipeline", "generator_rates", "copy_rate"}  # the copy rate needs no word labels


# ---------------------------------------------------------------- figures

def test_every_figure_is_written_without_metadata(report):
    for name in FIGURES:
        png, pdf = report["figures"] / f"{name}.png", report["figures"] / f"{name}.pdf"
        assert png.stat().st_size > 5000 and pdf.stat().st_size > 2000, name
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert b"matplotlib" not in png.read_bytes().lower()
        assert b"CreationDate" not in pdf.read_bytes()


def test_figures_are_identical_when_rebuilt(run_dir, report, tmp_path):
    write_figures(load_run(run_dir), tmp_path, log=None)
    for name in ("pipeline", "word_f1", "confusion"):
        for ext in ("png", "pdf"):
            assert (tmp_path / f"{name}.{ext}").read_bytes() == (report["figures"] / f"{name}.{ext}").read_bytes()


# ---------------------------------------------------------------- manuscript

def test_manuscript_is_filled_from_the_results(run_dir, report):
    text = (report["paper"] / "manuscript.md").read_text()
    assert not PLACEHOLDER.search(text) and "{{" not in text and "}}" not in text
    run = load_run(run_dir)
    word = csv(run_dir, "metrics_word").set_index("method")
    best = word["f1"].idxmax()
    assert f"the best word-level detector,\n{best}" in text or best in text
    assert f"F1 {word.loc[best, 'f1']:.3f}" in text
    assert f"reached {word.loc['EvidenceChain_LR', 'f1']:.3f} (LR)" in text
    split = csv(run_dir, "split_summary").set_index("split")
    assert f"{int(split.loc['test', 'tokens']):,}" in text
    assert f"seed {run.seed}" in text and run.run_id in text
    for digest in run.meta["inputs"].values():
        assert digest[:16] in text
    assert "synthetic" in text and "not a benchmark" in text.replace("\n", " ")
    assert "Not included in this build" in text  # no HaluEval results in this test
    paper_tables = [name for name in TABLES if name != "summary"] + CLAIM_TABLES  # the summary is the README's
    for k in range(1, len(paper_tables) + 1):
        assert f"**Table {k}." in text
    assert f"**Table {len(paper_tables) + 1}." not in text
    for name in FIGURES:
        assert f"](../figures/{name}.png)" in text


def test_manuscript_build_fails_loudly(run_dir, report):
    run = load_run(run_dir)
    args = (report["tables"], report["figures"], report["paper"])
    with pytest.raises(TemplateError, match="word.NoSuchMethod.f1"):
        render(run, "F1 was {{ word.NoSuchMethod.f1 }}.", *args)
    with pytest.raises(TemplateError, match="table.no_such_table"):
        render(run, "{{ table.no_such_table }}", *args)
    with pytest.raises(TemplateError, match="figure.no_such_figure"):
        render(run, "{{ figure.no_such_figure }}", *args)
    bins = csv(run_dir, "coverage_bins")
    if bins["mean_source_coverage"].isna().any():  # empty bins carry NaN: naming one is an error
        from evidencechain.report.manuscript import fill
        with pytest.raises(TemplateError, match="missing value"):
            fill("{{ x }}", {"x": float("nan")})
    with pytest.raises(TemplateError, match="unbalanced"):
        render(run, "seed {{ run.seed }} and a stray }}", *args)


def test_docx_opens_and_embeds_every_figure(run_dir, report):
    import docx

    path = report["paper"] / "manuscript.docx"
    document = docx.Document(str(path))
    assert len(document.inline_shapes) == len(FIGURES)
    assert len(document.tables) == len(TABLES) - 1 + len(CLAIM_TABLES)  # the README summary is not in the paper
    body = "\n".join(p.text for p in document.paragraphs)
    assert "Reproducibility" in body and load_run(run_dir).run_id in body
    assert not re.search(r"\{\{|\}\}", body)
    assert document.core_properties.title.startswith("Evidence-Chain")


def test_manuscript_is_identical_when_rebuilt(run_dir, report, tmp_path):
    paper = report["paper"]
    before = {name: (paper / name).read_bytes() for name in ("manuscript.md", "manuscript.docx")}
    assert main(["report", "--run", str(run_dir), "--tables", str(report["tables"]), "--figures",
                 str(report["figures"]), "--paper", str(paper), "--template", str(TEMPLATE),
                 "--halueval", str(tmp_path / "none"), "--only", "paper"]) == 0
    for name, data in before.items():
        assert (paper / name).read_bytes() == data, name


def test_halueval_section_included_when_present(run_dir, report, tmp_path):
    tables = tmp_path / "tables"
    shutil.copytree(report["tables"], tables)
    (tables / "halueval_comparison.md").write_text("**HaluEval comparison.**\n\n| a | b |\n|---|---:|\n| x | 1 |\n")
    text = render(load_run(run_dir), TEMPLATE.read_text(), tables, report["figures"], report["paper"],
                  tmp_path / "no-run")
    assert "no HaluEval results were present" not in text
    assert re.search(r"\*\*Table \d+\. HaluEval comparison", text)


def test_real_data_section_leads_with_the_benchmark_tables(run_dir, report, tmp_path):
    from evidencechain.report.readme import results_block
    from evidencechain.report.render import Table, write_table

    tables = tmp_path / "tables"
    shutil.copytree(report["tables"], tables)
    absent = render(load_run(run_dir), TEMPLATE.read_text(), tables, report["figures"], report["paper"])
    assert "no real-data benchmark tables were present" in absent
    rows = pd.DataFrame({"fitted_on": ["audit", "audit", ""], "method": ["BM25", "Flag everything (floor)",
                                                                        "LettuceDetect-large, published"],
                         "scope": ["ragtruth_qa", "ragtruth_qa", "whole RAGTruth test"],
                         "response_f1": [0.41, 0.286, 0.792], "span_f1": [0.30, float("nan"), 0.589],
                         "word_f1": [0.27, 0.09, float("nan")], "response_calibration_roc_auc": [0.8, None, None],
                         "word_calibration_roc_auc": [0.9, None, None]})
    write_table(Table("ragtruth_qa", "RAGTruth QA.", rows), tables)
    text = render(load_run(run_dir), TEMPLATE.read_text(), tables, report["figures"], report["paper"])
    real = text.index("## 2. Results on real data")
    assert real < text.index("## 3. Data")
    section = " ".join(text[real:text.index("## 3. Data")].split())
    assert ("response level (chosen on calibration data) reached an F1 of 0.410 (BM25, fitted on audit) "
            "against 0.286") in section
    assert "response-level F1 0.410 on real RAGTruth QA" in " ".join(text[:real].split())  # abstract leads
    block = results_block(load_run(run_dir), "results/audit", tables)
    assert block.index("Real data first") < block.index("Word level on real data") < block.index("Synthetic audit")
    assert "| RAGTruth QA, span F1 | 0.300 | BM25, fitted on audit; chosen on calibration data |" in block


def test_report_cli_reports_a_missing_run(tmp_path, capsys):
    assert main(["report", "--run", str(tmp_path / "missing"), "--only", "tables"]) == 2
    assert "run.json does not exist" in capsys.readouterr().err


# ---------------------------------------------------------------- README block

def test_readme_results_block_is_generated(run_dir, tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\nbefore\n\n{START}\nold numbers\n{END}\n\nafter\n")
    assert update_readme(readme, load_run(run_dir), "results/audit")
    text = readme.read_text()
    assert "old numbers" not in text and text.startswith("# x\n\nbefore") and text.endswith("after\n")
    f1 = csv(run_dir, "metrics_word").set_index("method").loc["EvidenceChain_RF", "f1"]
    assert f"| EvidenceChain_RF | {f1:.3f} |" in text
    first = text
    update_readme(readme, load_run(run_dir), "results/audit")
    assert readme.read_text() == first
    plain = tmp_path / "PLAIN.md"
    plain.write_text("no markers\n")
    assert not update_readme(plain, load_run(run_dir), "results/audit")
    assert plain.read_text() == "no markers\n"


def test_project_readme_has_the_results_markers():
    text = (ROOT / "README.md").read_text()
    assert START in text and END in text and text.index("make reproduce") < text.index(START)


# ---------------------------------------------------------------- exploration API

def test_highlight_spans_escapes_and_combines_styles():
    out = explore.highlight_spans("a <b> c", [(0, 5, "x:1"), (2, 7, "y:2")])
    assert out == ('<span style="x:1">a </span><span style="x:1;y:2">&lt;b&gt;</span>'
                   '<span style="y:2"> c</span>')
    assert explore.highlight_spans("plain", []) == "plain"


def test_response_spans_and_error_breakdown_agree_with_tokens(run_dir):
    run = load_run(run_dir)
    words = run.words
    rid = words.loc[words["label"] == 1, "response_id"].iloc[0]
    text = run.response_text(rid)
    spans = explore.response_spans(run, rid)
    gold_tokens = words[(words["response_id"] == rid) & (words["label"] == 1)]
    for start, end in zip(gold_tokens["start"], gold_tokens["end"]):
        assert any(a <= start and end <= b for a, b in spans)
    assert all(text[a:b].strip() for a, b in spans)
    html = explore.highlight_response(run, rid)
    assert explore.GOLD_STYLE in html
    breakdown = explore.error_breakdown(run, level="word", by="task_type")
    assert breakdown[["TP", "FP", "FN", "TN"]].to_numpy().sum() == len(words)
    word = csv(run_dir, "metrics_word").set_index("method").loc[run.primary]
    assert breakdown["TP"].sum() / (breakdown["TP"].sum() + breakdown["FN"].sum()) == pytest.approx(word["recall"])
    errors = explore.worst_errors(run, level="sentence", k=3)
    assert set(errors["outcome"]) <= {"FP", "FN"} and len(errors) <= 6


# ---------------------------------------------------------------- notebooks

def test_committed_notebooks_match_their_generator_and_have_no_outputs(tmp_path):
    import nbformat

    for path in write_notebooks(tmp_path):
        committed = NOTEBOOK_DIR / path.name
        assert committed.read_text() == path.read_text(), f"regenerate {committed}"
        nb = nbformat.read(str(committed), as_version=4)
        assert all(not c.get("outputs") and not c.get("execution_count") for c in nb.cells if c.cell_type == "code")
        source = "\n".join(c.source for c in nb.cells)
        assert "EVIDENCECHAIN_RUN" in source and "from evidencechain.report import explore" in source


@pytest.mark.slow
@pytest.mark.parametrize("name", list(NOTEBOOKS))
def test_notebook_executes_against_a_run(run_dir, tmp_path, name):
    nb = execute_notebook(NOTEBOOK_DIR / name, run_dir, tmp_path / name, cwd=tmp_path, timeout=300)
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    assert (tmp_path / name).is_file()
    assert load_run(run_dir).run_id in json.dumps(nb.cells[1].outputs)


def test_claims_section_has_a_part_per_claim_table_and_none_without_them(run_dir, report, tmp_path):
    from evidencechain.report.manuscript import claims_section

    run = load_run(run_dir)
    full = claims_section(run, report["tables"], report["figures"])
    assert full.startswith("### 5.8") and all(f"table.{n}" in full for n in CLAIM_TABLES)
    assert claims_section(run, tmp_path, tmp_path) == ""
    (tmp_path / "audit_no_info.md").write_text("x")
    only = claims_section(run, tmp_path, tmp_path)
    assert "table.audit_no_info" in only and "triplet_verdicts" not in only and "copy_rate" not in only
