"""Text layer: sentences, tokens with offsets, evidence chunks, span mapping."""
from .chunks import Chunk, Evidence, build_evidence, render_value
from .nlp import load_pipeline
from .parse import ParseCache, ParsedText, parse_texts, pipeline_name
from .spans import token_labels, tokens_to_spans

__all__ = [
    "Chunk", "Evidence", "ParseCache", "ParsedText", "build_evidence", "load_pipeline",
    "parse_texts", "pipeline_name", "render_value", "token_labels", "tokens_to_spans",
]
