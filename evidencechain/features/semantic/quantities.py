"""Numbers with units and scale: '5 km' vs '5 miles', '2.4 million' vs '2.4 billion', '30 percent' vs
'30 people', '4 percent' vs '4 percentage points', '38 degrees Celsius' vs '38 degrees Fahrenheit',
'300 parcels per week' vs 'per month' (a rate's period), 'a dozen' vs 'half a dozen' (the evidence's
own number words, another amount), '8,500 books' vs '85,000 books' (the same digits a power of ten
apart). Equal values in other formats ('two' / '2', '1,200' / '1200', '5 km' / '5 kilometres',
'thirty-six' / '36') are not errors. Units are read with pint (`features.units`)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..numeric import ORDINALS, WORD_NUMBERS, number_phrases
from ..units import numbers_data, pint_unit, same_amount, unit_at
from .align import View, remembered
from .base import Signal
from .lexicon import Lexicon

_FACTOR_NEXT = frozenset({"as", "the", "its", "their", "his", "her", "our", "what", "that"})
"""Words after 'twice' that make it a factor ('twice as large', 'twice its size'), not a count of events."""
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
    number_end: int = 0
    """The position after the number's words ('half a dozen' takes three)."""
    unit_end: int | None = None
    per: str = ""
    """The period or share of a rate ('week' in 'per week', 'a week', 'weekly')."""
    per_pos: int | None = None

    @property
    def number_positions(self) -> tuple[int, ...]:
        return tuple(range(self.number_pos, max(self.number_end, self.number_pos + 1)))

    @property
    def unit_positions(self) -> tuple[int, ...]:
        if self.unit_pos is None:
            return ()
        return tuple(range(self.unit_pos, self.unit_end or self.unit_pos + 1))


def _number(word: str) -> float | None:
    if word in WORD_NUMBERS:
        return float(WORD_NUMBERS[word])
    if _DIGITS.match(word):
        return float(word.replace(",", ""))
    return None


def _unit(v: View, k: int, lex: Lexicon, words: list[str], texts: list[str]) -> tuple[str, bool, int]:
    """(unit, is a measure, words it takes) of the words from position k."""
    w = words[k]
    if w in lex.points or (w == "percentage" and k + 1 < len(v) and words[k + 1] in lex.points):
        return "point", True, 1 + (w == "percentage")
    if w in lex.percent or (w == "per" and k + 1 < len(v) and words[k + 1] == "cent"):
        return "percent", True, 1 + (w == "per")
    if w in lex.currency:
        return lex.currency[w], True, 1
    if k + 1 < len(v) and words[k + 1] in ("n't", "n’t"):  # "'92 can't": 'ca' is no centi-annum
        return "", False, 0
    found = unit_at(words, k, texts)
    if found:
        return found[0], True, found[1]
    if w in numbers_data()["qualified"]:  # 'degrees' with no scale named: any of them
        return "", False, 0
    return (v.lemma(k), False, 1) if v.content(k) else ("", False, 0)


def _rate(v: View, k: int, lex: Lexicon, words: list[str]) -> tuple[str, int | None]:
    """The period or share of a rate within a few words after position k ('parcels per week',
    'a week', 'each month', 'weekly'), and its position; ('', None) when there is none."""
    for j in range(k, min(len(v), k + lex.rate_reach)):
        w = words[j]
        if v.punct(j) or (j > k and _number(w) is not None):
            break
        if w in lex.rate_adverbs:
            return lex.rate_adverbs[w], j
        if j + 1 < len(v) and w in lex.rate_words and not v.punct(j + 1):
            nxt = words[j + 1]
            unit = pint_unit(nxt)
            if unit and unit in lex.periods:
                return unit, j + 1
            if w not in ("a", "an") and v.content(j + 1):
                return v.lemma(j + 1), j + 1
    return "", None


def quantities(v: View, lex: Lexicon) -> list[Quantity]:
    return remembered(v, ("quantities",), lambda: _quantities(v, lex))


def _quantities(v: View, lex: Lexicon) -> list[Quantity]:
    words = [v.word(k) for k in range(len(v))]
    texts = [v.text(k) for k in range(len(v))]
    phrases = {a: (b, value) for a, b, value in number_phrases(words)}
    out, k = [], 0
    while k < len(v):
        w = words[k]
        if w in lex.multiples:  # 'twice a day': 2 times a day
            per, per_pos = _rate(v, k + 1, lex, words)
            if per:
                out.append(Quantity(lex.multiples[w], lex.multiples[w], "", "time", False, k, None, k, k + 1, k + 1,
                                    per, per_pos))
            elif lex.multiples[w] > 1 and k + 1 < len(v) and words[k + 1] in _FACTOR_NEXT:  # 'twice as large': 2 times
                out.append(Quantity(lex.multiples[w], lex.multiples[w], "", "time", False, k, None, k, k + 1, k + 1))
            k += 1
            continue
        if k in phrases:
            end, mantissa = phrases[k]
        elif w in ORDINALS or (k > 0 and _number(words[k - 1]) is not None and w not in lex.scales) \
                or _number(w) is None:
            k += 1
            continue
        else:
            end, mantissa = k + 1, _number(w)
        j, scale, scale_pos = end, "", None
        if k in phrases and end - k > 1 and words[end - 1] in lex.scales:  # 'twelve thousand': 12, thousand
            scale, scale_pos, mantissa = words[end - 1], end - 1, mantissa / lex.scales[words[end - 1]]
        elif j < len(v) and words[j] in lex.scales:
            scale, scale_pos, j = words[j], j, j + 1
        unit, measure, unit_pos, unit_end = "", False, None, None
        if k > 0 and words[k - 1] in lex.currency:
            unit, measure, unit_pos, unit_end = lex.currency[words[k - 1]], True, k - 1, k
        elif j < len(v) and (not v.punct(j) or words[j] in lex.percent):
            unit, measure, used = _unit(v, j, lex, words, texts)
            unit_pos, unit_end = (j, j + used) if unit else (None, None)
        elif j + 1 < len(v) and words[j] == "-" and not v.punct(j + 1):  # 'a 450-pound bell': a measure only
            unit, measure, used = _unit(v, j + 1, lex, words, texts)
            unit, unit_pos, unit_end = (unit, j + 1, j + 1 + used) if measure else ("", None, None)
        after = unit_end if unit_end is not None and unit_end > j else j
        per, per_pos = _rate(v, after, lex, words)
        out.append(Quantity(mantissa * lex.scales.get(scale, 1.0), mantissa, scale, unit, measure,
                            k, scale_pos, unit_pos, end, unit_end, per, per_pos))
        k = end
    return out


def _same_value(x: float, y: float) -> bool:
    return abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y))


def _converts(q: Quantity, r: Quantity) -> bool:
    """Whether two measured quantities are the same amount in different units (within 2%)."""
    return same_amount(q.value, q.unit, r.value, r.unit)


def _tokens(a: View, positions) -> tuple[int, ...]:
    return tuple(int(a.idx[k]) for k in positions)


def _differing(a: View, q: Quantity, e: View, r: Quantity) -> tuple[int, ...]:
    """The answer's unit words that the evidence's unit lacks ('Fahrenheit' of 'degrees Fahrenheit'),
    else all of them."""
    theirs = {e.word(k) for k in r.unit_positions}
    own = [k for k in q.unit_positions if a.word(k) not in theirs]
    return _tokens(a, own or q.unit_positions)


def _reworded(a: View, q: Quantity, e: View, r: Quantity) -> bool:
    """Two amounts of one unit whose number words, one inside the other, say different amounts
    ('a dozen' / 'half a dozen', 'six' / 'thirty-six'): the evidence's own words, rearranged."""
    mine = [a.word(k) for k in q.number_positions if not a.punct(k)]
    theirs = [e.word(k) for k in r.number_positions if not e.punct(k)]
    if len(mine) == len(theirs) == 1 or not mine or not theirs:
        return False
    return set(mine) <= set(theirs) or set(theirs) <= set(mine)


def quantity_conflicts(a: View, e: View, lex: Lexicon, others: list[View] | None = None) -> list[Signal]:
    """`others`: the source's other evidence sentences, where an amount of the answer that e does not
    state is looked up ('the closure will last six weeks' beside the sentence the answer follows)."""
    out = []
    theirs = [(e, r) for r in quantities(e, lex)]
    elsewhere = [(o, r) for o in others or () if o is not e for r in quantities(o, lex)]
    for q in quantities(a, lex):
        pool = theirs if any(_same_value(r.value, q.value) for _, r in theirs) else theirs + elsewhere
        same = [(s, r) for s, r in pool if _same_value(r.value, q.value)]
        loose = [(s, r) for s, r in same if r.number_pos > 0 and s.word(r.number_pos - 1) in lex.bounds]
        if loose and q.number_pos > 0 and a.word(q.number_pos - 1) in lex.exact:  # 'exactly 23' for 'at least 23'
            s, r = loose[0]
            out.append(Signal("quantity", _tokens(a, [q.number_pos - 1, q.number_pos]),
                              f"{s.text(r.number_pos - 1)} {s.text(r.number_pos)}"))
            continue
        if same and q.per and all(r.per and r.per != q.per and (not r.unit or not q.unit or r.unit == q.unit)
                                  for _, r in same):
            s, r = same[0]
            out.append(Signal("quantity", _tokens(a, [q.per_pos]), s.text(r.per_pos)))
            continue
        if any(r.unit == q.unit or not r.unit or not q.unit or not (r.measure or q.measure) for _, r in same):
            continue
        if any(q.measure and r.measure and _converts(q, r) for _, r in pool):
            continue
        if same and q.unit_pos is not None:
            s, r = same[0]
            named = s.span_text(list(r.unit_positions)) if r.unit_pos is not None else s.text(r.number_pos)
            out.append(Signal("quantity", _differing(a, q, s, r), named))
            continue
        rescaled = [(s, r) for s, r in pool if _same_value(r.mantissa, q.mantissa) and r.scale != q.scale
                    and r.scale and q.scale]
        if rescaled and not same:
            s, r = rescaled[0]
            out.append(Signal("quantity", _tokens(a, [q.scale_pos]), f"{s.text(r.number_pos)} {r.scale}"))
            continue
        kinds = [(s, r) for s, r in pool if not same and _same_value(r.mantissa, q.mantissa)
                 and {_kind(q), _kind(r)} == {"percent", "scale"}]
        if kinds:  # '15 million' for '15 percent': an amount for a share
            s, r = kinds[0]
            pos = q.scale_pos if q.scale_pos is not None else q.unit_pos
            out.append(Signal("quantity", _tokens(a, [pos]), s.text(r.unit_pos if r.scale_pos is None else r.scale_pos)))
            continue
        if same or not q.unit:
            continue
        factors = [(s, r) for s, r in theirs if q.unit == r.unit == "time" and not q.per and not r.per]
        if factors:  # 'three times as large' for 'twice as large': another factor of one comparison
            s, r = factors[0]
            out.append(Signal("quantity", _tokens(a, sorted({*q.number_positions, *q.unit_positions})),
                              s.span_text(sorted({*r.number_positions, *r.unit_positions}))))
            continue
        reworded = [(s, r) for s, r in theirs if r.unit == q.unit and _reworded(a, q, s, r)]
        if reworded:
            s, r = reworded[0]
            out.append(Signal("quantity", _tokens(a, q.number_positions),
                              s.span_text(list(r.number_positions))))
            continue
        shifted = [(s, r) for s, r in theirs if _shifted(q, r)]
        if shifted:
            s, r = shifted[0]
            out.append(Signal("quantity", _tokens(a, [q.number_pos]), s.text(r.number_pos)))
    return out


def rescaled(s: Signal, lex: Lexicon) -> bool:
    """Whether a quantity signal puts its amount on another scale ('3.1 million' for '3.1 billion') or
    its rate on another period ('twice a month' for 'twice a week'): a minimal edit of one amount."""
    words = s.evidence.lower().split()
    period = len(words) == 1 and (words[0] in lex.periods or words[0] in lex.rate_adverbs)  # not 'mg per day' for 'mg'
    return s.cls == "quantity" and bool(words) and (words[-1] in lex.scales or period)


def _kind(q: Quantity) -> str:
    """'percent' for a share, 'scale' for an amount with a scale word, '' otherwise."""
    if q.unit == "percent":
        return "percent"
    return "scale" if q.scale else ""


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
