"""Score the semantic signals on a suite of planted errors and paraphrases (tests/data/semantic_suite.jsonl).

A planted error is caught when a signal names a word inside its gold span; a paraphrase is a
false alarm when any signal fires on it.
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from ...text.parse import parse_texts
from . import EvidenceSide, text_signals


def read_suite(path: str | Path) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def score_cases(cases: list[dict]) -> pd.DataFrame:
    """One row per case: class, kind, whether any signal fired, whether it hit the gold span, and what."""
    evidence = parse_texts([c["evidence"] for c in cases], progress=False)
    answers = parse_texts([c["answer"] for c in cases], progress=False)
    rows = []
    for case, ev, doc in zip(cases, evidence, answers):
        signals = [s for ss in text_signals(doc, EvidenceSide(ev)) for s in ss]
        hit = [s for s in signals for t in s.tokens
               if any(a < doc.ends[t] and doc.starts[t] < b for a, b in case["spans"])]
        rows.append({"id": case["id"], "class": case["class"], "kind": case["kind"],
                     "fired": bool(signals), "caught": bool(hit),
                     "class_named": bool(hit) and hit[0].cls == case["class"],
                     "signals": "; ".join(f"{s.cls}: {' '.join(doc.token_text(t) for t in s.tokens)}"
                                          f" (evidence: {s.evidence})" for s in signals)})
    return pd.DataFrame(rows)


def summary(scored: pd.DataFrame) -> pd.DataFrame:
    """Per class: errors, recall, class named, paraphrases, false alarms and their rate."""
    out = []
    for cls, g in scored.groupby("class", sort=False):
        err, par = g[g["kind"] == "error"], g[g["kind"] == "paraphrase"]
        out.append({"class": cls, "errors": len(err), "recall": round(err["caught"].mean(), 3),
                    "class_named": round(err["class_named"].mean(), 3), "paraphrases": len(par),
                    "false_alarms": int(par["fired"].sum()),
                    "false_alarm_rate": round(par["fired"].mean(), 3) if len(par) else 0.0})
    return pd.DataFrame(out)
