"""One entry point from a `[corpora.NAME]` config table to a split `Corpus`."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import InputError
from ..records import Corpus
from ..schema import value_range
from .benchmarks import FormatNames, formats
from .splits import SPLIT_NAMES, assign_splits

FORMATS = FormatNames()
"""The registered corpus formats (`evidencechain.data.benchmarks`), read when a config is checked."""


@dataclass
class CorpusConfig:
    """One `[corpora.NAME]` table: which adapter reads which files."""

    format: str = field(default="ragtruth", metadata={"choices": FORMATS})
    response_jsonl: str = ""
    source_info_jsonl: str = ""
    """ragtruth: the two files; planted: an optional RAGTruth-format corpus (the audit corpus) that
    the 'planted' corpus of semantic errors (`data.planted`) is merged into."""
    path: str = ""
    """The data directory or file, as the format reads it (not used by ragtruth and planted)."""
    subsets: list[str] = field(default_factory=list)
    """The format's subsets (tasks, domains) to read (empty: all)."""
    quality: list[str] = field(default_factory=lambda: ["good"])
    """ragtruth: keep answers of these qualities (empty: all)."""
    limit: int = field(default=0, metadata=value_range(0))
    """Records per subset, where the format samples (0 = all)."""
    test_fraction: float = field(default=0.3, metadata=value_range(0.0, 1.0, hi_open=True))
    calibration_fraction: float = field(default=0.2, metadata=value_range(0.0, 1.0, hi_open=True))
    """Share of train sources carved out for calibration (seeded, by source_id)."""
    train_from_calibration: float = field(default=0.0, metadata=value_range(0.0, 1.0, hi_open=True))
    """Share of the sources of a predefined calibration split (such as a `val` cut) moved to train, so
    that a detector can be fitted on one part and calibrated on the other (seeded, by source_id)."""
    test_only: bool = False
    """Every answer is test data, whatever its `split` field: nothing is fitted or calibrated on it."""


@dataclass
class SplitCorpus:
    """A corpus with the split (train / calibration / test) of every response."""

    name: str
    corpus: Corpus
    split_of: dict[str, str]
    """response id -> split."""

    def ids(self, split: str | None = None, subset: str | None = None,
            exclude_subset: str | None = None) -> list[str]:
        """Response ids in corpus order, filtered by split and (excluded) subset."""
        return [r.id for r in self.corpus.responses
                if (split is None or self.split_of[r.id] == split)
                and (subset is None or r.subset == subset)
                and (exclude_subset is None or r.subset != exclude_subset)]

    def counts(self) -> dict[str, int]:
        return {s: len(self.ids(s)) for s in SPLIT_NAMES}


def read_corpus(spec, name: str, seed: int) -> Corpus:
    """Read the corpus a `CorpusConfig` describes with its format's registered reader."""
    fmt = formats().get(spec.format)
    if fmt is None:
        raise InputError(f"corpus {name!r}: unknown format {spec.format!r}")
    corpus = fmt.read(spec, name, seed)
    corpus.name = name
    return corpus


def load_split_corpus(spec, name: str, seed: int) -> SplitCorpus:
    """Read a corpus and split it by source: test as given, calibration carved from train."""
    corpus = read_corpus(spec, name, seed)
    if spec.test_only:
        return SplitCorpus(name, corpus, {r.id: "test" for r in corpus.responses})
    by_source = assign_splits(corpus, spec.calibration_fraction, seed, spec.train_from_calibration)
    return SplitCorpus(name, corpus, {r.id: by_source[r.source_id] for r in corpus.responses})
