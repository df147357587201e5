"""The one place that imports torch and resolves local model weights (never downloaded).

torch / transformers come from the `neural` extra; when they or the weights are missing,
`NeuralUnavailable` says what is absent and callers report the component as absent.
"""
from __future__ import annotations

import importlib
import os
from pathlib import Path

from .errors import MissingDependency

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


class NeuralUnavailable(MissingDependency, RuntimeError):
    """An optional neural component cannot be used here (library or weights absent)."""


def resolve_model_path(name: str) -> Path:
    """A local model directory, or the weights directory of an installed model package."""
    path = Path(name).expanduser()
    if path.is_dir():
        return path
    try:
        module = importlib.import_module(name.replace("-", "_"))
    except ImportError:
        raise NeuralUnavailable(f"model {name!r}: not a local directory and not an installed package") from None
    getter = getattr(module, "get_model_path", None)
    found = Path(getter()) if callable(getter) else Path(getattr(module, "MODEL_DIR", ""))
    if not found.is_dir():
        raise NeuralUnavailable(f"model package {name!r} carries no weights directory")
    return found


def import_torch():
    """torch, or NeuralUnavailable saying how to install it."""
    try:
        import torch
    except ImportError:
        raise NeuralUnavailable("torch is not installed (pip install -e '.[neural]')") from None
    return torch


def device() -> str:
    return "cuda" if import_torch().cuda.is_available() else "cpu"
