"""Score new RAGTruth-format data with a fitted model and write the scored tables."""
from __future__ import annotations

from pathlib import Path

from .data.records import Corpus
from .io import write_csv
from .model import EvidenceChain
from .text.parse import ParseCache


def detect_files(model_dir: str | Path, corpus: Corpus, out_dir: str | Path,
                 progress: bool = True, cache_dir: str | Path | None = ".cache") -> list[Path]:
    """Write sentences.csv (risk, label, evidence chunk per detector), tokens.csv and responses.csv."""
    cache = ParseCache(Path(cache_dir) / "parse.sqlite") if cache_dir else None
    model = EvidenceChain.load(model_dir, cache=cache)
    scored = model.score(corpus, progress=progress)
    out = Path(out_dir)
    paths = [write_csv(scored.sentences, out / "sentences.csv"),
             write_csv(scored.responses, out / "responses.csv")]
    if len(scored.tokens):
        paths.append(write_csv(scored.tokens, out / "tokens.csv"))
    if cache is not None:
        cache.close()
    return paths
