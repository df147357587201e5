"""Detect hallucinated words in your own RAG answers: the `Detector` API, the `detect` command.

    from evidencechain import Detector
    result = Detector.default().predict(context=[...], question="...", answer="...")

Modules: `api` (Detector), `results` (typed results), `default` (the default model, built on
first use and cached), `inputs` (plain JSONL/CSV, stdin, RAGTruth pairs), `output` (JSONL and
terminal view), `html` (the self-contained report), `command` (the CLI), `tables` (CSV tables
of every detector, `detect_files`).
"""
from __future__ import annotations

from ..results import DetectionResult, EvidenceRef, SentenceResult, Span
from .api import Detector
from .tables import detect_files

__all__ = ["DetectionResult", "Detector", "EvidenceRef", "SentenceResult", "Span", "detect_files"]
