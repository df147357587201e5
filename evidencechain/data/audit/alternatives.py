"""Unsupported alternatives for slot values (Conflict hallucinations), and absence checks."""
from __future__ import annotations

import random
import re

from .facts import Slot
from .resources import CALENDAR, NAMES, PLACES
from .values import clock, person_name, town_name


def absent(text: str, hay: str) -> bool:
    """Neither the text nor, when it has two or more digits, its digits occur in the source."""
    low = text.lower().strip()
    if not low or low in hay:
        return False
    core = re.sub(r"[^0-9.]", "", low)
    if len(re.sub(r"\D", "", core)) >= 2 and core.strip(".") and core.strip(".") in hay.replace(",", ""):
        return False
    return True


def content_words_absent(text: str, hay: str) -> bool:
    """Every capitalised word or number of a generated phrase is absent from the source."""
    for word in re.findall(r"[A-Z][a-z]+|\d[\d,.]*\d|\d", text):
        if len(word) >= 2 and word.lower() in hay:
            return False
    return True


_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
_NUMERIC_KINDS = {"money", "count", "percent", "number", "measure"}


def _perturb_number(value: str, rng: random.Random) -> tuple[str, float] | None:
    """The value with its first number changed (in the same format) and the relative change."""
    m = _NUMBER.search(value)
    if m is None:
        return None
    raw = m.group(0)
    has_comma = "," in raw
    digits = raw.replace(",", "")
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    old = float(digits)
    if decimals == 0 and old < 20:
        new = old + rng.choice((-3, -2, -1, 1, 2, 3, 4, 5))
        if new <= 0:
            new = old + rng.randint(1, 5)
    else:
        factor = rng.choice((0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 1.1, 1.15, 1.2, 1.3, 1.4, 1.6, 1.8, 2.0))
        new = old * factor
        if decimals == 0:
            ipart = str(int(old))
            tz = len(ipart) - len(ipart.rstrip("0"))
            step = 10 ** max(0, min(tz, len(ipart) - 2))
            new = round(new / step) * step
            if new == old:
                new = old + step
        else:
            new = round(new, decimals)
            if new == old:
                new = old + 10 ** -decimals
    if decimals:
        text = f"{new:,.{decimals}f}" if has_comma else f"{new:.{decimals}f}"
    else:
        text = f"{int(new):,}" if has_comma or (new >= 10000 and old >= 10000) else str(int(new))
    rel = abs(new - old) / max(abs(old), 1e-9)
    return value[:m.start()] + text + value[m.end():], rel


def _perturb_time(value: str, rng: random.Random) -> str | None:
    m = re.match(r"(\d{1,2})(?::(\d{2}))?\s?([ap]m|[AP]M)$", value)
    if m is None:
        return None
    h = int(m.group(1)) % 12 + (12 if m.group(3).lower() == "pm" else 0)
    minute = int(m.group(2) or 0)
    new = h + rng.choice((-3, -2, -1, 1, 2, 3))
    if not 5 <= new <= 23:
        new = h + rng.choice((1, 2)) if h < 12 else h - rng.choice((1, 2))
    style = "upper" if m.group(3).isupper() else "lower"
    return clock(new, minute, style)


def _propose(slot: Slot, rng: random.Random) -> tuple[str, str] | None:
    """One candidate (alternative, label_type) for a slot, or None."""
    kind, value = slot.kind, slot.value
    if kind in _NUMERIC_KINDS:
        out = _perturb_number(value, rng)
        if out is None:
            return None
        alt, rel = out
        return alt, "Subtle Conflict" if rel <= 0.2 else "Evident Conflict"
    if kind == "year":
        delta = rng.choice((-12, -8, -5, -3, -2, -1, 1, 2, 3, 5, 8))
        return str(int(value) + delta), "Subtle Conflict" if abs(delta) <= 2 else "Evident Conflict"
    if kind == "rating":
        choices = [x / 2 for x in range(2, 11) if x / 2 != float(value)]
        new = rng.choice(choices)
        fmt = f"{new:.1f}" if "." in value else f"{new:g}"
        if "." not in value and new != int(new):
            fmt = f"{new:.1f}"
        return fmt, "Subtle Conflict" if abs(new - float(value)) <= 0.5 else "Evident Conflict"
    if kind == "time":
        alt = _perturb_time(value, rng)
        return (alt, "Subtle Conflict") if alt else None
    if kind == "day":
        return rng.choice([d for d in CALENDAR.weekdays if d != value]), "Subtle Conflict"
    if kind == "month":
        return rng.choice([m for m in CALENDAR.months if m != value]), "Subtle Conflict"
    if kind == "date":
        month, day = value.split()
        if rng.random() < 0.5:
            return f"{rng.choice([m for m in CALENDAR.months if m != month])} {day}", "Subtle Conflict"
        new = int(day) + rng.choice((-9, -6, -3, -2, 2, 3, 6, 9))
        return (f"{month} {new}", "Subtle Conflict") if 1 <= new <= 28 else None
    if kind == "person":
        parts = value.split()
        return (person_name(rng) if len(parts) >= 2 else rng.choice(NAMES.last_names)), "Evident Conflict"
    if kind == "first":
        return rng.choice(NAMES.first_names), "Evident Conflict"
    if kind == "last":
        return rng.choice(NAMES.last_names), "Evident Conflict"
    if kind == "city":
        pool = PLACES.yelp_cities if rng.random() < 0.5 else PLACES.us_cities
        return rng.choice(pool)[0], "Evident Conflict"
    if kind == "state":
        if len(value) == 2:
            return rng.choice(sorted(PLACES.state_names)), "Evident Conflict"
        return rng.choice(sorted(v for v in PLACES.state_names.values() if v != "Alberta")), "Evident Conflict"
    if kind == "town":
        return town_name(rng), "Evident Conflict"
    if kind == "county":
        return rng.choice(PLACES.county_names), "Evident Conflict"
    if kind == "address":
        m = re.match(r"(\d+) (.*)", value)
        if m is None:
            return None
        return f"{rng.randint(10, 9899)} {m.group(2)}", "Subtle Conflict"
    if kind == "vote":
        yes, no = (int(x) for x in value.split("-"))
        total = yes + no
        new = rng.choice([y for y in range(total // 2 + 1, total + 1) if y != yes] or [yes + 1])
        return f"{new}-{total - new}", "Subtle Conflict"
    if kind == "score":
        a, b = (int(x) for x in value.split("-"))
        if rng.random() < 0.5:
            a += rng.choice((-9, -6, -4, 3, 5, 8, 11))
        else:
            b += rng.choice((-8, -5, -3, 2, 4, 7))
        return (f"{a}-{b}", "Evident Conflict") if a > b > 0 else None
    if kind == "phone":
        digits = [c for c in value]
        idx = [i for i, c in enumerate(digits) if c.isdigit()][-4:]
        for i in idx:
            digits[i] = str(rng.randint(0, 9))
        return "".join(digits), "Subtle Conflict"
    if kind == "word_number":
        return rng.choice([w for w in CALENDAR.number_words[1:11] if w != value]), "Subtle Conflict"
    if kind in ("choice", "item", "org", "title"):
        pool = [p for p in slot.pool if p != value]
        if not pool:
            return None
        typ = "Evident Conflict" if kind in ("org", "title") else "Subtle Conflict"
        return rng.choice(pool), typ
    return None


def alternative(slot: Slot, rng: random.Random, hay: str, avoid: set[str]) -> tuple[str, str] | None:
    """(value, label type) of an alternative that the source never mentions, or None."""
    for _ in range(60):
        got = _propose(slot, rng)
        if got is None:
            continue
        alt, typ = got
        if alt == slot.value or alt.lower() in avoid:
            continue
        if absent(alt, hay) and content_words_absent(alt, hay):
            return alt, typ
    return None

