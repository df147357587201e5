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
before the scored data was seen, and the scored data was scored once. The detector each headline
number names was chosen on calibration data by a rule fixed beforehand (the `select` and `chosen`
entries of `report/data/sections.toml`), not on the scored rows; the best scored row is a
selection on test and is named only for reference. Rows fitted on the scored
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


ON_CALIBRATION, ON_TEST = "chosen on calibration data", "best of test rows: selection on test"


def select_row(frame: pd.DataFrame, column: str, rule: dict | None) -> tuple[pd.Series, str]:
    """The headline row for `column` and how it was chosen (`ON_CALIBRATION` or `ON_TEST`).

    A section's `select` table (`data/sections.toml`) names, per headline column, the calibration
    column it is chosen by (`by`), and optionally the rows it is chosen among (`fitted_on`): the row
    with the highest calibration value wins, ties to the earlier row (the run's order of units, then
    of [detectors] names); the test column is never read for the choice. Without a rule for
    `column` (or without that calibration column in the table) it is the best test row, `ON_TEST`:
    a selection on test, labelled as such wherever it is shown."""
    by = (rule or {}).get("by", {}).get(column)
    if by and by in frame:
        part = _rows(frame)
        if (rule or {}).get("fitted_on"):
            part = part[part["fitted_on"] == rule["fitted_on"]]
        part = part[part[by].notna() & part[column].notna()]
        if len(part):
            return part.loc[part[by].idxmax()], ON_CALIBRATION
    return _best(frame, column), ON_TEST


def _rows(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[~frame["method"].str.contains("published|floor", regex=True) & (frame["fitted_on"] != "published")]


def _detector(row: pd.Series) -> str:
    return f"{row['method']}, fitted on {row['fitted_on']}"


def _headline(frame: pd.DataFrame, column: str, key: str, chosen: pd.Series, how: str) -> dict:
    """`key`'s value, how its row was chosen, and the best test row beside it (for reference only)."""
    best = _best(frame, column)
    return {key: chosen[column], f"{key}.selection": how, f"{key}.best_test": best[column],
            f"{key}.best_test_detector": _detector(best)}


def _spans(name: str, frame: pd.DataFrame, text: dict) -> dict:
    (resp, resp_how), (span, span_how) = (select_row(frame, c, text.get("select")) for c in ("response_f1", "span_f1"))
    floor = frame[frame["method"].str.contains("floor")]["response_f1"]
    return {"n": text["answers"], "response_method": resp["method"], "response_fit": resp["fitted_on"],
            "floor": float(floor.iloc[0]) if len(floor) else np.nan, "span_method": _detector(span),
            **_headline(frame, "response_f1", "response_f1", resp, resp_how),
            **_headline(frame, "span_f1", "span_f1", span, span_how)}


def _domains(name: str, frame: pd.DataFrame, text: dict) -> dict:
    scored = frame[frame["fitted_on"] != "published"]
    row, how = select_row(scored, "mean", text.get("select"))
    return {"method": row["method"], "fit": row["fitted_on"], **_headline(scored, "mean", "mean", row, how)}


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
    word, word_how = select_row(frame, "word_f1", text.get("select"))
    return {"ba_method": _detector(ba), "word_method": _detector(word),
            **_headline(frame, "summary_balanced_accuracy", "balanced_accuracy", ba,
                        "chosen on validation data" if chosen is not None else ON_TEST),
            **_headline(frame, "word_f1", "word_f1", word, word_how)}


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
    return {**values, **(_word_values(name, frame, text) if kind in WORD_LEVEL else {})}


def _word_values(name: str, frame: pd.DataFrame, text: dict) -> dict:
    """The word and span F1 of a benchmark's headline rows (`select_row`), the best test row beside
    each (for reference only), and the rule-based rows."""
    out = {}
    for column in ("word_f1", "span_f1"):
        if column not in frame or frame[column].isna().all():
            continue
        row, how = select_row(frame, column, text.get("select"))
        best = _best(frame, column)
        key = f"word.{name}.{column}"
        out[key] = row[column]
        out[f"{key}.detector"] = _detector(row) + ("" if how == ON_CALIBRATION else f" ({how})")
        out[f"{key}.best_test"] = f"{best[column]:.3f} ({_detector(best)})"
        lexical = frame[(frame["method"] == "Lexical") & frame[column].notna()]
        if len(lexical):
            out[f"{key}.rule"] = lexical[column].iloc[0]
    return out


def word_level(values: dict) -> pd.DataFrame:
    """Word- and span-level F1 on real data: the headline detector (chosen on calibration data), the
    best test row (for reference only), the rule-based mapping, published."""
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
                             "detector": values[f"{key}.detector"], "best_test": values[f"{key}.best_test"],
                             "rule": values.get(f"{key}.rule", np.nan), "reference": published.get(column, "")})
    return pd.DataFrame(rows, columns=["benchmark", "ours", "detector", "best_test", "rule", "reference"])


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
            on_test = any(own.get(f"{k}.selection") == ON_TEST for k in _fields(line))
            parts.append(line.format_map(own) + (" (best of the test rows: a selection on test)" if on_test else ""))
    if not parts:
        return "No real-data benchmark was included in this build."
    return ("On real data, with detectors fitted on other corpora or domains, thresholds fixed before "
            "each test set was scored once, and each reported detector chosen on calibration data (not "
            "on the test set), the detectors reach " + "; ".join(parts) + ".")


def _fields(line: str) -> list[str]:
    return [field for _, field, _, _ in string.Formatter().parse(line) if field]


def headline(values: dict) -> pd.DataFrame:
    """One row per real-data headline number (the row chosen on calibration data, or labelled as a
    selection on test), beside its floor or published reference and the best test row (for
    reference only)."""
    rows, texts = [], sections()
    for name, _ in runs():
        own = _own(values, name)
        for row in texts[name].get("headline", []):
            key = row["value"]
            if key in own:
                best = (f"{own[key + '.best_test']:.3f} ({own[key + '.best_test_detector']})"
                        if f"{key}.best_test" in own else "")
                selection = own.get(f"{key}.selection")
                rows.append({"benchmark": row["what"], "ours": float(own[key]),
                             "detector": row["detector"].format_map(own) + (f"; {selection}" if selection else ""),
                             "best_test": best, "reference": row["reference"].format_map(own)})
    return pd.DataFrame(rows, columns=["benchmark", "ours", "detector", "best_test", "reference"])
