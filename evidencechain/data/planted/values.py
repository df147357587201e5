"""Recombined values: a number of a sentence replaced by one of the same kind from the evidence's
other sentences, or two of its own values swapped.

Kinds keep the edit plausible and the meaning changed: a year, a day of a month ("March 15"), a
time ("7 a.m."), an age ("Durst, 71,", "at the age of 40"), an amount of a unit ("35 years") or a
plain count. Numbers that are part of a name or label ("Furious 7", "Flight 22", "season 2",
"51 Pegasi", "(1)") and numbers inside a conversion ("25 km (16 miles)") are left alone; two values
fewer than three words apart are not swapped ("from 1962 to 1968", "20 or 30 feet", "1 out of 3").
"""
from __future__ import annotations

import re

from ...text.parse import ParsedText
from .plant import NUMBER, Edit, edits, pick, replace_span

YEAR = re.compile(r"(1[5-9]|20)\d\d")


def _kind(text: str, s: int, e: int) -> str | None:
    v = edits()["values"]
    before, after = text[:s], text[e:]
    prev = re.search(r"([A-Za-z.]+)\.?\s*$", before)
    prev_word = prev.group(1).lower().rstrip(".") if prev else ""
    nxt = re.match(r"\s*([A-Za-z.%]+)", after)
    next_word = nxt.group(1).lower() if nxt else ""
    if before.endswith("(") or re.match(r"\s*\(", after) or re.match(r"\s*[A-Z]", after):
        return None
    if prev and prev.group(1)[:1].isupper() and prev_word not in v["months"] and before[:prev.start()].strip():
        return None
    if prev_word in v["label_words"]:
        return None
    if YEAR.fullmatch(text[s:e]):
        return "year"
    if prev_word in v["months"] or (next_word in v["months"]):
        return "day" if text[s:e].isdigit() and 1 <= int(text[s:e]) <= 28 else None
    if next_word in v["time_words"]:
        return "time"
    if re.search(r"(age of|aged)\s*$", before) or re.match(r"[\s-]*years?[\s-]old", after) \
            or (re.search(r"[A-Z]\w+, $", before) and re.match(r",", after)):
        return "age"
    q = edits()["quantity"]
    if next_word in q["units"] or next_word in q["scales"]:
        return "amount:" + next_word.rstrip("s")
    return "number"


def values(text: str) -> list[tuple[int, int, str]]:
    """The recombinable values of a text, (start, end, kind)."""
    out = []
    for m in re.finditer(rf"(?<![\w.,$:'/#-])({NUMBER})(?![\w:/'-]|[.,]\d)", text):
        kind = _kind(text, m.start(1), m.end(1))
        if kind is not None:
            out.append((m.start(1), m.end(1), kind))
    return out


def plant_recombination(text: str, doc: ParsedText, rng, context: list[str]) -> Edit | None:
    """A value of `text` replaced by a value of the same kind from the other evidence
    sentences `context` (or two values of the sentence swapped)."""
    mine = values(text)
    kinds: dict[str, set[str]] = {}
    for other in context:
        for s, e, kind in values(other):
            kinds.setdefault(kind, set()).add(other[s:e])
    spots = [(s, e, v) for s, e, kind in mine for v in sorted(kinds.get(kind, ()))
             if v != text[s:e] and v not in text]
    same = [(a, b) for i, a in enumerate(mine) for b in mine[i + 1:]
            if a[2] == b[2] and text[a[0]:a[1]] != text[b[0]:b[1]]
            and len(re.findall(r"[A-Za-z]+", text[a[1]:b[0]])) >= 3]
    if same and (not spots or rng.random() < 0.5):
        (s1, e1, _), (s2, e2, _) = pick(rng, same)
        a, b = text[s1:e1], text[s2:e2]
        out = text[:s1] + b + text[e1:s2] + a + text[e2:]
        shift = len(b) - len(a)
        return Edit(out, ((s1, s1 + len(b)), (s2 + shift, s2 + shift + len(a))), f"{a} ... {b}",
                    "values swapped")
    spot = pick(rng, spots)
    if spot is None:
        return None
    s, e, v = spot
    return replace_span(text, s, e, v, text[s:e], f"{text[s:e]} -> {v} (from another sentence)")
