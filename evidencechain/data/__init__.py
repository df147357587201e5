"""Data layer: records, RAGTruth-format I/O and validation, splits, generated corpora."""
from .ragtruth import DataValidationError, Problem, load_ragtruth, write_ragtruth
from .records import Corpus, Label, Response, SentenceGold, Source
from .splits import assign_splits, split_corpus

__all__ = [
    "Corpus", "DataValidationError", "Label", "Problem", "Response", "SentenceGold", "Source",
    "assign_splits", "load_ragtruth", "split_corpus", "write_ragtruth",
]
