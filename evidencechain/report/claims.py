"""Tables of the RefChecker- and RAGHalu-style systems: false positives on NO-INFO sentences,
triplet-level verdicts against gold derived from spans, and the copy-rate analysis."""
from __future__ import annotations

import pandas as pd

from .render import Table
from .runs import Run

VERDICTS = ["Entailment", "Neutral", "Contradiction"]


def no_info(run: Run) -> Table | None:
    t = run.table("no_info_false_positives", required=False)
    t = t[t["sentences"] > 0] if t is not None and "sentences" in t else t  # units without NO-INFO sentences
    if t is None or t.empty:
        return None
    frame = t[["unit", "method", "basis", "sentences", "flagged", "false_positive_rate"]]
    return Table(f"{run.meta['name']}_no_info", "Share of NO-INFO sentences (greetings, offers of help, "
                 "questions back, refusals: nothing to check) that each detector flags, at its calibrated "
                 "sentence threshold; every flag is a false positive. RAGHalu's tier 1 removes them before "
                 "tier 2 scores the rest. Basis: the gold tier where the corpus has one (audit), else tier "
                 "1's decision on sentences without a gold span.", frame.reset_index(drop=True))


def triplet_verdicts(run: Run) -> Table | None:
    t = run.table("triplet_verdicts", required=False)
    if t is None or t.empty:
        return None
    if "checker" not in t:
        t = t.assign(checker="rules")
    rows = []
    for (unit, checker), part in t.groupby(["unit", "checker"], sort=False):
        grid = part.pivot_table(index="gold", columns="predicted", values="triplets", aggfunc="sum",
                                fill_value=0).reindex(index=VERDICTS, columns=VERDICTS, fill_value=0)
        total = int(grid.to_numpy().sum())
        correct = int(sum(grid.loc[v, v] for v in VERDICTS))
        for gold in VERDICTS:
            n = int(grid.loc[gold].sum())
            rows.append({"unit": unit, "checker": checker, "gold": gold, "triplets": n,
                         **{f"predicted_{v.lower()}": int(grid.loc[gold, v]) for v in VERDICTS},
                         "recall": grid.loc[gold, gold] / n if n else float("nan"),
                         "accuracy": correct / total if total else float("nan")})
    return Table(f"{run.meta['name']}_triplet_verdicts", "Triplet-level verdicts of the RefChecker-style "
                 "checkers (the rules, and the learned checker when present): a triplet overlapping a gold span is a gold Contradiction (conflict labels) or "
                 "Neutral (baseless labels), any other an Entailment. Accuracy is over all triplets of the unit and checker.",
                 pd.DataFrame(rows))


def copy_rate(run: Run) -> Table | None:
    t = run.table("copy_rate", required=False)
    if t is None or t.empty:
        return None
    columns = [c for c in t.columns if c.startswith("copy_")]
    frame = t.groupby(["test", "label"], sort=False)[columns].mean().reset_index()
    frame["answers"] = t.groupby(["test", "label"], sort=False).size().to_numpy()
    frame["label"] = frame["label"].map({0: "faithful", 1: "hallucinated"})
    return Table(f"{run.meta['name']}_copy_rate", "Copy rate (RefChecker's analysis): mean share of an "
                 "answer's word n-grams (n = 1..4) found in its source, for faithful and hallucinated answers.",
                 frame)


def claim_tables(run: Run) -> list[Table]:
    return [t for t in (no_info(run), triplet_verdicts(run), copy_rate(run)) if t is not None]
