"""Faster readings give the same values as the plain ones they replace (issue 22: speed must not
change results): number words and amounts found by visiting only the tokens that can start one,
the punctuation column by one pattern per token, dependency parses read from token arrays."""
from __future__ import annotations

import random
import sys

import pytest

from evidencechain.features import numeric
from evidencechain.features.numeric import (
    _SCALES,
    ORDINALS,
    WORD_NUMBERS,
    _amounts,
    _starts,
    _token_number,
    canonical,
    evidence_numbers,
    number_phrases,
    time_spans,
)
from evidencechain.features.units import numbers_data
from evidencechain.text.parse import _alnum, parse_texts

WORDS = ("half a dozen two hundred and fifty thirty - six million 2.5 5 k percent % of the 80 trees quarter past "
         "eight o'clock noon NOON Midnight 8 pm 20:00 first third doubled one 1,200 3rd at twelve in evening km "
         "metres ² x2 , . billion bn 7th").split()


def _plain_phrases(words):
    data, out, k = numbers_data(), [], 0
    while k < len(words):
        got = numeric._phrase(words, k, data) if words[k] in _starts() else None
        if got:
            out.append((k, got[0], got[1]))
            k = got[0]
        else:
            k += 1
    return out


def _plain_amounts(words):
    out, phrase_at, k = [], {a: (b, v) for a, b, v in _plain_phrases(words)}, 0
    while k < len(words):
        if k in phrase_at:
            end, value = phrase_at[k]
            out.append((k, end, frozenset({canonical(value)}), value))
            k = end
            continue
        digit, values = _token_number(words[k])
        if digit and len(values) == 1 and words[k] not in ORDINALS:
            value = float(next(iter(values)))
            if k + 1 < len(words) and words[k + 1] in _SCALES:
                out.append((k, k + 2, values | {canonical(value * _SCALES[words[k + 1]])}, value * _SCALES[words[k + 1]]))
                k += 2
                continue
            out.append((k, k + 1, values, value))
        k += 1
    return out


def _word_sequences(n=3000):
    rng = random.Random(17)
    return [[rng.choice(WORDS).lower() for _ in range(rng.randint(0, 25))] for _ in range(n)]


def test_amounts_and_phrases_equal_the_token_by_token_reading():
    for words in _word_sequences():
        assert number_phrases(words) == _plain_phrases(words), words
        assert _amounts(words) == _plain_amounts(words), words


def test_evidence_numbers_read_every_number_word_and_ordinal():
    words = "the third of two hundred trees , one of seven , 5 k".split()
    found = evidence_numbers(" ".join(words), tuple(words))
    assert {canonical(3), canonical(200), canonical(1), canonical(7), canonical(5e3)} <= found
    assert {canonical(WORD_NUMBERS["seven"]), canonical(ORDINALS["third"])} <= found


def test_time_words_in_any_case_are_times():
    assert time_spans("NOON, then Midnight; noonday is not") == [(0, 4, ("time:12:00",)), (11, 19, ("time:00:00",))]


def test_the_punctuation_pattern_is_isalnum():
    # `[^\W_]` is exactly the characters str.isalnum holds for, so a token without one is punctuation
    chars = [chr(i) for i in range(0, sys.maxunicode + 1, 7)] + ["_", "²", "Ⅻ", "٣", "ß", "—"]
    assert [_alnum(c) is not None for c in chars] == [c.isalnum() for c in chars]
    doc, = parse_texts(["A__ b — ² x_y ..."], pipeline="blank", progress=False)
    assert [doc.token_text(i) for i in range(len(doc)) if doc.is_punct[i]] == [
        doc.token_text(i) for i in range(len(doc)) if not any(c.isalnum() for c in doc.token_text(i))]


def test_dependency_parse_from_arrays_equals_the_token_attributes():
    from evidencechain.text.dependency import DependencyParse, load_dependency_pipeline

    nlp = load_dependency_pipeline()
    if nlp is None:
        pytest.skip("no spaCy model with a parser installed")
    texts = ["The council, which met on Monday, approved the plan.", "", "  Two  spaces\tand a tab.\n\nNew line"]
    for doc in nlp.pipe(texts):
        p = DependencyParse.from_doc(doc)
        assert (p.text, p.words, p.spaces, p.tags, p.pos, p.deps, p.heads) == (
            doc.text, tuple(t.text for t in doc), tuple(bool(t.whitespace_) for t in doc),
            tuple(t.tag_ for t in doc), tuple(t.pos_ for t in doc), tuple(t.dep_ for t in doc),
            tuple(t.head.i for t in doc))
        assert all(type(h) is int for h in p.heads) and all(type(s) is bool for s in p.spaces)
