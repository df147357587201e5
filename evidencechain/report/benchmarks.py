"""Benchmark tables and figures from a run's long `metrics.csv`, beside the published rows.

A run is reported by its config name: a registered benchmark (`evidencechain.data.benchmarks`)
gets the tables of its section kind (`SECTIONS`), with its captions from `data/sections.toml`
and its published rows from `data/published.toml` (with the scope they were measured on);
`transfer` gets the transfer matrix; any other run the generic response-level table.
"""
from __future__ import annotations

import tomllib
from importlib import resources

import numpy as np
import pandas as pd
from sklearn.metrics import roc_curve

from ..data.benchmarks import benchmarks
from .realdata import sections
from .render import Table
from .runs import Run

FLOOR = "Flag everything (floor)"
SUBSET_TITLES = {"qa": "QA", "dialogue": "Dialogue", "summarization": "Summarization"}
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"]


def published() -> dict:
    """Published rows of each benchmark (`data/published.toml`, or its registry entry's)."""
    rows = tomllib.loads(resources.files(__package__).joinpath("data/published.toml").read_text("utf-8"))
    return rows | {b.name: b.published for b in benchmarks().values() if b.published is not None}


def fit_label(row) -> str:
    """How a row's detectors were fitted, for a reader: corpus, or leave-one-subset-out."""
    if "[-" in str(row["unit"]):
        return f"{row['fit']} (leave-one-domain-out)"
    return str(row["fit"])


def _metrics(run: Run) -> pd.DataFrame:
    """The long metrics table; rows that do not depend on the fit (unsupervised detectors except
    TF-IDF, whose vocabulary comes from the fit corpus; the floor) kept once per scored corpus."""
    m = run.table("metrics").copy()
    m["subset"] = m["subset"].astype(object).fillna("").astype(str)
    m["fitted_on"] = m.apply(fit_label, axis=1)
    first = m.groupby("test", sort=False)["fitted_on"].transform("first")
    fit_free = ((m["family"] == "unsupervised") & (m["method"] != "TFIDF")) | (m["family"] == "floor")
    repeated = fit_free & (m["fitted_on"] != first)
    return m[~repeated].reset_index(drop=True)


def _pick(m: pd.DataFrame, level: str, columns: dict[str, str], keys=("fitted_on", "method")) -> pd.DataFrame:
    part = m[m["level"] == level].set_index(list(keys))[[c for c in columns if c in m]]
    return part.rename(columns=columns)


SPAN_SHAPE = {"span_rule": "span_rule", "span_words": "span_words", "span_words_calibration": "span_words_calibration"}


def _span_shape_note(m: pd.DataFrame) -> str:
    """The gold spans' mean length on the scored and the calibration data, for the caption."""
    spans = m[m["level"] == "span"]
    if "span_words_gold" not in spans or spans["span_words_gold"].isna().all():
        return ""
    gold = spans.groupby("calibrated_on", sort=False)[["span_words_gold", "span_words_gold_calibration"]].first()
    cal = "; ".join(f"{v:.1f} on the calibration split of {k}" for k, v in gold["span_words_gold_calibration"].items())
    return (f" Span words: mean length in words of the predicted spans, on the scored and on the calibration "
            f"data (gold spans: {gold['span_words_gold'].iloc[0]:.1f} words here; {cal}). Span rule: "
            "the largest gap of function words a span bridges, and whether spans of stop words only are "
            "dropped, both chosen on calibration words.")


def span_types(run: Run, test: str) -> list[Table]:
    """Recall of gold spans by label type (conflict, baseless, ...) for each fitted detector."""
    if not run.has("metrics_span_by_type"):
        return []
    t = run.table("metrics_span_by_type")
    t = t[t["test"] == test].copy()
    if t.empty:
        return []
    t["fitted_on"] = t.apply(fit_label, axis=1)
    kept = _metrics(run).query("level == 'span'")[["fitted_on", "method"]]
    t = t.merge(kept.drop_duplicates(), on=["fitted_on", "method"])
    frame = t.pivot_table(index=["fitted_on", "method"], columns="label_type", values="recall", sort=False)
    counts = t.drop_duplicates("label_type").set_index("label_type")["gold_spans"]
    frame.columns = [f"{c} ({int(counts[c])} spans)" for c in frame.columns]
    caption = (f"{test}: character recall of the gold spans of each label type, at the word thresholds and "
               "span rules fixed on calibration (predicted spans carry no type, so precision is not split).")
    return [Table(f"{test}_span_types", caption, frame.reset_index(), titles=_TITLES)]


def _ordered_rows(m: pd.DataFrame) -> list[tuple[str, str]]:
    rows = m[m["level"] == "response"][["fitted_on", "method"]].drop_duplicates()
    return [tuple(r) for r in rows.itertuples(index=False)]


def _texts(name: str) -> dict:
    return sections().get(name, {})


def spans(run: Run, name: str) -> list[Table]:
    """Answers with human spans, test data only: response, span and word level, scored once."""
    m = _metrics(run)
    m = m[m["test"] == run.meta["units"][0]["test"]] if "units" in run.meta else m
    parts = [_pick(m, "response", {"precision": "response_precision", "recall": "response_recall",
                                   "f1": "response_f1", "roc_auc": "response_roc_auc",
                                   "calibration_roc_auc": "response_calibration_roc_auc"}),
             _pick(m, "span", {"precision": "span_precision", "recall": "span_recall", "f1": "span_f1",
                               **SPAN_SHAPE}),
             _pick(m, "word", {"f1": "word_f1", "flagged_share": "word_flagged_share",
                               "flagged_share_calibration": "word_flagged_share_calibration",
                               "calibration_roc_auc": "word_calibration_roc_auc"})]
    frame = pd.concat(parts, axis=1).reindex(pd.MultiIndex.from_tuples(_ordered_rows(m))).reset_index()
    frame = frame.rename(columns={"level_0": "fitted_on", "level_1": "method"})
    text = _texts(name)
    frame.insert(2, "scope", text["scope"])
    pub = pd.DataFrame([{"fitted_on": "", "method": p["system"], "scope": p["scope"],
                         "response_f1": p.get("response_f1", np.nan), "span_f1": p.get("span_f1", np.nan)}
                        for p in published().get(name, [])])
    frame = pd.concat([frame, pub], ignore_index=True)
    caption = text["caption"] + _span_shape_note(m)
    return [Table(name, caption, frame, titles=_TITLES), *span_types(run, name)]


def domains(run: Run, name: str) -> list[Table]:
    """Response level per domain, balanced accuracy at thresholds from each domain's own split."""
    m = _metrics(run)
    m = m[(m["level"] == "response") & (m["test"] == name) & (m["family"] != "floor")]
    pub = published()[name]
    names = [d for d in pub["domains"] if d in set(m["subset"])]
    ba = m.pivot_table(index=["fitted_on", "method"], columns="subset", values="balanced_accuracy", sort=False)
    grouped = m.groupby(["fitted_on", "method"], sort=False)
    frame = ba.reindex(columns=names)
    frame["mean"] = frame.mean(axis=1)
    frame["mean_roc_auc"] = grouped["roc_auc"].mean()
    if "calibration_roc_auc" in m:
        frame["mean_calibration_roc_auc"] = grouped["calibration_roc_auc"].mean()
    frame = frame.reset_index()
    rows = [{"fitted_on": "published", "method": system, **dict(zip(pub["domains"], np.array(v) / 100)),
             "mean": float(np.mean(v)) / 100, "mean_roc_auc": np.nan} for system, v in pub["systems"].items()]
    frame = pd.concat([frame, pd.DataFrame(rows)], ignore_index=True)
    caption = _texts(name)["caption"].format(reference=pub["reference"])
    return [Table(name, caption, frame, titles=_TITLES)]


def summaries(run: Run, name: str) -> list[Table]:
    """Summaries with erroneous words marked: summary level and word level, scored once."""
    m = _metrics(run)
    m = m[m["test"] == name]
    parts = [_pick(m, "response", {"balanced_accuracy": "summary_balanced_accuracy", "roc_auc": "summary_roc_auc",
                                   "f1": "summary_f1", "calibration_roc_auc": "summary_calibration_roc_auc"}),
             _pick(m, "word", {"precision": "word_precision", "recall": "word_recall", "f1": "word_f1",
                               "flagged_share": "word_flagged_share",
                               "flagged_share_calibration": "word_flagged_share_calibration",
                               "calibration_roc_auc": "word_calibration_roc_auc"}),
             _pick(m, "span", {"f1": "span_f1", **SPAN_SHAPE})]
    frame = pd.concat(parts, axis=1).reindex(pd.MultiIndex.from_tuples(_ordered_rows(m))).reset_index()
    frame = frame.rename(columns={"level_0": "fitted_on", "level_1": "method"})
    frame["note"] = ""
    pub = pd.DataFrame([{"fitted_on": "published", "method": p["system"],
                         "note": f"balanced accuracy {p['balanced_accuracy_cnndm']:.3f} (CNN/DM), "
                                 f"{p['balanced_accuracy_xsum']:.3f} (XSum); {p['scope']}"}
                        for p in published().get(name, [])])
    frame = pd.concat([frame, pub], ignore_index=True)
    caption = _texts(name)["caption"] + _span_shape_note(m)
    return [Table(name, caption, frame, titles=_TITLES), *span_types(run, name)]


def subsets(run: Run, name: str) -> list[Table]:
    """Response-level labels per subset (task), beside published rows; the Provenance grid."""
    m = _metrics(run)
    m = m[(m["level"] == "response") & (m["test"] == name)]
    m = m.assign(label=np.where(m["fit"] == m["test"], m["method"], m["method"] + " (fit on " + m["fit"] + ")"))
    m = m[~((m["fit"] != m["test"]) & (m["family"].isin(["unsupervised", "floor"])))]
    names = list(dict.fromkeys(m["subset"]))
    wide = m.pivot_table(index="label", columns="subset", values=["roc_auc", "accuracy", "f1"], sort=False)
    frame = pd.DataFrame({"method": list(dict.fromkeys(m["label"]))})
    for s in names:
        for metric in ("roc_auc", "accuracy", "f1"):
            frame[f"{s}_{metric}"] = frame["method"].map(wide[(metric, s)])
    for p in published().get(name, []):
        row = {"method": f"{p['system']} (published)"}
        for s in names:
            for metric in ("roc_auc", "accuracy", "f1"):
                row[f"{s}_{metric}"] = p.get(s, {}).get(metric, np.nan)
        frame = pd.concat([frame, pd.DataFrame([row])], ignore_index=True)
    titles = {f"{s}_{k}": f"{SUBSET_TITLES.get(s, s)} {t}" for s in names
              for k, t in (("roc_auc", "ROC-AUC"), ("accuracy", "Acc."), ("f1", "F1"))}
    text = _texts(name)
    tables = [Table(f"{name}_comparison", text["caption"], frame, titles={"method": "Method", **titles})]
    if run.has("provenance_grid"):
        g = run.table("provenance_grid")
        g = g[g["test"] == name]
        keys = ["relevance", "selection", "aggregation", "checker"]
        grid = g.pivot_table(index=keys, columns="subset", values="roc_auc", sort=False, dropna=False)
        grid = grid.reindex(pd.MultiIndex.from_frame(g[keys].drop_duplicates())).reset_index()
        grid.columns = [str(c) for c in grid.columns]
        tables.append(Table(f"{name}_provenance_grid", text["grid_caption"], grid,
                            titles={s: f"{SUBSET_TITLES.get(s, s)} ROC-AUC" for s in names}))
    return tables


SECTIONS = {"spans": spans, "domains": domains, "summaries": summaries, "subsets": subsets}
"""Section kind (`Benchmark.section`) -> its tables, from the run and the benchmark's name."""


def transfer(run: Run) -> list[Table]:
    tables = []
    for metric, title in (("roc_auc", "ROC-AUC"), ("balanced_accuracy", "balanced accuracy")):
        frame = transfer_matrix(run, metric).reset_index()
        frame.insert(1, "method", run.primary)
        tables.append(Table(f"transfer_{metric}", f"Transfer matrix: response-level {title} of "
                            f"{run.primary} fitted on the row's corpus (train split; thresholds from its "
                            "calibration split) and scored on the column's test split. The diagonal is "
                            "in-distribution; off-diagonal cells are transfer. Per-domain cells are averaged "
                            "over domains.", frame, titles=_TITLES))
    return tables


def transfer_matrix(run: Run, metric: str) -> pd.DataFrame:
    m = _metrics(run)
    m = m[(m["level"] == "response") & (m["method"] == run.primary)]
    cells = m.groupby(["fitted_on", "test"], sort=False)[metric].mean()
    frame = cells.unstack("test")
    frame = frame.reindex(columns=list(dict.fromkeys(m["test"])), index=list(dict.fromkeys(m["fitted_on"])))
    frame.index.name = "fitted_on"
    return frame


def generic(run: Run) -> list[Table]:
    m = _metrics(run)
    m = m[m["level"] == "response"]
    frame = m[["fitted_on", "test", "subset", "method", "precision", "recall", "f1", "roc_auc",
               "balanced_accuracy", "flagged_share"]].reset_index(drop=True)
    return [Table(f"{run.meta['name']}_response", f"Response-level results of run {run.meta['name']}.", frame,
                  titles=_TITLES)]


def _tables(run: Run) -> list[Table]:
    name = run.meta["name"]
    if name == "transfer":
        return transfer(run)
    bench = benchmarks().get(name)
    return SECTIONS[bench.section](run, name) if bench else generic(run)


def benchmark_tables(run: Run) -> list[Table]:
    from .claims import claim_tables

    return [*_tables(run), *claim_tables(run)]


def benchmark_figures(run: Run) -> dict:
    """name -> matplotlib figure of a benchmark run (the transfer heatmap, the ROC curves of a
    benchmark labelled per subset, the copy rate where claims were extracted)."""
    name = run.meta["name"]
    if name == "transfer":
        return {"transfer_matrix": transfer_figure(run)}
    from .figures import copy_rate

    out = {}
    bench = benchmarks().get(name)
    if bench and bench.section == "subsets" and run.has("response_scores"):
        out[f"{name}_roc"] = subsets_roc(run, name)
    if (fig := copy_rate(run)) is not None:
        out[f"{name}_copy_rate"] = fig
    return out


def transfer_figure(run: Run):
    import matplotlib.pyplot as plt
    from matplotlib.colors import TwoSlopeNorm

    panels = [(transfer_matrix(run, k), t) for k, t in (("roc_auc", "ROC-AUC"), ("balanced_accuracy", "Balanced accuracy"))]
    with plt.rc_context({"font.size": 8, "font.family": "DejaVu Sans", "pdf.fonttype": 42}):
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), layout="constrained")
        for ax, (frame, title) in zip(axes, panels):
            values = frame.to_numpy(dtype=float)
            cmap = plt.get_cmap("RdBu_r").copy()
            cmap.set_bad("#d9d9d9")  # not measured: grey, never the white of chance
            image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap,
                              norm=TwoSlopeNorm(vcenter=0.5, vmin=0.2, vmax=1.0), aspect="auto")
            ax.set_xticks(range(frame.shape[1]), frame.columns, rotation=35, ha="right")
            ax.set_yticks(range(frame.shape[0]), frame.index)
            for i in range(values.shape[0]):
                for j in range(values.shape[1]):
                    if not np.isnan(values[i, j]):
                        ax.text(j, i, f"{values[i, j]:.2f}", ha="center", va="center", fontsize=7,
                                color="white" if abs(values[i, j] - 0.5) > 0.3 else "black")
            ax.set_title(f"{title} of {run.primary}")
            ax.set_xlabel("scored corpus (test split)")
            ax.set_ylabel("fitted on")
        fig.colorbar(image, ax=axes, shrink=0.8, label="white = 0.5 (chance); grey = not measured")
    return fig


def subsets_roc(run: Run, name: str):
    """Response-level ROC curves per subset: fitted on the benchmark's own train split or on audit."""
    import matplotlib.pyplot as plt

    scores = run.table("response_scores")
    m = _metrics(run)
    subsets = [s for s in dict.fromkeys(m["subset"]) if s]
    own, audit = f"{name} -> {name}[{{s}}]", f"audit -> {name}[{{s}}]"
    methods = [(own, run.primary, "-"), (audit, run.primary, "-."),
               (own, "Provenance (ours, best on calibration)", "-"), (own, "NLI_Rules", "-"),
               (own, "Length only (diagnostic)", "--")]
    with plt.rc_context({"font.size": 9, "font.family": "DejaVu Sans", "pdf.fonttype": 42,
                         "axes.spines.top": False, "axes.spines.right": False}):
        fig, axes = plt.subplots(1, len(subsets), figsize=(3.3 * len(subsets), 5.7), squeeze=False,
                                 layout="constrained")
        for ax, subset in zip(axes[0], subsets):
            ax.plot([0, 1], [0, 1], color="#999999", lw=0.8, ls=":", label="chance")
            for k, (unit, method, ls) in enumerate(methods):
                part = scores[(scores["unit"] == unit.format(s=subset)) & (scores["method"] == method)]
                if part.empty or part["label"].nunique() < 2:
                    continue
                fpr, tpr, _ = roc_curve(part["label"], part["risk"])
                auc = m[(m["unit"] == unit.format(s=subset)) & (m["method"] == method) & (m["level"] == "response")]
                label = method + (" (fit on audit)" if unit.startswith("audit") else "")
                ax.plot(fpr, tpr, color=PALETTE[k % len(PALETTE)], lw=1.4, ls=ls,
                        label=f"{label} ({float(auc['roc_auc'].iloc[0]):.3f})")
            ax.set_title(SUBSET_TITLES.get(subset, subset))
            ax.set_xlabel("False positive rate")
            ax.set_ylabel("True positive rate")
            ax.set_aspect("equal")
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), frameon=False, fontsize=7,
                      title="method (test ROC-AUC)", title_fontsize=7)
    return fig


_TITLES = {"fitted_on": "Fitted on", "scope": "Scored on", "note": "Note",
           "response_precision": "Resp. P", "response_recall": "Resp. R", "response_f1": "Resp. F1",
           "response_roc_auc": "Resp. ROC-AUC", "span_precision": "Span P", "span_recall": "Span R",
           "span_f1": "Span F1", "word_precision": "Word P", "word_recall": "Word R", "word_f1": "Word F1",
           "word_flagged_share": "Words flagged", "word_flagged_share_calibration": "Words flagged (calib.)",
           "summary_balanced_accuracy": "Summary bal. acc.", "summary_roc_auc": "Summary ROC-AUC",
           "summary_f1": "Summary F1", "mean": "Mean of domains", "mean_roc_auc": "Mean ROC-AUC",
           "balanced_accuracy": "Bal. acc.", "flagged_share": "Flagged", "span_rule": "Span rule",
           "span_words": "Span words", "span_words_calibration": "Span words (calib.)",
           "response_calibration_roc_auc": "Resp. ROC-AUC (calib.)", "word_calibration_roc_auc": "Word ROC-AUC (calib.)",
           "summary_calibration_roc_auc": "Summary ROC-AUC (calib.)",
           "mean_calibration_roc_auc": "Mean ROC-AUC (calib.)"}
