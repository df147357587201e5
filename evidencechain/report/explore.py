"""Helpers for exploring a run in Jupyter: features by label, errors, highlighted spans.

    from evidencechain.report.explore import load_run, worst_errors, highlight_response
    run = load_run("results/audit")
    worst_errors(run, level="sentence", k=5)
    HTML(highlight_response(run, "audit-000004"))
"""
from __future__ import annotations

import html
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..features.table import NUMERIC_FEATURES
from .figures import PALETTE, STYLE
from .runs import Run, load_run

__all__ = ["FEATURES", "error_breakdown", "resolve_run_dir", "feature_table", "highlight_response", "highlight_spans",
           "load_run", "outcomes", "plot_error_rates", "plot_feature_distributions",
           "response_spans", "token_feature_rates", "worst_errors"]

FEATURES = [c for g in ("lexical", "retrieval", "mismatch") for c in NUMERIC_FEATURES[g]]
GOLD_STYLE = "border-bottom:3px solid #D55E00"
PRED_STYLE = "background:#B3D9F2"


def resolve_run_dir(path: str | Path) -> Path:
    """`path` as given if it exists, else relative to the nearest parent holding pyproject.toml.

    Lets a notebook opened from experiments/notebooks/ find `results/audit` of the project.
    """
    path = Path(path)
    if path.is_absolute() or path.exists():
        return path
    for parent in [Path.cwd(), *Path.cwd().parents]:
        if (parent / "pyproject.toml").is_file():
            return parent / path
    return path


def feature_table(run: Run) -> pd.DataFrame:
    """Test sentences with their evidence-chain features, task, generator and gold label."""
    cols = ["response_id", "sentence_index", "task_type", "model", "label", "text"]
    return run.sentences[cols + [c for c in FEATURES if c in run.sentences]]


def plot_feature_distributions(run: Run, features: list[str] | None = None, bins: int = 20) -> plt.Figure:
    """Histogram of each sentence feature, supported vs hallucinated test sentences (densities)."""
    frame = feature_table(run)
    features = [f for f in (features or FEATURES) if f in frame]
    cols = 3
    rows = -(-len(features) // cols)
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(rows, cols, figsize=(9, 2.4 * rows), squeeze=False)
        for ax, name in zip(axes.flat, features):
            values = frame[name].astype(float)
            edges = np.histogram_bin_edges(values.dropna(), bins=bins)
            for k, (label, title) in enumerate(((0, "supported"), (1, "hallucinated"))):
                part = values[frame["label"] == label].dropna()
                ax.hist(part, bins=edges, density=True, alpha=0.6, color=PALETTE[k],
                        label=f"{title} (n={len(part)})", histtype="stepfilled")
            ax.set_xlabel(name)
            ax.set_ylabel("density")
        for ax in axes.flat[len(features):]:
            ax.axis("off")
        axes.flat[0].legend(frameon=False)
        fig.tight_layout()
    return fig


def token_feature_rates(run: Run) -> pd.DataFrame:
    """Mean token evidence signals of supported (0) and hallucinated (1) test words."""
    cols = ["novelty", "number_absent", "entity_absent", "is_stop"]
    out = run.words.groupby("label")[cols].mean()
    out.insert(0, "words", run.words.groupby("label").size())
    return out


def _level_frame(run: Run, level: str) -> pd.DataFrame:
    if level == "word":
        meta = run.responses.set_index("response_id")[["task_type", "model"]]
        return run.words.join(meta, on="response_id")
    if level == "sentence":
        return run.sentences
    if level == "response":
        return run.responses
    raise ValueError(f"level must be word, sentence or response, not {level!r}")


def outcomes(run: Run, method: str | None = None, level: str = "sentence") -> pd.DataFrame:
    """The level's test rows with `risk`, `pred` and `outcome` (TP, FP, FN, TN) of one method."""
    method = method or run.primary
    frame = _level_frame(run, level).copy()
    frame["risk"] = frame[f"risk_{method}"]
    frame["pred"] = frame[f"pred_{method}"]
    frame["outcome"] = np.select(
        [(frame["pred"] == 1) & (frame["label"] == 1), (frame["pred"] == 1) & (frame["label"] == 0),
         (frame["pred"] == 0) & (frame["label"] == 1)], ["TP", "FP", "FN"], "TN")
    return frame


def worst_errors(run: Run, method: str | None = None, level: str = "sentence", k: int = 5) -> pd.DataFrame:
    """The k most confident false positives (highest risk) and false negatives (lowest risk)."""
    frame = outcomes(run, method, level)
    fp = frame[frame["outcome"] == "FP"].sort_values(["risk", "response_id"], ascending=[False, True])
    fn = frame[frame["outcome"] == "FN"].sort_values(["risk", "response_id"], ascending=[True, True])
    cols = [c for c in ("outcome", "response_id", "sentence_index", "token_index", "task_type", "model",
                        "risk", "text", "evidence_chunk", "evidence_text") if c in frame]
    return pd.concat([fp.head(k), fn.head(k)])[cols].reset_index(drop=True)


def error_breakdown(run: Run, method: str | None = None, level: str = "word",
                    by: str | list[str] = "task_type") -> pd.DataFrame:
    """TP/FP/FN/TN counts with precision, recall and F1 per group (e.g. task_type, model)."""
    frame = outcomes(run, method, level)
    counts = pd.crosstab([frame[b] for b in ([by] if isinstance(by, str) else by)], frame["outcome"])
    counts = counts.reindex(columns=["TP", "FP", "FN", "TN"], fill_value=0)
    tp, fp, fn = counts["TP"], counts["FP"], counts["FN"]
    counts["precision"] = (tp / (tp + fp)).where(tp + fp > 0, 0.0)
    counts["recall"] = (tp / (tp + fn)).where(tp + fn > 0, 0.0)
    p, r = counts["precision"], counts["recall"]
    counts["f1"] = (2 * p * r / (p + r)).where(p + r > 0, 0.0)
    return counts


def plot_error_rates(breakdown: pd.DataFrame, title: str = "") -> plt.Figure:
    """False-positive and false-negative counts per group of an `error_breakdown` table."""
    labels = [" / ".join(map(str, i)) if isinstance(i, tuple) else str(i) for i in breakdown.index]
    y = np.arange(len(labels))
    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(7, 0.5 + 0.4 * len(labels)))
        ax.barh(y - 0.2, breakdown["FP"], height=0.38, color=PALETTE[0], label="false positives")
        ax.barh(y + 0.2, breakdown["FN"], height=0.38, color=PALETTE[1], label="false negatives",
                hatch="//", edgecolor="white")
        ax.set_yticks(y, labels)
        ax.invert_yaxis()
        ax.set_xlabel("count")
        ax.set_title(title)
        ax.legend(frameon=False)
        fig.tight_layout()
    return fig


def response_spans(run: Run, response_id: str, column: str = "label") -> list[tuple[int, int]]:
    """Character spans of runs of flagged tokens (`column` > 0) in one test response.

    Adjacent flagged tokens merge; a punctuation token between two flagged ones joins them.
    """
    t = run.tokens[run.tokens["response_id"] == response_id].sort_values("token_index")
    spans: list[list[int]] = []
    pending = False
    for start, end, flag, punct in zip(t["start"], t["end"], t[column] > 0, t["is_punct"]):
        if flag:
            if spans and pending:
                spans[-1][1] = int(end)
            else:
                spans.append([int(start), int(end)])
            pending = True
        elif not punct:
            pending = False
    return [(a, b) for a, b in spans]


def highlight_spans(text: str, spans, style: str = PRED_STYLE) -> str:
    """HTML of `text` with character spans styled; spans are (start, end) or (start, end, css).

    Overlapping spans combine their styles, so gold and predicted spans can be shown together.
    """
    marks: list[set[str]] = [set() for _ in text]
    for span in spans:
        start, end = int(span[0]), int(span[1])
        css = span[2] if len(span) > 2 else style
        for i in range(max(0, start), min(end, len(text))):
            marks[i].add(css)
    out, i = [], 0
    while i < len(text):
        j = i
        while j < len(text) and marks[j] == marks[i]:
            j += 1
        piece = html.escape(text[i:j])
        out.append(f'<span style="{";".join(sorted(marks[i]))}">{piece}</span>' if marks[i] else piece)
        i = j
    return "".join(out)


def highlight_response(run: Run, response_id: str, method: str | None = None) -> str:
    """HTML of one test response: gold spans underlined, the method's flagged spans shaded."""
    method = method or run.primary
    text = run.response_text(response_id)
    gold = [(a, b, GOLD_STYLE) for a, b in response_spans(run, response_id, "label")]
    pred = [(a, b, PRED_STYLE) for a, b in response_spans(run, response_id, f"pred_{method}")]
    key = (f'<div style="font-size:85%;color:#555">{html.escape(response_id)}: '
           f'<span style="{GOLD_STYLE}">gold span</span> · '
           f'<span style="{PRED_STYLE}">flagged by {html.escape(method)}</span></div>')
    return f'{key}<div style="line-height:1.8">{highlight_spans(text, gold + pred)}</div>'
