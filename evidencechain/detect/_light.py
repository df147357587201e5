"""Keep `detect` light: spaCy without torch (thinc imports torch when it is installed, which
costs about 1.5 s at every start and is unused by the feature models) and without its command
line; fewer garbage collections while long-lived objects are built."""
from __future__ import annotations

import gc
import os
import sys
import types
from contextlib import contextmanager


def import_spacy_lightly() -> None:
    """Import spaCy without the parts `detect` never uses: thinc's optional torch support (off
    unless torch is already imported or EVIDENCECHAIN_SPACY_TORCH=1, for spaCy transformer
    pipelines) and spaCy's command line (`spacy.cli`: requests, weasel, httpx, jinja2; about
    0.25 s), which `import spacy` loads only for `spacy.info`. `spacy.info` then imports it
    when called; `import spacy.cli` later imports the real one. Skipped once spaCy is imported."""
    if "spacy" in sys.modules:
        return
    stubs = {"spacy.cli": types.ModuleType("spacy.cli"), "spacy.cli.info": types.ModuleType("spacy.cli.info")}
    stubs["spacy.cli.info"].info = _spacy_info
    if "torch" not in sys.modules and os.environ.get("EVIDENCECHAIN_SPACY_TORCH") != "1":
        stubs["torch"] = None  # `import torch` in thinc.compat fails: has_torch = False
    added = [name for name in stubs if name not in sys.modules]
    sys.modules.update({name: stubs[name] for name in added})
    try:
        import spacy  # noqa: F401
    finally:
        for name in added:
            if sys.modules.get(name) is stubs[name]:
                del sys.modules[name]


def _spacy_info(*args, **kwargs):
    """`spacy.info`, its module imported on first call."""
    from spacy.cli.info import info

    return info(*args, **kwargs)


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
