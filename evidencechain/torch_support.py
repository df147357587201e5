"""The one place that imports torch and resolves local model weights (never downloaded).

torch / transformers come from the `neural` extra; when they or the weights are missing,
`NeuralUnavailable` says what is absent and callers report the component as absent.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import sys
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


def require_installed(*modules: str) -> None:
    """NeuralUnavailable unless each module is installed; finds them without importing them."""
    for name in modules:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            what = name.replace("_", "-")
            raise NeuralUnavailable(f"{what} is not installed" + (" (pip install -e '.[neural]')" if name == "torch"
                                                                   else ""))


GPU_DEVICE_FILES = ("/proc/driver/nvidia", "/dev/nvidiactl", "/dev/nvidia0", "/dev/kfd", "/dev/dxg")
"""Files a CUDA or ROCm driver creates on Linux: without any of them torch can see no GPU."""


def gpu_possible() -> bool:
    """Whether torch might see a GPU here; False is certain and needs no torch import."""
    if sys.platform == "darwin":
        return False
    if sys.platform.startswith("linux"):
        return any(os.path.exists(p) for p in GPU_DEVICE_FILES)
    return True


def device() -> str:
    if not gpu_possible():
        return "cpu"
    return "cuda" if import_torch().cuda.is_available() else "cpu"
