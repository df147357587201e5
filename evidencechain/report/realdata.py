"""The manuscript's real-data section and the README's lead: benchmark tables with their key
numbers read from the tables' CSVs (written by `report --benchmark`)."""
from __future__ import annotations

import string
import tomllib
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from ..data.benchmarks import benchmarks, extra_runs

Find = Callable[[Path], Path]

INTRO = """Every number in this section is measured on real generated answers with human labels.
Each detector was fitted and calibrated on the corpus its row names, its thresholds were fixed
before the scored data was seen, and the scored data was scored once. Rows fitted on the scored
corpus itself are in-distribution and are marked as such; published rows come from the papers
and were measured on their own data (their scope is stated).
"""
ABSENT = """*Not included in this build:* no real-data benchmark tables were present (`make
benchmarks` writes them into `paper/tables/`). Rebuild the manuscript after running them.
"""


def _best(frame: pd.DataFrame, column: str, exclude: tuple[str, ...] = ()) -> pd.Series:
    part = frame[frame[column].notna() & ~frame["method"].str.contains("published|floor", regex=True)]
    part = part[~part["method"].isin(exclude)]
    return part.loc[part[column].idxmax()]


def sections() -> dict:
    """The report texts of each benchmark (`data/sections.toml`, or its registry entry's), keyed by
    run name."""
    texts = tomllib.loads(resources.files(__package__).joinpath("data/sections.toml").read_text("utf-8"))
    return texts | {b.name: dict(b.texts) for b in benchmarks().values() if b.texts is not None}


def runs() -> list[tuple[str, str]]:
    """(run name, section kind) of every benchmark with report texts, in report order: the
    registered benchmarks, then the multi-corpus runs."""
    texts = sections()
    found = [(b.name, b.section) for b in benchmarks().values() if b.name in texts]
    return found + [(name, texts[name]["section"]) for name in extra_runs() if name in texts]


def _spans(name: str, frame: pd.DataFrame, text: dict) -> dict:
    resp, span = _best(frame, "response_f1"), _best(frame, "span_f1")
    floor = frame[frame["method"].str.contains("floor")]["response_f1"]
    return {"n": text["answers"], "response_f1": resp["response_f1"], "response_method": resp["method"],
            "response_fit": resp["fitted_on"], "floor": float(floor.iloc[0]) if len(floor) else np.nan,
            "span_f1": span["span_f1"], "span_method": f"{span['method']}, fitted on {span['fitted_on']}"}


def _domains(name: str, frame: pd.DataFrame, text: dict) -> dict:
    best = _best(frame[frame["fitted_on"] != "published"], "mean")
    return {"mean": best["mean"], "method": best["method"], "fit": best["fitted_on"]}


def _chosen(frame: pd.DataFrame, chosen: dict | None) -> pd.Series | None:
    """The row a section's `chosen` table names (method, fitted_on): a design fixed before the
    scored split was seen; None when the section names none or the table lacks that row."""
    if not chosen:
        return None
    rows = frame[(frame["method"] == chosen["method"]) & (frame["fitted_on"] == chosen["fitted_on"])]
    return rows.iloc[0] if len(rows) else None


def _summaries(name: str, frame: pd.DataFrame, text: dict) -> dict:
    chosen = _chosen(frame, text.get("chosen"))
    ba = chosen if chosen is not None else _best(frame, "summary_balanced_accuracy")
    word = _best(frame, "word_f1")
    return {"balanced_accuracy": ba["summary_balanced_accuracy"],
            "ba_method": f"{ba['method']}, fitted on {ba['fitted_on']}", "word_f1": word["word_f1"],
            "word_method": f"{word['method']}, fitted on {word['fitted_on']}"}


def _transfer(name: str, frame: pd.DataFrame, text: dict) -> dict:
    method = str(frame["method"].iloc[0])
    matrix = frame.drop(columns="method").set_index("fitted_on")
    values = matrix.to_numpy(dtype=float)
    diagonal = [matrix.loc[r, r] for r in matrix.index if r in matrix.columns]
    return {"method": method, "diagonal": float(np.nanmean(diagonal)) if diagonal else np.nan,
            "off_diagonal": float(np.nanmean([v for r, row in zip(matrix.index, values)
                                              for c, v in zip(matrix.columns, row) if c != r]))}


VALUES = {"spans": _spans, "domains": _domains, "summaries": _summaries, "transfer": _transfer}
"""Section kind -> the key numbers of its main table (`real.NAME.KEY`)."""
WORD_LEVEL = ("spans", "summaries")
"""Section kinds with word- and span-level rows (the README's word-level table)."""


def _values(name: str, kind: str, frame: pd.DataFrame, text: dict) -> dict:
    values = {f"real.{name}.{k}": v for k, v in VALUES[kind](name, frame, text).items()}
    return {**values, **(_word_values(name, frame) if kind in WORD_LEVEL else {})}


def _word_values(name: str, frame: pd.DataFrame) -> dict:
    """The best word and span F1 of a benchmark and the rule-based rows beside them."""
    out = {}
    for column in ("word_f1", "span_f1"):
        if column not in frame or frame[column].isna().all():
            continue
        best = _best(frame, column)
        out[f"word.{name}.{column}"] = best[column]
        out[f"word.{name}.{column}.detector"] = f"{best['method']}, fitted on {best['fitted_on']}"
        lexical = frame[(frame["method"] == "Lexical") & frame[column].notna()]
        if len(lexical):
            out[f"word.{name}.{column}.rule"] = lexical[column].iloc[0]
    return out


def word_level(values: dict) -> pd.DataFrame:
    """Word- and span-level F1 on real data: the best detector, the rule-based mapping, published."""
    texts, titles = sections(), {b.name: b.title for b in benchmarks().values()}
    rows = []
    for name, kind in runs():
        if kind not in WORD_LEVEL:
            continue
        published = texts[name].get("word_reference", {})
        for column, what in (("word_f1", "word F1"), ("span_f1", "span F1")):
            key = f"word.{name}.{column}"
            if key in values:
                rows.append({"benchmark": f"{titles[name]}, {what}", "ours": values[key],
                             "detector": values[f"{key}.detector"], "rule": values.get(f"{key}.rule", np.nan),
                             "reference": published.get(column, "")})
    return pd.DataFrame(rows, columns=["benchmark", "ours", "detector", "rule", "reference"])


def realdata_section(tables_dir: Path, find: Find = lambda p: p) -> tuple[str, dict]:
    """Template text and values of every benchmark whose table exists."""
    text, values, texts = "", {}, sections()
    for name, kind in runs():
        main = texts[name].get("table", name)
        for table, part in texts[name].get("parts", {}).items():
            csv = find(tables_dir / f"{table}.csv")
            if csv.is_file():
                text += part
                if table == main:
                    values.update(_values(name, kind, pd.read_csv(csv, keep_default_na=False, na_values=[""]),
                                          texts[name]))
    return (INTRO + text if text else ABSENT), values


class _Own(dict):
    """A benchmark's own values by short key; absent ones read as NaN."""

    def __missing__(self, key: str) -> float:
        return np.nan


def _own(values: dict, name: str) -> _Own:
    prefix = f"real.{name}."
    return _Own({k[len(prefix):]: v for k, v in values.items() if k.startswith(prefix)})


def abstract_sentence(values: dict) -> str:
    """The abstract's real-data sentence, from the values the section found (or a plain note)."""
    parts, texts = [], sections()
    for name, _ in runs():
        own, line = _own(values, name), texts[name].get("abstract")
        if line and all(k in own for k in _fields(line)):
            parts.append(line.format_map(own))
    if not parts:
        return "No real-data benchmark was included in this build."
    return ("On real data, with detectors fitted on other corpora or domains and thresholds fixed before "
            "each test set was scored once, the best detectors reach " + "; ".join(parts) + ".")


def _fields(line: str) -> list[str]:
    return [field for _, field, _, _ in string.Formatter().parse(line) if field]


def headline(values: dict) -> pd.DataFrame:
    """One row per real-data headline number, beside its floor or published reference."""
    rows, texts = [], sections()
    for name, _ in runs():
        own = _own(values, name)
        for row in texts[name].get("headline", []):
            if row["value"] in own:
                rows.append({"benchmark": row["what"], "ours": float(own[row["value"]]),
                             "detector": row["detector"].format_map(own),
                             "reference": row["reference"].format_map(own)})
    return pd.DataFrame(rows, columns=["benchmark", "ours", "detector", "reference"])
