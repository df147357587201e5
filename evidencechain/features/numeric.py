"""Numbers in text, normalised so that '1,200'/'1200', '20%'/'20 percent', 'third'/'3rd' match.

Clock times are compared as times: '8 pm', '8:00 PM' and '20:00' (or Yelp's '20:0') are
all 'time:20:00', so an answer's '8 pm' is supported by a record's '12:0-20:0'.
"""
from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:st|nd|rd|th)?(?![\d])")
_SCALE = re.compile(r"\s*(thousand|million|billion|k\b|m\b|bn\b)", re.IGNORECASE)
_SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9}
WORD_NUMBERS = {
    w: i for i, w in enumerate(
        ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"])
}
WORD_NUMBERS.update({"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
                     "eighty": 80, "ninety": 90, "hundred": 100, "dozen": 12})
ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
}
# Word numbers that are so often non-numeric ("one of", "second half") that they only count
# when the evidence has numbers to contradict them; see `numbers_in_tokens`.
_AMBIGUOUS = {"one", "second", "first"}


_TIME_24 = re.compile(r"(?<![\d:.])(\d{1,2}):(\d{1,2})(?![\d:])(?!\s*[ap]\.?\s?m\b)", re.I)
_TIME_12 = re.compile(r"(?<![\d:.])(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s?m\b\.?", re.I)
_TIME_WORDS = {"noon": "time:12:00", "midnight": "time:00:00"}


def _time(hour: int, minute: int, half: str | None = None) -> str | None:
    if half:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half.lower() == "p" else 0)
    if hour > 24 or minute > 59:
        return None
    return f"time:{hour % 24:02d}:{minute:02d}"


def time_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, 'time:HH:MM') for clock times written as 8 pm, 8:30 a.m., 20:00 or 20:0."""
    out = []
    for m in _TIME_12.finditer(text):
        value = _time(int(m.group(1)), int(m.group(2) or 0), m.group(3))
        if value:
            out.append((m.start(), m.end(), value))
    for m in _TIME_24.finditer(text):
        value = _time(int(m.group(1)), int(m.group(2)))
        if value:
            out.append((m.start(), m.end(), value))
    for word, value in _TIME_WORDS.items():
        out += [(m.start(), m.end(), value) for m in re.finditer(rf"\b{word}\b", text, re.I)]
    return sorted(out)


def canonical(value: float) -> str:
    return f"{value:.6g}"


def numbers_in_text(text: str) -> set[str]:
    """Canonical forms of the digit numbers in `text` (with and without a scale word)."""
    found: set[str] = set()
    for m in _NUMBER.finditer(text):
        value = float(m.group(1).replace(",", "") + (m.group(2) or ""))
        found.add(canonical(value))
        scale = _SCALE.match(text, m.end())
        if scale:
            found.add(canonical(value * _SCALES[scale.group(1).lower()]))
    return found


def token_number_values(token: str) -> set[str]:
    """Canonical numbers carried by one token ('1,200' -> {'1200'}, 'third' -> {'3'})."""
    return set(_token_number(token.lower())[1])


@lru_cache(maxsize=1 << 16)
def _token_number(low: str) -> tuple[bool, frozenset[str]]:
    """(whether the lower-cased token has a digit, the numbers it carries): tokens repeat, their
    numbers are worked out once."""
    digit = any(c.isdigit() for c in low)
    if low in WORD_NUMBERS:
        return digit, frozenset({canonical(WORD_NUMBERS[low])})
    if low in ORDINALS:
        return digit, frozenset({canonical(ORDINALS[low])})
    return digit, frozenset(numbers_in_text(low) if digit else ())


def evidence_numbers(text: str, lowered_tokens: tuple[str, ...]) -> set[str]:
    """All numbers and clock times the evidence states, in digits or words."""
    out = numbers_in_text(text) | {t for _, _, t in time_spans(text)}
    for tok in lowered_tokens:
        if tok in WORD_NUMBERS:
            out.add(canonical(WORD_NUMBERS[tok]))
        elif tok in ORDINALS:
            out.add(canonical(ORDINALS[tok]))
    return out


def absent_numbers(tokens: tuple[str, ...], known: set[str]) -> list[bool]:
    """Per token: does it state a number that the evidence does not contain?"""
    flags = []
    for tok in tokens:
        low = tok.lower()
        values = _token_number(low)[1]
        flags.append(bool(values) and low not in _AMBIGUOUS and values.isdisjoint(known))
    return flags


def absent_number_mask(text: str, starts: np.ndarray, ends: np.ndarray, lowered: tuple[str, ...],
                       known: set[str]) -> tuple[np.ndarray, np.ndarray]:
    """(states a number, number absent from the evidence) per token; times judged as times."""
    has_number = np.array([_token_number(t)[0] or t in WORD_NUMBERS or t in ORDINALS for t in lowered],
                          dtype=bool)
    absent = np.array(absent_numbers(lowered, known), dtype=bool)
    for start, end, value in time_spans(text):
        inside = (starts < end) & (ends > start)
        has_number |= inside
        absent[inside] = value not in known
    return has_number, absent
