"""Numbers in text, normalised so that '1,200'/'1200', '20%'/'20 percent', 'third'/'3rd' match.

Clock times are compared as times: '8 pm', '8:00 PM' and '20:00' (or Yelp's '20:0') are
all 'time:20:00', so an answer's '8 pm' is supported by a record's '12:0-20:0'; 'half past eight'
or 'eight o'clock' (no a.m. or p.m.) may be either '08:30' or '20:30'. Numbers in words are read as
phrases ('thirty-six', 'half a dozen', 'two hundred and fifty'); the evidence also states the
shares it names ('half of the 80 trees': 40), its amounts in other units ('2.5 km':
'2,500 metres', `units.base_key`) and the amounts it implies (`implied`: 'nine years' between 1962
and 1971). Word lists: data/numbers.toml.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache, lru_cache

import numpy as np

from .implied import duration_phrases, implied_numbers
from .units import base_key, canonical, numbers_data, unit_at

_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:st|nd|rd|th)?(?![\d])")
_SCALE = re.compile(r"\s*(thousand|million|billion|k\b|m\b|bn\b)", re.IGNORECASE)
_SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9}
_WORDS = numbers_data()
WORD_NUMBERS = {**_WORDS["units"], **_WORDS["tens"], **_WORDS["hundreds"], **_WORDS["groups"]}
"""Single number words (`data/numbers.toml`: units, tens, 'hundred', 'dozen')."""
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
_TIME_WORD = re.compile(rf"\b(?:{'|'.join(f'({w})' for w in _TIME_WORDS)})\b", re.I)
"""Each word of `_TIME_WORDS` as a whole word, in its own group."""


def _time(hour: int, minute: int, half: str | None = None) -> str | None:
    if half:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half.lower() == "p" else 0)
    if hour > 24 or minute > 59:
        return None
    return f"time:{hour % 24:02d}:{minute:02d}"


def _either(hour: int, minute: int) -> tuple[str, ...]:
    """A time said without a.m. or p.m.: '8:30' may be morning or evening."""
    value = _time(hour, minute)
    if value is None:
        return ()
    return (value, _time(hour + 12, minute)) if 1 <= hour <= 11 else (value,)


@cache
def _word_time() -> re.Pattern:
    data = numbers_data()
    hours = "|".join(w for w, n in data["units"].items() if 1 <= n <= 12) + r"|\d{1,2}"
    half = "|".join(sorted({*data["past"], *data["to"]}, key=len, reverse=True))
    day = "|".join(re.escape(w) for w in sorted(data["morning"] + data["evening"], key=len, reverse=True))
    return re.compile(rf"\b(?:(?P<part>{half})\s+(?P<side>past|to)\s+(?P<hour>{hours})|(?P<clock>{hours})\s+o['’]clock)"
                      rf"\b(?:\s+(?P<day>{day})(?!\w))?", re.I)


def _hour(word: str) -> int:
    return int(word) if word.isdigit() else int(numbers_data()["units"][word.lower()])


def time_spans(text: str) -> list[tuple[int, int, tuple[str, ...]]]:
    """(start, end, the times it may be as 'time:HH:MM') for clock times written as 8 pm, 8:30 a.m.,
    20:00 or 20:0, 'half past eight', 'quarter to nine in the evening' or 'eight o'clock'."""
    out = []
    for m in _TIME_12.finditer(text):
        value = _time(int(m.group(1)), int(m.group(2) or 0), m.group(3))
        if value:
            out.append((m.start(), m.end(), (value,)))
    for m in _TIME_24.finditer(text):  # a 24-hour clock (Yelp's '8:0-17:30'): '8:30' is morning
        value = _time(int(m.group(1)), int(m.group(2)))
        if value:
            out.append((m.start(), m.end(), (value,)))
    data = numbers_data()
    for m in _word_time().finditer(text):
        if m.group("clock"):
            hour, minute = _hour(m.group("clock")), 0
        else:  # a part of one side only ('half to nine') is no time
            side = m.group("side").lower()
            minute = data[side].get(m.group("part").lower())
            if minute is None:
                continue
            hour = _hour(m.group("hour")) if side == "past" else _hour(m.group("hour")) - 1 or 12
        day = (m.group("day") or "").lower()
        if day and 1 <= hour <= 12:
            value = _time(hour, minute, "a" if day in data["morning"] else "p")
            values = (value,) if value else ()
        else:
            values = _either(hour, minute)
        if values:
            out.append((m.start(), m.end(), values))
    values = list(_TIME_WORDS.values())
    out += [(m.start(), m.end(), (values[m.lastindex - 1],)) for m in _TIME_WORD.finditer(text)]
    return sorted(out)


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


def _phrase(words: Sequence[str], k: int, data: dict) -> tuple[int, float] | None:
    """(end, value) of the number in words that starts at position k, or None."""
    units, tens, hundreds, mults, groups = (data[x] for x in ("units", "tens", "hundreds", "multipliers", "groups"))
    big = {**hundreds, **mults, **groups}
    n, i, factor = len(words), k, 1.0
    if words[i] == "half" and i + 2 < n and words[i + 1] in data["articles"] and words[i + 2] in big:
        factor, i = 0.5, i + 1
    total = current = 0.0
    last = None
    if words[i] in data["articles"]:
        if not (i + 1 < n and words[i + 1] in big):
            return None
        current, last, i = 1.0, "unit", i + 1
    j = i
    while j < n:
        w = words[j]
        if w in units and last in (None, "ten", "hundred", "mult"):
            current, last = current + units[w], "unit"
        elif w in tens and last in (None, "hundred", "mult"):
            current, last = current + tens[w], "ten"
        elif w in hundreds and last == "unit":
            current, last = current * hundreds[w], "hundred"
        elif w in mults and last in ("unit", "ten", "hundred", "half"):
            total, current, last = total + current * mults[w], 0.0, "mult"
        elif w in groups and last in ("unit", "ten"):
            current, last = current * groups[w], "group"
        elif w == "-" and last == "ten" and j + 1 < n and words[j + 1] in units:
            pass
        elif w == "and" and last in ("hundred", "mult") and j + 1 < n and (words[j + 1] in units or words[j + 1] in tens):
            pass
        elif w == "and" and last in ("unit", "ten") and tuple(words[j + 1:j + 3]) in (("a", "half"), ("one", "half")):
            current, last, j = current + 0.5, "half", j + 2
        else:
            break
        j += 1
    if last is None or j == k:
        return None
    return j, (total + current) * factor


def number_phrases(words: Sequence[str]) -> list[tuple[int, int, float]]:
    """(first, end, value) of every number written in words, end exclusive: 'thirty-six', 'two hundred
    and fifty', 'a dozen', 'half a million', 'two and a half'; a lone number word is a phrase too."""
    data, out, k = numbers_data(), [], 0
    starts = _starts()
    for at in [i for i, w in enumerate(words) if w in starts]:
        if at < k:  # inside the phrase found last
            continue
        got = _phrase(words, at, data)
        if got:
            out.append((at, got[0], got[1]))
            k = got[0]
    return out


@cache
def number_words() -> frozenset[str]:
    """Words of numbers, shares and clock times ('forty', 'dozen', 'half', 'past', 'morning')."""
    d = numbers_data()
    clock = {w for phrase in d["morning"] + d["evening"] for w in phrase.split()}
    return frozenset({*WORD_NUMBERS, *ORDINALS, *d["units"], *d["tens"], *d["hundreds"], *d["multipliers"],
                      *d["groups"], *d["articles"], *d["fractions"], *d["past"], *d["to"], *clock,
                      "past", "to", "o'clock", "and", "noon", "midnight"})


@cache
def _starts() -> frozenset[str]:
    d = numbers_data()
    return frozenset({*d["units"], *d["tens"], *d["articles"], "half"})


def _amounts(words: Sequence[str]) -> list[tuple[int, int, frozenset[str], float | None]]:
    """(first, end, canonical numbers, its value when it is one number) of every number stated in
    digits or words, a scale word after digits included ('2.5 million')."""
    out, phrase_at = [], {a: (b, v) for a, b, v in number_phrases(words)}
    k = 0
    # a word of letters only holds no digit: only phrase starts and other words can start an amount
    for at in sorted({*phrase_at, *(i for i, w in enumerate(words) if not w.isalpha())}):
        if at < k:  # inside the amount found last
            continue
        if at in phrase_at:
            end, value = phrase_at[at]
            out.append((at, end, frozenset({canonical(value)}), value))
            k = end
            continue
        digit, values = _token_number(words[at])
        if digit and len(values) == 1 and words[at] not in ORDINALS:
            value = float(next(iter(values)))
            if at + 1 < len(words) and words[at + 1] in _SCALES:
                out.append((at, at + 2, values | {canonical(value * _SCALES[words[at + 1]])},
                            value * _SCALES[words[at + 1]]))
                k = at + 2
                continue
            out.append((at, at + 1, values, value))
    return out


@cache
def _share_words() -> frozenset[str]:
    """The words `_shares` reads a share or factor at."""
    data = numbers_data()
    return frozenset({*data["fractions"], "%", "percent", *data["factors"]})


def _unit_at(words: Sequence[str], end: int,
             texts: Sequence[str] | None = None) -> tuple[int, int, str] | None:
    """(first, end, unit) of the unit after an amount that ends at `end` ('3,000-metre' too), or None;
    `texts`: the words as written ('MW' is not 'mW')."""
    if end + 1 < len(words) and words[end] == "-":
        end += 1
    unit = unit_at(words, end, texts)
    return (end, end + unit[1], unit[0]) if unit else None


def _unit_key(words: Sequence[str], end: int, value: float | None) -> str | None:
    at = _unit_at(words, end) if value is not None else None
    return base_key(value, at[2]) if at else None


def _shares(words: Sequence[str], amounts) -> set[str]:
    """Numbers the words imply: a share of a stated number ('half of the 80 trees': 40, '25 percent
    of its 600 staff': 150), a share or factor alone ('cut by half': 0.5 and 50 percent, 'doubled'), a
    ratio as a percentage ('2 in 10': 20)."""
    data, out = numbers_data(), set()
    at = {a: value for a, _, _, value in amounts if value is not None}
    ends = {b: value for _, b, _, value in amounts if value is not None}
    readers = _share_words()
    for k in [i for i, w in enumerate(words) if w in readers]:
        w, share = words[k], None
        if w in data["fractions"]:
            share = data["fractions"][w] * (ends.get(k) or 1.0)
            out |= {canonical(share), canonical(round(share * 100)), canonical(round(share * 100, 1))}
        elif w in ("%", "percent") and k in ends:
            share = ends[k] / 100
        elif w in data["factors"]:
            out |= {canonical(x) for x in data["factors"][w]}
        if share is None or k + 1 >= len(words) or words[k + 1] != "of":
            continue
        for j in range(k + 2, min(len(words), k + 3 + data["share_reach"])):
            if j in at:
                out.add(canonical(share * at[j]))
                break
            if not words[j].isalpha() and words[j] not in ("'s", "’s"):
                break
    for k, x in ends.items():  # 'two in 10', 'one out of five': a share in percent
        j = k + 1 if tuple(words[k:k + 1]) == ("in",) else k + 2 if tuple(words[k:k + 2]) == ("out", "of") else None
        y = at.get(j) if j is not None else None
        if y and 0 < x <= y <= 1000 and x == int(x) and y == int(y):  # not "four in 2010"
            out |= {canonical(round(100 * x / y)), canonical(round(100 * x / y, 1))}
    return out


def evidence_numbers(text: str, lowered_tokens: tuple[str, ...]) -> set[str]:
    """All numbers and clock times the evidence states, in digits or words, the shares it names, its
    amounts with a unit as unit-free keys (`units.base_key`) and the amounts it implies (`implied`)."""
    out = numbers_in_text(text) | {t for _, _, ts in time_spans(text) for t in ts}
    amounts = _amounts(lowered_tokens)
    phrased = set()
    for a, end, values, value in amounts:
        out |= values
        phrased.update(range(a, end))
        key = _unit_key(lowered_tokens, end, value)
        if key:
            out.add(key)
    out |= _shares(lowered_tokens, amounts) | implied_numbers(lowered_tokens, amounts)
    out |= {base_key(value, unit) for _, _, value, unit in duration_phrases(lowered_tokens)} - {None}
    for k in [i for i, tok in enumerate(lowered_tokens) if tok in WORD_NUMBERS or tok in ORDINALS]:
        tok = lowered_tokens[k]
        if tok in WORD_NUMBERS and k not in phrased:
            out.add(canonical(WORD_NUMBERS[tok]))
        elif tok in ORDINALS:
            out.add(canonical(ORDINALS[tok]))
    return out


def implied_by(lowered_tokens: Sequence[str]) -> set[str]:
    """The amounts that words imply (`implied`), for evidence read in pieces and joined."""
    return implied_numbers(lowered_tokens, _amounts(lowered_tokens))


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
    """(states a number, number absent from the evidence) per token; numbers in words judged as whole
    phrases, amounts with a unit also in other units, times as times."""
    has_number = np.array([_token_number(t)[0] or t in WORD_NUMBERS or t in ORDINALS for t in lowered],
                          dtype=bool)
    absent = np.array(absent_numbers(lowered, known), dtype=bool)
    amounts = _amounts(lowered)
    texts = [text[int(a):int(b)] for a, b in zip(starts.tolist(), ends.tolist())] if amounts else None
    scale_words = {*_SCALES, *_WORDS["multipliers"]}
    for a, end, values, value in amounts:
        words = [i for i in range(a, end) if has_number[i] or lowered[i] in scale_words]
        has_number[words] = True  # 'thousand' of 'thirty thousand' too
        unit = _unit_at(lowered, end, texts) if value is not None else None
        stated = unit is not None and base_key(value, unit[2]) in known
        absent[words] = values.isdisjoint(known) and not stated and not (end - a == 1 and lowered[a] in _AMBIGUOUS)
        if stated:  # its unit is stated with it ('two years' between 1969 and 1971)
            has_number[unit[0]:unit[1]] = True
            absent[unit[0]:unit[1]] = False
    relative = numbers_data()["relative"]
    for a, end, value, unit in duration_phrases(lowered):
        missing = base_key(value, unit) not in known
        if missing and end < len(lowered) and lowered[end] in relative and lowered[a] in _WORDS["articles"]:
            continue  # 'up 4 percent on a year earlier' needs no second year
        has_number[a:end] = True
        absent[a:end] = missing
    for start, end, values in time_spans(text):
        inside = (starts < end) & (ends > start)
        has_number |= inside
        absent[inside] = known.isdisjoint(values)
    return has_number, absent
