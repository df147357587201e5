"""Benchmark tables and figures from a run's long `metrics.csv`, beside the published rows.

A run is reported by its config name: `ragtruth_qa`, `summedits`, `cliff`, `halueval`,
`transfer`; any other run gets the generic response-level table. Published numbers live in
`data/published.toml` with the scope they were measured on.
"""
from __future__ import annotations

import tomllib
from importlib import resources

import numpy as np
import pandas as pd
from sklearn.metrics import roc_curve

from .render import Table
from .runs import Run

FLOOR = "Flag everything (floor)"
SUBSET_TITLES = {"qa": "QA", "dialogue": "Dialogue", "summarization": "Summarization"}
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"]


def published() -> dict:
    return tomllib.loads(resources.files(__package__).joinpath("data/published.toml").read_text("utf-8"))


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


def ragtruth_qa(run: Run) -> list[Table]:
    m = _metrics(run)
    m = m[m["test"] == run.meta["units"][0]["test"]] if "units" in run.meta else m
    parts = [_pick(m, "response", {"precision": "response_precision", "recall": "response_recall",
                                   "f1": "response_f1", "roc_auc": "response_roc_auc"}),
             _pick(m, "span", {"precision": "span_precision", "recall": "span_recall", "f1": "span_f1",
                               **SPAN_SHAPE}),
             _pick(m, "word", {"f1": "word_f1", "flagged_share": "word_flagged_share",
                               "flagged_share_calibration": "word_flagged_share_calibration"})]
    frame = pd.concat(parts, axis=1).reindex(pd.MultiIndex.from_tuples(_ordered_rows(m))).reset_index()
    frame = frame.rename(columns={"level_0": "fitted_on", "level_1": "method"})
    frame.insert(2, "scope", "ragtruth_qa (437 answers), scored once")
    pub = pd.DataFrame([{"fitted_on": "", "method": p["system"], "scope": p["scope"],
                         "response_f1": p.get("response_f1", np.nan), "span_f1": p.get("span_f1", np.nan)}
                        for p in published()["ragtruth_qa"]])
    frame = pd.concat([frame, pub], ignore_index=True)
    caption = ("RAGTruth QA (real answers, human spans; test data only): detectors fitted and calibrated "
               "on the named corpus, thresholds fixed before scoring, scored once. Word flagged share: "
               "share of words flagged on the scored data and on the calibration data at the same "
               "threshold. Published rows are on the whole RAGTruth test (all tasks), not this slice."
               + _span_shape_note(m))
    return [Table("ragtruth_qa", caption, frame, titles=_TITLES), *span_types(run, "ragtruth_qa")]


def summedits(run: Run) -> list[Table]:
    m = _metrics(run)
    m = m[(m["level"] == "response") & (m["test"] == "summedits") & (m["family"] != "floor")]
    pub = published()["summedits"]
    domains = [d for d in pub["domains"] if d in set(m["subset"])]
    ba = m.pivot_table(index=["fitted_on", "method"], columns="subset", values="balanced_accuracy", sort=False)
    auc = m.groupby(["fitted_on", "method"], sort=False)["roc_auc"].mean()
    frame = ba.reindex(columns=domains)
    frame["mean"] = frame.mean(axis=1)
    frame["mean_roc_auc"] = auc
    frame = frame.reset_index()
    rows = [{"fitted_on": "published", "method": name, **dict(zip(pub["domains"], np.array(v) / 100)),
             "mean": float(np.mean(v)) / 100, "mean_roc_auc": np.nan} for name, v in pub["systems"].items()]
    frame = pd.concat([frame, pd.DataFrame(rows)], ignore_index=True)
    caption = ("SummEdits, balanced accuracy on each domain's test split at the threshold maximising "
               "balanced accuracy on its evaluation split (the paper's protocol), and the mean of the "
               "8 domains. Zero-shot rows are fitted on another corpus; leave-one-domain-out rows are "
               "fitted on the other 7 domains. Published rows: " + pub["reference"] + ".")
    return [Table("summedits", caption, frame, titles=_TITLES)]


def cliff(run: Run) -> list[Table]:
    m = _metrics(run)
    m = m[m["test"] == "cliff"]
    parts = [_pick(m, "response", {"balanced_accuracy": "summary_balanced_accuracy", "roc_auc": "summary_roc_auc",
                                   "f1": "summary_f1"}),
             _pick(m, "word", {"precision": "word_precision", "recall": "word_recall", "f1": "word_f1",
                               "flagged_share": "word_flagged_share",
                               "flagged_share_calibration": "word_flagged_share_calibration"}),
             _pick(m, "span", {"f1": "span_f1", **SPAN_SHAPE})]
    frame = pd.concat(parts, axis=1).reindex(pd.MultiIndex.from_tuples(_ordered_rows(m))).reset_index()
    frame = frame.rename(columns={"level_0": "fitted_on", "level_1": "method"})
    frame["note"] = ""
    pub = pd.DataFrame([{"fitted_on": "published", "method": p["system"],
                         "note": f"balanced accuracy {p['balanced_accuracy_cnndm']:.3f} (CNN/DM), "
                                 f"{p['balanced_accuracy_xsum']:.3f} (XSum); {p['scope']}"}
                        for p in published()["cliff"]])
    frame = pd.concat([frame, pub], ignore_index=True)
    caption = ("CLIFF test (300 real summaries, erroneous words marked): thresholds chosen on CLIFF val, "
               "scored once on test. Summary level: any word flagged or response risk over threshold; "
               "word level: unsupported words (punctuation excluded). Rows fitted on cliff_val are fitted on "
               "half of the val documents and calibrated on the other half." + _span_shape_note(m))
    return [Table("cliff", caption, frame, titles=_TITLES), *span_types(run, "cliff")]


def halueval(run: Run) -> list[Table]:
    m = _metrics(run)
    m = m[(m["level"] == "response") & (m["test"] == "halueval")]
    m = m.assign(label=np.where(m["fit"] == m["test"], m["method"], m["method"] + " (fit on " + m["fit"] + ")"))
    m = m[~((m["fit"] != m["test"]) & (m["family"].isin(["unsupervised", "floor"])))]
    subsets = list(dict.fromkeys(m["subset"]))
    wide = m.pivot_table(index="label", columns="subset", values=["roc_auc", "accuracy", "f1"], sort=False)
    frame = pd.DataFrame({"method": list(dict.fromkeys(m["label"]))})
    for s in subsets:
        for metric in ("roc_auc", "accuracy", "f1"):
            frame[f"{s}_{metric}"] = frame["method"].map(wide[(metric, s)])
    for p in published()["halueval"]:
        row = {"method": f"{p['system']} (published)"}
        for s in subsets:
            for metric in ("roc_auc", "accuracy", "f1"):
                row[f"{s}_{metric}"] = p.get(s, {}).get(metric, np.nan)
        frame = pd.concat([frame, pd.DataFrame([row])], ignore_index=True)
    titles = {f"{s}_{k}": f"{SUBSET_TITLES.get(s, s)} {t}" for s in subsets
              for k, t in (("roc_auc", "ROC-AUC"), ("accuracy", "Acc."), ("f1", "F1"))}
    caption = ("HaluEval, response level, test split (30% of records, seeded, grouped by evidence). "
               "Thresholds and aggregations chosen on the calibration split. Rows without '(fit on ...)' "
               "are fitted on the HaluEval train split of the same subset: in-distribution numbers, "
               "dominated by length artefacts (see the length-only row), not evidence of "
               "generalisation. Published rows are copied from the papers (their own protocols).")
    tables = [Table("halueval_comparison", caption, frame, titles={"method": "Method", **titles})]
    if run.has("provenance_grid"):
        g = run.table("provenance_grid")
        g = g[g["test"] == "halueval"]
        keys = ["relevance", "selection", "aggregation", "checker"]
        grid = g.pivot_table(index=keys, columns="subset", values="roc_auc", sort=False, dropna=False)
        grid = grid.reindex(pd.MultiIndex.from_frame(g[keys].drop_duplicates())).reset_index()
        grid.columns = [str(c) for c in grid.columns]
        tables.append(Table("halueval_provenance_grid",
                            "Provenance grid on HaluEval test splits (ROC-AUC): relevance x selection x "
                            "aggregation x fact checker; '—': component absent or skipped "
                            "(provenance_components.csv).", grid,
                            titles={s: f"{SUBSET_TITLES.get(s, s)} ROC-AUC" for s in subsets}))
    return tables


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


BUILDERS = {"ragtruth_qa": ragtruth_qa, "summedits": summedits, "cliff": cliff, "halueval": halueval,
            "transfer": transfer}


def benchmark_tables(run: Run) -> list[Table]:
    from .claims import claim_tables

    return [*BUILDERS.get(run.meta["name"], generic)(run), *claim_tables(run)]


def benchmark_figures(run: Run) -> dict:
    """name -> matplotlib figure of a benchmark run (the transfer heatmap, HaluEval ROC curves,
    the copy rate where claims were extracted)."""
    name = run.meta["name"]
    if name == "transfer":
        return {"transfer_matrix": transfer_figure(run)}
    from .figures import copy_rate

    out = {}
    if name == "halueval" and run.has("response_scores"):
        out["halueval_roc"] = halueval_roc(run)
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


def halueval_roc(run: Run):
    import matplotlib.pyplot as plt

    scores = run.table("response_scores")
    m = _metrics(run)
    subsets = [s for s in dict.fromkeys(m["subset"]) if s]
    methods = [("halueval -> halueval[{s}]", run.primary, "-"), ("audit -> halueval[{s}]", run.primary, "-."),
               ("halueval -> halueval[{s}]", "Provenance (ours, best on calibration)", "-"),
               ("halueval -> halueval[{s}]", "NLI_Rules", "-"),
               ("halueval -> halueval[{s}]", "Length only (diagnostic)", "--")]
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
           "span_words": "Span words", "span_words_calibration": "Span words (calib.)"}
