"""The general corpus formats: RAGTruth-format files, plain answer files and the planted corpus."""
from __future__ import annotations

from pathlib import Path

from ..records import Corpus
from .benchmarks import Format, register_format


def _ragtruth(spec, name: str) -> Corpus:
    from .ragtruth import load_ragtruth

    return load_ragtruth(Path(spec.response_jsonl).expanduser(), Path(spec.source_info_jsonl).expanduser(),
                         quality=spec.quality or None, name=name)


def read_ragtruth(spec, name: str, seed: int) -> Corpus:
    return _ragtruth(spec, name)


def read_planted(spec, name: str, seed: int) -> Corpus:
    """The planted corpus of semantic errors, merged into a RAGTruth-format corpus when one is named."""
    from .planted.corpus import generate_planted_corpus, merged

    corpus = generate_planted_corpus(seed)
    return merged(_ragtruth(spec, name), corpus, name) if spec.response_jsonl else corpus


def read_plain(spec, name: str, seed: int) -> Corpus:
    from .plain import load_plain

    return load_plain(Path(spec.path).expanduser(), name=name)


register_format(Format("ragtruth", read_ragtruth, needs_path=False))
register_format(Format("plain", read_plain))
register_format(Format("planted", read_planted, needs_path=False))
