"""Result tables of a run, computed from scored tables (each becomes a CSV): the long metric rows
of every unit (`metrics.csv`) and the detailed tables of the first unit. The formulas are in
`metrics`."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .detectors import choose_threshold
from .metrics import (
    METRIC_COLUMNS,
    balanced_accuracy,
    binary_metrics,
    flagged,
    flagged_share,
    span_metrics,
    span_recall_by_type,
)
from .model import EvidenceChain, ScoredTables
from .plan import UNIT_COLUMNS, Unit
from .records import Corpus
from .wordlevel import mean_run_words

FLOOR = "Flag everything (floor)"
GRID_COLUMNS = [*UNIT_COLUMNS, "relevance", "selection", "aggregation", "checker", "status", "mean_selected",
                *METRIC_COLUMNS, "calibration_roc_auc", "method"]
LONG_COLUMNS = [*UNIT_COLUMNS, "level", "method", "family", "aggregation", *METRIC_COLUMNS,
                "balanced_accuracy", "flagged_share", "flagged_share_calibration", "calibration_roc_auc",
                "span_rule", "span_words", "span_words_calibration", "span_words_gold", "span_words_gold_calibration"]


def _metric_rows(frame: pd.DataFrame, methods: list[str], thresholds: dict, level: str,
                 extra: dict | None = None) -> list[dict]:
    rows = []
    for name in methods:
        if level not in thresholds[name] or f"risk_{name}" not in frame:
            continue
        m = binary_metrics(frame["label"], frame[f"risk_{name}"], thresholds[name][level],
                           frame.get(f"pred_{name}"))
        rows.append({**(extra or {}), "method": name, **m})
    return rows


def level_frames(scored: ScoredTables) -> dict[str, pd.DataFrame]:
    """The evaluation units of each level: words (punctuation excluded), sentences, responses."""
    frames = {"sentence": scored.sentences, "response": scored.responses}
    if len(scored.tokens) and (scored.tokens["label"] >= 0).all():
        words = scored.tokens[scored.tokens["is_punct"] == 0].copy()
        task = scored.responses.set_index("response_id")["task_type"]
        words["task_type"] = words["response_id"].map(task)
        frames["word"] = words
    return frames


def detection_metrics(scored: ScoredTables, methods: list[str], thresholds: dict) -> dict[str, pd.DataFrame]:
    """metrics_<level>.csv and metrics_by_task.csv tables."""
    out = {}
    by_task = []
    for level, frame in level_frames(scored).items():
        out[f"metrics_{level}"] = pd.DataFrame(_metric_rows(frame, methods, thresholds, level),
                                               columns=["method", *METRIC_COLUMNS])
        for task, part in frame.groupby("task_type", sort=True):
            by_task += _metric_rows(part, methods, thresholds, level, {"level": level, "task_type": task})
    out["metrics_by_task"] = pd.DataFrame(by_task, columns=["level", "task_type", "method", *METRIC_COLUMNS])
    return out


def span_table(scored: ScoredTables, corpus: Corpus, methods: list[str]) -> pd.DataFrame:
    """Character-overlap span metrics (RAGTruth protocol) for each method."""
    tokens = scored.tokens
    gold = {r.id: (r.response, [(lab.start, lab.end) for lab in r.labels]) for r in corpus.responses}
    rows = []
    for name in methods:
        if f"pred_{name}" not in tokens:
            continue
        rows.append({"method": name, **span_metrics(gold, scored.features.parsed, tokens,
                                                    tokens[f"pred_{name}"].to_numpy() > 0)})
    return pd.DataFrame(rows)


def span_type_table(scored: ScoredTables, corpus: Corpus, methods: list[str]) -> pd.DataFrame:
    """Recall of gold spans by label type (e.g. Evident Conflict, Subtle Baseless Info) per method."""
    tokens = scored.tokens
    gold = {r.id: (r.response, [(lab.start, lab.end, lab.label_type) for lab in r.labels])
            for r in corpus.responses}
    rows = [{"method": name, **r} for name in methods if f"pred_{name}" in tokens
            for r in span_recall_by_type(gold, scored.features.parsed, tokens, tokens[f"pred_{name}"].to_numpy() > 0)]
    return pd.DataFrame(rows, columns=["method", "label_type", "gold_spans", "gold_chars", "overlap_chars", "recall"])


def dataset_tables(parts: dict[str, tuple[str, ScoredTables | None]], described: list[Corpus]
                   ) -> dict[str, pd.DataFrame]:
    """split_summary (each split with the corpus it came from), task_rates and generator_rates
    (of each corpus in `described`, all its splits), each row naming its corpus."""
    split_rows = []
    for split, (corpus_name, t) in parts.items():
        if t is None:
            continue
        words = t.tokens[t.tokens["is_punct"] == 0] if len(t.tokens) else t.tokens
        hall = int((words["label"] == 1).sum()) if len(words) else 0
        split_rows.append({
            "corpus": corpus_name,
            "split": split,
            "sources": t.responses["source_id"].nunique(),
            "responses": len(t.responses),
            "hallucinated_responses": int(t.responses["label"].sum()),
            "sentences": len(t.sentences),
            "tokens": len(words),
            "hallucinated_tokens": hall,
            "hallucinated_token_rate": hall / len(words) if len(words) else float("nan"),
        })
    resp = pd.DataFrame([{
        "corpus": corpus.name, "source_id": r.source_id, "task_type": corpus.sources[r.source_id].task_type,
        "source": corpus.sources[r.source_id].source, "model": r.model,
        "temperature": r.temperature, "hallucinated": int(r.hallucinated),
    } for corpus in described for r in corpus.responses])
    task = resp.groupby(["corpus", "task_type", "source"], sort=True).agg(
        sources=("source_id", "nunique"), responses=("hallucinated", "size"),
        hallucinated_responses=("hallucinated", "sum")).reset_index()
    task["hallucination_rate"] = task["hallucinated_responses"] / task["responses"]
    gen = resp.groupby(["corpus", "model"], sort=True).agg(
        responses=("hallucinated", "size"), hallucinated_responses=("hallucinated", "sum"),
        mean_temperature=("temperature", "mean")).reset_index()
    gen["hallucination_rate"] = gen["hallucinated_responses"] / gen["responses"]
    return {"split_summary": pd.DataFrame(split_rows), "task_rates": task, "generator_rates": gen}


def coverage_bins(scored: ScoredTables, edges: list[float]) -> pd.DataFrame:
    """Test responses binned by source coverage (1 - token novelty rate) vs hallucinated-token rate."""
    words = scored.tokens[scored.tokens["is_punct"] == 0]
    per = words.groupby("response_id", sort=False).agg(
        coverage=("novelty", lambda x: 1.0 - x.mean()), hallucinated=("label", "mean"))
    labels = [f"{'[' if k == 0 else '('}{a:.1f}, {b:.1f}]" for k, (a, b) in enumerate(zip(edges, edges[1:]))]
    bins = pd.cut(per["coverage"], bins=edges, labels=labels, include_lowest=True)
    grouped = per.groupby(bins, observed=False)
    out = pd.DataFrame({
        "coverage_bin": labels,
        "responses": grouped.size().to_numpy(),
        "mean_source_coverage": grouped["coverage"].mean().to_numpy(),
        "mean_hallucinated_token_rate": grouped["hallucinated"].mean().to_numpy(),
    })
    return out


def runtime_class(seconds: float) -> str:
    """A coarse runtime class that stays stable run to run (measured seconds live in run.json)."""
    for limit, label in ((60, "< 1 min"), (600, "< 10 min"), (3600, "< 1 h")):
        if seconds < limit:
            return label
    return ">= 1 h"


def thresholds_table(thresholds: dict, span_rules: dict | None = None) -> pd.DataFrame:
    """One row per detector and level; the word level carries its span rule (gap, dropping)."""
    rules = span_rules or {}
    rows = [{"method": m, "level": level, "threshold": t,
             "span_gap": rules[m]["gap"] if level == "word" and m in rules else np.nan,
             "span_drop_stopword_only": rules[m]["drop_function_only"] if level == "word" and m in rules else np.nan}
            for m, levels in thresholds.items() for level, t in sorted(levels.items())]
    return pd.DataFrame(rows, columns=["method", "level", "threshold", "span_gap", "span_drop_stopword_only"])


def ensure_numeric(frame: pd.DataFrame) -> pd.DataFrame:
    """Replace infinities so CSVs stay portable."""
    return frame.replace([np.inf, -np.inf], np.nan)


def triplet_verdict_table(claims: pd.DataFrame | None, corpus: Corpus) -> pd.DataFrame:
    """Verdicts of claim triplets against gold derived from the spans: a triplet overlapping
    a gold span is a gold Contradiction (conflict labels) or Neutral (baseless labels), any other
    triplet a gold Entailment. One row per (checker, gold, predicted) with its count; checker is
    `rules`, and `learned checker` too when its verdicts are present."""
    columns = ["checker", "gold", "predicted", "triplets"]
    if claims is None or claims.empty:
        return pd.DataFrame(columns=columns)
    spans = {r.id: [(lab.start, lab.end, "Conflict" in lab.label_type) for lab in r.labels] for r in corpus.responses}
    gold = []
    for rid, a, b in zip(claims["response_id"], claims["start"], claims["end"]):
        hits = [conflict for s, e, conflict in spans.get(rid, ()) if s < b and e > a]
        gold.append("Entailment" if not hits else ("Contradiction" if any(hits) else "Neutral"))
    sources = [("rules", "verdict"), ("learned checker", "verdict_checker")]
    frames = [pd.DataFrame({"checker": name, "gold": gold, "predicted": claims[col].to_numpy()})
              for name, col in sources if col in claims]
    frame = pd.concat(frames, ignore_index=True)
    counts = frame.value_counts(sort=False).rename("triplets").reset_index()
    order = {name: i for i, (name, _) in enumerate(sources)}
    return counts.sort_values(["checker", "gold", "predicted"], key=lambda c: c.map(order) if c.name == "checker"
                              else c, ignore_index=True)[columns]


def no_info_table(scored: ScoredTables, methods: list[str]) -> pd.DataFrame:
    """Share of NO-INFO sentences each detector flags (a false positive: they assert nothing).
    NO-INFO is the gold tier where the corpus has one (audit), else tier 1's decision (marked)."""
    s = scored.sentences
    if "no_info_gold" in s and (s["no_info_gold"] == 1).any():
        part, basis = s[s["no_info_gold"] == 1], "gold tier"
    elif "tier" in s and (s["tier"] == "NO-INFO").any():
        part, basis = s[(s["tier"] == "NO-INFO") & (s["label"] == 0)], "tier 1 (unlabelled sentences only)"
    else:
        part = s.iloc[:0]
    if part.empty:
        return pd.DataFrame(columns=["method", "basis", "sentences", "flagged", "false_positive_rate"])
    rows = [{"method": m, "basis": basis, "sentences": len(part), "flagged": int(part[f"pred_{m}"].sum()),
             "false_positive_rate": float(part[f"pred_{m}"].mean()) if len(part) else float("nan")}
            for m in methods if f"pred_{m}" in part]
    return pd.DataFrame(rows)


def copy_rate_table(corpus: Corpus, n_max: int = 4) -> pd.DataFrame:
    """RefChecker's copy-rate analysis: the share of each answer's word n-grams (n = 1..4) found
    in its source, with the answer's label."""
    from .features.triplets import copy_rates
    from .text.chunks import build_evidence

    rows, texts, ns = [], {}, range(1, n_max + 1)
    for r in corpus.responses:
        if r.source_id not in texts:
            texts[r.source_id] = build_evidence(corpus.source_of(r)).text
        evidence = texts[r.source_id]
        rows.append({"response_id": r.id, "label": int(r.hallucinated),
                     **{f"copy_{n}": v for n, v in zip(ns, copy_rates(r.response, evidence, ns))}})
    return pd.DataFrame(rows)


def unit_claim_tables(row: dict, scored: ScoredTables, corpus: Corpus, methods: list[str]) -> dict[str, pd.DataFrame]:
    """The claim and tier tables of one scored unit (empty tables are left out), each row
    prefixed with the unit's columns: triplet_verdicts, no_info_false_positives, copy_rate."""
    out = {"no_info_false_positives": no_info_table(scored, methods)}
    if corpus.span_labels:
        out["triplet_verdicts"] = triplet_verdict_table(scored.features.claims, corpus)
    if scored.features.claims is not None:
        out["copy_rate"] = copy_rate_table(corpus)
    return {name: frame.assign(**row)[[*row, *frame.columns]] for name, frame in out.items() if len(frame)}


def unit_metrics(unit: Unit, model: EvidenceChain, calibration, scored, test_corpus,
                 skipped: dict[str, str] | None = None) -> list[dict]:
    """Long-format rows: every level with labels on both the calibration and test side
    (none for the `skipped` levels: their sentence labels are only the answer's label repeated)."""
    rows = []
    if "word" in model.thresholds[model.primary] and len(scored.tokens):
        span = span_table(scored, test_corpus, list(model.reportable()))
        lengths = {"span_words_gold": mean_run_words(scored.tokens, scored.tokens["label"] > 0),
                   "span_words_gold_calibration": mean_run_words(calibration.tokens, calibration.tokens["label"] > 0)}
        for r in span.to_dict("records"):
            name = r["method"]
            rows.append({**unit.row(), "level": "span", "family": _family(model, name), "aggregation": "",
                         **{k: v for k, v in r.items() if k in ("method", "precision", "recall", "f1")},
                         "threshold": model.thresholds[name]["word"], "n": r["gold_chars"],
                         "span_rule": _span_rule(model, name), **lengths,
                         "span_words": mean_run_words(scored.tokens, scored.tokens[f"pred_{name}"] > 0),
                         "span_words_calibration": mean_run_words(calibration.tokens,
                                                                  calibration.tokens[f"pred_{name}"] > 0)})
    cal_frames, test_frames = level_frames(calibration), level_frames(scored)
    for level, frame in test_frames.items():
        cal = cal_frames.get(level)
        if cal is None or level in (skipped or {}):
            continue
        for name in model.reportable():
            cut = model.thresholds[name].get(level)
            if cut is None:
                continue
            col = f"risk_{name}"
            m = binary_metrics(frame["label"], frame[col], cut, frame.get(f"pred_{name}"))
            cal_m = binary_metrics(cal["label"], cal[col], cut, cal.get(f"pred_{name}"))
            rows.append({**unit.row(), "level": level, "method": name,
                         "family": _family(model, name),
                         "aggregation": model.aggregation_of(name) if level == "response" else "",
                         **m, "balanced_accuracy": balanced_accuracy(frame["label"], frame[col], cut,
                                                                     frame.get(f"pred_{name}")),
                         "flagged_share": flagged_share(frame, name, cut),
                         "flagged_share_calibration": flagged_share(cal, name, cut),
                         "calibration_roc_auc": cal_m["roc_auc"]})
        if level in ("response", "word"):
            ones = np.ones(len(frame))
            rows.append({**unit.row(), "level": level, "method": FLOOR, "family": "floor", "aggregation": "",
                         **binary_metrics(frame["label"], ones, 1.0),
                         "balanced_accuracy": 0.5, "flagged_share": 1.0, "flagged_share_calibration": 1.0,
                         "calibration_roc_auc": float("nan")})
    return rows


def _span_rule(model: EvidenceChain, name: str) -> str:
    rule = model.span_rules.get(name, {})
    return f"gap {rule.get('gap', 0)}" + (", drop stop-word-only spans" if rule.get("drop_function_only") else "")


def _family(model: EvidenceChain, name: str) -> str:
    if name not in model.detectors:
        return "stacked"
    return "supervised" if model.detectors[name].tags()["supervised"] else "unsupervised"


def response_method_rows(unit: Unit, result, labels_cal: pd.Series, labels_test: pd.Series) -> list[dict]:
    """Long rows of response-level families (Provenance, Length), thresholds from calibration."""
    rows = []
    for method, (cal, test) in result.scores.items():
        cut = choose_threshold(labels_cal.to_numpy(), cal.to_numpy(), unit.spec.threshold_metric)
        rows.append({**unit.row(), "level": "response", "method": method, "family": result.families[method],
                     "aggregation": "", **binary_metrics(labels_test, test, cut),
                     "balanced_accuracy": balanced_accuracy(labels_test, test, cut),
                     "flagged_share": flagged(test, cut), "flagged_share_calibration": flagged(cal, cut),
                     "calibration_roc_auc": binary_metrics(labels_cal, cal, cut)["roc_auc"]})
    return rows


def grid_rows(unit: Unit, result, labels_cal: pd.Series, labels_test: pd.Series) -> list[dict]:
    """Every Provenance configuration's test metrics at its calibration threshold."""
    rows = []
    for r in result.grid:
        row = {**unit.row(), **{k: v for k, v in r.items() if k != "_scores"}}
        if "_scores" in r:
            cal, test = r["_scores"]
            cut = choose_threshold(labels_cal.to_numpy(), cal.to_numpy(), unit.spec.threshold_metric)
            row.update(binary_metrics(labels_test, test, cut))
        rows.append(row)
    return rows
