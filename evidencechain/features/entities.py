"""Named entities of a sentence that the evidence does not mention.

spaCy NER spans when the pipeline has an NER component; otherwise a rule fallback that
takes runs of capitalised words (sentence-initial function words excluded).
"""
from __future__ import annotations

import re

import numpy as np

from ..text.parse import ParsedText
from .numeric import WORD_NUMBERS, number_words
from .units import numbers_data

NUMERIC_ENTITY_TYPES = {"CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY"}
_STRIP = re.compile(r"^(the|a|an)\s+|'s$|’s$", re.IGNORECASE)


def normalise_entity(text: str) -> str:
    return " ".join(_STRIP.sub("", text.lower().strip()).split())


def rule_entities(parsed: ParsedText) -> list[tuple[int, int, str]]:
    """Runs of capitalised, non-stopword tokens as (start, end, 'RULE') spans."""
    sentence_starts = {a for a, _ in parsed.sentences}
    spans: list[tuple[int, int, str]] = []
    run: list[int] = []

    def close() -> None:
        if run:
            spans.append((int(parsed.starts[run[0]]), int(parsed.ends[run[-1]]), "RULE"))
            run.clear()

    for i in range(len(parsed)):
        tok = parsed.token_text(i)
        capital = tok[:1].isupper() and not parsed.is_punct[i]
        initial = int(parsed.starts[i]) in sentence_starts
        if capital and not (initial and parsed.is_stop[i]) and not parsed.like_num[i]:
            run.append(i)
        else:
            close()
    close()
    return spans


def entity_spans(parsed: ParsedText) -> list[tuple[int, int, str]]:
    """Non-numeric entities: NER when available, else the rule fallback.

    Numeric entity types, and dates or times written with digits or number words alone
    ('Forty', 'half past eight in the morning'), are left to the numeric family, which normalises
    them ('8 pm' against '20:00').
    """
    if parsed.entities is None:
        return rule_entities(parsed)
    return [e for e in parsed.entities
            if e[2] not in NUMERIC_ENTITY_TYPES
            and not (e[2] in ("DATE", "TIME") and _numeric(parsed.text[e[0]:e[1]]))]


def _numeric(text: str) -> bool:
    """A date or time written with digits, or with number and clock words only."""
    if any(c.isdigit() for c in text):
        return True
    words = re.findall(r"[\w']+", text.lower())
    return any(w in WORD_NUMBERS for w in words) and all(w in number_words() for w in words)


def absent_entity_mask(parsed: ParsedText, span: tuple[int, int], evidence_text_lower: str,
                       evidence_vocab: set[str], numbers_known: np.ndarray | None = None
                       ) -> tuple[np.ndarray, int, int]:
    """Tokens of `parsed` inside entities absent from the evidence, within char `span`.

    An entity counts as present when its normalised text occurs in the evidence or every
    one of its content words does (`absent_entity_tokens`). Returns (token mask, entities seen,
    entities absent).
    """
    mask = np.zeros(len(parsed), dtype=bool)
    seen = absent = 0
    lo, hi = span
    for start, end, _ in entity_spans(parsed):
        if start < lo or end > hi:
            continue
        seen += 1
        idx = absent_entity_tokens(parsed, start, end, evidence_text_lower, evidence_vocab, numbers_known)
        if idx is not None:
            absent += 1
            mask[idx] = True
    return mask, seen, absent


def absent_entity_tokens(parsed: ParsedText, start: int, end: int, evidence_text_lower: str,
                         evidence_vocab: set[str],
                         numbers_known: np.ndarray | None = None) -> np.ndarray | None:
    """Token indices of the entity at [start, end) when the evidence does not mention it, else None.
    `numbers_known` (per token of `parsed`): the token states an amount the evidence states or implies
    (`numeric.absent_number_mask`), so that 'nine years' or 'in 1935' is present where the evidence
    implies it."""
    norm = normalise_entity(parsed.text[start:end])
    if not norm or norm in evidence_text_lower:
        return None
    lo = int(np.searchsorted(parsed.ends, parsed.ends.dtype.type(start), side="right"))
    hi = int(np.searchsorted(parsed.starts, parsed.starts.dtype.type(end)))
    idx = np.arange(lo, max(lo, hi))
    known = {int(i) for i in idx if numbers_known is not None and numbers_known[i]}
    relative = numbers_data()["relative"] if known else ()  # 'a year earlier', 'four years later'
    words = [parsed.lower[i] for i in idx if not parsed.is_punct[i] and not parsed.is_stop[i]
             and int(i) not in known and parsed.lower[i] not in relative]
    if (words or known) and all(w in evidence_vocab for w in words):
        return None
    return idx
