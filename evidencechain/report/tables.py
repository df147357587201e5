"""The paper's tables, each computed only from a run directory's saved CSV files (and run.json).

Every function takes a `Run` and returns a `Table`, or None when the run lacks the results
it needs (a corpus without span labels has no word or span tables). `write_tables` writes
each as CSV, Markdown and LaTeX under one directory.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd

from ..records import RESPONSE_FIELDS, SOURCE_FIELDS
from .render import Table, write_table
from .runs import Run

SPLIT_ORDER = ("train", "calibration", "test")
METRICS = ["precision", "recall", "f1", "accuracy", "roc_auc", "pr_auc", "threshold", "n", "positives"]

SCHEMA = [  # (file, field, type, use): the RAGTruth fields and what this framework does with them
    ("response.jsonl", "id", "str", "Key that joins the scored sentences, tokens and responses."),
    ("response.jsonl", "source_id", "str", "Links an answer to its evidence; splits are made per source."),
    ("response.jsonl", "model", "str", "Generator label: a metadata feature and the per-generator rates."),
    ("response.jsonl", "temperature", "float", "Decoding temperature: a metadata feature."),
    ("response.jsonl", "labels", "list[dict]", "Gold hallucinated character spans, mapped to word, "
     "sentence and response labels and used for span metrics."),
    ("response.jsonl", "split", "str", "train or test; the calibration subset is drawn from "
     "train sources with the seed."),
    ("response.jsonl", "quality", "str", "Only rows marked good are kept."),
    ("response.jsonl", "response", "str", "The answer that is split into sentences and word tokens."),
    ("response.jsonl", "sentence_meta", "list[dict] (optional)", "Audit corpus only: gold evidence "
     "chunk of each supported sentence, used only to score attribution."),
    ("source_info.jsonl", "source_id", "str", "Evidence key shared with responses."),
    ("source_info.jsonl", "task_type", "str", "QA, Summary or Data2txt: selects the chunking rule; "
     "a metadata feature; per-task results."),
    ("source_info.jsonl", "source", "str", "Source collection: a metadata feature; task table."),
    ("source_info.jsonl", "source_info", "str or dict", "The evidence (article, question with "
     "passages, or business record), cut into chunks."),
    ("source_info.jsonl", "prompt", "str", "Kept with the source; not used by any detector."),
]
assert {f for file, f, _, _ in SCHEMA if file == "response.jsonl"} >= set(RESPONSE_FIELDS)
assert {f for file, f, _, _ in SCHEMA if file == "source_info.jsonl"} == set(SOURCE_FIELDS)


def _ordered(frame: pd.DataFrame, column: str, order) -> pd.DataFrame:
    rank = {v: k for k, v in enumerate(order)}
    return frame.sort_values(column, key=lambda s: s.map(rank).fillna(len(rank)), kind="mergesort")


def _metrics(run: Run, level: str, caption: str, name: str) -> Table | None:
    frame = run.table(f"metrics_{level}", required=False)
    if frame is None or frame.empty:
        return None
    frame = _ordered(frame, "method", run.methods)[["method", *METRICS]].reset_index(drop=True)
    return Table(name, caption, frame)


def split_summary(run: Run) -> Table:
    f = _ordered(run.table("split_summary"), "split", SPLIT_ORDER).reset_index(drop=True)
    total = {c: int(f[c].sum()) for c in f.columns if c not in ("corpus", "split", "hallucinated_token_rate")}
    total["split"] = "total"
    if "corpus" in f.columns:
        total["corpus"] = "+".join(dict.fromkeys(f["corpus"]))
    total["hallucinated_token_rate"] = (total["hallucinated_tokens"] / total["tokens"]
                                        if total["tokens"] else float("nan"))
    f = pd.concat([f, pd.DataFrame([total])], ignore_index=True)[list(f.columns)]
    return Table("split_summary", "Dataset split summary (sources are never shared between splits; "
                 "tokens exclude punctuation).", f)


def schema(run: Run) -> Table:
    frame = pd.DataFrame(SCHEMA, columns=["file", "field", "type", "use"])
    return Table("schema", "RAGTruth-format fields and their use in the framework.", frame)


def task_rates(run: Run) -> Table:
    f = run.table("task_rates").sort_values(["task_type", "source"], kind="mergesort")
    return Table("task_rates", "Task distribution and response-level hallucination rate (all splits).",
                 f.reset_index(drop=True))


def generator_rates(run: Run) -> Table:
    f = run.table("generator_rates").sort_values("model", kind="mergesort")
    return Table("generator_rates", "Generator-label distribution and response-level hallucination "
                 "rate (all splits). Labels are experimental conditions, not measurements of the "
                 "named models.", f.reset_index(drop=True))


def word_level(run: Run) -> Table | None:
    return _metrics(run, "word", "Word-level detection on the test split (punctuation excluded; "
                    "thresholds chosen on the calibration subset).", "word_level")


def sentence_level(run: Run) -> Table | None:
    return _metrics(run, "sentence", "Sentence-level detection on the test split.", "sentence_level")


def response_level(run: Run) -> Table | None:
    return _metrics(run, "response", "Response-level detection on the test split (RAGTruth "
                    "response protocol: a response is positive when it has any hallucinated span).",
                    "response_level")


def span_level(run: Run) -> Table | None:
    frame = run.table("metrics_span", required=False)
    if frame is None or frame.empty:
        return None
    frame = _ordered(frame, "method", run.methods).reset_index(drop=True)
    return Table("span_level", "Span-level detection on the test split (RAGTruth character-overlap "
                 "protocol; whitespace not counted).", frame)


def word_by_task(run: Run) -> Table | None:
    f = run.table("metrics_by_task", required=False)
    if f is None or "word" not in set(f["level"]):
        return None
    f = f[f["level"] == "word"]
    f = _ordered(f, "method", run.methods).sort_values("task_type", kind="mergesort")
    cols = ["task_type", "method", "precision", "recall", "f1", "roc_auc", "pr_auc", "n", "positives"]
    return Table("word_by_task", "Word-level detection per task on the test split (one global "
                 "threshold per detector).", f[cols].reset_index(drop=True))


def ablation(run: Run) -> Table | None:
    f = run.table("ablation", required=False)
    if f is None or f.empty:
        return None
    variants = list(dict.fromkeys(f["variant"]))
    f = _ordered(f, "variant", variants)
    f = _ordered(f, "level", ["sentence", "word", "response"])
    detector = ", ".join(dict.fromkeys(f["detector"]))
    cols = ["level", "variant", "precision", "recall", "f1", "roc_auc", "pr_auc"]
    return Table("ablation", f"Feature ablation of {detector} (refitted on each feature subset; "
                 "test split).", f[cols].reset_index(drop=True))


def attribution(run: Run) -> Table | None:
    f = run.table("attribution", required=False)
    if f is None or f.empty:
        return None
    return Table("attribution", "Top-1 evidence-chunk attribution accuracy on supported test "
                 "sentences with a gold chunk.", f.reset_index(drop=True))


def coverage_bins(run: Run) -> Table | None:
    f = run.table("coverage_bins", required=False)
    if f is None or f.empty:
        return None
    return Table("coverage_bins", "Test responses binned by source coverage (1 - mean token "
                 "novelty) against their hallucinated-token rate.", f.reset_index(drop=True))


def runtime(run: Run) -> Table:
    f = _ordered(run.table("runtime"), "method", run.methods).reset_index(drop=True)
    th = run.table("thresholds").pivot(index="method", columns="level", values="threshold")
    for level in ("word", "sentence", "response"):
        if level in th:
            f[f"{level}_threshold"] = f["method"].map(th[level])
    return Table("runtime", "Detectors: training, main signal, runtime class on this corpus "
                 "(features included; seconds in run.json) and calibrated thresholds.", f)


def reproducibility(run: Run) -> Table:
    m = run.meta
    rows = [("run name", m.get("name", "")), ("run id", run.run_id), ("seed", str(m.get("seed"))),
            ("config file", m.get("config", {}).get("path", "")),
            ("output directory", m.get("config", {}).get("output_dir", "")),
            ("evidencechain", m.get("evidencechain_version", "")), ("python", m.get("python", ""))]
    rows += [(f"package {k}", v) for k, v in sorted(m.get("packages", {}).items())]
    rows += [(f"input {Path(p).name}", f"sha256 {h}") for p, h in sorted(m.get("inputs", {}).items())]
    rows += [(f"component {k}", str(v)) for k, v in sorted(m.get("components", {}).items())]
    rows += [(f"{k} sources", str(v)) for k, v in m.get("splits", {}).items()]
    return Table("reproducibility", "Reproducibility record of the run (from its run.json).",
                 pd.DataFrame(rows, columns=["item", "value"]))


def summary(run: Run) -> Table:
    """One row per detector: F1 at each level (the README's results table)."""
    f = pd.DataFrame({"method": run.methods})
    for level in ("word", "sentence", "response", "span"):
        m = run.table(f"metrics_{level}", required=False)
        if m is not None and not m.empty:
            f[f"{level}_f1"] = f["method"].map(m.set_index("method")["f1"])
    if run.has("metrics_word"):
        f["word_roc_auc"] = f["method"].map(run.table("metrics_word").set_index("method")["roc_auc"])
    return Table("summary", "F1 of each detector on the test split at each level.", f)


TABLES: dict[str, Callable[[Run], Table | None]] = {
    "split_summary": split_summary, "schema": schema, "task_rates": task_rates,
    "generator_rates": generator_rates, "word_level": word_level, "sentence_level": sentence_level,
    "response_level": response_level, "span_level": span_level, "word_by_task": word_by_task,
    "ablation": ablation, "attribution": attribution, "coverage_bins": coverage_bins,
    "runtime": runtime, "reproducibility": reproducibility, "summary": summary,
}


def build_tables(run: Run) -> dict[str, Table]:
    """Every table the run supports, by name (absent results: table left out)."""
    from .claims import claim_tables

    out = {}
    for name, make in TABLES.items():
        table = make(run)
        if table is not None:
            out[name] = table
    out.update({t.name: t for t in claim_tables(run)})
    return out


def write_tables(run: Run, out_dir: str | Path, log: Callable[[str], None] | None = None) -> dict[str, Table]:
    tables = build_tables(run)
    for name, table in tables.items():
        paths = write_table(table, out_dir)
        if log:
            log(f"table  {name:16s} -> {paths[0].with_suffix('')}.{{csv,md,tex}}")
    skipped = sorted(set(TABLES) - set(tables))
    if skipped and log:
        log(f"tables skipped (results absent in {run.path}): {', '.join(skipped)}")
    return tables
