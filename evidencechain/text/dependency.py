"""Dependency parses of answer sentences (what the claim triplets read), parsed once in batches
and cached as plain data beside the token parses (`text.cache`).

The parser is the installed English model with its parser and tagger (no NER, lemmatizer or
senter: no consumer reads them from this parse). A cached parse rebuilds an identical spaCy
`Doc` (words, spaces, tags, coarse tags, arcs), so a warm run parses nothing.
"""
from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import spacy
from spacy.attrs import DEP, HEAD, ORTH, POS, SPACY, TAG
from spacy.tokens import Doc
from spacy.vocab import create_vocab

from .cache import DEFAULT_CACHE, ParseCache, cached_type
from .nlp import MODEL_CANDIDATES, PackageFiles, auto_package, load_model, load_pipeline
from .parallel import map_chunks, one_blas_thread
from .ruler import fast_match

log = logging.getLogger(__name__)
_ARRAY = [ORTH, TAG, POS, DEP, SPACY, HEAD]
DROPPED = ("ner", "lemmatizer", "senter")
"""Components of the model that no consumer of the dependency parse reads."""


@cached_type
@dataclass(frozen=True, slots=True, weakref_slot=True)
class DependencyParse:
    """One text's tokens with their tags and arcs (`heads` are absolute token indices)."""

    text: str
    words: tuple[str, ...]
    spaces: tuple[bool, ...]
    tags: tuple[str, ...]
    pos: tuple[str, ...]
    deps: tuple[str, ...]
    heads: tuple[int, ...]

    @classmethod
    def from_doc(cls, doc) -> DependencyParse:
        """The parse of `doc`, read from its attribute array (not token objects): the values of
        each token's `text`, `whitespace_`, `tag_`, `pos_`, `dep_` and `head.i`."""
        n = len(doc)
        a = doc.to_array(_ARRAY).reshape(n, len(_ARRAY))
        strings = doc.vocab.strings
        words, tags, pos, deps = ([strings[h] for h in a[:, k].tolist()] for k in range(4))
        heads = np.arange(n, dtype=np.int64) + a[:, 5].view(np.int64)
        return cls(doc.text, tuple(words), tuple((a[:, 4] != 0).tolist()), tuple(tags), tuple(pos), tuple(deps),
                   tuple(heads.tolist()))

    def doc(self, vocab) -> Doc:
        if not self.words:
            return Doc(vocab, words=[])
        return Doc(vocab, words=list(self.words), spaces=list(self.spaces), tags=list(self.tags),
                   pos=list(self.pos), deps=list(self.deps), heads=list(self.heads))


@lru_cache(maxsize=1)
def load_dependency_pipeline():
    """The first installed model of `MODEL_CANDIDATES` with its parser (no NER, no
    lemmatizer); None when only the blank pipeline exists. It shares the token pipeline's
    components (`load_pipeline("auto")`, where the parser is loaded and disabled) when that
    pipeline has a parser."""
    token_nlp = load_pipeline("auto")[0]
    if "parser" in token_nlp.component_names:
        return _sharing(token_nlp)
    for name in MODEL_CANDIDATES:
        try:
            nlp = load_model(name, exclude=DROPPED)
        except OSError:
            continue
        if "parser" in nlp.pipe_names:
            fast_match(nlp)
            return nlp
    log.warning("no spaCy model with a parser installed: triplets use the rule fallback")
    return None


def _sharing(source):
    """A pipeline of `source`'s own tokenizer and components (the same objects, not copies), in
    its order, without `DROPPED`: what `spacy.load(name, exclude=DROPPED)` builds, without
    reading the model again."""
    nlp = type(source)(source.vocab, meta=source.meta, create_tokenizer=lambda _: source.tokenizer)
    for name in source.component_names:
        if name not in DROPPED:
            nlp.add_pipe(name, source=source)
    return nlp


def _shared_package() -> PackageFiles | None:
    """The files of the token pipeline's package when `load_dependency_pipeline` shares that
    pipeline (its config has a parser); None where only loading it tells."""
    files = auto_package()
    return files if files is not None and "parser" in files.components else None


def dependency_pipeline_name() -> str | None:
    """The dependency pipeline's name (None without one), from its package's files where it can
    be read there (`text.nlp.package_files`): a warm run loads no model."""
    files = _shared_package()
    meta = files.meta if files is not None else None
    if meta is None:
        nlp = load_dependency_pipeline()
        if nlp is None:
            return None
        meta = nlp.meta
    return f"dep:{meta.get('lang', 'en')}_{meta.get('name', 'model')}-{meta.get('version', '?')}"


@lru_cache(maxsize=1)
def dependency_vocab():
    """The vocabulary that Docs rebuilt from cached parses (`DependencyParse.doc`) are made
    with: the dependency pipeline's language's (made as `Language` makes it), with its package's
    vocabulary files (strings, lookups, vectors) read as `spacy.load` reads them, without
    building the pipeline (about 0.5 s) where `_shared_package` finds them; else the loaded
    pipeline's. Raises LookupError without a dependency pipeline."""
    files = _shared_package()
    if files is None:
        nlp = load_dependency_pipeline()
        if nlp is None:
            raise LookupError("no spaCy model with a parser is installed")
        return nlp.vocab
    vectors = files.meta.get("vectors", {}).get("name")
    vocab = create_vocab(files.meta["lang"], spacy.util.get_lang_class(files.meta["lang"]).Defaults, vectors)
    if (files.data / "vocab").is_dir():
        vocab.from_disk(files.data / "vocab")
    return vocab


def parse_dependencies(texts: Iterable[str], *, cache: ParseCache | None = None, batch_size: int = 256,
                       progress: bool = True, desc: str = "dependency parse") -> list[Doc]:
    """A parsed spaCy Doc per text, in order; each distinct text is parsed once (then cached).

    Raises LookupError when no model with a parser is installed (callers use the rule fallback).
    """
    parses = dependency_parses(texts, cache=cache, batch_size=batch_size, progress=progress, desc=desc)
    vocab = load_dependency_pipeline().vocab
    return [p.doc(vocab) for p in parses]


def dependency_parses(texts: Iterable[str], *, cache: ParseCache | None = None, batch_size: int = 256,
                      progress: bool = True, desc: str = "dependency parse") -> list[DependencyParse]:
    """`parse_dependencies` as plain data (`DependencyParse.doc` rebuilds each Doc)."""
    name = dependency_pipeline_name()
    if name is None:
        raise LookupError("no spaCy model with a parser is installed")
    texts = list(texts)
    cache = cache or DEFAULT_CACHE
    keys = [ParseCache.key(name, t) for t in texts]

    def parse_chunk(chunk: list[str]) -> list[DependencyParse]:
        with one_blas_thread():
            return [DependencyParse.from_doc(d) for d in load_dependency_pipeline().pipe(chunk, batch_size=batch_size)]

    def parse(todo: list[str]) -> Iterable[DependencyParse]:
        load_dependency_pipeline()
        return map_chunks(parse_chunk, todo, progress=progress, desc=desc)

    found = cache.through(keys, texts, parse)
    return [found[k] for k in keys]
