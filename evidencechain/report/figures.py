"""The paper's figures, each drawn only from a run directory's saved CSV files.

Every function takes a `Run` and returns a matplotlib Figure (or None when the run lacks the
results it needs). `write_figures` saves each as PNG and PDF without time stamps or software
versions in the file, so two builds from the same CSVs give identical files.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Rectangle
from sklearn.metrics import precision_recall_curve

from .runs import Run

# Okabe-Ito: distinguishable with the common colour-vision deficiencies.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]
LINESTYLES = ["-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1))]
MARKERS = ["o", "s", "^", "D", "v", "P"]
RISK_CMAP = "YlOrRd"  # sequential, light (supported) to dark (hallucinated)
WIDTH = 6.5  # inches: one text column of a paper page

STYLE = {
    "font.size": 9, "axes.titlesize": 10, "axes.labelsize": 9, "xtick.labelsize": 8.5,
    "ytick.labelsize": 8.5, "legend.fontsize": 8, "figure.dpi": 100, "savefig.dpi": 200,
    "axes.spines.top": False, "axes.spines.right": False, "axes.grid": False,
    "font.family": "DejaVu Sans", "pdf.fonttype": 42, "svg.hashsalt": "evidencechain",
    "path.simplify": False,
}


def _style():
    return plt.rc_context(STYLE)


def _color(k: int) -> str:
    return PALETTE[k % len(PALETTE)]


def best_word_method(run: Run) -> str:
    return str(run.best("word")["method"])


def pipeline(run: Run) -> plt.Figure:
    """The evidence-chain pipeline, drawn as boxes and arrows (detectors named from the run)."""
    detectors = ", ".join(run.methods)
    w, h, gap = 2.3, 1.65, 0.25
    xs = [0.05 + k * (w + gap) for k in range(4)]
    boxes = {
        "input": (xs[0], 2.6, "Inputs", "response.jsonl\n(answers)\nsource_info.jsonl\n(evidence)"),
        "text": (xs[1], 2.6, "Text layer", "sentences,\nword tokens,\ntask-aware\nevidence chunks"),
        "feat": (xs[2], 2.6, "Features", "coverage, chunk overlap,\nBM25, TF-IDF,\nnumber/entity mismatch,"
                 "\nmetadata"),
        "det": (xs[3], 2.6, "Detectors", _wrap(detectors, 24) + "\n(thresholds: calibration)"),
        "attr": (xs[1], 0.3, "Attribution", "evidence chunk =\nargmax of overlap,\nBM25 or TF-IDF"),
        "word": (xs[2], 0.3, "Word-level risk", "sentence risk x\ntoken novelty;\nabsent numbers\nand entities"),
        "out": (xs[3], 0.3, "Outputs", "hallucinated spans;\nsentence and\nresponse labels;\nevidence chain"),
    }
    with _style():
        fig, ax = plt.subplots(figsize=(WIDTH, 3.0))
        for key, (x, y, title, body) in boxes.items():
            face = "#DCEBF7" if key in ("det", "word") else ("#FFF1D6" if key == "out" else "#F2F2F2")
            ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0.03,rounding_size=0.12",
                                        facecolor=face, edgecolor="#333333", linewidth=0.9))
            ax.text(x + w / 2, y + h - 0.15, title, ha="center", va="top", fontsize=8.5, weight="bold")
            ax.text(x + w / 2, y + h - 0.5, body, ha="center", va="top", fontsize=7, linespacing=1.25)

        def arrow(start, end, rad=0.0):
            ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=10,
                                         color="#333333", linewidth=1.0, shrinkA=0, shrinkB=0,
                                         connectionstyle=f"arc3,rad={rad}"))

        mid = 2.6 + h / 2
        for a, b in (("input", "text"), ("text", "feat"), ("feat", "det")):
            arrow((boxes[a][0] + w + 0.04, mid), (boxes[b][0] - 0.04, mid))
        arrow((xs[1] + w / 2, 2.56), (xs[1] + w / 2, 0.3 + h + 0.04))
        arrow((xs[3] + w / 2, 2.56), (xs[2] + w / 2 + 0.4, 0.3 + h + 0.04), rad=-0.2)
        arrow((xs[2] + w + 0.04, 0.3 + h / 2), (xs[3] - 0.04, 0.3 + h / 2))
        arrow((xs[1] + w / 2, 0.26), (xs[3] + w / 2, 0.26), rad=0.1)
        ax.set_xlim(0, xs[3] + w + 0.1)
        ax.set_ylim(-0.2, 2.6 + h + 0.05)
        ax.set_aspect("auto")
        ax.axis("off")
        fig.tight_layout(pad=0.2)
    return fig


def _wrap(text: str, width: int) -> str:
    lines, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return "\n".join([*lines, line])


def heatmap_responses(run: Run, n: int = 6) -> list[str]:
    """Test responses with gold hallucinated words, spread over tasks (deterministic)."""
    resp = run.responses
    positive = set(run.words.loc[run.words["label"] == 1, "response_id"])
    resp = resp[resp["response_id"].isin(positive)].sort_values(["task_type", "response_id"])
    picked: list[str] = []
    groups = [list(g["response_id"]) for _, g in resp.groupby("task_type", sort=True)]
    k = 0
    while len(picked) < n and any(k < len(g) for g in groups):
        picked += [g[k] for g in groups if k < len(g)][: n - len(picked)]
        k += 1
    return picked


def _window(tokens, budget: int = 78):
    """Consecutive tokens around the first gold token, at most `budget` characters wide."""
    texts = list(tokens["text"].astype(str))
    first = int(np.argmax(tokens["label"].to_numpy() == 1))
    lo = hi = first
    width = len(texts[first]) + 1
    while True:
        grew = False
        for side in (1, -1):
            j = hi + 1 if side == 1 else lo - 1
            if 0 <= j < len(texts) and width + len(texts[j]) + 1 <= budget:
                width += len(texts[j]) + 1
                lo, hi = min(lo, j), max(hi, j)
                grew = True
        if not grew:
            return tokens.iloc[lo:hi + 1]


def token_heatmap(run: Run, method: str | None = None, n: int = 6) -> plt.Figure | None:
    """Predicted token risk of one detector beside the gold labels, for a few test responses."""
    if not run.has_word_labels:
        return None
    method = method or best_word_method(run)
    picked = heatmap_responses(run, n)
    tokens = run.tokens.sort_values(["response_id", "token_index"])
    resp = run.responses.set_index("response_id")
    cmap = plt.get_cmap(RISK_CMAP)
    with _style():
        fig, ax = plt.subplots(figsize=(WIDTH, 0.3 + 0.78 * len(picked)))
        y = 0.0
        for rid in picked:
            window = _window(tokens[tokens["response_id"] == rid])
            r = resp.loc[rid]
            ax.text(0, y + 0.1, f"{rid}  ({r['task_type']}, {r['model']})", fontsize=7.5,
                    va="center", ha="left", color="#333333")
            for row, (name, values) in enumerate((("gold", window["label"].to_numpy(float)),
                                                  ("risk", window[f"risk_{method}"].to_numpy(float)))):
                yy = y + 0.3 + row * 0.42
                ax.text(-0.6, yy + 0.19, name, ha="right", va="center", fontsize=7.5)
                x = 0.0
                flagged = window[f"pred_{method}"].to_numpy() if row else np.zeros(len(window))
                for text, v, punct, hit in zip(window["text"].astype(str), values, window["is_punct"], flagged):
                    cw = len(text) + 1
                    face = "#FFFFFF" if punct else cmap(0.08 + 0.92 * v)
                    ax.add_patch(Rectangle((x, yy), cw - 0.15, 0.38, facecolor=face,
                                           edgecolor="black" if hit else "#BBBBBB",
                                           linewidth=1.3 if hit else 0.4))
                    ax.text(x + (cw - 0.15) / 2, yy + 0.19, text, ha="center", va="center",
                            fontsize=6.5, family="DejaVu Sans Mono",
                            color="white" if (v > 0.6 and not punct) else "black")
                    x += cw
            y += 1.25
        ax.set_xlim(-6, 80)
        ax.set_ylim(y + 0.15, -0.1)
        ax.axis("off")
        sm = plt.cm.ScalarMappable(cmap=cmap, norm=plt.Normalize(0, 1))
        bar = fig.colorbar(sm, ax=ax, fraction=0.025, pad=0.01)
        bar.set_label(f"{method} token risk (gold: 0 or 1)", fontsize=7.5)
        ax.text(80, y - 0.12, "black outline: flagged at the calibrated threshold", ha="right", va="top",
                fontsize=7, color="#333333")
        bar.ax.tick_params(labelsize=7)
        fig.tight_layout(pad=0.2)
    return fig


def word_f1(run: Run) -> plt.Figure | None:
    """Word-level precision, recall and F1 of each detector at its calibrated threshold."""
    frame = run.table("metrics_word", required=False)
    if frame is None or frame.empty:
        return None
    frame = frame.set_index("method").loc[[m for m in run.methods if m in set(frame["method"])]]
    y = np.arange(len(frame))
    with _style():
        fig, ax = plt.subplots(figsize=(WIDTH, 0.45 + 0.5 * len(frame)))
        for k, (metric, label) in enumerate((("precision", "Precision"), ("recall", "Recall"), ("f1", "F1"))):
            bars = ax.barh(y + (k - 1) * 0.27, frame[metric], height=0.26, color=_color(k),
                           label=label, hatch="//" if metric == "f1" else None, edgecolor="white",
                           linewidth=0.3)
            if metric == "f1":
                ax.bar_label(bars, fmt="%.3f", padding=2, fontsize=7.5)
        ax.set_yticks(y, frame.index)
        ax.invert_yaxis()
        ax.set_xlim(0, 1.08)
        ax.set_xlabel("Score on test words (0-1; punctuation excluded)")
        ax.legend(loc="lower right", ncols=3, frameon=False, bbox_to_anchor=(1.0, 1.0))
        fig.tight_layout(pad=0.3)
    return fig


def generator_rates(run: Run) -> plt.Figure:
    """Response-level hallucination rate of each generator label (all splits)."""
    frame = run.table("generator_rates").sort_values(["hallucination_rate", "model"], kind="mergesort")
    with _style():
        fig, ax = plt.subplots(figsize=(WIDTH, 0.45 + 0.38 * len(frame)))
        bars = ax.barh(frame["model"], frame["hallucination_rate"], color=_color(0), height=0.6)
        ax.bar_label(bars, labels=[f"{r:.3f}  ({h}/{n})" for r, h, n in zip(
            frame["hallucination_rate"], frame["hallucinated_responses"], frame["responses"])],
            padding=3, fontsize=7.5)
        ax.set_xlim(0, min(1.0, frame["hallucination_rate"].max() * 1.35 + 0.05))
        ax.set_xlabel("Responses with at least one hallucinated span (share, all splits)")
        ax.set_ylabel("Generator label")
        fig.tight_layout(pad=0.3)
    return fig


def coverage(run: Run) -> plt.Figure | None:
    """Source coverage of each test response against its hallucinated-token rate."""
    if not run.has_word_labels:
        return None
    per = run.words.groupby("response_id").agg(coverage=("novelty", lambda x: 1.0 - x.mean()),
                                               rate=("label", "mean"))
    per = per.join(run.responses.set_index("response_id")["task_type"])
    bins = run.table("coverage_bins", required=False)
    with _style():
        fig, ax = plt.subplots(figsize=(WIDTH, 3.2))
        for k, (task, part) in enumerate(per.groupby("task_type", sort=True)):
            ax.scatter(part["coverage"], part["rate"], s=16, alpha=0.75, color=_color(k),
                       marker=MARKERS[k % len(MARKERS)], label=f"{task} (n={len(part)})", linewidths=0)
        if bins is not None and bins["responses"].sum():
            b = bins[bins["responses"] > 0]
            ax.plot(b["mean_source_coverage"], b["mean_hallucinated_token_rate"], color="black",
                    marker="o", markersize=5, linewidth=1.2, label="bin mean (coverage_bins.csv)")
        ax.set_xlabel("Source coverage of the response (1 - share of novel words)")
        ax.set_ylabel("Hallucinated-token rate\n(share of words)")
        ax.set_xlim(max(0.0, per["coverage"].min() - 0.05), 1.01)
        ax.set_ylim(-0.01, max(0.05, per["rate"].max() * 1.08))
        ax.legend(frameon=False, loc="upper right")
        fig.tight_layout(pad=0.3)
    return fig


def pr_curves(run: Run) -> plt.Figure | None:
    """Word-level precision-recall curves; the marker is each detector's calibrated threshold."""
    if not run.has_word_labels:
        return None
    words = run.words
    metrics = run.table("metrics_word").set_index("method")
    y = words["label"].to_numpy()
    with _style():
        fig, ax = plt.subplots(figsize=(WIDTH, 3.6))
        for k, m in enumerate(m for m in run.methods if f"risk_{m}" in words):
            p, r, _ = precision_recall_curve(y, words[f"risk_{m}"].to_numpy())
            ax.plot(r, p, color=_color(k), linestyle=LINESTYLES[k % len(LINESTYLES)], linewidth=1.4,
                    label=f"{m} (PR-AUC {metrics.loc[m, 'pr_auc']:.3f})", drawstyle="steps-post")
            ax.plot(metrics.loc[m, "recall"], metrics.loc[m, "precision"], marker=MARKERS[k % 6],
                    color=_color(k), markersize=6, markeredgecolor="black", markeredgewidth=0.5)
        ax.axhline(y.mean(), color="#777777", linewidth=0.8, linestyle=":")
        ax.text(0.01, y.mean() + 0.01, f"prevalence {y.mean():.3f}", fontsize=7, color="#555555")
        ax.set_xlabel("Recall (share of hallucinated test words found)")
        ax.set_ylabel("Precision (share of flagged\nwords that are hallucinated)")
        ax.set_xlim(0, 1.01)
        ax.set_ylim(0, 1.02)
        ax.legend(frameon=False, loc="center left", bbox_to_anchor=(1.0, 0.5))
        fig.tight_layout(pad=0.3)
    return fig


def confusion(run: Run, method: str | None = None) -> plt.Figure | None:
    """Token confusion matrix of the best word-level detector at its calibrated threshold."""
    if not run.has_word_labels:
        return None
    method = method or best_word_method(run)
    words = run.words
    y, p = words["label"].to_numpy(), words[f"pred_{method}"].to_numpy()
    matrix = np.array([[np.sum((y == a) & (p == b)) for b in (0, 1)] for a in (0, 1)])
    share = matrix / np.maximum(matrix.sum(axis=1, keepdims=True), 1)
    names = ["supported", "hallucinated"]
    with _style():
        fig, ax = plt.subplots(figsize=(4.4, 3.3), layout="constrained")
        ax.imshow(share, cmap="Blues", vmin=0, vmax=1)
        for a in (0, 1):
            for b in (0, 1):
                ax.text(b, a, f"{matrix[a, b]:,}\n({share[a, b]:.1%} of row)", ha="center", va="center",
                        fontsize=8.5, color="white" if share[a, b] > 0.55 else "black")
        ax.set_xticks([0, 1], names)
        ax.set_yticks([0, 1], names)
        ax.set_xlabel(f"Predicted by {method} (word tokens)")
        ax.set_ylabel("Gold label (word tokens)")
        ax.spines[:].set_visible(False)
    return fig


def copy_rate(run: Run) -> plt.Figure | None:
    """RefChecker's copy-rate analysis: mean share of answer n-grams found in the source, by n,
    for faithful and hallucinated answers of each scored unit."""
    t = run.table("copy_rate", required=False)
    if t is None or t.empty:
        return None
    ns = sorted(int(c.split("_")[1]) for c in t.columns if c.startswith("copy_"))
    groups = list(t.groupby(["test", "label"], sort=True))
    with _style():
        fig, ax = plt.subplots(figsize=(WIDTH, 2.9))
        for k, ((test, label), part) in enumerate(groups):
            means = [part[f"copy_{n}"].mean() for n in ns]
            ax.plot(ns, means, color=_color(k // 2), linestyle="-" if label else "--",
                    marker=MARKERS[k % len(MARKERS)], markersize=5,
                    label=f"{test}: {'hallucinated' if label else 'faithful'} (n={len(part)})")
        ax.set_xticks(ns, [f"{n}-gram" for n in ns])
        ax.set_ylabel("Mean share of the answer's\nn-grams found in the source")
        ax.set_ylim(0, 1.02)
        ax.legend(frameon=False, loc="lower left")
        fig.tight_layout(pad=0.3)
    return fig


FIGURES: dict[str, tuple[Callable[[Run], plt.Figure | None], str]] = {
    "pipeline": (pipeline, "Evidence-chain detection and attribution pipeline."),
    "token_heatmap": (token_heatmap, "Word-level heatmap of test responses: gold labels (upper row) "
                      "beside the best word-level detector's token risk (lower row)."),
    "word_f1": (word_f1, "Word-level precision, recall and F1 of each detector on the test split."),
    "generator_rates": (generator_rates, "Response-level hallucination rate per generator label."),
    "coverage": (coverage, "Source coverage against hallucinated-token rate for test responses."),
    "pr_curves": (pr_curves, "Word-level precision-recall curves on the test split; markers are the "
                  "calibrated operating points."),
    "confusion": (confusion, "Token-level confusion matrix of the best word-level detector."),
    "copy_rate": (copy_rate, "Copy rate (RefChecker's analysis): mean share of each answer's word n-grams "
                  "found in its source, for faithful and hallucinated answers."),
}


def save_figure(fig: plt.Figure, out_dir: str | Path, name: str) -> list[Path]:
    """PNG and PDF without creation dates or software versions (byte-stable rebuilds)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / f"{name}.png", out / f"{name}.pdf"]
    fig.savefig(paths[0], dpi=200, metadata={"Software": None})
    fig.savefig(paths[1], metadata={"Creator": None, "Producer": None, "CreationDate": None})
    plt.close(fig)
    return paths


def write_figures(run: Run, out_dir: str | Path, log: Callable[[str], None] | None = None) -> dict[str, Path]:
    written = {}
    for name, (make, _) in FIGURES.items():
        fig = make(run)
        if fig is None:
            if log:
                log(f"figure {name:16s} skipped (results absent in {run.path})")
            continue
        paths = save_figure(fig, out_dir, name)
        written[name] = paths[0]
        if log:
            log(f"figure {name:16s} -> {paths[0].with_suffix('')}.{{png,pdf}}")
    return written
