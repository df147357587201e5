"""A learned checker on the invented suites of meaning errors (`make checker-suite`).

Each answer sentence of a suite case is checked against its best evidence window
(`text.windows.best_window`, as the experiment runner's checker features do). A sentence's risk
is P(conflict) + P(baseless); its spans are the word pieces the token head marks (probability
>= `TOKEN_THRESHOLD`, widened to whole words; the likeliest piece when none passes). Per suite:
ROC-AUC of the case's highest sentence risk, errors against hard paraphrases (0.5 = chance), and
at each threshold of `GRID` the share of errors caught (a sentence at or above it whose spans
hit the planted words) and of paraphrases flagged. `--choose` fixes one threshold on the suites
given (design suites only) and writes it to DIR/layer.json.

    python -m evidencechain.checker.suite_eval --checker DIR [--checker DIR2] --out results/checker_suite SUITE...
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from ..io import atomic_write_text
from ..text.windows import best_window, sentence_spans, split_sentences

LAYER_FILE = "layer.json"
TOKEN_THRESHOLD = 0.5
MAX_PREMISE_WORDS = 110
GRID = tuple(round(0.5 + 0.05 * k, 2) for k in range(10))
_WORD = re.compile(r"[\w'’.,%$-]*\w|\S")


def _widen(text: str, start: int, end: int) -> tuple[int, int]:
    for m in _WORD.finditer(text):
        if m.start() < end and start < m.end():
            start, end = min(start, m.start()), max(end, m.end())
    return start, end


def pieces_to_spans(claim: str, offsets: np.ndarray, probs: np.ndarray) -> list[tuple[int, int, float]]:
    """Marked word pieces as merged whole-word (start, end, probability) spans of the claim."""
    picked = [k for k in range(len(probs)) if probs[k] >= TOKEN_THRESHOLD]
    if not picked and len(probs):
        picked = [int(np.argmax(probs))]
    out: list[list] = []
    for k in picked:
        a, b = _widen(claim, int(offsets[k][0]), int(offsets[k][1]))
        if out and a <= out[-1][1] + 1:
            out[-1][1], out[-1][2] = max(out[-1][1], b), max(out[-1][2], float(probs[k]))
        else:
            out.append([a, b, float(probs[k])])
    return [(a, b, p) for a, b, p in out]


def _passages(evidence) -> list[str]:
    return evidence if isinstance(evidence, list) else [evidence]


def case_rows(scorer, cases: list[dict]) -> list[tuple[str, list[tuple[float, bool]]]]:
    """(kind, [(sentence risk, its spans hit the planted words), ...]) per case."""
    premises, claims, where = [], [], []
    for r, case in enumerate(cases):
        evidence = [s for p in _passages(case["evidence"]) for s in split_sentences(p)]
        for a, b in sentence_spans(case["answer"]):
            premises.append(best_window(evidence, case["answer"][a:b], MAX_PREMISE_WORDS))
            claims.append(case["answer"][a:b])
            where.append((r, a))
    rows: list[tuple[str, list[tuple[float, bool]]]] = [(c["kind"], []) for c in cases]
    if not claims:
        return rows
    scores = scorer.score(premises, claims)
    for k, (r, start) in enumerate(where):
        offsets, probs = scores.token_spans[k]
        spans = [(start + a, start + b) for a, b, _ in pieces_to_spans(claims[k], offsets, probs)]
        hit = any(a < g1 and g0 < b for a, b in spans for g0, g1 in cases[r]["spans"])
        rows[r][1].append((float(scores.probs[k][1] + scores.probs[k][2]), hit))
    return rows


def grid(rows: list[tuple[str, list[tuple[float, bool]]]]) -> list[dict]:
    errors = [sents for kind, sents in rows if kind == "error"]
    para = [sents for kind, sents in rows if kind != "error"]
    out = []
    for t in GRID:
        caught = sum(any(r >= t and hit for r, hit in sents) for sents in errors)
        flagged = sum(any(r >= t for r, _ in sents) for sents in para)
        out.append({"threshold": t, "errors": len(errors), "caught": caught, "paraphrases": len(para),
                    "paraphrases_flagged": flagged,
                    "objective": round(caught / max(len(errors), 1) - flagged / max(len(para), 1), 4)})
    return out


def choose_threshold(rows: list[tuple[str, list[tuple[float, bool]]]]) -> float:
    """The grid value maximising errors caught share minus paraphrases flagged share; ties -> higher."""
    return max(grid(rows), key=lambda row: (row["objective"], row["threshold"]))["threshold"]


def auc(rows: list[tuple[str, list[tuple[float, bool]]]]) -> float:
    from sklearn.metrics import roc_auc_score

    y = [kind == "error" for kind, _ in rows]
    risk = [max((r for r, _ in sents), default=0.0) for _, sents in rows]
    return float(roc_auc_score(y, risk)) if 0 < sum(y) < len(y) else float("nan")


def evaluate(checker: Path, suites: list[Path], choose: bool = False) -> pd.DataFrame:
    from ..data.invented import read_cases
    from .infer import CheckerScorer

    scorer = CheckerScorer.load(checker, device="cpu")
    table, every = [], []
    for suite in suites:
        rows = case_rows(scorer, read_cases(suite))
        every += rows
        table += [{"checker": str(checker), "suite": suite.name, "auc": round(auc(rows), 4), **g} for g in grid(rows)]
    table += [{"checker": str(checker), "suite": "all", "auc": round(auc(every), 4), **g} for g in grid(every)]
    if choose:
        record = {"threshold": choose_threshold(every), "token_threshold": TOKEN_THRESHOLD,
                  "rule": "grid 0.50-0.95: max(errors caught share - paraphrases flagged share), ties -> higher",
                  "suites": [str(s) for s in suites], "cases": len(every)}
        atomic_write_text(checker / LAYER_FILE, json.dumps(record, indent=2) + "\n")
    return pd.DataFrame(table)


def main(argv: list[str] | None = None) -> int:
    from ..torch_support import NeuralUnavailable

    ap = argparse.ArgumentParser(prog="python -m evidencechain.checker.suite_eval", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checker", action="append", required=True, type=Path, help="a checker directory (repeatable)")
    ap.add_argument("--out", type=Path, help="write summary.csv here")
    ap.add_argument("--choose", action="store_true", help="write the chosen threshold to each DIR/layer.json")
    ap.add_argument("suites", nargs="+", type=Path)
    args = ap.parse_args(argv)
    parts = []
    for checker in args.checker:
        try:
            parts.append(evaluate(checker, args.suites, args.choose))
        except NeuralUnavailable as exc:
            print(f"{checker}: skipped ({exc})", file=sys.stderr)
    if not parts:
        print("no checker could be loaded", file=sys.stderr)
        return 2
    table = pd.concat(parts, ignore_index=True)
    print(table[table["threshold"] == 0.5][["checker", "suite", "auc", "errors", "caught", "paraphrases",
                                             "paraphrases_flagged"]].to_string(index=False))
    if args.out:
        from ..runinfo import code_commit

        args.out.mkdir(parents=True, exist_ok=True)
        atomic_write_text(args.out / "summary.csv", table.to_csv(index=False))
        atomic_write_text(args.out / "commit.txt", f"{code_commit() or 'unknown'}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
