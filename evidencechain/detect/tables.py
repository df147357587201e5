"""Score RAGTruth-format data with a fitted model and write the scored tables (CSV)."""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..io import check_output_dir, staged_directory, write_csv
from ..records import Corpus


def detect_files(model_dir: str | Path, corpus: Corpus, out_dir: str | Path,
                 progress: bool = True, cache_dir: str | Path | None = None,
                 inputs: Iterable[str | Path] = ()) -> list[Path]:
    """Write sentences.csv (risk, label, evidence chunk per detector), tokens.csv and responses.csv.

    `out_dir` is replaced as one unit, and only if it is absent, empty or an earlier output
    (see `io.check_output_dir`); `inputs` are the data files, which it may not replace. The
    parse cache lives in `cache_dir` (default: the user cache directory, see
    `evidencechain.detect.default.cache_dir`; never the current directory).
    """
    from ..model import EvidenceChain
    from ..text.parse import ParseCache
    from .default import cache_dir as user_cache

    cache_dir = Path(cache_dir) if cache_dir else user_cache()
    guarded = (model_dir, cache_dir, *inputs)
    check_output_dir(out_dir, guarded)
    cache = ParseCache(cache_dir / "parse.sqlite")
    try:
        model = EvidenceChain.load(model_dir, cache=cache)
        scored = model.score(corpus, progress=progress)
        with staged_directory(out_dir, inputs=guarded) as stage:
            names = [write_csv(scored.sentences, stage / "sentences.csv").name,
                     write_csv(scored.responses, stage / "responses.csv").name]
            if len(scored.tokens):
                names.append(write_csv(scored.tokens, stage / "tokens.csv").name)
    finally:
        cache.close()
    return [Path(out_dir) / name for name in names]
