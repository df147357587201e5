"""Two finished runs of one config that differ only in the learned checker (`run --checker DIR`):
every row that reads the checker (the checker detectors and the fitted detectors whose feature
groups take its columns) and the config's primary detector (its headline rows), side by side.

    python -m evidencechain.report.checker_compare BASE_RUN=OTHER_RUN [BASE_RUN=OTHER_RUN ...]
        [--out FILE.csv]

Per run pair, evaluation and detector: response-level balanced accuracy and F1, span and word F1
where the run has them; a run scored per subset (domains) gives the mean over its subsets, as
the benchmark tables do. Prints a Markdown table; --out also writes it as CSV, with commit.txt
(the commits of the OTHER runs) beside it for the README's `checker-gpu` block.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

from ..data.stats import markdown_table
from ..detectors import DETECTORS
from ..errors import InputError
from ..io import atomic_write_text

METRICS = (("response", "balanced_accuracy"), ("response", "f1"), ("span", "f1"), ("word", "f1"))
COLUMNS = ["benchmark", "evaluation", "method", "role", "metric", "base", "other", "delta",
           "base_commit", "other_commit"]


def reads_checker(name: str) -> bool:
    """The detector scores the checker's columns, or is fitted on feature groups that take them
    when a checker is present (`plan.detector_params`)."""
    detector = DETECTORS.get(name)
    return detector is not None and (detector.tags()["needs_checker"] or "groups" in detector.param_names())


def _run(path: Path) -> tuple[pd.DataFrame, dict]:
    try:
        info = json.loads((path / "run.json").read_text("utf-8"))
        metrics = pd.read_csv(path / "metrics.csv", keep_default_na=False)
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: not a finished run ({exc})") from None
    return metrics, info


def _evaluation(unit: str, subset: str) -> str:
    """A unit scored on one subset named for all of them: `fit[-news] -> test[news]` becomes
    `fit[-each] -> test (subset mean)`."""
    if not subset:
        return unit
    return unit.replace(f"[-{subset}]", "[-each]").replace(f"[{subset}]", "") + " (subset mean)"


def _values(metrics: pd.DataFrame) -> pd.DataFrame:
    """(unit, method, metric) -> value, subsets averaged."""
    rows = []
    for level, column in METRICS:
        part = metrics[(metrics.level == level) & (metrics[column] != "")]
        if part.empty:
            continue
        part = part.assign(value=pd.to_numeric(part[column]), unit=[_evaluation(u, s) for u, s in
                                                                     zip(part.unit, part.subset, strict=True)])
        mean = part.groupby(["unit", "method"], sort=False)["value"].mean().reset_index()
        rows.append(mean.assign(metric=f"{level} {column}"))
    return pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(columns=["unit", "method", "value", "metric"])


def compare(base: Path, other: Path) -> pd.DataFrame:
    """The checker-reading rows and the primary detector's rows of two runs of one config."""
    (base_metrics, base_info), (other_metrics, other_info) = _run(base), _run(other)
    if base_info.get("name") != other_info.get("name"):
        raise InputError(f"{base} and {other}: runs of different configs ({base_info.get('name')} and "
                         f"{other_info.get('name')})")
    primary = other_info["config"]["detectors"]["primary"]
    merged = _values(base_metrics).merge(_values(other_metrics), on=["unit", "method", "metric"],
                                         suffixes=("_base", "_other"))
    keep = merged[merged.method.map(reads_checker) | (merged.method == primary)]
    keep = keep.assign(order=keep.metric.map({f"{a} {b}": i for i, (a, b) in enumerate(METRICS)}))
    keep = keep.sort_values(["order", "unit", "method"], kind="stable")
    return pd.DataFrame({
        "benchmark": other_info["name"], "evaluation": keep.unit, "method": keep.method,
        "role": ["primary (headline)" if m == primary else "reads checker" for m in keep.method],
        "metric": keep.metric, "base": keep.value_base.round(4), "other": keep.value_other.round(4),
        "delta": (keep.value_other - keep.value_base).round(4),
        "base_commit": base_info.get("commit", ""), "other_commit": other_info.get("commit", ""),
    }, columns=COLUMNS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evidencechain.report.checker_compare",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("pairs", nargs="+", metavar="BASE_RUN=OTHER_RUN")
    parser.add_argument("--out", metavar="FILE.csv", help="also write the table as CSV")
    args = parser.parse_args(argv)
    tables = []
    try:
        for pair in args.pairs:
            base, sep, other = pair.partition("=")
            if not sep or not base or not other:
                raise InputError(f"{pair!r}: expected BASE_RUN=OTHER_RUN")
            tables.append(compare(Path(base), Path(other)))
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    table = pd.concat(tables, ignore_index=True)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(args.out, table.to_csv(index=False))
        atomic_write_text(Path(args.out).parent / "commit.txt", ", ".join(sorted(set(table.other_commit))) + "\n")
    print(markdown_table(table.drop(columns=["base_commit", "other_commit"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
