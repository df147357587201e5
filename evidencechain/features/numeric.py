"""Numbers in text, normalised so that '1,200'/'1200', '20%'/'20 percent', 'third'/'3rd' match."""
from __future__ import annotations

import re

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
    low = token.lower()
    if low in WORD_NUMBERS:
        return {canonical(WORD_NUMBERS[low])}
    if low in ORDINALS:
        return {canonical(ORDINALS[low])}
    if any(c.isdigit() for c in low):
        return numbers_in_text(low)
    return set()


def evidence_numbers(text: str, lowered_tokens: tuple[str, ...]) -> set[str]:
    """All numbers the evidence states, in digits or words."""
    out = numbers_in_text(text)
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
        values = token_number_values(tok)
        if not values or tok.lower() in _AMBIGUOUS:
            flags.append(False)
        else:
            flags.append(not values & known)
    return flags
