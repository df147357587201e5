"""Typed TOML sections: a file read into a dict, a table built into a dataclass with every key's
type, allowed names and range checked, each error naming the file and the key (with a did-you-mean).

A field's metadata may carry `choices`, `range` (lo, hi, hi_open) or `derived` (set by the program,
not a key of the file).
"""
from __future__ import annotations

import math
import tomllib
import typing
from dataclasses import fields
from pathlib import Path
from typing import Any

from .errors import ConfigError, did_you_mean


def choice(*allowed: str) -> dict:
    """Field metadata: the value must be one of `allowed`."""
    return {"choices": allowed}


def value_range(lo: float | None = None, hi: float | None = None, hi_open: bool = False) -> dict:
    """Field metadata: lo <= value <= hi (< hi when `hi_open`); None leaves a side open."""
    return {"range": (lo, hi, hi_open)}


def type_ok(value: Any, hint: Any) -> bool:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        return any(type_ok(value, h) for h in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    if origin is list:
        (item,) = typing.get_args(hint)
        return isinstance(value, list) and all(type_ok(v, item) for v in value)
    if origin is dict:
        return isinstance(value, dict)
    return True


def _type_name(hint: Any) -> str:
    return str(hint).replace("typing.", "").replace("<class '", "").replace("'>", "")


def _has_nan(value: Any) -> bool:
    if isinstance(value, float):
        return math.isnan(value) or math.isinf(value)
    if isinstance(value, list):
        return any(_has_nan(v) for v in value)
    if isinstance(value, dict):
        return any(_has_nan(v) for v in value.values())
    return False


def _check_value(value: Any, f, hint: Any, where: str) -> Any:
    if _has_nan(value):
        raise ConfigError(f"{where}: expected a finite number, got {value!r}")
    if not type_ok(value, hint):
        raise ConfigError(f"{where}: expected {_type_name(hint)}, got {type(value).__name__} {value!r}")
    choices = f.metadata.get("choices")
    if choices and value not in choices:
        raise ConfigError(f"{where}: {value!r} is not one of {list(choices)}{did_you_mean(value, choices)}")
    if "range" in f.metadata:
        lo, hi, hi_open = f.metadata["range"]
        if (lo is not None and value < lo) or (hi is not None and (value >= hi if hi_open else value > hi)):
            bound = f"[{lo}, {hi}{')' if hi_open else ']'}" if hi is not None else f">= {lo}"
            raise ConfigError(f"{where}: {value!r} is out of range (expected {bound})")
    return value


def build_section(cls, table: Any, where: str):
    """A dataclass instance from a TOML table: unknown keys, types, choices and ranges checked."""
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: expected a table, got {type(table).__name__}")
    hints = typing.get_type_hints(cls)
    known = {f.name: f for f in fields(cls) if not f.metadata.get("derived")}
    for key in table:
        if key not in known:
            raise ConfigError(f"{where}: unknown key {key!r}{did_you_mean(key, known)}; "
                              f"expected some of {sorted(known)}")
    values = {k: _check_value(v, known[k], hints[k], f"{where} {k}") for k, v in table.items()
              if not _is_dataclass_hint(hints[k])}
    return cls(**values)


def _is_dataclass_hint(hint: Any) -> bool:
    return isinstance(hint, type) and hasattr(hint, "__dataclass_fields__")


def read_toml(path: str | Path, what: str = "experiment config") -> dict:
    """A TOML file as a dict; a missing or malformed file is one ConfigError naming it."""
    path = Path(path)
    try:
        return tomllib.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{what} not found: {path}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path}: invalid TOML: nested too deeply") from None
