"""Issue 26: what the eighteenth blind suite taught (each rule general, each with its hard negative).
A reworded answer's antonym or modality shift, and a flip with three quarters of the evidence sentence
restated; a frame's converse with one verb ('leased to' / 'leased from'); 'free of' as a negation; a
negative prefix that agrees with the other side's negation; a quantifier floated before its verb;
swapped values read by the holders their own clauses name; compass points against '-ward' forms.
All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals

from evidencechain.features.semantic.align import sentence_view
from evidencechain.features.semantic.lexicon import lexicon
from evidencechain.features.semantic.polarity import is_cue
from evidencechain.text.parse import parse_texts


def _flagged(evidence: str, answer: str, cls: str, word: str) -> bool:
    return any(c == cls and word in w.split() for c, w, _ in confident_signals(evidence, answer))


@pytest.mark.parametrize("evidence, answer, cls, word", [
    ("Ilse Marrow joined the Corven Trio three years before its first tour of Japan.",
     "Ilse Marrow became a member of the Corven Trio three years after the group's first tour of Japan.",
     "antonym", "after"),
    ("The Hadley Lane bridge will remain open to cyclists while the tunnel is being relined.",
     "While the tunnel is relined, cyclists will find the Hadley Lane bridge closed.", "antonym", "closed"),
    ("Officials said the pension files stolen in the Drewmoor council breach were encrypted.",
     "The pension records taken in the Drewmoor council breach were unencrypted, officials said.",
     "polarity", "unencrypted"),
    ("Orrin Press seldom publishes first novels, its director told the Wexley Herald.",
     "Speaking to the Wexley Herald, the director of Orrin Press said it always takes on first novels.",
     "modality", "always"),
    ("Some of the tenants who came to the Farrow Court meeting backed the rent freeze.",
     "Tenants at the Farrow Court meeting all backed the rent freeze.", "modality", "all"),
    ("The footpath leaves the car park and climbs north along the cliff to Renna Head.",
     "From the car park, the footpath follows the cliff southward until it reaches Renna Head.",
     "antonym", "southward"),
])
def test_a_reworded_shift_is_flagged(evidence, answer, cls, word):
    assert _flagged(evidence, answer, cls, word)


@pytest.mark.parametrize("evidence, answer", [
    ("Marlow Freight leased three tankers from the Ostby Marine Group last spring.",
     "Last spring the Ostby Marine Group leased three tankers to Marlow Freight."),
    ("All of the cattle tested at the Brennock farm were free of the virus.",
     "None of the cattle tested at the Brennock farm had the virus."),
    ("A new terminal at Cressing Port was approved in 2018 but has not yet been built.",
     "Cressing Port's new terminal, approved back in 2018, is still unbuilt."),
    ("The stolen painting was returned undamaged to the Hollin gallery.",
     "The Hollin gallery got the stolen painting back without any damage."),
    ("Tenants at the Farrow Court meeting backed the rent freeze.",
     "The tenants at the Farrow Court meeting backed the rent freeze."),
])
def test_a_paraphrase_is_left_alone(evidence, answer):
    assert confident_signals(evidence, answer) == []


def test_swapped_amounts_are_read_by_the_holders_their_own_clauses_name():
    evidence = "Site North, near the hamlet of Tarr, yielded 90 silver pennies.\n\n" \
               "Site South, on the Welland farm, yielded 25 pennies and a gold ring."
    wrong = "Diggers found 25 silver pennies at Site North near Tarr, while Site South on the Welland farm gave up " \
            "90 pennies along with a gold ring."
    right = "Diggers found 90 silver pennies at Site North near Tarr, while Site South on the Welland farm gave up " \
            "25 pennies along with a gold ring."
    assert {w for c, w, _ in confident_signals(evidence, wrong) if c == "recombination"} == {"25", "90"}
    assert confident_signals(evidence, right) == []


def test_a_frame_swap_with_one_verb_is_still_flagged():
    assert any(c == "roles" for c, _, _ in confident_signals(
        "Marlow Freight leased three tankers from the Ostby Marine Group last spring.",
        "Last spring the Ostby Marine Group leased three tankers from Marlow Freight."))


def test_a_pair_cue_before_an_amount_negates_nothing():
    evidence = "Site South, on the Welland farm, yielded 25 pennies and a gold ring."
    assert confident_signals(evidence, "Site South on the Welland farm gave up 25 pennies and a gold ring.") == []
    views = [sentence_view(doc, *doc.sentences[0]) for doc in parse_texts(
        ["The Welland farm gave up dairy farming in 1990.", "The Welland farm gave up 25 pennies."], progress=False)]
    assert [is_cue(v, 3, lexicon()) for v in views] == [True, False]  # 'gave' of 'gave up'


def test_a_free_compound_agrees_with_free_of():
    """'cavity-free' for 'free of cavities' (a faithful HaluEval summary's sentence, reworded)."""
    assert confident_signals("Mara plans to keep the molar and her mouth free of cavities in the future.",
                             "She plans to keep the molar and her mouth cavity-free.") == []


@pytest.mark.parametrize("evidence, answer, word", [
    ("Under the new rules, the Tarling Road car park will remain open overnight from 3 May, the council said.",
     "From 3 May the Tarling Road car park will be closed overnight under new council rules.", "closed"),
])
def test_a_state_after_a_copula_has_no_converse(evidence, answer, word):
    """'will be closed overnight' for 'will remain open overnight' relates no second party (a converse
    comparison, 'B is shorter than A' for 'A is taller than B', keeps its meaning and stays unflagged)."""
    assert _flagged(evidence, answer, "antonym", word)
    assert confident_signals("The Orrin tower is taller than the Bexley tower.",
                             "The Bexley tower is shorter than the Orrin tower.") == []
