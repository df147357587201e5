"""The registry of methods by published name, filled by `evidencechain.detectors` (a leaf module,
so that parts of a method can read the registry without importing the package)."""
from __future__ import annotations

from .base import Method

DETECTORS: dict[str, type[Method]] = {}


def sentence_models() -> list[str]:
    """Names of the supervised methods that score sentences (the Provenance 'evidencechain' checker)."""
    return sorted(n for n, c in DETECTORS.items() if c.tags()["supervised"] and c.tags()["level"] == "sentence")
