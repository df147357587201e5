"""Data layer: records, RAGTruth-format I/O and validation, splits, generated corpora."""
from ..records import Corpus, Label, Response, SentenceGold, Source
from .cliff import load_cliff
from .plain import load_plain
from .ragtruth import DataValidationError, Problem, load_ragtruth, write_ragtruth
from .splits import assign_splits, split_corpus
from .summedits import load_summedits

__all__ = [
    "Corpus", "DataValidationError", "Label", "Problem", "Response", "SentenceGold", "Source",
    "assign_splits", "load_cliff", "load_plain", "load_ragtruth", "load_summedits", "split_corpus",
    "write_ragtruth",
]
