"""Values bound to their holders across the evidence's sentences and passages (features.semantic.holders):
each error flagged with confidence, naming the evidence words, and a faithful answer of the same shape
left alone. The evidence sentences are HaluEval documents' (Daily Mail / CNN articles), cut or split into
passages; the last frames are invented."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals

from evidencechain.features.semantic.align import evidence_views
from evidencechain.features.semantic.holders import evidence_held
from evidencechain.features.semantic.lexicon import lexicon
from evidencechain.text.parse import parse_texts

GAVER = ("passage 1: Enoch Gaver, 21, was killed in the fight in the town of Cottonwood.\n\n"
         "passage 2: Suspect David Gaver, 28, was shot in the stomach and taken into custody.")
OFFICERS = ("The officers are Brian Rice, 41, who joined the department in 1997; Officer Caesar Goodson, 45, "
            "who joined in 1999; and Officer Edward Nero, 29, who joined in 2012.")
ARRESTED = ("Conrad Clitheroes, 54, and Gary Cooper, 45, were on a five-day visit to the UAE from Manchester "
            "when they were arrested.")
KIEV = "In Kiev, a room service club sandwich costs just £3.07, while a dry cleaned shirt in Tunis is just £1.70."
FIGHT = ("Enoch Gaver, 21, was killed in the fight in the town of Cottonwood, and suspect David Gaver, 28, was "
         "shot in the stomach and taken into custody.")

FRAMES = [  # (evidence, error, flagged words, evidence words, a faithful answer)
    # one man's age given to the other man of the sentence
    (ARRESTED, "Gary Cooper, 54, was on a five-day visit to the UAE from Manchester when he was arrested.",
     "Gary Cooper 54", "Gary Cooper , 45",
     "Gary Cooper, 45, was on a five-day visit to the UAE from Manchester when he was arrested."),
    # an age from the other passage: the answer restates passage 2, so the number is what is wrong
    (GAVER, "David Gaver, 21, was shot in the stomach and taken into custody.", "21", "28",
     "David Gaver, 28, was shot in the stomach and taken into custody, while Enoch Gaver, 21, was killed."),
    # a year of a relative clause ('who joined in 1997') bound to the name before it
    (OFFICERS, "Officer Caesar Goodson joined the department in 1997.", "Caesar Goodson 1997",
     "Caesar Goodson , 45 , who joined in 1999",
     "Officer Caesar Goodson joined the department in 1999, two years after Brian Rice."),
    # two prices of one sentence: held by the heads of its two clauses
    (KIEV, "In Kiev, a dry cleaned shirt costs just £3.07.", "3.07", "1.70",
     "A dry cleaned shirt in Tunis costs just £1.70, while a room service club sandwich in Kiev costs £3.07."),
    # what one man's clause says, said of the other man
    (FIGHT, "David Gaver was killed in the fight in the town of Cottonwood.", "killed in the fight in the town",
     "Enoch Gaver , 21 , was killed in the fight in the town",
     "Enoch Gaver was killed in the fight in the town of Cottonwood."),
    # a year of one man's clause given to the man who does the other clause
    ("Officials said that Ralph Goodwin drowned in 1973 and Michael Finney succumbed to throat cancer in 2005.",
     "Michael Finney succumbed to throat cancer in 1973.", "1973", "2005",
     "Michael Finney succumbed to throat cancer in 2005, while Ralph Goodwin drowned in 1973."),
    # invented: a date joined to the other venue; a person's age given to the person of the other passage
    ("The Ambrogio Quartet will perform in Ostmark on 3 May and in Hallinge on 10 May, ending its spring tour.",
     "The Ambrogio Quartet will end its spring tour with a concert in Ostmark on 10 May.", "Ostmark 10",
     "Ostmark on 3", "The Ambrogio Quartet will end its spring tour with a concert in Hallinge on 10 May."),
    ("passage 1: Marta Vesely, 54, chairs the board of the Kolin Savings Bank.\n\npassage 2: Its chief "
     "executive, Piet Aalders, joined the bank in 2009 from an insurer in Rotterland.",
     "The chief executive of the Kolin Savings Bank, Piet Aalders, is 54 and joined the bank in 2009.", "54",
     "Marta Vesely , 54", "The chair of the Kolin Savings Bank, Marta Vesely, is 54."),
]


@pytest.mark.parametrize("evidence, error, words, named, faithful", FRAMES, ids=[f[2] for f in FRAMES])
def test_a_value_given_to_another_holder_is_flagged_and_the_faithful_answer_is_not(evidence, error, words, named,
                                                                                  faithful):
    found = confident_signals(evidence, error)
    assert ("recombination", words, named) in found, found
    assert not confident_signals(evidence, faithful)


def test_holders_are_bound_locally_through_subjects_relatives_and_anaphors():
    evidence = ("passage 1: The Corve folk festival began in 1978 in the village of Thornby Cross.\n\n"
                "passage 2: In 1993 it moved to the larger town of Wendlow, and 500 people came in 1994.")
    doc, = parse_texts([evidence, ], progress=False)
    found = {h.value.key: h for h in evidence_held(evidence_views(doc), lexicon())}
    assert {n for h in found["1978 year"].local for n in h.words} == {"thornby", "cross"}
    assert {n for h in found["1978 year"].subject for n in h.words} == {"corve"}
    assert {n for h in found["1993 year"].subject for n in h.words} == {"corve"}  # 'it': the festival
    assert found["500"].subject == found["1993 year"].subject  # a clause without its own subject
    officers, = parse_texts([OFFICERS], progress=False)
    years = {h.value.key: h for h in evidence_held(evidence_views(officers), lexicon())}
    assert years["1999 year"].local_words == {"caesar", "goodson"}
