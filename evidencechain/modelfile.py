"""A fitted EvidenceChain on disk without pickle: `model.skops` and `model.json`.

`model.skops` (skops.io: a zip of a JSON schema and .npy arrays) holds the fitted detectors,
the TF-IDF vocabulary and the settings; the optional embedder and learned checker are not in
it: they are loaded again from the directories their settings name. Loading reads only the
types of `trusted_types()` (this package's model classes and scikit-learn's estimators): a
file naming any other type is refused before anything is built, so a model file cannot run
code. `model.json` lists the sha256 of every file and is checked first. The file is written
in a canonical form (sequential object ids, fixed zip dates), so one fit gives one sha256.
"""
from __future__ import annotations

import copy
import functools
import importlib
import inspect
import io
import json
import re
import sys
import zipfile
from pathlib import Path

from .errors import ModelError

MODEL_FILE = "model.skops"
LEGACY_FILE = "model.pkl"
_SKLEARN_INTERNALS = ("sklearn.tree._tree.Tree",
                      "sklearn.ensemble._hist_gradient_boosting.predictor.TreePredictor")
"""Fitted trees' state objects: scikit-learn classes that are not estimators."""
_EXTRA_MODULES = ("evidencechain.model", "evidencechain.features.table", "evidencechain.features.tiers",
                  "evidencechain.stacking")
SKLEARN_MODULES = ("sklearn.compose", "sklearn.ensemble", "sklearn.feature_extraction.text", "sklearn.linear_model",
                   "sklearn.pipeline", "sklearn.preprocessing", "sklearn.tree")
"""The scikit-learn modules whose estimators a model may hold (those the detectors import)."""
_ID = re.compile(r'("__id__": )(\d+)|"(\d+)\.npy"')
_ADDRESS = re.compile(r'("_stop_words_id": \{[^{}]*"content": )"\d+"')
"""scikit-learn's vectorizers keep `id(stop_words)`, a memory address, as a cache key; written as 0
(a key no object has), the file does not depend on the process that wrote it."""


class MissingModelError(ModelError, FileNotFoundError):
    """The model directory or one of its files does not exist."""


class UntrustedModelError(ModelError, ValueError):
    """A model file names a type outside the trusted list (or is an old pickle)."""


def rebuild_hint(path: Path) -> str:
    return (f"refit it with `evidencechain run CONFIG` (a default model: delete {path} and "
            f"`evidencechain detect` builds it again)")


def dump_model(model) -> bytes:
    """The canonical skops bytes of a fitted EvidenceChain (caches and neural models left out)."""
    sio = _skops()
    clone = copy.copy(model)
    clone.cache = None
    clone.timings = {}  # wall seconds differ between runs; run.json keeps them
    if model.extractor is not None:
        clone.extractor = copy.copy(model.extractor)
        clone.extractor.cache = clone.extractor.embedder = clone.extractor.checker = None
        clone.extractor.family_seconds = {}
    from skops.io import _persist

    original = _persist.json
    _persist.json = _CompactJson  # skops writes its schema with indent=2: the pure-Python encoder, ~4 s
    try:
        data = sio.dumps(clone, compression=zipfile.ZIP_STORED)  # `_canonical` compresses, once
    finally:
        _persist.json = original
    return _canonical(data)


class _CompactJson:
    """`json` for skops' schema: the same document without indentation (the C encoder)."""

    loads = staticmethod(json.loads)

    @staticmethod
    def dumps(obj, **kw):
        kw.pop("indent", None)
        return json.dumps(obj, **kw)


def _canonical(data: bytes) -> bytes:
    ids: dict[str, int] = {}

    def number(match: re.Match) -> str:
        raw = match.group(2) or match.group(3)
        new = ids.setdefault(raw, len(ids) + 1)
        return f"{match.group(1)}{new}" if match.group(1) else f'"{new}.npy"'

    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        schema = _ID.sub(number, _ADDRESS.sub(r'\1"0"', src.read("schema.json").decode("utf-8")))
        entries = {"schema.json": schema.encode("utf-8")}
        for name in src.namelist():
            if name != "schema.json":
                stem = name.removesuffix(".npy")
                entries[f"{ids.get(stem, stem)}.npy" if stem != name else name] = src.read(name)
        for name in sorted(entries):
            dst.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), entries[name],
                         compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def load_model(file: Path):
    """The object in a skops model file, built only from trusted types.

    The node tree is read once: its types outside skops' defaults (what `get_untrusted_types`
    lists) must all be in `trusted_types()`, then the same tree is constructed (what
    `skops.io.load(file, trusted=those types)` does after building the tree a second time)."""
    _skops()
    from skops.io._audit import get_tree
    from skops.io._utils import read_schema

    try:
        with zipfile.ZipFile(file) as archive:
            schema, context = read_schema(archive)
            _merge_json_dicts(schema)
            tree = get_tree(schema, context, trusted=None)
            named = tree.get_unsafe_set()
            return _construct(file, tree, named)
    except ModelError:
        raise
    except Exception as exc:  # not a zip, no schema, damaged JSON: an unusable file
        raise ModelError(f"{file} is not a readable model file ({type(exc).__name__}: {exc}); "
                         f"{rebuild_hint(file.parent)}") from exc


def _merge_json_dicts(schema: dict) -> None:
    """Rewrite, in place, each plain dict of the schema whose keys are all `str` and whose values
    are all JSON values (a fitted vectorizer's vocabulary: tens of thousands of entries) as one
    JSON node holding the whole dict. skops builds, audits and constructs a node per key type and
    per value otherwise (about 0.5 s of every `detect`); the object built is the same dict, with
    the same keys in the same order, and the audit is unchanged (a JSON node names no type, and
    the key types merged are only `str`, which skops trusts by default)."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            if not _json_dict(node):
                stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
                continue
            text = "{" + ",".join(f"{json.dumps(k)}:{v['content']}" for k, v in node["content"].items()) + "}"
            merged = {"__class__": "dict", "__module__": "builtins", "__loader__": "JsonNode", "content": text,
                      "is_json": True}
            if "__id__" in node:
                merged["__id__"] = node["__id__"]
            node.clear()
            node.update(merged)


def _json_dict(node: dict) -> bool:
    if (node.get("__loader__"), node.get("__module__"), node.get("__class__")) != ("DictNode", "builtins", "dict"):
        return False
    content, key_types = node.get("content"), node.get("key_types")
    if not isinstance(content, dict) or not isinstance(key_types, dict) \
            or key_types.get("__loader__") != "ListNode" or not isinstance(key_types.get("content"), list) \
            or len(key_types["content"]) != len(content) or len(content) < 2:
        return False
    return all(isinstance(t, dict) and t.get("__loader__") == "TypeNode" and t.get("__module__") == "builtins"
               and t.get("__class__") == "str" for t in key_types["content"]) \
        and all(isinstance(v, dict) and v.get("__loader__") == "JsonNode" and v.get("is_json") is True
                and isinstance(v.get("content"), str) for v in content.values())


def _construct(file: Path, tree, named: set[str]):
    allowed = trusted_types()
    foreign = sorted(t for t in named if t not in allowed)
    if foreign:
        shown = ", ".join(foreign[:4]) + (f" and {len(foreign) - 4} more" if len(foreign) > 4 else "")
        raise UntrustedModelError(f"{file} names types that are not part of an evidencechain model "
                                  f"({shown}); it was not loaded. {rebuild_hint(file.parent)}")
    try:
        return tree.construct()
    except Exception as exc:  # a well-formed schema with inconsistent content
        raise ModelError(f"{file} cannot be loaded ({type(exc).__name__}: {exc}); it may come from an "
                         f"incompatible evidencechain or scikit-learn version: "
                         f"{rebuild_hint(file.parent)}") from exc


@functools.cache
def trusted_types() -> frozenset[str]:
    """Type names a model file may hold: the model's own classes (those the detectors and the
    feature extractor are made of, without a custom `__setstate__` or `__reduce__`) and
    scikit-learn's estimators with their tree state objects."""
    from .detectors import DETECTORS

    modules = {k.__module__ for cls in DETECTORS.values() for k in cls.__mro__
               if k.__module__.startswith("evidencechain.")} | set(_EXTRA_MODULES)
    names = set(_SKLEARN_INTERNALS)
    for name in sorted(modules):
        for obj in vars(importlib.import_module(name)).values():
            if inspect.isclass(obj) and obj.__module__ == name and _plain(obj):
                names.add(f"{name}.{obj.__qualname__}")
    names |= {f"{cls.__module__}.{cls.__qualname__}" for _, cls in _sklearn_estimators()}
    return frozenset(names)


def _sklearn_estimators() -> list[tuple[str, type]]:
    """(name, class) of the public estimators of SKLEARN_MODULES, as `sklearn.utils.all_estimators`."""
    from sklearn.base import BaseEstimator

    found = {}
    for name in SKLEARN_MODULES:
        for attr, obj in vars(importlib.import_module(name)).items():
            if inspect.isclass(obj) and issubclass(obj, BaseEstimator) and not attr.startswith("_") \
                    and obj.__module__.startswith("sklearn."):
                found[attr] = obj
    return sorted(found.items())


def _skops():
    """skops.io, imported with two of its default trust lists left out (the loader passes its own
    list, and each took seconds at every `detect`): scikit-learn's estimators (`all_estimators`
    imports every scikit-learn module, torch and pytest among them) become the estimators of
    SKLEARN_MODULES, and scipy.special's ufuncs (each looked up in every loaded module) are not
    trusted by default, so a model file naming one is refused (no model holds one)."""
    if "skops.io" not in sys.modules:
        import scipy.special
        import sklearn.utils

        real = sklearn.utils.all_estimators
        sklearn.utils.all_estimators = _sklearn_estimators
        scipy.special.__dir__ = list  # what skops lists scipy's trusted ufuncs from: none
        try:
            import skops.io  # noqa: F401
        finally:
            sklearn.utils.all_estimators = real
            del scipy.special.__dir__
    return sys.modules["skops.io"]


def _plain(cls: type) -> bool:
    if issubclass(cls, BaseException):
        return False
    hooks = ("__setstate__", "__reduce__", "__reduce_ex__", "__new__")
    return not any(h in vars(k) for k in cls.__mro__ if k is not object for h in hooks)


def read_meta(path: Path) -> dict:
    """model.json of a model directory; an old pickled model is refused without reading it."""
    file = path / "model.json"
    if not path.is_dir():
        raise MissingModelError(f"no fitted model at {path} (expected a directory with model.json "
                                f"and {MODEL_FILE}, e.g. RUN_DIR/model)")
    if not file.is_file():
        if (path / LEGACY_FILE).exists():
            _refuse_legacy(path)
        raise MissingModelError(f"{file} does not exist: {path} is not a saved model directory")
    try:
        meta = json.loads(file.read_text("utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise ModelError(f"{file} is damaged or unreadable ({exc}); refit or copy the model again") from exc
    files = meta.get("files") if isinstance(meta, dict) else None
    if isinstance(files, dict) and LEGACY_FILE in files and MODEL_FILE not in files:
        _refuse_legacy(path)
    if not isinstance(files, dict) or MODEL_FILE not in files:
        if (path / LEGACY_FILE).exists():
            _refuse_legacy(path)
        raise ModelError(f"{file} lists no sha256 for {MODEL_FILE} (damaged, or saved by an older "
                         f"evidencechain); {rebuild_hint(path)}")
    return meta


def _refuse_legacy(path: Path) -> None:
    raise UntrustedModelError(f"{path / LEGACY_FILE} is a pickled model from an older evidencechain; "
                              f"pickles can run code when loaded, so this version does not load them: "
                              f"{rebuild_hint(path)}")


def verify_files(path: Path, meta: dict) -> None:
    from .io import sha256_file
    for name, digest in meta["files"].items():
        file = path / str(name)
        if Path(str(name)).is_absolute() or ".." in Path(str(name)).parts:
            raise ModelError(f"{path / 'model.json'} names a file outside the model directory: {name!r}")
        if not file.is_file():
            raise MissingModelError(f"{file} is missing (listed in {path / 'model.json'})")
        if sha256_file(file) != digest:
            raise ModelError(f"{file} does not match its sha256 in {path / 'model.json'} "
                             f"(damaged, truncated or changed after saving); refit or copy the model again")


def checksums(path: Path) -> dict[str, str]:
    from .io import sha256_file

    return {f.relative_to(path).as_posix(): sha256_file(f) for f in sorted(path.rglob("*"))
            if f.is_file() and f.name != "model.json" and not f.name.startswith(".")}
