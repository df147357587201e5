"""Amounts the evidence implies without stating them, and durations said without a number.

'2015 ... two years later' implies 2017; 'in 1962 ... in 1971' implies a span of nine years; '70
million marks ... 84 million marks' a rise of 14 million; '18 months' is 'a year and a half'. The
keys are those of `numeric` (canonical numbers) and `units.base_key` (amounts with a unit).
Word lists and limits: data/numbers.toml.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import combinations

from .units import base_key, canonical, in_years, numbers_data, unit_at

_YEAR = re.compile(r"\d{4}")
Amount = tuple[int, int, frozenset, "float | None"]
"""(first, end, canonical numbers, its value when it is one number), as `numeric` reads an amount."""


def duration_phrases(words: Sequence[str]) -> list[tuple[int, int, float, str]]:
    """(first, end, value, unit) of amounts said with an article or a share instead of a number: 'a year
    and a half', 'an hour and a half', 'half an hour', 'a quarter of an hour', 'a fortnight', 'a
    decade', 'a year earlier' (an article and a unit alone are one unit only before a word of
    `relative` or for a unit of `whole_units`: 'twice a week' states no week)."""
    data, out, n = numbers_data(), [], len(words)
    articles = data["articles"]
    k = 0
    while k < n:
        w, share, at = words[k], None, k + 1
        if w == "half" and k + 1 < n and words[k + 1] in articles:
            share, at = 0.5, k + 2
        elif w in articles and tuple(words[k + 1:k + 3]) == ("quarter", "of") and k + 3 < n \
                and words[k + 3] in articles:
            share, at = 0.25, k + 4
        unit = unit_at(words, at) if share is not None or w in articles else None
        if unit is None:
            k += 1
            continue
        end = at + unit[1]
        if share is not None:
            out.append((k, end, share, unit[0]))
        elif tuple(words[end:end + 3]) == ("and", "a", "half"):
            out.append((k, end + 3, 1.5, unit[0]))
            end += 3
        elif words[at] in data["whole_units"] or (end < n and words[end] in data["relative"]):
            out.append((k, end, 1.0, unit[0]))
        else:
            k += 1
            continue
        k = end
    return out


def implied_numbers(words: Sequence[str], amounts: Sequence[Amount]) -> set[str]:
    """Keys of the amounts `words` imply: spans between two stated years ('nine years'), a stated
    year plus or minus a stated span of years, and differences of two amounts before the same word
    ('84 million marks' and '70 million marks': 14 million)."""
    data = numbers_data()
    limit, (low, high) = data["implied_limit"], data["years"]
    years, spans, groups = set(), set(), {}
    for a, end, _, value in amounts:
        if value is None:
            continue
        unit = unit_at(words, end)
        if unit is None and end - a == 1 and _YEAR.fullmatch(words[a]) and low <= value <= high:
            years.add(int(value))
        elif unit is not None:
            spans.add(in_years(value, unit[0]))
        if end < len(words) and words[end] not in data["not_units"] and int(value) not in years \
                and (words[end].isalpha() or words[end] == "%"):
            groups.setdefault(words[end], (unit, set()))[1].add(value)
    spans |= {in_years(value, unit) for _, _, value, unit in duration_phrases(words)}
    spans = {round(s) for s in spans - {None} if s >= 0.95 and abs(s - round(s)) < 1e-6}
    out = set()
    if len(years) <= limit:
        out |= {base_key(z - y, "year") for y, z in combinations(sorted(years), 2)}
        out |= {canonical(y + sign * s) for y in years for s in spans for sign in (1, -1)}
    for unit, values in groups.values():
        if len(values) <= limit:
            for x, y in combinations(sorted(values), 2):
                out |= {canonical(y - x), base_key(y - x, unit[0]) if unit else None}
    return out - {None}
