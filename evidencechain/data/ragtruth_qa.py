"""RAGTruth QA: the QA answers of the RAGTruth test set, in RAGTruth format (`format = "ragtruth"`),
scored once as test data (`experiments/ragtruth_qa.toml`, `make ragtruth-qa`)."""
from __future__ import annotations

from .benchmarks import Benchmark, register

register(Benchmark("ragtruth_qa", "ragtruth", "RAGTruth QA", section="spans"))
