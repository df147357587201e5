"""Run a suite of planted meaning errors and hard paraphrases through `detect` (the default model
unless `--model`): per class, the errors caught and the paraphrases flagged.

    python -m evidencechain.detect.invented_suite [--suite tests/data/invented_suite.jsonl] [--model DIR]
        [--conflicts on|off] [--out CSV] [--summary DIR]

The suite (JSONL, one case a line): `id`, `class`, `kind` ('error' or 'paraphrase'; a paraphrase's class may name the error
class it guards against, rows are summarised per class and kind), `evidence`,
`answer`, `spans` (character offsets of the planted words in the answer). An error is caught when
the verdict is 'hallucinated' and a span overlaps a planted word; `flagged` counts the verdict
alone. A paraphrase is a false alarm when its verdict is 'hallucinated'. The default suite is
written from invented facts (tests/data/invented_suite.jsonl), in the style of the issue's
hidden suite; it was used to design the conflict rule (`features.semantic.confidence`), so it is
not a test set; `--suite tests/data/invented_suite_holdoutN.jsonl` scores one of the blind suites
(other invented facts, each written from the class definitions only, scored once before it was read,
then design data like the rest; the README lists their one-time scores). `--summary DIR` scores it with the rule off and on and writes `summary.csv` (per
class: cases, caught and flagged both ways) and `commit.txt`, which the README's `invented-suite`
block is rendered from (`make invented-suite`).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from ..data.invented import read_cases

SUITE = Path("tests/data/invented_suite.jsonl")


def score(detector, cases: list[dict]) -> pd.DataFrame:
    """One row per case: verdict, whether a span hit the planted words, and the spans' classes."""
    results = detector.predict_batch([{"context": c["evidence"], "answer": c["answer"], "id": c["id"]}
                                      for c in cases])
    rows = []
    for case, res in zip(cases, results):
        hit = [s for s in res.spans if any(s.start < b and a < s.end for a, b in case["spans"])]
        rows.append({"id": case["id"], "class": case["class"], "kind": case["kind"],
                     "flagged": res.verdict == "hallucinated", "caught": res.verdict == "hallucinated" and bool(hit),
                     "risk": round(res.risk, 4),
                     "spans": "; ".join(f"{s.text} [{s.level}, {s.error_class or s.type}"
                                        f"{', evidence: ' + s.evidence_words if s.evidence_words else ''}]"
                                        for s in res.spans)})
    return pd.DataFrame(rows)


def summary(scored: pd.DataFrame) -> pd.DataFrame:
    out = []
    for (cls, kind), g in scored.groupby(["class", "kind"], sort=False):
        out.append({"class": cls, "kind": kind, "cases": len(g), "flagged": int(g["flagged"].sum()),
                    "caught": int(g["caught"].sum())})
    return pd.DataFrame(out)


def both_ways(detector, cases: list[dict]) -> pd.DataFrame:
    """Per class: cases, and caught / flagged with the conflict rule off and on."""
    parts = []
    for label, on in (("off", False), ("on", True)):
        detector.conflicts = on
        part = summary(score(detector, cases)).set_index(["class", "kind", "cases"])
        parts.append(part.rename(columns={c: f"{c}_{label}" for c in part.columns}))
    return pd.concat(parts, axis=1).reset_index()


def write_summary(table: pd.DataFrame, out: Path) -> None:
    from ..io import atomic_write_text
    from ..runinfo import code_commit

    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "summary.csv", table.to_csv(index=False))
    atomic_write_text(out / "commit.txt", f"{code_commit() or 'unknown'}\n")


def main(argv: list[str] | None = None) -> int:
    from ..errors import EvidenceChainError
    from .api import Detector

    ap = argparse.ArgumentParser(prog="python -m evidencechain.detect.invented_suite", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", type=Path, default=SUITE)
    ap.add_argument("--model", default=None, help="a model directory (default: the default model)")
    ap.add_argument("--conflicts", choices=("on", "off"), default=None,
                    help="the conflict rule on or off (default: as the model's card says)")
    ap.add_argument("--out", type=Path, default=None, help="write the per-case table here (CSV)")
    ap.add_argument("--summary", type=Path, default=None,
                    help="score with the rule off and on; write summary.csv and commit.txt into this directory")
    args = ap.parse_args(argv)
    try:
        cases = read_cases(args.suite)
        conflicts = None if args.conflicts is None else args.conflicts == "on"
        detector = Detector.load(args.model, conflicts=conflicts) if args.model \
            else Detector.default(conflicts=conflicts)
        with detector:
            if args.summary:
                table = both_ways(detector, cases)
                write_summary(table, args.summary)
                print(table.to_string(index=False))
                return 0
            scored = score(detector, cases)
    except (EvidenceChainError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        scored.to_csv(args.out, index=False)
    table = summary(scored)
    print(table.to_string(index=False))
    errors = scored[scored["kind"] == "error"]
    print(f"errors caught {int(errors['caught'].sum())}/{len(errors)} (flagged {int(errors['flagged'].sum())}); "
          f"paraphrases flagged {int(scored.loc[scored['kind'] != 'error', 'flagged'].sum())}/"
          f"{int((scored['kind'] != 'error').sum())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
