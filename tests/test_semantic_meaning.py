"""Meaning errors that reuse the evidence's words, one case per kind a user makes in many words
(features/semantic, data/cues.toml, opposites.tsv, synonyms.tsv): verdict and contest opposites, a
negation dropped with a near-synonym verb, "neither ... nor" against "both", a passive swapped on both
sides, a count for a percentage, a rate's period, a deontic and an intention scale, pending approval
against done. Each error is flagged by the rule; each faithful variant (double negation, synonym,
converse, passive, equal amount) is not. Sentences adapted from HaluEval summarization documents."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals

from evidencechain.features.semantic.lexicon import lexicon, stem

ERRORS = [  # (evidence, wrong answer, a flagged word)
    ("The charity's income rose by 15 percent in 2022.", "The charity's income rose by 15 million in 2022.", "million"),
    ("The court upheld the ban on street parking.", "The court overturned the ban on street parking.", "overturned"),
    ("The firm did not hire new staff this year.", "The firm recruited new staff this year.", "recruited"),
    ("Visitors are allowed to bring their own food into the park.", "Visitors must bring their own food into the park.",
     "must"),
    ("Epstein's son, David Epstein, was acquitted on Tuesday of kidnapping charges.",
     "David Epstein, Epstein's son, was convicted on Tuesday of kidnapping charges.", 'convicted'),
    ('Senior Quinn Cook had 17 points for the Blue Devils, who trailed in the opening minutes.',
     'Senior Quinn Cook had 17 points for the Blue Devils, who led in the opening minutes.', 'led'),
    ('Swartzberg recommends that anyone who has consumed a listeria-laden food should let their physician know as soon as possible.',
     'Swartzberg requires that anyone who has consumed a listeria-laden food let their physician know as soon as possible.', 'requires'),
    ('They must join the vast majority of countries which have dropped the death penalty.',
     'They are encouraged to join the vast majority of countries which have dropped the death penalty.', 'encouraged'),
    ("Selena the One aims to go on tour in 2018, said a statement on Selena's Facebook page.",
     "Selena the One is certain to go on tour in 2018, said a statement on Selena's Facebook page.", 'certain'),
    ('The sale of the stadium still requires the approval of the city council.',
     'The city council has approved the sale of the stadium.', 'approved'),
    ('He was punished if he did not complete assignments at home.',
     'He was punished if he finished assignments at home.', 'finished'),
    ('Neither Mike Huckabee nor Rick Santorum went on to win the nomination.',
     'Both Mike Huckabee and Rick Santorum went on to win the nomination.', 'went'),
    ('Neither Mike Huckabee nor Rick Santorum will win the nomination.',
     'Both Mike Huckabee and Rick Santorum will win the nomination.', 'win'),
    ("Hattie's blog is sponsored by SecuriCare Medical, a supplier based in Leeds.",
     "SecuriCare Medical, a supplier based in Leeds, is sponsored by Hattie's blog.", 'Hattie'),
    ('The single sold 165,000 downloads, down 12 percent, in the week ending March 29.',
     'The single sold 165,000 downloads, down 12 downloads, in the week ending March 29.', 'downloads'),
    ('Charlotte went from having 300 seizures a week to just one or two a month.',
     'Charlotte went from having 300 seizures a month to just one or two a month.', 'month'),
]
FAITHFUL = [  # (evidence, faithful answer)
    ("The new law requires companies to publish their gender pay gaps every year.",
     "Under the new law, companies must publish their gender pay gaps every year."),
    ("Doctors advise patients to rest for two weeks after the operation.",
     "Patients are recommended to rest for two weeks after the operation."),
    ("The company will open 40 new stores next year, it said.", "The company plans to open 40 new stores next year."),
    ("The team hopes to win the league this season.", "The team wants to win the league this season."),
    ("The charity's income rose by 15 million in 2022.", "The charity's income rose by 15,000,000 in 2022."),
    ("The tumour was benign, doctors said.", "Doctors said the tumour was not malignant."),
    ("The firm did not hire new staff this year.", "The firm failed to recruit new staff this year."),
    ("Visitors are allowed to bring their own food into the park.",
     "Visitors are permitted to bring their own food into the park."),
    ("Halden Steel was bought by the Marr Group in 2019.", "In 2019 the Marr Group bought Halden Steel."),
    ("Epstein's son, David Epstein, was acquitted on Tuesday of kidnapping charges.",
     "David Epstein, Epstein's son, was cleared on Tuesday of kidnapping charges."),
    ("Epstein's son, David Epstein, was acquitted on Tuesday of kidnapping charges.",
     "David Epstein, Epstein's son, was not convicted on Tuesday of kidnapping charges."),
    ('Senior Quinn Cook had 17 points for the Blue Devils, who trailed in the opening minutes.',
     'Senior Quinn Cook had 17 points for the Blue Devils, who were behind in the opening minutes.'),
    ('Swartzberg recommends that anyone who has consumed a listeria-laden food should let their physician know as soon as possible.',
     'Swartzberg advises that anyone who has consumed a listeria-laden food should let their physician know as soon as possible.'),
    ('They must join the vast majority of countries which have dropped the death penalty.',
     'They have to join the vast majority of countries which have dropped the death penalty.'),
    ("Selena the One aims to go on tour in 2018, said a statement on Selena's Facebook page.",
     "Selena the One hopes to go on tour in 2018, said a statement on Selena's Facebook page."),
    ('The sale of the stadium still requires the approval of the city council.',
     "The sale of the stadium still needs the city council's approval."),
    ('He was punished if he did not complete assignments at home.',
     'He was punished if he failed to finish assignments at home.'),
    ('Neither Mike Huckabee nor Rick Santorum will win the nomination.',
     'Mike Huckabee will not win the nomination, and Rick Santorum will not win it either.'),
    ("Hattie's blog is sponsored by SecuriCare Medical, a supplier based in Leeds.",
     "SecuriCare Medical, a supplier based in Leeds, sponsors Hattie's blog."),
    ('The single sold 165,000 downloads, down 12 percent, in the week ending March 29.',
     'The single sold 165,000 downloads, down 12%, in the week ending March 29.'),
    ('Charlotte went from having 300 seizures a week to just one or two a month.',
     'Charlotte went from having 300 seizures weekly to just one or two a month.'),
]


@pytest.mark.parametrize("evidence, answer, word", ERRORS, ids=[f"{i}-{c[2]}" for i, c in enumerate(ERRORS)])
def test_the_error_is_flagged(evidence, answer, word):
    assert any(word in w for _, w, _ in confident_signals(evidence, answer))


@pytest.mark.parametrize("evidence, answer", FAITHFUL, ids=[str(i) for i in range(len(FAITHFUL))])
def test_the_faithful_variant_is_not(evidence, answer):
    assert confident_signals(evidence, answer) == []


def test_one_step_of_a_scale_of_several_steps_is_no_conflict():
    assert confident_signals("The club expects to open its new stadium in 2026.",
                             "The club will open its new stadium in 2026.") == []
    assert confident_signals("The club plans to open its new stadium in 2026.",
                             "The club will open its new stadium in 2026.") == []


def test_the_new_scales_and_word_lists_are_data():
    lex = lexicon()
    d, i = lex.modality["deontic"], lex.modality["intention"]
    assert d["allows"] < d["recommends"] < d["requires"] and d["should"] < d["must"]
    assert i["aims"] < i["plans"] < i["will"] and i["hopes"] < i["certain to"]
    assert {"intention", "epistemic", "status"} <= lex.strengthened_only and lex.min_steps["intention"] == 2
    assert stem("completed") in lex.synonyms[stem("finish")]
    assert stem("convicted") in lex.antonyms[stem("acquitted")] and stem("trailed") in lex.antonyms[stem("led")]
