"""The values a manuscript template may name, all read from one run's saved files.

Keys are dotted names such as `word.EvidenceChain_RF.f1`, `split.test.responses`,
`best.word.method` or `gen.max.model`; `keys(run)` lists every one of them.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd

from .runs import LEVELS, Run

METRIC_KEYS = ("precision", "recall", "f1", "accuracy", "roc_auc", "pr_auc", "threshold", "n", "positives")


def slug(text: str) -> str:
    """'All evidence-chain features' -> 'all_evidence_chain_features'; 'CNN/DM' -> 'cnn_dm'."""
    return re.sub(r"[^a-z0-9]+", "_", str(text).lower()).strip("_")


def _rows(ctx: dict, prefix: str, frame: pd.DataFrame, key: str, columns) -> None:
    for _, row in frame.iterrows():
        for col in columns:
            if col in row:
                ctx[f"{prefix}.{row[key]}.{col}"] = row[col]


def _extremes(ctx: dict, prefix: str, frame: pd.DataFrame, name_col: str, value_col: str) -> None:
    f = frame.dropna(subset=[value_col]).sort_values([value_col, name_col], kind="mergesort")
    if len(f):
        for tag, row in (("min", f.iloc[0]), ("max", f.iloc[-1])):
            ctx[f"{prefix}.{tag}.name"] = row[name_col]
            ctx[f"{prefix}.{tag}.rate"] = row[value_col]


def run_context(run: Run) -> dict:
    """Every value of the run a template may use, by dotted key (numbers unformatted)."""
    m = run.meta
    ctx: dict = {
        "run.name": m.get("name", ""), "run.seed": int(m["seed"]), "run.id": run.run_id,
        "run.config": m.get("config", {}).get("path", ""),
        "run.output": m.get("config", {}).get("output_dir", str(run.path)),
        "run.path": str(run.path), "run.version": m.get("evidencechain_version", ""),
        "run.python": m.get("python", ""), "run.corpus": m.get("corpus", {}).get("name", ""),
        "run.test_corpus": m.get("test_corpus", ""),
        "run.calibration_fraction": m.get("config", {}).get("data", {}).get("calibration_fraction"),
        "run.aggregation": m.get("config", {}).get("detectors", {}).get("response_aggregation", ""),
        "run.primary": run.primary, "detectors.count": len(run.methods),
        "detectors.list": ", ".join(run.methods),
    }
    for k, v in m.get("components", {}).items():
        ctx[f"run.component.{k}"] = v
    for k, v in m.get("packages", {}).items():
        ctx[f"run.package.{k}"] = v
    for path, digest in sorted(m.get("inputs", {}).items()):
        ctx[f"run.input.{Path(path).name}"] = digest
        ctx[f"run.input.{Path(path).name}.short"] = digest[:12]
    ctx["run.inputs"] = "; ".join(f"`{Path(p).name}` (SHA-256 `{d[:16]}…`)"
                                  for p, d in sorted(m.get("inputs", {}).items()))
    for split, n in m.get("splits", {}).items():
        ctx[f"sources.{split}"] = n

    s = run.table("split_summary")
    _rows(ctx, "split", s, "split", s.columns)
    for col in ("sources", "responses", "hallucinated_responses", "sentences", "tokens", "hallucinated_tokens"):
        ctx[f"split.total.{col}"] = int(s[col].sum())
    ctx["split.total.hallucinated_token_rate"] = (ctx["split.total.hallucinated_tokens"]
                                                  / ctx["split.total.tokens"]) if ctx["split.total.tokens"] else math.nan
    ctx["split.total.response_rate"] = ctx["split.total.hallucinated_responses"] / ctx["split.total.responses"]

    t = run.table("task_rates")
    for _, row in t.iterrows():
        for col in ("sources", "responses", "hallucinated_responses", "hallucination_rate"):
            ctx[f"task.{row['task_type']}.{slug(row['source'])}.{col}"] = row[col]
    tt = t.groupby("task_type", sort=True)[["sources", "responses", "hallucinated_responses"]].sum().reset_index()
    tt["hallucination_rate"] = tt["hallucinated_responses"] / tt["responses"]
    _rows(ctx, "tasktype", tt, "task_type", tt.columns)
    _extremes(ctx, "tasktype", tt, "task_type", "hallucination_rate")
    ctx["tasktype.count"] = len(tt)
    ctx["collections.count"] = len(t)

    g = run.table("generator_rates")
    _rows(ctx, "gen", g, "model", g.columns)
    _extremes(ctx, "gen", g, "model", "hallucination_rate")
    ctx["gen.count"] = len(g)

    for level in (*LEVELS, "span"):
        frame = run.table(f"metrics_{level}", required=False)
        if frame is None or frame.empty:
            continue
        _rows(ctx, level, frame, "method", frame.columns)
        best = frame.loc[frame["f1"].fillna(-1).idxmax()]
        for col in frame.columns:
            ctx[f"best.{level}.{col}"] = best[col]

    bt = run.table("metrics_by_task", required=False)
    if bt is not None:
        for (level, task), part in bt.groupby(["level", "task_type"], sort=True):
            prefix = "bytask" if level == "word" else f"bytask_{level}"
            _rows(ctx, f"{prefix}.{task}", part, "method", METRIC_KEYS)
            best = part.loc[part["f1"].fillna(-1).idxmax()]
            ctx[f"{prefix}.{task}.best.method"] = best["method"]
            ctx[f"{prefix}.{task}.best.f1"] = best["f1"]

    ab = run.table("ablation", required=False)
    if ab is not None and len(ab):
        ctx["ablation.detector"] = ", ".join(dict.fromkeys(ab["detector"]))
        for _, row in ab.iterrows():
            for col in METRIC_KEYS:
                ctx[f"ablation.{row['level']}.{slug(row['variant'])}.{col}"] = row[col]

    at = run.table("attribution", required=False)
    if at is not None and len(at):
        for _, row in at.iterrows():
            ctx[f"attribution.{slug(row['method'])}.top1_accuracy"] = row["top1_accuracy"]
            ctx[f"attribution.{slug(row['method'])}.supported_sentences"] = row["supported_sentences"]
        best = at.loc[at["top1_accuracy"].fillna(-1).idxmax()]
        ctx["attribution.best.method"] = best["method"]
        ctx["attribution.best.top1_accuracy"] = best["top1_accuracy"]
        ctx["attribution.supported_sentences"] = int(at["supported_sentences"].iloc[0])

    cb = run.table("coverage_bins", required=False)
    if cb is not None and cb["responses"].sum():
        filled = cb[cb["responses"] > 0]
        for tag, row in (("low", filled.iloc[0]), ("high", filled.iloc[-1])):
            ctx[f"coverage.{tag}.bin"] = row["coverage_bin"]
            ctx[f"coverage.{tag}.responses"] = int(row["responses"])
            ctx[f"coverage.{tag}.coverage"] = row["mean_source_coverage"]
            ctx[f"coverage.{tag}.rate"] = row["mean_hallucinated_token_rate"]
        ctx["coverage.nonempty"] = len(filled)

    if run.has_word_labels:
        words = run.words
        per = words.groupby("response_id").agg(c=("novelty", lambda x: 1.0 - x.mean()), r=("label", "mean"))
        ctx["coverage.spearman"] = float(per["c"].rank().corr(per["r"].rank())) if len(per) > 2 else math.nan
        best = str(run.best("word")["method"])
        y, p = words["label"].to_numpy(), words[f"pred_{best}"].to_numpy()
        for name, a, b in (("tp", 1, 1), ("fp", 0, 1), ("fn", 1, 0), ("tn", 0, 0)):
            ctx[f"confusion.{name}"] = int(np.sum((y == a) & (p == b)))
        ctx["confusion.method"] = best

    rt = run.table("runtime")
    _rows(ctx, "runtime", rt, "method", rt.columns)
    ctx["runtime.classes"] = ", ".join(sorted(set(rt["runtime_class"])))
    return ctx


def fmt(value) -> str:
    """How a context value reads in prose: 3 decimals, thousands separators; NaN is an error."""
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if math.isnan(value):
            raise ValueError("missing value (NaN)")
        return f"{value:.3f}"
    return str(value)
