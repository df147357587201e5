"""evidencechain: offline word-level hallucination detection and evidence attribution for RAG."""
from .version import __version__ as __version__

_LAZY = {"Detector", "DetectionResult", "EvidenceRef", "SentenceResult", "Span"}


def __getattr__(name: str):
    """`from evidencechain import Detector` without importing the heavy modules at package import."""
    if name in _LAZY:
        from . import detect

        return getattr(detect, name)
    raise AttributeError(f"module 'evidencechain' has no attribute {name!r}")
