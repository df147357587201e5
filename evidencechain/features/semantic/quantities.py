"""Numbers with units and scale: '5 km' vs '5 miles', '2.4 million' vs '2.4 billion', '30 percent' vs
'30 people', '8,500 books' vs '85,000 books' (the same digits a power of ten apart). Equal values in other formats ('two' / '2', '1,200' / '1200', '5 km' / '5 kilometres')
are not errors."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ..numeric import ORDINALS, WORD_NUMBERS
from .align import View
from .base import Signal
from .lexicon import Lexicon

_DIGITS = re.compile(r"^\d{1,3}(?:,\d{3})+(?:\.\d+)?$|^\d*\.?\d+$")


@dataclass(frozen=True)
class Quantity:
    value: float
    """The number times its scale word."""
    mantissa: float
    scale: str
    unit: str
    """Canonical unit ('kilometer', 'percent', 'usd'), a plain noun's lemma, or ''."""
    measure: bool
    """Whether `unit` is a unit of measure, a percentage or a currency (not a counted noun)."""
    number_pos: int
    scale_pos: int | None
    unit_pos: int | None


def _number(word: str) -> float | None:
    if word in WORD_NUMBERS:
        return float(WORD_NUMBERS[word])
    if _DIGITS.match(word):
        return float(word.replace(",", ""))
    return None


@cache
def _registry():
    import sys

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
def _pint_unit(word: str) -> str | None:
    if not word.isalpha() or len(word) < 2:
        return None
    try:
        units = _registry().parse_units(word)
    except Exception:  # pint raises several error types for non-units
        return None
    return str(units) if str(units) != "dimensionless" else None


def _unit(v: View, k: int, lex: Lexicon) -> tuple[str, bool]:
    w = v.word(k)
    if w in lex.percent or (w == "per" and k + 1 < len(v) and v.word(k + 1) == "cent"):
        return "percent", True
    if w in lex.currency:
        return lex.currency[w], True
    if w not in lex.not_units:
        unit = _pint_unit(w)
        if unit:
            return unit, True
    return (v.lemma(k), False) if v.content(k) else ("", False)


def quantities(v: View, lex: Lexicon) -> list[Quantity]:
    out = []
    for k in range(len(v)):
        w = v.word(k)
        if w in ORDINALS or (k > 0 and _number(v.word(k - 1)) is not None and w not in lex.scales):
            continue
        mantissa = _number(w)
        if mantissa is None:
            continue
        j, scale, scale_pos = k + 1, "", None
        if j < len(v) and v.word(j) in lex.scales:
            scale, scale_pos, j = v.word(j), j, j + 1
        unit, measure, unit_pos = "", False, None
        if k > 0 and v.word(k - 1) in lex.currency:
            unit, measure, unit_pos = lex.currency[v.word(k - 1)], True, k - 1
        elif j < len(v) and (not v.punct(j) or v.word(j) in lex.percent):
            unit, measure = _unit(v, j, lex)
            unit_pos = j if unit else None
        out.append(Quantity(mantissa * lex.scales.get(scale, 1.0), mantissa, scale, unit, measure,
                            k, scale_pos, unit_pos))
    return out


def _same_value(x: float, y: float) -> bool:
    return abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y))


def _converts(q: Quantity, r: Quantity) -> bool:
    """Whether two measured quantities are the same amount in different units (within 2%)."""
    try:
        ureg = _registry()
        a = (q.value * ureg.parse_units(q.unit)).to(ureg.parse_units(r.unit)).magnitude
    except Exception:  # different dimensions, or not pint units
        return False
    return abs(a - r.value) <= 0.02 * max(abs(r.value), 1e-9)


def quantity_conflicts(a: View, e: View, lex: Lexicon) -> list[Signal]:
    out = []
    theirs = quantities(e, lex)
    for q in quantities(a, lex):
        same = [r for r in theirs if _same_value(r.value, q.value)]
        if any(r.unit == q.unit or not r.unit or not q.unit or not (r.measure or q.measure) for r in same):
            continue
        if any(q.measure and r.measure and _converts(q, r) for r in theirs):
            continue
        if same and q.unit_pos is not None:
            r = same[0]
            out.append(Signal("quantity", (int(a.idx[q.unit_pos]),), e.text(r.unit_pos) if r.unit_pos is not None
                              else e.text(r.number_pos)))
            continue
        rescaled = [r for r in theirs if _same_value(r.mantissa, q.mantissa) and r.scale != q.scale
                    and r.scale and q.scale]
        if rescaled and not same:
            r = rescaled[0]
            out.append(Signal("quantity", (int(a.idx[q.scale_pos]),), f"{e.text(r.number_pos)} {r.scale}"))
            continue
        shifted = [r for r in theirs if _shifted(q, r)] if not same and q.unit else []
        if shifted:
            out.append(Signal("quantity", (int(a.idx[q.number_pos]),), e.text(shifted[0].number_pos)))
    return out


def _digits(x: float) -> str:
    return f"{x:.6g}".replace(".", "").replace("e+", "e").split("e")[0].strip("0")


def _shifted(q: Quantity, r: Quantity) -> bool:
    """The same digits of the same unit, a power of ten apart ('8,500 books' for '85,000 books'):
    a place-value slip, not another count. Years and numbers under 100 are left out."""
    if q.unit != r.unit or q.scale or r.scale or min(q.value, r.value) <= 0 or max(q.value, r.value) < 100:
        return False
    ratio = max(q.value, r.value) / min(q.value, r.value)
    return any(_same_value(ratio, 10.0 ** n) for n in (1, 2, 3)) and _digits(q.value) == _digits(r.value) \
        and len(_digits(q.value)) >= 2
