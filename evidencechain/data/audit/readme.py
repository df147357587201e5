"""Writing the corpus: the RAGTruth files and a README with the corpus statistics."""
from __future__ import annotations

from pathlib import Path

from ...io import atomic_write_text
from ..ragtruth import write_ragtruth
from .corpus import generate_audit_corpus
from .plan import MODEL_RATES, MODELS, TASK_RATES
from .resources import RESPONSES, template_text


def no_info_rates() -> str:
    """A Markdown table: per generator label, the probability of each NO-INFO kind."""
    kinds = RESPONSES.no_info["kinds"]
    header = "| generator label | " + " | ".join(kinds) + " |"
    align = "| --- | " + " | ".join("---:" for _ in kinds) + " |"
    rows = [f"| {m} | " + " | ".join(f"{RESPONSES.styles[m]['no_info'][k]:.2f}" for k in kinds) + " |"
            for m in MODELS]
    return "\n".join([header, align, *rows])


def write_audit_corpus(out_dir: str | Path = "data/audit", seed: int = 17, scale: int = 1) -> list[Path]:
    """Write response.jsonl, source_info.jsonl and README.md; return their paths."""
    from ...text.parse import pipeline_name
    from ..stats import corpus_statistics, statistics_markdown

    out_dir = Path(out_dir)
    corpus = generate_audit_corpus(seed=seed, scale=scale)
    resp_path, src_path = write_ragtruth(corpus, out_dir)
    tables = corpus_statistics(corpus, seed=seed)
    readme = template_text("readme.md").format(
        seed=seed, scale=scale, scale_arg=f" --scale {scale}" if scale != 1 else "",
        model_rates=", ".join(f"{m} {MODEL_RATES[m]:.2f}" for m in MODELS),
        task_rates=", ".join(f"{t} {r:.2f}" for t, r in TASK_RATES.items()),
        no_info_rates=no_info_rates(),
        pipeline=pipeline_name(), tables=statistics_markdown(tables))
    readme_path = atomic_write_text(out_dir / "README.md", readme)
    return [resp_path, src_path, readme_path]
