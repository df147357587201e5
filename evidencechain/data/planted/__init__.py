"""Planted meaning errors in real sentences: the semantic suite and the 'planted' training corpus."""
from .paraphrase import paraphrase
from .plant import CLASSES, Edit
from .planting import plant

__all__ = ["CLASSES", "Edit", "paraphrase", "plant"]
