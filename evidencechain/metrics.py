"""Detection metrics at word, sentence, response and span level."""
from __future__ import annotations

import numpy as np
import pandas as pd
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
        "roc_auc": float(roc_auc_score(y, s)) if both else float("nan"),
        "pr_auc": float(average_precision_score(y, s)) if both else float("nan"),
        "threshold": float(threshold),
        "n": len(y),
        "positives": int(y.sum()),
    }


def _nonspace(text: str, lo: int, hi: int) -> set[int]:
    return {i for i in range(lo, hi) if not text[i].isspace()}


def span_metrics(responses: dict[str, tuple[str, list[tuple[int, int]]]],
                 parsed: dict[str, ParsedText], tokens: pd.DataFrame, predicted: np.ndarray
                 ) -> dict[str, float]:
    """Character-overlap span P/R/F1 (RAGTruth protocol), micro-averaged over responses.

    `responses` maps response_id to (text, gold spans). Predicted spans are runs of
    predicted tokens (see `tokens_to_spans`); whitespace characters are not counted.
    """
    pred = pd.Series(np.asarray(predicted, dtype=bool), index=tokens.index)
    overlap = pred_chars = gold_chars = 0
    for rid, rows in tokens.groupby("response_id", sort=False).groups.items():
        text, gold = responses[rid]
        doc = parsed[rid]
        mask = np.zeros(len(doc), dtype=bool)
        mask[tokens.loc[rows, "token_index"].to_numpy()] = pred.loc[rows].to_numpy()
        p = set().union(*[_nonspace(text, a, b) for a, b, _ in tokens_to_spans(doc, mask)])
        g = set().union(*[_nonspace(text, a, b) for a, b in gold])
        overlap += len(p & g)
        pred_chars += len(p)
        gold_chars += len(g)
    precision = overlap / pred_chars if pred_chars else 0.0
    recall = overlap / gold_chars if gold_chars else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1,
            "predicted_chars": pred_chars, "gold_chars": gold_chars, "overlap_chars": overlap}


def _predicted_chars(text: str, doc: ParsedText, token_index: np.ndarray, flags: np.ndarray) -> set[int]:
    mask = np.zeros(len(doc), dtype=bool)
    mask[token_index] = flags
    return set().union(*[_nonspace(text, a, b) for a, b, _ in tokens_to_spans(doc, mask)])


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
        p = _predicted_chars(text, parsed[rid], tokens["token_index"].to_numpy()[rows], pred[rows])
        for a, b, kind in gold:
            g = _nonspace(text, a, b)
            t = totals.setdefault(kind, [0, 0, 0])
            t[0] += 1
            t[1] += len(g)
            t[2] += len(g & p)
    return [{"label_type": k, "gold_spans": n, "gold_chars": c, "overlap_chars": o,
             "recall": o / c if c else float("nan")} for k, (n, c, o) in sorted(totals.items())]
