"""Data layer: records, RAGTruth-format I/O and validation, splits, generated corpora."""
from ..records import Corpus, Label, Response, SentenceGold, Source
from . import benchmarks as _registry
from .plain import load_plain
from .ragtruth import DataValidationError, Problem, load_ragtruth, write_ragtruth
from .splits import assign_splits, split_corpus

__all__ = [
    "Corpus", "DataValidationError", "Label", "Problem", "Response", "SentenceGold", "Source",
    "assign_splits", "load_cliff", "load_plain", "load_ragtruth", "load_summedits", "split_corpus",
    "write_ragtruth",
]


def __getattr__(name: str):
    """The registered formats' public loaders (`load_cliff`, ...), imported on first use."""
    for fmt in _registry.formats().values():
        if fmt.loader is not None and fmt.loader.__name__ == name:
            return fmt.loader
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
