"""Read a finished run directory (its CSV files and run.json) for reporting and exploration."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..errors import ResultError

LEVELS = ("word", "sentence", "response")
METRICS = ["method", "precision", "recall", "f1", "threshold", "n", "positives"]
REQUIRED_COLUMNS = {
    **{f"metrics_{level}": METRICS for level in LEVELS},
    "metrics_span": ["method", "precision", "recall", "f1"],
    "metrics_by_task": ["level", "task_type", "method", "f1"],
    "thresholds": ["method", "level", "threshold"],
    "split_summary": ["split", "responses", "tokens", "hallucinated_tokens"],
    "sentences": ["response_id", "start", "end", "label"],
    "responses": ["response_id", "label"],
    "tokens": ["response_id", "start", "end", "is_punct", "label"],
}
"""Columns each known CSV must have."""
NUMBERS = {"precision", "recall", "f1", "n", "positives", "threshold", "responses", "tokens",
           "hallucinated_tokens", "start", "end", "is_punct"}
"""Columns that must hold a number in every row (and every `risk_*` column of scored tables)."""
SCORED = ("sentences", "responses", "tokens")


class MissingResultError(ResultError, FileNotFoundError):
    """A table, figure or manuscript value needs a result file the run does not have."""


class DamagedResultError(ResultError):
    """A result file of the run is empty, truncated, unparseable or lacks columns or values."""


@dataclass
class Run:
    """One run directory: `run.table("metrics_word")` reads `metrics_word.csv` (cached)."""

    path: Path
    meta: dict
    _cache: dict[str, pd.DataFrame | None] = field(default_factory=dict, repr=False)

    def has(self, name: str) -> bool:
        return (self.path / f"{name}.csv").is_file()

    def table(self, name: str, required: bool = True) -> pd.DataFrame | None:
        """The run's `<name>.csv` as a DataFrame; None (or an error if required) when absent."""
        if name not in self._cache:
            file = self.path / f"{name}.csv"
            self._cache[name] = read_result_csv(file, self._checksum(file.name)) if file.is_file() else None
        frame = self._cache[name]
        if frame is None and required:
            raise MissingResultError(f"{self.path / (name + '.csv')} does not exist (needed for the report)")
        return frame

    @property
    def sentences(self) -> pd.DataFrame:
        return self.table("sentences")

    @property
    def responses(self) -> pd.DataFrame:
        return self.table("responses")

    @property
    def tokens(self) -> pd.DataFrame:
        return self.table("tokens")

    @property
    def words(self) -> pd.DataFrame:
        """Test tokens that count in word-level metrics (punctuation excluded)."""
        t = self.tokens
        return t[t["is_punct"] == 0]

    @property
    def has_word_labels(self) -> bool:
        return self.has("tokens") and self.has("metrics_word")

    def _configured(self) -> list[str]:
        """The config's detectors that the detailed unit fitted (run.json `thresholds`): a
        detector the runner skipped, with its reason in units.csv, has no rows to expect."""
        names = list(self.meta.get("config", {}).get("detectors", {}).get("names") or [])
        fitted = self.meta.get("thresholds")
        return [n for n in names if n in fitted] if isinstance(fitted, dict) and fitted else names

    @property
    def methods(self) -> list[str]:
        """Detectors in the order of the run's config (those it could score)."""
        names = self._configured()
        if names:
            return names
        return list(self.table("metrics_sentence")["method"])

    @property
    def primary(self) -> str:
        return self.meta.get("config", {}).get("detectors", {}).get("primary", self.methods[-1])

    @property
    def seed(self) -> int:
        return int(self.meta["seed"])

    @property
    def run_id(self) -> str:
        """A stable identifier of what the run computed: config, inputs and package versions."""
        keys = ("name", "seed", "config", "inputs", "packages", "evidencechain_version", "python")
        blob = json.dumps({k: self.meta.get(k) for k in keys}, sort_keys=True, default=str)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]

    def _checksum(self, name: str) -> str | None:
        files = self.meta.get("files")
        return files.get(name) if isinstance(files, dict) else None

    def check(self) -> None:
        """Read every CSV of the run: a ResultError names the first missing or damaged one."""
        listed = [n for n in self.meta.get("outputs", []) if isinstance(n, str) and n.endswith(".csv")]
        for name in listed:
            if not (self.path / name).is_file():
                raise MissingResultError(f"{self.path / name} is missing (run.json lists it as an output)")
        for file in sorted(self.path.glob("*.csv")):
            self.table(file.stem, required=False)
        names = self._configured()
        for level in LEVELS:
            frame = self.table(f"metrics_{level}", required=False)
            missing = [m for m in names if frame is not None and m not in set(frame["method"])]
            if missing:
                raise DamagedResultError(f"{self.path / f'metrics_{level}.csv'} has no row for "
                                         f"{', '.join(missing)} (truncated?)")

    def best(self, level: str, metric: str = "f1") -> pd.Series:
        """The metrics row of the best method at `level` (ties: first in config order)."""
        frame = self.table(f"metrics_{level}")
        return frame.loc[frame[metric].fillna(-1).idxmax()]

    def response_text(self, response_id: str) -> str:
        """The response text rebuilt from its test sentences (gaps filled with spaces)."""
        rows = self.sentences[self.sentences["response_id"] == response_id].sort_values("start")
        if rows.empty:
            raise KeyError(f"no test sentences for response {response_id!r}")
        text = ""
        for start, sentence in zip(rows["start"], rows["text"]):
            text = text.ljust(int(start)) + str(sentence)
        return text


def load_run(run_dir: str | Path) -> Run:
    """Open a run directory written by `evidencechain run` (needs its run.json)."""
    path = Path(run_dir)
    meta_file = path / "run.json"
    if not meta_file.is_file():
        raise MissingResultError(f"{meta_file} does not exist: run `evidencechain run` first "
                                 f"(or `make experiment`)")
    try:
        meta = json.loads(meta_file.read_text("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise DamagedResultError(f"{meta_file} is damaged (not valid JSON: {exc})") from exc
    if not isinstance(meta, dict):
        raise DamagedResultError(f"{meta_file} is damaged (not a JSON object)")
    return Run(path, meta)


def read_result_csv(file: Path, sha256: str | None = None) -> pd.DataFrame:
    """Read one result CSV; a DamagedResultError says what is wrong with it."""
    data = file.read_bytes()
    if not data.strip():
        raise DamagedResultError(f"{file} is empty")
    if not data.endswith(b"\n"):
        raise DamagedResultError(f"{file} is truncated (its last line is incomplete)")
    if sha256 and hashlib.sha256(data).hexdigest() != sha256:
        raise DamagedResultError(f"{file} does not match its checksum in run.json (changed after the run)")
    try:
        frame = pd.read_csv(file, keep_default_na=False, na_values=[""])
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise DamagedResultError(f"{file} cannot be parsed: {str(exc).strip()}") from exc
    _check_columns(file, frame)
    return frame


def _check_columns(file: Path, frame: pd.DataFrame) -> None:
    required = REQUIRED_COLUMNS.get(file.stem, [])
    missing = [c for c in required if c not in frame.columns]
    if missing:
        raise DamagedResultError(f"{file} lacks the column(s) {', '.join(missing)}")
    numeric = [c for c in required if c in NUMBERS]
    if file.stem in SCORED:
        numeric += [c for c in frame.columns if c.startswith("risk_")]
    for column in numeric:
        values = pd.to_numeric(frame[column], errors="coerce")
        if values.isna().any():
            row = int(values.isna().to_numpy().argmax()) + 1
            raise DamagedResultError(f"{file} has no number in column {column!r} in data row {row} "
                                     f"(truncated or edited?)")
