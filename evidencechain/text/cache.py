"""The parse cache: plain data in sqlite, keyed by content and pipeline version.

Values are JSON documents of a few known kinds (a parse, a dependency parse, a tuple of
arrays); decoding builds only those types, so a crafted cache file cannot run code. A cache
that sqlite cannot read is moved aside (`parse.sqlite.damaged`, numbered if taken) and
rebuilt, with one warning; an entry that does not decode is parsed again.
"""
from __future__ import annotations

import json
import logging
import sqlite3
import sys
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields, is_dataclass
from hashlib import blake2b
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)

PARSE_FORMAT = 4
"""Version of what the cached types hold; bump it when their fields or the rules filling them change
(4: the models multiply matrices through numpy's BLAS, `nlp.load_model`)."""
TABLE = "parse3"
"""Table of plain-data entries; older layouts (the pickled `parse` table) are dropped on open."""
_TYPES: dict[str, type] = {}


def cached_type(cls: type) -> type:
    """Register a frozen dataclass of str, int, float, bool, tuples and numpy arrays as a value kind."""
    _TYPES[cls.__name__] = cls
    return cls


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _plain(value):
    if isinstance(value, np.ndarray):
        return {"__array__": value.dtype.str, "shape": list(value.shape), "data": value.ravel().tolist()}
    if isinstance(value, (tuple, list)):
        if _SCALARS.issuperset(map(type, value)):  # JSON writes a tuple of scalars as it is
            return value
        return [_plain(v) for v in value]
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return value.item()
    return value


def encode(value) -> str:
    if is_dataclass(value) and type(value).__name__ in _TYPES:
        doc = {"kind": type(value).__name__,
               "fields": {f.name: _plain(getattr(value, f.name)) for f in fields(value)}}
    elif isinstance(value, tuple) and all(isinstance(v, np.ndarray) for v in value):
        doc = {"kind": "arrays", "items": [_plain(v) for v in value]}
    else:
        raise TypeError(f"the parse cache stores parses and arrays, not {type(value).__name__}")
    return json.dumps(doc, separators=(",", ":"))


_DTYPES = frozenset(np.dtype(t).str for t in ("bool", "int8", "int16", "int32", "int64",
                                             "float16", "float32", "float64"))


def _restore(value):
    if isinstance(value, dict):
        dtype = value.get("__array__")
        if dtype not in _DTYPES:
            raise ValueError(f"unexpected array type {dtype!r}")
        return np.asarray(value["data"], dtype=np.dtype(dtype)).reshape(value["shape"])
    if isinstance(value, list):
        kinds = set(map(type, value))
        if kinds == {str}:  # token strings repeat: one shared object per distinct string
            return tuple(map(sys.intern, value))
        if _SCALARS.issuperset(kinds):
            return tuple(value)
        return tuple(_restore(v) for v in value)
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise ValueError(f"unexpected value of type {type(value).__name__}")


def decode(text: str):
    doc = json.loads(text)
    if not isinstance(doc, dict):
        raise ValueError("entry is not a JSON object")
    if doc.get("kind") == "arrays":
        return tuple(_restore(v) for v in doc["items"])
    cls = _TYPES.get(doc.get("kind"))
    if cls is None:
        raise ValueError(f"unknown entry kind {doc.get('kind')!r}")
    given = doc["fields"]
    names = [f.name for f in fields(cls)]
    if sorted(given) != sorted(names):
        raise ValueError(f"{cls.__name__} entry has fields {sorted(given)}")
    return cls(**{n: _restore(given[n]) for n in names})


def content_key(*parts: str) -> str:
    """A 128-bit key of the parts (joined with NUL)."""
    return blake2b("\0".join(parts).encode(), digest_size=16).hexdigest()


MEMORY_CHARS = 10_000_000
"""Decoded parses a file-backed cache keeps in memory, in characters of their texts (about 9
bytes each): older ones are dropped, and read from the file again if asked for once more."""


def _size(value) -> int:
    text = getattr(value, "text", None)
    if isinstance(text, str):
        return len(text) + 1
    return 1 + sum(getattr(v, "size", 0) for v in value) if isinstance(value, tuple) else 1


class ParseCache:
    """A map from key to parse (or arrays): in memory, and in sqlite when `path` is given.
    Safe to interrupt: entries are written in transactions.

    With a file, memory holds the most recently used entries up to `memory_chars` (`MEMORY_CHARS`)
    and, by weak reference, any entry still used elsewhere (so a parse is never decoded twice while
    it is alive); without one, every entry stays in memory."""

    def __init__(self, path: str | Path | None, memory_chars: int | None = None):
        self.path = Path(path) if path else None
        self.memory_chars = MEMORY_CHARS if memory_chars is None else memory_chars
        self._mem: OrderedDict[str, object] = OrderedDict()
        self._mem_chars = 0
        self._alive: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
        self._derived: dict[str, dict] = {}
        self._db = None
        self._bad_entries = 0
        if self.path is not None:
            if self.path.exists() and not self.path.is_file():
                from ..errors import InputError
                raise InputError(f"{self.path}: the parse cache must be a file, and this is not one; "
                                 f"remove it or choose another cache directory")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            opened = self._guard(self._open, None)  # a damaged file is rebuilt inside _guard
            if opened is not None:
                self._db = opened

    @staticmethod
    def key(pipeline: str, text: str) -> str:
        """Cache key of `text` under `pipeline`, including `PARSE_FORMAT`, so entries written by
        an older layout are never returned."""
        return content_key(str(PARSE_FORMAT), pipeline, text)

    def _open(self):
        db = sqlite3.connect(self.path)
        try:
            db.execute("PRAGMA schema_version").fetchone()
            db.execute("DROP TABLE IF EXISTS parse")
            db.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (key TEXT PRIMARY KEY, value TEXT)")
            db.commit()
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _guard(self, action: Callable, fallback):
        """Run a database action; a damaged database is set aside and rebuilt (or dropped)."""
        try:
            return action()
        except sqlite3.OperationalError as exc:  # locked, read-only, out of space: not damage
            log.warning("parse cache %s cannot be used (%s): parses are kept in memory only", self.path, exc)
            if self._db is not None:
                self._db.close()
                self._db = None
            return fallback
        except sqlite3.DatabaseError as exc:
            if self._db is not None:
                self._db.close()
                self._db = None
            aside = self._set_aside()
            log.warning("parse cache %s is damaged (%s): moved to %s and rebuilt", self.path, exc, aside)
            try:
                self._db = self._open()
            except sqlite3.DatabaseError as again:
                log.warning("parse cache %s cannot be rebuilt (%s): parses are kept in memory only",
                            self.path, again)
            return fallback

    def _set_aside(self) -> Path:
        target = self.path.with_name(self.path.name + ".damaged")
        n = 1
        while target.exists():
            n += 1
            target = self.path.with_name(f"{self.path.name}.damaged{n}")
        self.path.replace(target)
        for suffix in ("-journal", "-wal", "-shm"):
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                side.unlink()
        return target

    def get_many(self, keys: Sequence[str]) -> dict:
        found, missing, alive = {}, [], self._alive
        for k in keys:
            value = self._mem.get(k)
            if value is None:
                value = alive.get(k)
            if value is None:
                missing.append(k)
            else:
                found[k] = value
        if self._db is not None and missing:
            rows = self._guard(lambda: self._select(missing), [])
            for k, text in rows:
                try:
                    found[k] = decode(text)
                except (ValueError, TypeError, KeyError, AttributeError):
                    self._bad_entries += 1
                    if self._bad_entries == 1:
                        log.warning("parse cache %s holds entries that do not decode: they are parsed again",
                                    self.path)
        self._remember(found)
        return found

    def _remember(self, items: dict) -> None:
        """Keep `items` in memory as the most recently used; drop the oldest beyond the bound
        (only when the file holds them)."""
        mem = self._mem
        for k, v in items.items():
            old = mem.pop(k, None)
            if old is not None:
                self._mem_chars -= _size(old)
            mem[k] = v
            self._mem_chars += _size(v)
            if hasattr(type(v), "__weakref__"):
                self._alive[k] = v
        while self._db is not None and self._mem_chars > self.memory_chars and len(mem) > 1:
            _, old = mem.popitem(last=False)
            self._mem_chars -= _size(old)

    def _select(self, keys: list[str]) -> list[tuple[str, str]]:
        rows = []
        for i in range(0, len(keys), 500):
            part = keys[i:i + 500]
            marks = ",".join("?" * len(part))
            rows += self._db.execute(f"SELECT key, value FROM {TABLE} WHERE key IN ({marks})", part).fetchall()
        return [(k, v) for k, v in rows if isinstance(v, str)]

    def through(self, keys: Sequence[str], texts: Sequence[str], make: Callable[[list[str]], Iterable]) -> dict:
        """key -> value for every key: from the cache, else made by `make` from the texts not cached
        (distinct, in order; it yields their values in order), stored as they come."""
        found = self.get_many(list(dict.fromkeys(keys)))
        todo = {k: t for k, t in zip(keys, texts) if k not in found}
        fresh: dict = {}
        for k, one in zip(todo, make(list(todo.values())) if todo else ()):
            fresh[k] = one
            if len(fresh) >= 2000:  # an interrupted parse keeps what is done
                self.put_many(fresh)
                found.update(fresh)
                fresh = {}
        self.put_many(fresh)
        found.update(fresh)
        return found

    def put_many(self, items: dict) -> None:
        if self._db is not None and items:
            rows = [(k, encode(v)) for k, v in items.items()]

            def write():
                with self._db:
                    self._db.executemany(f"INSERT OR REPLACE INTO {TABLE} VALUES (?, ?)", rows)
            self._guard(write, None)  # on failure the file is dropped: memory then keeps everything
        self._remember(items)

    def __getstate__(self):
        return {**self.__dict__, "_alive": None}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._alive = weakref.WeakValueDictionary(
            {k: v for k, v in self._mem.items() if hasattr(type(v), "__weakref__")})

    def derived(self, kind: str) -> dict:
        """An in-memory map of values derived from parses (`kind` names what they are), kept with
        this cache and never written to its file: what a warm re-score reuses in this process.
        Its keys must say everything the value depends on (`content_key`)."""
        return self._derived.setdefault(kind, {})

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


DEFAULT_CACHE = ParseCache(None)
"""The in-memory cache used when a caller passes none (one per process)."""
