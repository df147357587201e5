"""One entry point from a `[corpora.NAME]` config table to a split `Corpus`."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..records import Corpus
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
    """Read the corpus a `CorpusConfig` describes with its adapter."""
    path = Path(spec.path).expanduser() if spec.path else None
    if spec.format == "ragtruth":
        from .ragtruth import load_ragtruth
        corpus = load_ragtruth(Path(spec.response_jsonl).expanduser(),
                               Path(spec.source_info_jsonl).expanduser(),
                               quality=spec.quality or None, name=name)
    elif spec.format == "halueval":
        from .halueval import load_halueval_corpus
        corpus = load_halueval_corpus(path, subsets=spec.subsets or ("qa", "dialogue", "summarization"),
                                      limit=spec.limit, seed=seed, test_fraction=spec.test_fraction)
    elif spec.format == "summedits":
        from .summedits import load_summedits
        corpus = load_summedits(path, domains=spec.subsets or None, limit=spec.limit)
    elif spec.format == "cliff":
        from .cliff import load_cliff
        corpus = load_cliff(path)
    elif spec.format == "planted":
        from .planted.corpus import generate_planted_corpus, merged
        corpus = generate_planted_corpus(seed)
        if spec.response_jsonl:
            from .ragtruth import load_ragtruth
            base = load_ragtruth(Path(spec.response_jsonl).expanduser(), Path(spec.source_info_jsonl).expanduser(),
                                 quality=spec.quality or None, name=name)
            corpus = merged(base, corpus, name)
    elif spec.format == "plain":
        from .plain import load_plain
        corpus = load_plain(path, name=name)
    else:
        raise InputError(f"corpus {name!r}: unknown format {spec.format!r}")
    corpus.name = name
    return corpus


def load_split_corpus(spec, name: str, seed: int) -> SplitCorpus:
    """Read a corpus and split it by source: test as given, calibration carved from train."""
    corpus = read_corpus(spec, name, seed)
    if spec.test_only:
        return SplitCorpus(name, corpus, {r.id: "test" for r in corpus.responses})
    by_source = assign_splits(corpus, spec.calibration_fraction, seed, spec.train_from_calibration)
    return SplitCorpus(name, corpus, {r.id: by_source[r.source_id] for r in corpus.responses})
