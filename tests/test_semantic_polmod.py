"""Mechanisms of issue 26 for polarity and modality: conditions and that-clauses are unreal
(irrealis.governed), a clause hedge caps its clause (modality.hits), a denying verb of saying
negates its clause, a clause-final 'do' stands for the gerund verb, and a negation with an opposite
in the same clause agrees (polarity). All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals

from evidencechain.features.semantic.align import sentence_views
from evidencechain.features.semantic.irrealis import governed
from evidencechain.features.semantic.lexicon import lexicon
from evidencechain.features.semantic.modality import hits
from evidencechain.text.parse import parse_texts


def _view(text: str):
    return sentence_views(parse_texts([text], progress=False)[0])[0]


def _governed_words(text: str) -> set[str]:
    v = _view(text)
    return {v.word(k) for _, k in governed(v, lexicon())}


def test_conditions_and_that_clauses_are_governed():
    assert {"fails", "inspection"} <= _governed_words("If the spillway fails its inspection, the lake will be drained.")
    assert "approves" in _governed_words("Provided that the council approves it, the pier will reopen.")
    assert "close" in _governed_words("A panel recommended that the hospital close its ward.")
    assert "rejected" not in _governed_words("The proposal that was rejected cost too much.")
    assert "drained" not in _governed_words("If the spillway fails its inspection, the lake will be drained.")


def test_a_clause_hedge_caps_its_clause():
    lex = lexicon()
    e = lex.modality["epistemic"]
    v = _view("It is possible that the bypass will open in May.")
    assert [h.level for h in hits(v, "epistemic", lex)] == [e["possible"], e["may"]]
    v = _view("The bypass will open in May.")
    assert [h.level for h in hits(v, "epistemic", lex)] == [e["will"]]


@pytest.mark.parametrize("evidence,answer,flagged", [
    ("If heavy rain floods the lower pitch, the cup final will move to Tenbury.",
     "Heavy rain flooded the lower pitch, so the cup final will move to Tenbury.", "flooded"),
    ("Inspectors demanded that the Farrow dairy recall its cheese.",
     "As inspectors had demanded, the Farrow dairy has recalled its cheese.", "recalled"),
    ("The Harwick port board has proposed a new ferry terminal with space for four ships on the northern quay.",
     "A new ferry terminal with space for four ships on the northern quay has been built by the Harwick port board.",
     "built"),
    ("At the hearing, the mayor of Tolcaster admitted that the council had lost the planning files.",
     "At the hearing, the mayor of Tolcaster denied that the council had lost the planning files.", "denied"),
    ("The Varley observatory continues to open its telescope to visitors on Fridays.",
     "Opening its telescope to visitors on Fridays is something the Varley observatory no longer does.", "no"),
    ("About a third of the Holm estate's cottages have been renovated.",
     "Every one of the Holm estate's cottages has been renovated.", "Every"),
])
def test_the_error_is_flagged(evidence, answer, flagged):
    assert any(flagged in words.split() for _, words, _ in confident_signals(evidence, answer))


@pytest.mark.parametrize("evidence,answer", [
    ("Doctors said the jockey may be able to ride again by the autumn.",
     "According to doctors, it is possible that the jockey will be able to ride again by the autumn."),
    ("The Brindle pool is shut on Mondays but opens early on Fridays.",
     "On Mondays the Brindle pool is not open, though it opens early on Fridays."),
    ("Should the spillway fail its inspection, the lake will be drained.",
     "If the spillway fails its inspection, the lake will be drained."),
    ("An independent panel recommended that the Brackley clinic close its night ward.",
     "The Brackley clinic should close its night ward, an independent panel recommended."),
    ("Frost is common in the Mell valley in May.", "Frost is not uncommon in the Mell valley in May."),
])
def test_the_paraphrase_is_not_flagged(evidence, answer):
    assert not confident_signals(evidence, answer)


def test_a_modality_shift_is_named_with_the_certainty_markers_before_it():
    """The hedge the answer drops is stated by 'are certain to', not by the verb alone; markers
    are shown by rule only, never a fitted model's feature (semantic_conflict)."""
    from evidencechain.features.semantic.table import markers_before
    from evidencechain.text.parse import parse_texts

    doc, = parse_texts(["The survey warned that the cliffs are certain to collapse within a decade."], progress=False)
    first = doc.lower.index("collapse")
    assert [doc.lower[t] for t in markers_before(doc, first, 0)] == ["to", "certain", "are"]
    assert markers_before(doc, first, int(doc.starts[first - 1])) == [first - 1], "never before the sentence"
    the, = parse_texts(["He read the report."], progress=False)
    assert markers_before(the, the.lower.index("report"), 0) == [], "an article alone is no marker"
