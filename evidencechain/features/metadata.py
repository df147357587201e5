"""Metadata features: decoding temperature, generator label, task type, source collection."""
from __future__ import annotations

from ..records import Response, Source
from .family import FamilyContext, FeatureFamily, WorkTables
from .sentences import VIEWS

METADATA_COLUMNS = ("temperature", "model", "task_type", "source_collection")


def metadata_columns(response: Response, source: Source) -> dict:
    return {
        "temperature": float(response.temperature),
        "model": response.model,
        "task_type": source.task_type,
        "source_collection": source.source,
    }


class MetadataFamily(FeatureFamily):
    """The answer's metadata repeated on each of its sentences."""

    name = "metadata"
    columns = METADATA_COLUMNS
    groups = {"metadata": ("temperature",)}
    categorical = {"metadata": ("model", "task_type", "source_collection")}
    needs = ("answer and source metadata",)
    core = True

    def add(self, tables: WorkTables, context: FamilyContext) -> None:
        rows = []
        for view in context.scratch[VIEWS]:
            rows += [metadata_columns(view.response, context.corpus.source_of(view.response))] * len(view.spans)
        for c in self.columns:
            tables.sentences[c] = [m[c] for m in rows]
