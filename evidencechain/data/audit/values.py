"""Generated values: names of people, towns and companies, titles, and number formats."""
from __future__ import annotations

import random

from .facts import fill
from .resources import NAMES, PLACES


def with_article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" and not noun.startswith("HVAC") else "a ") + noun


def grouped(x: float) -> str:
    return f"{int(round(x)):,}"


def money(x: float) -> str:
    return f"${int(round(x)):,}"


def percent(x: float, decimals: int = 0) -> str:
    return f"{x:.{decimals}f} percent"


def clock(hour: int, minute: int, style: str) -> str:
    """A clock time such as 7 pm or 7:30 pm; style "upper" gives 7:00 PM."""
    suffix = "am" if hour < 12 else "pm"
    h12 = hour % 12 or 12
    if style == "upper":
        return f"{h12}:{minute:02d} {suffix.upper()}"
    return f"{h12} {suffix}" if minute == 0 else f"{h12}:{minute:02d} {suffix}"


def jitter(rng: random.Random, base: float, rel: float = 0.15, step: float = 1) -> float:
    """`base` moved by up to `rel` either way, rounded to a multiple of `step` (at least `step`)."""
    value = base * rng.uniform(1 - rel, 1 + rel)
    value = round(value / step) * step
    return max(step, value)


def person_name(rng: random.Random) -> str:
    return f"{rng.choice(NAMES.first_names)} {rng.choice(NAMES.last_names)}"


def person_names(rng: random.Random, n: int) -> list[str]:
    """`n` names with pairwise different first and last names."""
    firsts = rng.sample(NAMES.first_names, n)
    lasts = rng.sample(NAMES.last_names, n)
    return [f"{a} {b}" for a, b in zip(firsts, lasts)]


def town_name(rng: random.Random) -> str:
    return rng.choice(PLACES.town_prefixes) + rng.choice(PLACES.town_suffixes)


def company_name(rng: random.Random) -> str:
    return f"{rng.choice(NAMES.company_words_a)} {rng.choice(NAMES.company_words_b)}"


def company_names(rng: random.Random, n: int) -> list[str]:
    """`n` company names with pairwise different first words."""
    out: list[str] = []
    while len(out) < n:
        c = company_name(rng)
        if c.split()[0] not in {x.split()[0] for x in out}:
            out.append(c)
    return out


def work_title(rng: random.Random) -> str:
    a, b = rng.choice(NAMES.title_words_a), rng.choice(NAMES.title_words_b)
    return fill(rng.choice(NAMES.title_patterns), {"a": a, "b": b})


def us_states(rng: random.Random, n: int) -> list[str]:
    return rng.sample(sorted(v for k, v in PLACES.state_names.items() if k != "AB"), n)
