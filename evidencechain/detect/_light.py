"""Keep `detect` light: spaCy without torch (thinc imports torch when it is installed, which
costs about 1.5 s at every start and is unused by the feature models)."""
from __future__ import annotations

import os
import sys


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
