"""Quantifier shifts on one named group (features/semantic/groups.py), shown by the rule only: an
answer that rewords or fuses its evidence around 'all', 'most', 'only some' of the same named group is
flagged on the quantifier; the same level in other words, another group, or the answer's level stated
for the group elsewhere is not. All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals, semantic_table

from evidencechain.features.semantic import EvidenceSide, sentence_signals
from evidencechain.features.semantic.align import sentence_view
from evidencechain.text.parse import parse_texts

ERRORS = [
    ("Some tenants of the Corbel Road flats complained about the new heating system. The landlord said it "
     "would inspect the boilers in the winter.", "The landlord plans to inspect the boilers of the new heating "
     "system in the winter, following complaints from all tenants of the Corbel Road flats.", "all"),
    ("Most of the Dunley Institute's 80 engineers signed a petition against the move to Hartpool. The board "
     "will consider the move next month.", "A handful of the 80 Dunley Institute engineers put their names to a "
     "petition against relocating to Hartpool, a move the board will consider next month.", "handful"),
    ("Few members of the Ostby allotment society voted for the fee rise. The society's committee will meet "
     "again in May.", "Most Ostby allotment society members backed raising the fee, ahead of the committee's May "
     "meeting.", "Most"),
    # a sentence fusing two that follows neither alone: its clauses are read
    ("Some owners of the Tarn Lane allotments objected to the new fence. The parish council will hold a public "
     "meeting on 4 June.", "All the Tarn Lane allotment holders opposed the proposed fence, and a public meeting "
     "has been set for 4 June by the parish.", "All"),
]

PARAPHRASES = [
    # the same level in other words
    ("Most of the Dunley Institute's 80 engineers signed a petition against the move to Hartpool. The board "
     "will consider the move next month.", "Most of the 80 Dunley Institute engineers put their names to a "
     "petition against relocating to Hartpool, a move the board will consider next month."),
    # the answer's level stated for the group in another sentence
    ("Some residents of Parley Green objected to the new bin collection. All residents of Parley Green "
     "received a letter about it.", "All residents of Parley Green were sent a letter."),
    # a rate read from the share it states (a real HaluEval summary, the evidence abridged)
    ("The car shape now accounts for a staggering two in every three cars sold in the UK.",
     "Accounting for two thirds of cars sold in the UK it dominates most markets."),
    # another group of the same place
    ("Some residents of Parley Green objected to the new bins. All shops in Parley Green stayed open late.",
     "All shops in Parley Green kept late hours, while a number of residents objected to the new bins."),
]


@pytest.mark.parametrize("evidence, answer, word", ERRORS)
def test_a_shift_on_the_same_named_group_is_flagged(evidence, answer, word):
    found = confident_signals(evidence, answer)
    assert any(c == "modality" and word in words.split() for c, words, _ in found), found


@pytest.mark.parametrize("evidence, answer", PARAPHRASES)
def test_the_same_level_or_another_group_is_not_flagged(evidence, answer):
    assert confident_signals(evidence, answer) == []


def test_a_group_shift_moves_no_count():
    evidence, answer, _ = ERRORS[0]
    doc, sentences, tokens = semantic_table(evidence, answer)
    (ev,) = parse_texts([evidence], progress=False)
    plain = sentence_signals(sentence_view(doc, 0, len(doc.text)), EvidenceSide(ev))
    assert [s.confident for s in plain if s.cls == "modality"] == [False]
    assert sentences.loc[0, "sem_modality"] == 1
    assert tokens.loc[tokens.semantic_confident == 1, "semantic_evidence"].tolist() == ["Some"]


def test_a_relative_clause_is_not_read_without_its_subject():
    # the clauses of a sentence fusing two are read alone, but 'which opens on 14 March' is the Kinmoor
    # depot's, not the Selby Road depot's that closes then (a recombined date, not an opposite verb)
    evidence = ("The Selby Road depot will close on 14 March. Its replacement, the Kinmoor depot, opens on 2 April. "
                "Bus routes 7 and 9 will move to the new site.")
    answer = "Routes 7 and 9 will move to the Kinmoor depot, which opens on 14 March."
    assert not any(c == "antonym" for c, _, _ in confident_signals(evidence, answer))
    # ... nor 'who can ask for $20 million per movie' read against 'per film' (a real HaluEval summary, abridged)
    evidence = ("Sandra Bullock tops a list of the highest-paid actors in Hollywood. In return, they can ask for "
                "$20 million per film. The recent survey said these six are Hollywood's next-in-line for huge pay packets.")
    answer = "New survey reveals there are six actors in Hollywood who can ask for $20 million per movie."
    assert confident_signals(evidence, answer) == []
