"""Units of measure after a number, read with pint (the maintained units library): the unit a word
sequence names ('km', 'square miles', 'degrees Celsius', 'kilometres per hour') and the key under
which equal physical amounts meet ('2.5 km' and '2,500 metres'; word lists: data/numbers.toml)."""
from __future__ import annotations

import sys
import tomllib
from collections.abc import Sequence
from functools import cache
from importlib import resources

SIGNIFICANT = 2
"""Digits an amount keeps in its key: a conversion is usually rounded ('5 km (3.1 miles)')."""


@cache
def numbers_data() -> dict:
    """data/numbers.toml."""
    return tomllib.loads(resources.files(__package__).joinpath("data/numbers.toml").read_text("utf-8"))


@cache
def registry():
    blocked = "dask" not in sys.modules and "pint" not in sys.modules
    if blocked:  # pint's optional dask support (dask, jinja2: 0.1 s of a `detect`); no dask array gets here
        sys.modules["dask"] = None
    try:
        import pint
    finally:
        if blocked:
            del sys.modules["dask"]
    return pint.UnitRegistry()


@cache
def pint_unit(word: str) -> str | None:
    """The canonical pint unit a word names ('km' -> 'kilometer'), None for other words."""
    if not word.isalpha() or len(word) < 2 or word.lower() in numbers_data()["not_units"]:
        return None
    try:
        readings = registry().parse_unit_name(word)
        # a unit word, or a prefix written out ('kilowatts'); a prefix symbol only in a short
        # symbol ('km', 'kWh'): pint also reads 'cats' as centi-'at' and 'amps' as atto-'mps'
        named = [r for r in readings if not r[0]] or \
            [r for r in readings if word.startswith(r[0]) or len(word) <= 3]
        if not named:
            return None
        units = registry().parse_units(named[0][0] + named[0][1])
    except Exception:  # pint raises several error types for non-units
        return None
    return str(units) if str(units) != "dimensionless" else None


def unit_at(words: Sequence[str], k: int, texts: Sequence[str] | None = None) -> tuple[str, int] | None:
    """(the unit the lower-case words from position k name, how many words it takes), or None: one
    unit word, a power ('square miles'), a qualified unit ('degrees Celsius'), each optionally 'per'
    a unit. `texts`: the words as written, for symbols whose case matters ('MW', 'mW', 'kWh')."""
    data = numbers_data()

    def unit(j: int) -> str | None:
        if j >= len(words):
            return None
        short = texts is not None and len(texts[j]) <= 3
        return pint_unit(texts[j]) if short and texts[j] != words[j] else pint_unit(words[j])

    if k >= len(words):
        return None
    w = words[k]
    if w in data["powers"] and unit(k + 1):
        found, used = f"{unit(k + 1)} ** {data['powers'][w]}", 2
    elif w in data["qualified"]:  # 'degrees Celsius'; 'degrees' alone names no scale
        if not unit(k + 1):
            return None
        found, used = unit(k + 1), 2
    elif unit(k):
        found, used = unit(k), 1
    else:
        return None
    j = k + used
    if j + 1 < len(words) and words[j] in ("per", "/"):
        below = unit(j + 1) or (_symbol(words[j + 1]) if words[j] == "/" else None)
        if below:
            found, used = f"{found} / {below}", used + 2
    return found, used


@cache
def _symbol(word: str) -> str | None:
    """A unit symbol after a slash, one letter too ('km/h', 'm/s')."""
    word = word.rstrip(".")
    if not word.isalpha() or len(word) > 3:
        return None
    try:
        units = registry().parse_units(word)
    except Exception:  # not a unit
        return None
    return str(units) if str(units) != "dimensionless" else None


@cache
def base_key(value: float, unit: str) -> str | None:
    """'[length]:2.5e+03' for 2.5 km and for 2,500 m; None for a unit without a dimension."""
    try:
        q = registry().Quantity(value, unit).to_base_units()
    except Exception:  # offset units in a product, unknown units
        return None
    dims = str(q.dimensionality)
    if dims == "dimensionless":
        return None
    return f"{dims}:{q.magnitude:.{SIGNIFICANT}g}"


def canonical(value: float) -> str:
    """The form in which numbers are compared: '1200', '0.5', '2.4e+06'."""
    return f"{value:.6g}"


def in_years(value: float, unit: str) -> float | None:
    """An amount of time in years ('18 months': 1.5), None for another kind of amount."""
    try:
        return float(registry().Quantity(value, unit).to("year").magnitude)
    except Exception:  # not a time
        return None


def same_amount(value: float, unit: str, other: float, other_unit: str, tolerance: float = 0.02) -> bool:
    """Whether two amounts are the same in different units (within `tolerance`)."""
    try:
        ureg = registry()
        a = ureg.Quantity(value, unit).to(other_unit).magnitude
    except Exception:  # different dimensions, or not pint units
        return False
    return abs(a - other) <= tolerance * max(abs(other), 1e-9)
