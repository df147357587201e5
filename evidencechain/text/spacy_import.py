"""Import spaCy without what this package never uses from it: thinc's optional torch support
(thinc imports torch whenever it is installed, about 1.5 s at every start, unused by spaCy's
CNN pipelines) and spaCy's command line. `text/__init__` calls it before any text module
imports spaCy, so every entry point (experiments, `detect`, tests) starts without them."""
from __future__ import annotations

import os
import sys
import types


def import_spacy_lightly() -> None:
    """Import spaCy without the parts this package never uses: thinc's optional torch support (off
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
