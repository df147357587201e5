"""Every metric formula of the package: detection metrics at word, sentence, response and span
level, balanced accuracy, flagged shares, and the one character-overlap span F1."""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd
from scipy.integrate import trapezoid
from sklearn.metrics import average_precision_score, roc_auc_score

from .text.parse import ParsedText
from .text.spans import tokens_to_spans

METRIC_COLUMNS = ["precision", "recall", "f1", "accuracy", "roc_auc", "pr_auc", "threshold",
                  "n", "positives"]


def binary_metrics(y_true, scores, threshold: float, predicted=None) -> dict[str, float]:
    """P/R/F1/accuracy at `threshold` (positive when score >= threshold, or the given
    `predicted` decisions, e.g. words after the span rule) plus ROC-AUC and PR-AUC.

    ROC-AUC and PR-AUC are NaN when only one class is present.
    """
    y = np.asarray(y_true).astype(int)
    s = np.asarray(scores, dtype=float)
    pred = s >= threshold if predicted is None else np.asarray(predicted).astype(bool)
    tp = int((pred & (y == 1)).sum())
    fp = int((pred & (y == 0)).sum())
    fn = int((~pred & (y == 1)).sum())
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    both = len(np.unique(y)) == 2
    return {
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "accuracy": float((pred == (y == 1)).mean()) if len(y) else float("nan"),
        **(_ranking_scores(y, s) if both else {"roc_auc": float("nan"), "pr_auc": float("nan")}),
        "threshold": float(threshold),
        "n": len(y),
        "positives": int(y.sum()),
    }


def _ranking_scores(y: np.ndarray, s: np.ndarray) -> dict[str, float]:
    """ROC-AUC and PR-AUC of 0/1 labels `y` (both classes present) for scores `s`: the same
    floats as sklearn's `roc_auc_score` and `average_precision_score` (the same curve points
    and sums), without their per-call validation; scores that are not finite go to sklearn."""
    if not np.isfinite(s).all():
        return {"roc_auc": float(roc_auc_score(y, s)), "pr_auc": float(average_precision_score(y, s))}
    order = np.argsort(-s, kind="stable")
    ranked = s[order]
    cut = np.concatenate([np.nonzero(np.diff(ranked))[0], [len(ranked) - 1]])
    tps = np.cumsum((y[order] == 1).astype(np.float64))[cut]
    fps = 1 + cut.astype(np.float64) - tps
    keep_tps, keep_fps = tps, fps
    if len(fps) > 2:  # roc_curve's drop_intermediate
        optimal = np.nonzero(np.concatenate([[True], np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), [True]]))[0]
        keep_fps, keep_tps = fps[optimal], tps[optimal]
    fpr = np.concatenate([[0.0], keep_fps]) / keep_fps[-1]
    tpr = np.concatenate([[0.0], keep_tps]) / keep_tps[-1]
    ps = tps + fps
    precision = np.concatenate([np.flip(np.where(ps != 0, np.divide(tps, ps), 0.0)), [1.0]])
    recall = np.concatenate([np.flip(tps / tps[-1]), [0.0]])
    return {"roc_auc": float(trapezoid(tpr, fpr)),
            "pr_auc": float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))}


def balanced_accuracy(y, scores, threshold: float, predicted=None) -> float:
    """Balanced accuracy of scores >= threshold, or of the given decisions (`predicted`)."""
    y = np.asarray(y).astype(bool)
    pred = np.asarray(scores, dtype=float) >= threshold if predicted is None else np.asarray(predicted).astype(bool)
    if y.all() or not y.any():
        return float("nan")
    return float(0.5 * (pred[y].mean() + (~pred[~y]).mean()))


def flagged(scores, threshold: float) -> float:
    """Share of scores >= threshold (NaN for no scores)."""
    s = np.asarray(scores, dtype=float)
    return float((s >= threshold).mean()) if len(s) else float("nan")


def flagged_share(frame: pd.DataFrame, name: str, threshold: float) -> float:
    """Share of `frame` flagged by `name`: its decisions (words after the span rule) when present."""
    if f"pred_{name}" in frame and len(frame):
        return float(frame[f"pred_{name}"].mean())
    return flagged(frame[f"risk_{name}"], threshold)


def _nonspace(text: str, lo: int, hi: int) -> set[int]:
    return {i for i in range(lo, hi) if not text[i].isspace()}


def span_overlap(answers: Iterable[tuple[str, Iterable[tuple[int, int]], Iterable[tuple[int, int]]]]
                 ) -> dict[str, float]:
    """Character-overlap span P/R/F1 (RAGTruth protocol), micro-averaged over answers.

    `answers` gives (text, gold spans, predicted spans) per answer, spans as (start, end);
    whitespace characters are not counted. The one span F1 of the package: `span_metrics`
    (predicted word masks) and `span_f1` (detection results) both end here.
    """
    overlap = pred_chars = gold_chars = 0
    for text, gold, predicted in answers:
        o, p, g = span_counts(text, gold, predicted)
        overlap += o
        pred_chars += p
        gold_chars += g
    precision = overlap / pred_chars if pred_chars else 0.0
    recall = overlap / gold_chars if gold_chars else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1,
            "predicted_chars": pred_chars, "gold_chars": gold_chars, "overlap_chars": overlap}


def span_counts(text: str, gold: Iterable[tuple[int, int]], predicted: Iterable[tuple[int, int]]
                ) -> tuple[int, int, int]:
    """One answer's (overlapping, predicted, gold) non-space characters, as `span_overlap` sums them."""
    p = set().union(*[_nonspace(text, a, b) for a, b in predicted])
    g = set().union(*[_nonspace(text, a, b) for a, b in gold])
    return len(p & g), len(p), len(g)


def span_metrics(responses: dict[str, tuple[str, list[tuple[int, int]]]],
                 parsed: dict[str, ParsedText], tokens: pd.DataFrame, predicted: np.ndarray
                 ) -> dict[str, float]:
    """`span_overlap` of predicted word masks: predicted spans are runs of predicted tokens
    (see `tokens_to_spans`); `responses` maps response_id to (text, gold spans)."""
    pred = np.asarray(predicted, dtype=bool)
    order = tokens["token_index"].to_numpy()

    def answers():
        for rid, rows in tokens.groupby("response_id", sort=False).indices.items():
            text, gold = responses[rid]
            yield text, gold, _predicted_spans(parsed[rid], order[rows], pred[rows])
    return span_overlap(answers())


def span_f1(corpus, results) -> float:
    """Span F1 of detection results (`results.DetectionResult`, one per answer of `corpus`)."""
    return span_overlap((r.response, [(lab.start, lab.end) for lab in r.labels],
                         [(s.start, s.end) for s in result.spans])
                        for r, result in zip(corpus.responses, results))["f1"]


def _predicted_spans(doc: ParsedText, token_index: np.ndarray, flags: np.ndarray) -> list[tuple[int, int]]:
    mask = np.zeros(len(doc), dtype=bool)
    mask[token_index] = flags
    return [(a, b) for a, b, _ in tokens_to_spans(doc, mask)]


def span_recall_by_type(responses: dict[str, tuple[str, list[tuple[int, int, str]]]],
                        parsed: dict[str, ParsedText], tokens: pd.DataFrame, predicted: np.ndarray
                        ) -> list[dict]:
    """Character recall of the gold spans of each label type (predictions carry no type, so
    precision is not split); `responses` maps response_id to (text, [(start, end, type)])."""
    pred = np.asarray(predicted, dtype=bool)
    totals: dict[str, list[int]] = {}
    for rid, rows in tokens.groupby("response_id", sort=False).indices.items():
        text, gold = responses[rid]
        if not gold:
            continue
        p = set().union(*[_nonspace(text, a, b) for a, b in
                           _predicted_spans(parsed[rid], tokens["token_index"].to_numpy()[rows], pred[rows])])
        for a, b, kind in gold:
            g = _nonspace(text, a, b)
            t = totals.setdefault(kind, [0, 0, 0])
            t[0] += 1
            t[1] += len(g)
            t[2] += len(g & p)
    return [{"label_type": k, "gold_spans": n, "gold_chars": c, "overlap_chars": o,
             "recall": o / c if c else float("nan")} for k, (n, c, o) in sorted(totals.items())]
