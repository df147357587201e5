"""Keep `detect` light: spaCy without torch (thinc imports torch when it is installed, which
costs about 1.5 s at every start and is unused by the feature models)."""
from __future__ import annotations

import gc
import os
import sys
from contextlib import contextmanager


def import_spacy_without_torch() -> None:
    """Import spaCy with thinc's optional torch support off. Skipped when torch or spaCy is
    already imported, or when EVIDENCECHAIN_SPACY_TORCH=1 (spaCy transformer pipelines)."""
    if "spacy" in sys.modules or "torch" in sys.modules or os.environ.get("EVIDENCECHAIN_SPACY_TORCH") == "1":
        return
    sys.modules["torch"] = None  # `import torch` in thinc.compat fails: has_torch = False
    try:
        import spacy  # noqa: F401
    finally:
        del sys.modules["torch"]


def one_openmp_thread():
    """A context with OpenMP limited to one thread: the gradient-boosted word model's OpenMP
    threads spin on a busy machine (measured on 2 shared cores: 68 s to fit with 2 threads,
    1.7 s with 1), and batches of answers are too small to gain from more."""
    from contextlib import nullcontext

    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return nullcontext()
    return threadpool_limits(limits=1, user_api="openmp")


@contextmanager
def fewer_collections(young: int = 10_000):
    """A context in which the garbage collector looks at new objects every `young` allocations
    (Python's default: 700). Imports, the model load and feature tables allocate mostly
    long-lived objects: the full collections that the default triggers over them took about 10%
    of a `detect` of 10 answers and 1 s of the default model's build. Nothing computed depends
    on it; the previous thresholds come back on exit."""
    before = gc.get_threshold()
    gc.set_threshold(young, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
