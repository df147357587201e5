"""Metadata features: decoding temperature, generator label, task type, source collection."""
from __future__ import annotations

from ..records import Response, Source


def metadata_columns(response: Response, source: Source) -> dict:
    return {
        "temperature": float(response.temperature),
        "model": response.model,
        "task_type": source.task_type,
        "source_collection": source.source,
    }
