"""One entry point from a `[corpora.NAME]` config table to a split `Corpus`."""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError
from ..records import Corpus
from .benchmarks import formats
from .splits import SPLIT_NAMES, assign_splits


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
