"""What a semantic error class reports: the answer's wrong words and the evidence words they conflict with."""
from __future__ import annotations

from dataclasses import dataclass

CLASSES = ("polarity", "antonym", "roles", "quantity", "recombination", "modality")


@dataclass(frozen=True)
class Signal:
    cls: str
    tokens: tuple[int, ...]
    """Token indices into the answer's ParsedText."""
    evidence: str
    """The evidence words the answer's words conflict with ('reduced')."""
    confident: bool = False
    """Whether `detect` flags it by rule (`confidence.mark_confident`)."""
