"""Meaning-preserving paraphrases of a real sentence: the hard negatives of the planted classes."""
from __future__ import annotations

import re

from ...text.parse import ParsedText
from .plant import NEGATIONS, NUMBER, SMALL_NUMBERS, Edit, antonym_pairs, edits, keep_case, pick, words_of

_PREFIXES = ("un", "in", "im", "dis", "ir", "il")


def double_negation(text: str, doc: ParsedText, rng) -> Edit | None:
    """'common' -> 'not uncommon' where WordNet gives the prefixed word as its antonym."""
    pairs = antonym_pairs()
    words = words_of(doc)
    if any(w in NEGATIONS for _, _, w in words):
        return None
    spots = [(s, e, p + w) for s, e, w in words for p in _PREFIXES if p + w in pairs.get(w, ())]
    spot = pick(rng, spots)
    if spot is None:
        return None
    s, e, new = spot
    return Edit(text[:s] + keep_case("not " + new, text[s:e]) + text[e:], how=f"{text[s:e]} -> not {new}")


def number_format(text: str, doc: ParsedText, rng) -> Edit | None:
    spots = []
    for m in re.finditer(rf"(?<![\w.,$-])({NUMBER})(?![\w.,-]\d|-)", text):
        v = m.group(1)
        if "," in v:
            spots.append((m.start(1), m.end(1), v.replace(",", "")))
        elif v.isdigit() and 2 <= int(v) <= 12 and text[m.end(1):m.end(1) + 1] == " ":
            spots.append((m.start(1), m.end(1), SMALL_NUMBERS[int(v)]))
        elif v.isdigit() and 10_000 <= int(v) and not re.fullmatch(r"(1[5-9]|20)\d\d", v):
            spots.append((m.start(1), m.end(1), f"{int(v):,}"))
    for m in re.finditer(r"(\d)\s?%", text):
        spots.append((m.start() + 1, m.end(), " percent"))
    spot = pick(rng, spots)
    if spot is None:
        return None
    s, e, new = spot
    return Edit(text[:s] + new + text[e:], how=f"{text[s:e]} -> {new.strip()}")


def unit_spelled(text: str, doc: ParsedText, rng) -> Edit | None:
    spelled = edits()["quantity"]["spelled"]
    spots = [(m.start(2), m.end(2), spelled[m.group(2)])
             for m in re.finditer(rf"({NUMBER})\s?(%|[A-Za-z]+)\b", text) if m.group(2) in spelled]
    spot = pick(rng, spots)
    if spot is None:
        return None
    s, e, new = spot
    if not new.startswith(" ") and text[s - 1].isdigit():
        new = " " + new
    return Edit(text[:s] + new + text[e:], how=f"{text[s:e]} -> {new.strip()}")


def _entities(doc: ParsedText, labels=("PERSON", "ORG", "GPE", "NORP")) -> list[tuple[int, int, str]]:
    return [(s, e, lab) for s, e, lab in doc.entities or () if lab in labels]


def coordination_swap(text: str, doc: ParsedText, rng) -> Edit | None:
    ents = _entities(doc)
    spots = [(a, b) for a, b in zip(ents, ents[1:]) if text[a[1]:b[0]] == " and "]
    spot = pick(rng, spots)
    if spot is None:
        return None
    (s1, e1, _), (s2, e2, _) = spot
    return Edit(text[:s1] + text[s2:e2] + " and " + text[s1:e1] + text[e2:], how="coordination swapped")


def passive(text: str, doc: ParsedText, rng) -> Edit | None:
    """'A acquired B' -> 'B was acquired by A' (one regular past-tense verb between two names)."""
    ents = _entities(doc)
    spots = [(a, b) for a, b in zip(ents, ents[1:]) if re.fullmatch(r" [a-z]+ed ", text[a[1]:b[0]])]
    spot = pick(rng, spots)
    if spot is None:
        return None
    (s1, e1, _), (s2, e2, _) = spot
    verb = text[e1:s2].strip()
    return Edit(text[:s1] + f"{text[s2:e2]} was {verb} by {text[s1:e1]}" + text[e2:], how="passive voice")


def clause_reorder(text: str, doc: ParsedText, rng) -> Edit | None:
    openers = "|".join(re.escape(o) for o in edits()["clauses"]["openers"])
    m = re.match(rf"^((?:{openers}) [^,]{{2,60}}), (\S.*?)([.!?])?$", text.strip())
    if m is None or len(m.group(1).split()) > 8:
        return None
    head, main, end = m.group(1), m.group(2), m.group(3) or ""
    proper = any(s == text.index(main) for s, _, _ in doc.entities or ())
    main = main if proper or main[:2].isupper() else main[:1].lower() + main[1:]
    first = head[:1].lower() + head[1:] if head.split()[0] in edits()["clauses"]["openers"] else head
    return Edit(main[:1].upper() + main[1:] + " " + first + end, how="leading phrase moved to the end")


def same_level(text: str, doc: ParsedText, rng) -> Edit | None:
    same = edits()["modality"]["same"]
    spots = [(s, e, w) for s, e, w in words_of(doc) if w in same]
    spot = pick(rng, spots)
    if spot is None:
        return None
    s, e, w = spot
    return Edit(text[:s] + keep_case(same[w], text[s:e]) + text[e:], how=f"{w} -> {same[w]}")


PREFERRED = {
    "polarity": (double_negation, clause_reorder, number_format),
    "antonym": (double_negation, clause_reorder, coordination_swap),
    "roles": (passive, coordination_swap, clause_reorder),
    "quantity": (unit_spelled, number_format, clause_reorder),
    "recombination": (number_format, clause_reorder, coordination_swap),
    "modality": (same_level, clause_reorder, number_format),
}


def paraphrase(cls: str, text: str, doc: ParsedText, rng) -> Edit | None:
    """The first paraphrase of the class's preferred kinds that applies to the sentence."""
    for make in PREFERRED[cls]:
        edit = make(text, doc, rng)
        if edit is not None and edit.text != text:
            return edit
    return None
