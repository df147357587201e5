"""Score new RAGTruth-format data with a fitted model and write the scored tables."""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from .data.records import Corpus
from .io import check_output_dir, staged_directory, write_csv
from .model import EvidenceChain
from .text.parse import ParseCache


def detect_files(model_dir: str | Path, corpus: Corpus, out_dir: str | Path,
                 progress: bool = True, cache_dir: str | Path | None = ".cache",
                 inputs: Iterable[str | Path] = ()) -> list[Path]:
    """Write sentences.csv (risk, label, evidence chunk per detector), tokens.csv and responses.csv.

    `out_dir` is replaced as one unit, and only if it is absent, empty or an earlier output
    (see `io.check_output_dir`); `inputs` are the data files, which it may not replace.
    """
    guarded = (model_dir, cache_dir, *inputs)
    check_output_dir(out_dir, guarded)
    cache = ParseCache(Path(cache_dir) / "parse.sqlite") if cache_dir else None
    try:
        model = EvidenceChain.load(model_dir, cache=cache)
        scored = model.score(corpus, progress=progress)
        with staged_directory(out_dir, inputs=guarded) as stage:
            names = [write_csv(scored.sentences, stage / "sentences.csv").name,
                     write_csv(scored.responses, stage / "responses.csv").name]
            if len(scored.tokens):
                names.append(write_csv(scored.tokens, stage / "tokens.csv").name)
    finally:
        if cache is not None:
            cache.close()
    return [Path(out_dir) / name for name in names]
