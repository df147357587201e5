"""Text layer: sentences, tokens with offsets, evidence chunks, span mapping."""
from .spacy_import import import_spacy_lightly

import_spacy_lightly()

from .chunks import Chunk, Evidence, build_evidence, render_value  # noqa: E402
from .nlp import load_pipeline  # noqa: E402
from .parse import ParseCache, ParsedText, parse_texts, pipeline_name  # noqa: E402
from .spans import token_labels, tokens_to_spans  # noqa: E402

__all__ = [
    "Chunk", "Evidence", "ParseCache", "ParsedText", "build_evidence", "load_pipeline",
    "parse_texts", "pipeline_name", "render_value", "token_labels", "tokens_to_spans",
]
