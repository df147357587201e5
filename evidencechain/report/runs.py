"""Read a finished run directory (its CSV files and run.json) for reporting and exploration."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

LEVELS = ("word", "sentence", "response")


class MissingResultError(FileNotFoundError):
    """A table, figure or manuscript value needs a result file the run does not have."""


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
            self._cache[name] = pd.read_csv(file, keep_default_na=False, na_values=[""]) \
                if file.is_file() else None
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

    @property
    def methods(self) -> list[str]:
        """Detectors in the order of the run's config."""
        names = self.meta.get("config", {}).get("detectors", {}).get("names")
        if names:
            return list(names)
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
    return Run(path, json.loads(meta_file.read_text("utf-8")))
