"""Baseless clauses and sentences: templates filled with values the source never mentions."""
from __future__ import annotations

import random
from collections.abc import Callable

from .alternatives import absent, content_words_absent
from .facts import Draft, fields, fill
from .resources import BASELESS, BUSINESSES, CALENDAR, PLACES
from .values import company_name, grouped, percent, person_name


def clause_templates(draft: Draft) -> list[tuple[str, str]]:
    """(template, label type) of the clauses a response to this draft may add."""
    return list(draft.clauses) + list(BASELESS.clauses[draft.source.task_type])


def sentence_templates(draft: Draft) -> list[str]:
    return list(draft.extra_sentences) + list(BASELESS.sentences[draft.source.task_type])


def fill_baseless(template: str, draft: Draft, rng: random.Random) -> str | None:
    """Fill a baseless template with generated values that the source never mentions."""
    hay = draft.hay
    y0, y1 = draft.years
    generators: dict[str, Callable[[], str]] = {
        "year": lambda: str(rng.randint(y0, y1)),
        "person": lambda: person_name(rng),
        "org": lambda: company_name(rng),
        "n": lambda: grouped(rng.choice((40, 75, 120, 200, 350, 600, 1200, 3000)) + rng.randint(0, 30)),
        "pct": lambda: percent(rng.randint(6, 35)),
        "month": lambda: rng.choice(CALENDAR.months),
        "city": lambda: rng.choice(PLACES.yelp_cities + PLACES.us_cities)[0],
        "publication": lambda: rng.choice(BUSINESSES.publications),
        "event": lambda: rng.choice(BUSINESSES.events),
        "weekday": lambda: rng.choice(CALENDAR.weekdays),
        "noun": lambda: draft.noun,
    }
    values: dict[str, str] = {}
    for name in fields(template):
        if name in values:
            continue
        if name == "feature":
            options = [p for p, keys, _ in draft.features
                       if all(k not in hay for k in keys) and p.lower() not in hay]
            if not options:
                return None
            values[name] = rng.choice(options)
            continue
        for _ in range(30):
            v = generators[name]()
            if name in ("noun", "weekday") or (absent(v, hay) and content_words_absent(v, hay)):
                values[name] = v
                break
        else:
            return None
    text = fill(template, values)
    return text if absent(text, hay) else None
