"""Amounts the evidence implies count as present (features.implied): a span between two stated years,
a year plus a stated span, a difference of two amounts of one kind, durations said without a number;
an amount the evidence does not imply stays absent, and an entity made of an implied amount is
present. All facts are invented."""
from __future__ import annotations

import numpy as np
import pytest

from evidencechain.features.entities import absent_entity_tokens, entity_spans
from evidencechain.features.implied import duration_phrases, implied_numbers
from evidencechain.features.numeric import absent_number_mask, evidence_numbers
from evidencechain.features.units import base_key
from evidencechain.text.parse import parse_texts


def _flags(evidence: str, answer: str) -> tuple[list[str], list[str]]:
    """(answer words that state a number absent from the evidence, words of absent entities)."""
    ev, doc = parse_texts([evidence, answer], progress=False)
    has, absent = absent_number_mask(doc.text, doc.starts, doc.ends, doc.lower, evidence_numbers(ev.text, ev.lower))
    vocab = set(ev.lower) | set(ev.lemma)
    entities = []
    for a, b, _ in entity_spans(doc):
        idx = absent_entity_tokens(doc, a, b, ev.text.lower(), vocab, has & ~absent)
        entities += [] if idx is None else [doc.token_text(i) for i in idx]
    return [doc.token_text(i) for i in np.flatnonzero(absent)], entities


@pytest.mark.parametrize("evidence, same, other, flagged", [
    ("The Marsh Road bridge was completed in 1962. The nearby Tollgate viaduct followed in 1971.",
     "The viaduct came nine years after the bridge.", "The viaduct came eight years after the bridge.",
     ["eight"]),
    ("The observatory opened in 1931. Its telescope was installed four years later.",
     "The telescope was installed in 1935.", "The telescope was installed in 1936.", ["1936"]),
    ("Revenue was 84 million marks in 2023, up from 70 million marks in 2022.",
     "Revenue rose by 14 million marks.", "Revenue rose by 16 million marks.", ["16", "million"]),
    ("Digging the tunnel took 18 months.", "Digging the tunnel took a year and a half.",
     "Digging the tunnel took two and a half years.", ["two"]),
    ("Consultations last 30 minutes and patients wait 14 days.",
     "Consultations last half an hour and patients wait a fortnight.",
     "Consultations last half an hour and patients wait three weeks.", ["three"]),
    ("The tunnel is 3 km long.", "It is a 3,000-metre tunnel.", "It is a 2,000-metre tunnel.", ["2,000"]),
    ("Five years ago 2 in 10 households in Tarn recycled food waste.",
     "Five years ago 20 percent of Tarn households recycled food waste.",
     "Five years ago 30 percent of Tarn households recycled food waste.", ["30"]),
    ("One out of four members of the Orley choir sings tenor.", "Of the Orley choir, 25% sings tenor.",
     "Of the Orley choir, 40% sings tenor.", ["40"]),
])
def test_an_implied_amount_is_present_and_another_is_absent(evidence, same, other, flagged):
    assert _flags(evidence, same) == ([], [])
    assert _flags(evidence, other)[0] == flagged


def test_a_unit_swap_keeps_the_unit_word_absent():
    """'5 miles' for '5 km': the number is stated, the amount is not; 'miles' stays unsupported."""
    ev, doc = parse_texts(["The trail is 5 km long.", "The trail is 5 miles long."], progress=False)
    has, absent = absent_number_mask(doc.text, doc.starts, doc.ends, doc.lower, evidence_numbers(ev.text, ev.lower))
    assert not has[doc.lower.index("miles")]


def test_a_relative_year_needs_no_second_year_and_a_weekly_rate_states_no_week():
    assert _flags("Flat prices in Rosslyn fell by 4 percent in 2024.",
                  "Flats were 4 percent cheaper in 2024 than a year earlier.")[0] == []
    assert duration_phrases("the shop opens twice a week".split()) == []
    assert duration_phrases("a year and a half , half an hour , a fortnight , a year earlier".split()) == [
        (0, 5, 1.5, "year"), (6, 9, 0.5, "hour"), (10, 12, 1.0, "fortnight"), (13, 15, 1.0, "year")]


def test_many_years_imply_no_spans():
    """A long record with many years implies nothing by chance (`implied_limit`)."""
    few = "in 1901 and 1905".split()
    many = " ".join(f"in {1900 + 3 * k}" for k in range(12)).split()

    def amounts(words):
        return [(i, i + 1, frozenset({w}), float(w)) for i, w in enumerate(words) if w.isdigit()]

    assert base_key(4, "year") in implied_numbers(few, amounts(few))
    assert not any(k.startswith("[time]") for k in implied_numbers(many, amounts(many)))
