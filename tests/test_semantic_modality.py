"""The quantifier and modality scales of the conflict rule (features/semantic/modality.py, data/cues.toml
[modality]): for every cue an error the rule flags and a meaning-preserving variant it leaves alone.
All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals

from evidencechain.features.semantic.align import sentence_views
from evidencechain.features.semantic.lexicon import lexicon
from evidencechain.features.semantic.modality import hits
from evidencechain.text.parse import parse_texts

# (evidence, wrong answer, its flagged word, a faithful answer)
CUES = [
    ("A handful of the club's members voted against the merger.",
     "The majority of the club's members voted against the merger.", "majority",
     "A few of the club's members voted against the merger."),
    ("Several of the ferries were cancelled because of the storm.",
     "None of the ferries were cancelled because of the storm.", "None",
     "Some of the ferries were cancelled because of the storm."),
    ("One of the three lifts at Carrow station is out of service.",
     "Each of the three lifts at Carrow station is out of service.", "Each",
     "Only one of the three lifts at Carrow station is out of service."),
    ("The night bus sometimes skips the Elm Road stop.", "The night bus always skips the Elm Road stop.", "always",
     "The night bus occasionally skips the Elm Road stop."),
    ("Few of the students at Pell College live on campus.",
     "Most of the students at Pell College live on campus.", "Most",
     "Only a few of the students at Pell College live on campus."),
    ("Nearly half of the village's houses have solar panels.",
     "Almost all of the village's houses have solar panels.", "Almost all",
     "Almost half of the village's houses have solar panels."),
    ("A minority of the doctors at the Lorne clinic work part time.",
     "Most doctors at the Lorne clinic work part time.", "Most",
     "Less than half of the doctors at the Lorne clinic work part time."),
    ("Only some of the Brae trains have a buffet car.", "All of the Brae trains have a buffet car.", "All",
     "A number of the Brae trains have a buffet car."),
    ("Hikers rarely see bears in the Tolmie valley.", "Hikers often see bears in the Tolmie valley.", "often",
     "Hikers seldom see bears in the Tolmie valley."),
    ("The Dunn ferry usually leaves on time.", "The Dunn ferry always leaves on time.", "always",
     "The Dunn ferry generally leaves on time."),
    ("A third of the Kessock orchard's trees were lost in the frost.",
     "Most of the Kessock orchard's trees were lost in the frost.", "Most",
     "About one third of the Kessock orchard's trees were lost in the frost."),
    ("40 percent of the Harl voters backed the plan.", "Most of the Harl voters backed the plan.", "Most",
     "Four in ten of the Harl voters backed the plan."),
    ("Two of the six Orrin wells have run dry.", "All six Orrin wells have run dry.", "All",
     "A third of the six Orrin wells have run dry."),
    ("Every stall at the Rusk market sells local cheese.", "Few stalls at the Rusk market sell local cheese.", "Few",
     "Each stall at the Rusk market sells local cheese."),
    ("Ravel Motors is expected to open its battery plant near Hesketh in 2026.",
     "Ravel Motors has opened its battery plant near Hesketh.", "opened",
     "Ravel Motors is likely to open its battery plant near Hesketh in 2026."),
    ("The airline is in talks to buy six jets from Aerovia.", "The airline has agreed to buy six jets from Aerovia.",
     "agreed", "The airline is negotiating to buy six jets from Aerovia."),
    ("The airline is in talks to buy six jets from Aerovia.", "The airline bought six jets from Aerovia.", "bought",
     "The airline is negotiating to buy six jets from Aerovia."),
    ("The novelist Sabine Oduya was nominated for the Harwick Prize.",
     "The novelist Sabine Oduya won the Harwick Prize.", "won",
     "The novelist Sabine Oduya received a nomination for the Harwick Prize."),
    ("The council published a draft plan to close the Hollin library.",
     "The council approved a plan to close the Hollin library.", "approved",
     "The council released a draft of its plan to close the Hollin library."),
    ("The Aldwick club has planned a regatta on the Wenn river for next summer.",
     "The Aldwick club held a regatta on the Wenn river.", "held",
     "The Aldwick club intends to hold a regatta on the Wenn river next summer."),
    ("Police allege that the Tarrow shop manager stole 5,000 pounds.",
     "The Tarrow shop manager was convicted of stealing 5,000 pounds.", "convicted",
     "The Tarrow shop manager is alleged to have stolen 5,000 pounds."),
    ("The Corran board proposed a new dress code for its staff.",
     "The Corran board adopted a new dress code for its staff.", "adopted",
     "The Corran board put forward a proposal for a new dress code for its staff."),
    ("The new Velm drug could cut hospital stays by a day.", "The new Velm drug will cut hospital stays by a day.",
     "will", "The new Velm drug might cut hospital stays by a day."),
    ("The Ardley council is considering a ban on fireworks.", "The Ardley council decided to ban fireworks.",
     "decided", "A ban on fireworks is under consideration by the Ardley council."),
    ("Halden Steel announced plans to build a new mill in Orr.", "Halden Steel completed a new mill in Orr.",
     "completed", "Halden Steel said it plans to build a new mill in Orr."),
    ("The merger of the Tay and Lomond banks is pending approval by regulators.",
     "The merger of the Tay and Lomond banks has been completed.", "completed",
     "The merger of the Tay and Lomond banks still awaits approval by regulators."),
    ("The findings might explain the drop in bee numbers in Fenn county.",
     "The findings explain the drop in bee numbers in Fenn county.", "explain",
     "The findings may explain the drop in bee numbers in Fenn county."),
    ("The Pellow council is in talks with Aster Rail about a new station.",
     "The Pellow council has signed a deal with Aster Rail for a new station.", "signed",
     "The Pellow council is holding talks with Aster Rail about a new station."),
    # a suspicion, a report or a possibility stated as certain
    ("Inspectors suspect that a worn cable caused the lift failure at Danby station.",
     "Inspectors have confirmed that a worn cable caused the lift failure at Danby station.", "confirmed",
     "Inspectors believe that a worn cable caused the lift failure at Danby station."),
    ("A case of mumps is suspected at the Orrel Street nursery, the health board said.",
     "The health board has confirmed a case of mumps at the Orrel Street nursery.", "confirmed",
     "The health board said it suspects a case of mumps at the Orrel Street nursery."),
    ("Midfielder Ola Brenn has reportedly agreed a two-year deal with Harwick Town.",
     "Midfielder Ola Brenn has officially agreed a two-year deal with Harwick Town.", "officially",
     "Midfielder Ola Brenn is reported to have agreed a two-year deal with Harwick Town."),
    ("Engineers warned that the old sea wall at Tollan could fail within five years.",
     "Engineers warned that the old sea wall at Tollan is certain to fail within five years.", "certain",
     "Engineers warned that the old sea wall at Tollan might fail within five years."),
    ("The organisers said the band might play the Harrow festival next year.",
     "The organisers said the band is going to play the Harrow festival next year.", "going",
     "The organisers said the band may play the Harrow festival next year."),
    # an allegation or a plan stated as proved or done
    ("Auditors alleged that the Tolby festival's former director, Ines Maro, moved 8,000 euros into her own account.",
     "Auditors proved that the Tolby festival's former director, Ines Maro, moved 8,000 euros into her own account.",
     "proved",
     "The Tolby festival's former director, Ines Maro, is alleged by auditors to have moved 8,000 euros into her "
     "own account."),
    ("The Tolby festival's treasurer is alleged to have taken 3,000 euros from the ticket fund.",
     "The Tolby festival's treasurer has been found to have taken 3,000 euros from the ticket fund.", "found",
     "The Tolby festival's treasurer allegedly took 3,000 euros from the ticket fund."),
    ("The Wenlow Trust plans to rebuild the footbridge at Carrow Mill, subject to a grant.",
     "The rebuilding of the footbridge at Carrow Mill has been carried out by the Wenlow Trust.", "carried",
     "The Wenlow Trust intends to rebuild the footbridge at Carrow Mill if it gets a grant."),
    # a fronted partitive: the quantifier after it bears on its noun
    ("Most of the 140 moth species caught in the Pellow Wood traps were night fliers.",
     "Of the 140 moth species caught in the Pellow Wood traps, only a few were night fliers.", "few",
     "Of the 140 moth species caught in the Pellow Wood traps, most were night fliers."),
]


@pytest.mark.parametrize("evidence, wrong, word, faithful", CUES, ids=[c[2] + "-" + str(i) for i, c in enumerate(CUES)])
def test_the_shift_is_flagged_and_its_paraphrase_is_not(evidence, wrong, word, faithful):
    found = confident_signals(evidence, wrong)
    assert any(word in w for _, w, _ in found), found  # 'None': polarity's negation may name it first
    assert not confident_signals(evidence, faithful)


@pytest.mark.parametrize("evidence, answer, word", [
    # a sentence fusing two evidence sentences: the shifted words come from the second one
    ("passage 1: Kestrel Ferries sails to 12 islands from its base at Oban.\n\n"
     "passage 2: The company is in talks to buy two new boats from the Danish yard Holm.",
     "Kestrel Ferries, based at Oban, has agreed to buy two new boats from Holm.", "agreed"),
    ("passage 1: The Corrie rail audit reviewed 30 stations across the county.\n\n"
     "passage 2: Several of the stations visited had broken ticket machines.",
     "None of the stations visited in the Corrie rail audit had broken ticket machines.", "None"),
    # ... or whose clause follows a sentence too weakly aligned with the whole to be its best
    ("The Orrin solar park would add 80 megawatts to the grid.\n\nThe developers told the council that "
     "building might begin in 2028, provided the permit is granted.",
     "Building of the Orrin solar park, which would add 80 megawatts to the grid, will begin in 2028.", "will"),
    ("The Marl survey asked 900 farmers about their water supply.\n\n"
     "Few farmers said they use rainwater, while most said they use the mains.",
     "Most farmers in the Marl water survey said they use rainwater.", "Most"),
])
def test_a_shift_in_a_fused_sentence_is_flagged(evidence, answer, word):
    assert any(c == "modality" and word in w for c, w, _ in confident_signals(evidence, answer))


@pytest.mark.parametrize("evidence, answer", [
    # reordered clauses: each quantifier keeps its own clause
    ("Few farmers said they use rainwater, while most said they use the mains.",
     "Most farmers said they use the mains, while few said they use rainwater."),
    ("Most of the Orme hotel's rooms were damaged, but all of its guests were safe.",
     "All guests of the Orme hotel were safe, though most of its rooms were damaged."),
    # one member of a set, a share in other words, a month, an idiom, a floating quantifier
    ("Every one of the 12 Velm schools has a library.", "All 12 Velm schools have a library."),
    ("Three of the ten Kessock orchard trees died.", "Thirty percent of the Kessock orchard trees died."),
    ("The Tolby fair opens on May 4.", "The Tolby fair will open on May 4."),
    ("The two Harl teams played each other twice.", "The two Harl teams met twice."),
    ("Ardley, Brisk and Calder are all twinned with towns in France.",
     "Ardley, Brisk and Calder have all been twinned with French towns."),
    ("The Orrin solar park would add 80 megawatts to the grid.\n\nThe developers told the council that "
     "building might begin in 2028, provided the permit is granted.",
     "Building of the Orrin solar park, which would add 80 megawatts to the grid, might begin in 2028."),
    # a belief verb takes a step off: 'believes it will' is not 'could' made certain
    ("The Tarn mayor says he believes the new road could cut traffic in the town.",
     "The Tarn mayor believes the new road will cut traffic in the town."),
    # the evidence states the answer's status word itself
    ("Ana Ruiz was nominated to the Pell court by Governor Hale in 1990, fulfilling his pledge to appoint a woman.",
     "Ana Ruiz was appointed to the Pell court by Governor Hale in 1990."),
    # 'sets' is a noun here, and 'to win' what followed, not a plan ('is set to win')
    ("Carla Dunne beat Ivy Pell in straight sets to win the Fairhaven Open.",
     "Ivy Pell was beaten in straight sets by Carla Dunne, who won the Fairhaven Open."),
])
def test_the_faithful_answer_is_not_flagged(evidence, answer):
    assert not confident_signals(evidence, answer)


def _levels(text: str, scale: str) -> list[tuple[str, int]]:
    v = sentence_views(parse_texts([text], progress=False)[0])[0]
    return [(" ".join(v.word(k) for k in range(h.lo, h.hi)), h.level) for h in hits(v, scale, lexicon())]


def test_shares_stand_at_the_level_of_their_value():
    q = lexicon().modality["quantifier"]
    assert _levels("One of the four rooms and 75 percent of the halls and two thirds of the flats.", "quantifier") == \
        [("one of", q["some"]), ("75 percent of", q["most"]), ("two thirds", q["most"])]
    assert _levels("Six of the six wells and a quarter of the ponds ran dry.", "quantifier") == \
        [("six of", q["all"]), ("a quarter", q["some"])]


def test_phrases_modifiers_names_and_idioms():
    lex = lexicon()
    q, s = lex.modality["quantifier"], lex.modality["status"]
    assert _levels("Only some of them and a handful of others and the majority.", "quantifier") == \
        [("some", q["some"]), ("handful", q["some"]), ("majority", q["most"])]
    assert _levels("It is the most popular route and they help each other.", "quantifier") == []
    assert _levels("The airline is in talks to buy jets.", "status") == [("in talks", s["talks"])]
    assert _levels("Sales rose in May.", "epistemic") == []
    assert _levels("They did not always agree.", "frequency") == []


def test_the_scales_are_ordered_data():
    lex = lexicon()
    q, f, s = lex.modality["quantifier"], lex.modality["frequency"], lex.modality["status"]
    assert q["none"] < q["few"] < q["handful"] < q["majority"] < q["every"]
    assert f["rarely"] < f["sometimes"] < f["often"] < f["usually"] < f["always"]
    assert s["nominated"] < s["agreed"] < s["adopted"] and s["pending"] < s["completed"]
    assert [lv for _, lv in lex.share_levels] == sorted(lv for _, lv in lex.share_levels)


def test_set_to_governs_after_be():
    assert any(c == "modality" for c, _, _ in confident_signals("The Kelso bridge is now set to open in May.",
                                                              "The Kelso bridge has opened in May."))


@pytest.mark.parametrize("answer, flagged", [
    ("In winter the Tarn ferry to Holm is usually delayed by fog.", True),
    ("In winter the Tarn ferry to Holm is sometimes delayed by fog.", False),
])
def test_a_fronted_frequency_adverb_is_its_clauses(answer, flagged):
    """'Occasionally, X is delayed': the adverb before the comma is the next clause's."""
    found = confident_signals("Occasionally, the Tarn ferry to Holm is delayed by fog in winter.", answer)
    assert bool(found) == flagged, found
