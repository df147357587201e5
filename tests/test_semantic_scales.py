"""General checks of the conflict rule's classes: quantifier and status scales as data, negation by
ending verbs, clauses of an answer that mix two evidence sentences, and the paraphrase shapes that
must stay quiet (a fronted converse, 'X after Y' for 'Y earlier than X', a relative clause with its
own date, a status still to come). All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals

from evidencechain.features.semantic.align import sentence_views
from evidencechain.features.semantic.lexicon import lexicon
from evidencechain.features.semantic.recombination import clauses, values
from evidencechain.text.parse import parse_texts

_confident = confident_signals


@pytest.mark.parametrize("evidence, answer, cls, words", [
    ("Frost closed part of the Selby canal towpath in January.",
     "Frost closed the whole Selby canal towpath in January.", "modality", "whole"),
    ("Few of the villagers in Dorrin own a car.", "Many of the villagers in Dorrin own a car.", "modality", "Many"),
    ("The Tilby council has applied for a 5-million-pound rail grant.",
     "The Tilby council has received a 5-million-pound rail grant.", "modality", "received"),
    ("The Marl harbour board has proposed widening the north quay.",
     "The Marl harbour board has widened the north quay.", "modality", "widened"),
    # two evidence sentences mixed in one answer sentence, the negation kept by its neighbours
    ("The Orrin-3 probe was launched in May 2023.\n\nA week after launch, engineers succeeded in unfolding "
     "the probe's main antenna.",
     "A week after launch, engineers failed to unfold the Orrin-3 probe's main antenna.", "polarity", "failed"),
    # a clause that follows another evidence sentence than its whole sentence
    ("The Kessel ferry resumed service on 2 March after repairs to its engine.\n\nOver Easter the ferry "
     "carried passengers to Holm every day.",
     "The Kessel ferry resumed service on 2 March, but it did not carry passengers to Holm over Easter.",
     "polarity", "not"),
    ("A final decision on the Tolley bypass is expected in June.",
     "No final decision on the Tolley bypass is expected in June.", "polarity", "No"),
    ("The Tolley bypass will open after the inquiry closes in June.",
     "The Tolley bypass will not open after the inquiry closes in June.", "polarity", "not"),
    ("Mount Orla is taller than Mount Bexby.", "Mount Orla is not as tall as Mount Bexby.", "polarity", "not"),
    ("The Kelso line carries more passengers than the Marl line.",
     "The Kelso line does not carry as many passengers as the Marl line.", "polarity", "not"),
    ("Only a few of the Tarn cottages have gardens.", "Most of the Tarn cottages have gardens.", "modality", "Most"),
    ("Only a few of the Tarn cottages have gardens.", "Only a few of the Tarn cottages have no garden.",
     "polarity", "no"),
    ("Some of the Tarn cottages have gardens.", "Some of the Tarn cottages lack gardens.", "polarity", "lack"),
    ("The Dunmere ferry will no longer run on Sundays after the end of October, the operator said.",
     "The operator said the Dunmere ferry will run on Sundays after the end of October.", "polarity", "run"),
    # the same opposites with the parties kept in place
    ("Brennock Dairies is the parent company of the cheese maker Tull & Sons.",
     "Brennock Dairies is a subsidiary of the cheese maker Tull & Sons.", "antonym", "subsidiary"),
    ("The village of Orlay lies 9 km north of the market town of Cassby.",
     "The village of Orlay lies 9 km south of the market town of Cassby.", "antonym", "south"),
])
def test_the_error_is_confident(evidence, answer, cls, words):
    found = _confident(evidence, answer)
    assert any(c == cls and words in w for c, w, _ in found), found


@pytest.mark.parametrize("evidence, answer", [
    ("The Dorran band toured Japan after it signed with Velo Records in 2011.",
     "Before touring Japan, the Dorran band signed with Velo Records in 2011."),
    ("The Alder bridge opened two years earlier than the Finch tunnel.",
     "The Finch tunnel opened two years after the Alder bridge."),
    ("Mara Quist joined Tolland Mills in 2004 and became its finance director in 2012.",
     "Mara Quist, who became finance director of Tolland Mills in 2012, had joined the firm in 2004."),
    ("The Brisk ferry stopped running to Holm in 2015.", "Since 2015 the Brisk ferry no longer runs to Holm."),
    ("The Kerr lighthouse is scheduled to open to visitors in 2027.",
     "The Kerr lighthouse will open to visitors in 2027."),
    ("A few of the Tarn cottages have gardens.", "Several of the Tarn cottages have gardens."),
    ("The Hale council has proposed a new car park by the station.",
     "A new car park by the station has been proposed by the Hale council."),
    # converses through an 'of' after opposites, the parties exchanged
    ("Brennock Dairies is the parent company of the cheese maker Tull & Sons.",
     "The cheese maker Tull & Sons is a subsidiary of Brennock Dairies."),
    ("The village of Orlay lies 9 km north of the market town of Cassby.",
     "The market town of Cassby lies 9 km south of the village of Orlay."),
    # a negated equality with the parties exchanged: 'not as tall as' is 'shorter than'
    ("Mount Orla is taller than Mount Bexby.", "Mount Bexby is not as tall as Mount Orla."),
    ("The Kelso line carries more passengers than the Marl line.",
     "The Marl line does not carry as many passengers as the Kelso line."),
    # a quantifier taken to its complement with the predicate negated
    ("Only a few of the Tarn cottages have gardens.", "Most of the Tarn cottages have no garden."),
    # a negated universal as an existential with the predicate negated
    ("Not all of the Tarn cottages have gardens.", "Some of the Tarn cottages lack gardens."),
    ("Not all of the 30 Hexley councillors supported the budget.",
     "Some of the 30 Hexley councillors did not back the budget."),
    # a negation that waits for an event ('until') against the event's plain 'after', either side
    ("A final decision on the Tolley bypass is expected after the inquiry closes in June.",
     "No final decision on the Tolley bypass is expected until the inquiry closes in June."),
    ("The Tolley bypass will not open until the inquiry closes in June.",
     "The Tolley bypass will open after the inquiry closes in June."),
])
def test_the_faithful_answer_is_not_confident(evidence, answer):
    assert not _confident(evidence, answer)


def test_a_relative_clause_after_a_comma_ends_at_its_comma():
    doc = parse_texts(["Mara Quist, who became director in 2012, had joined the firm in 2004."], progress=False)[0]
    v = sentence_views(doc)[0]
    lex = lexicon()
    parts = [" ".join(v.word(k) for k in range(lo, hi)) for lo, hi in clauses(v, values(v, lex), lex)]
    assert any("who became" in p and p.endswith("2012 ,") for p in parts), parts
    assert any(p.startswith("had joined") for p in parts), parts


def test_the_scales_are_data():
    lex = lexicon()
    quantifier, status = lex.modality["quantifier"], lex.modality["status"]
    assert quantifier["few"] < quantifier["some"] < quantifier["many"] < quantifier["all"] == quantifier["only"]
    assert status["applied"] < status["received"] and status["alleged"] < status["convicted"]
    assert "stopped" in lex.ending_negation


@pytest.mark.parametrize("answer, delayed", [
    ("Only once the inquiry closes will the Tolley bypass open.", True),
    ("The Tolley bypass will open to cyclists only", False),  # 'only' is the last word: nothing after it
])
def test_the_delay_reads_the_word_after_only(answer, delayed):
    from evidencechain.features.semantic.polarity import _delayed

    e, a = (sentence_views(d)[0] for d in parse_texts(
        ["The Tolley bypass will not open until the inquiry closes.", answer], progress=False))
    j = next(k for k in range(len(e)) if e.word(k) == "open")
    assert _delayed(e, j, a, lexicon()) is delayed
