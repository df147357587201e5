"""The conflict rule's checks for precision on faithful real answers and recall on the weak classes
(features.semantic: clause recombination, bounds, partitives, settings, place-value slips, a
name's distinctive token, relative clauses, negated words with other arguments, the restatement
test in the clause that holds the evidence's words): each with an error it flags and a faithful
answer of the same shape it leaves alone. All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals

from evidencechain.features.semantic.align import sentence_views
from evidencechain.features.semantic.lexicon import lexicon
from evidencechain.features.semantic.recombination import clauses, values
from evidencechain.text.parse import parse_texts

_confident = confident_signals


@pytest.mark.parametrize("evidence, answer, cls, words", [
    # a negation cue read once: 'failed to' against 'managed to' is one flip, not also an antonym
    ("The startup Brel managed to raise enough money to build its first factory.",
     "The startup Brel failed to raise enough money to build its first factory.", "polarity", "failed"),
    ("The north tower of the Vell abbey is older than the south tower.",
     "The north tower of the Vell abbey is newer than the south tower.", "antonym", "newer"),
    ("Rainfall in the Tosk basin dropped during the second week of May.",
     "Rainfall in the Tosk basin increased during the second week of May.", "antonym", "increased"),
    ("Rust is the only cause of the Kell bridge closure.", "Rust is not the only cause of the Kell bridge closure.",
     "polarity", "not"),
    # values recombined across clauses: a place, a person, a number of another event
    ("Maren Holt was born in Bergen and later moved to Tromso, where she died in 1990.",
     "Maren Holt was born in Tromso.", "recombination", "Tromso"),
    ("Oskar Lind founded the Vega Theatre, and his sister Greta Lind ran the Nova Cinema.",
     "Greta Lind founded the Vega Theatre.", "recombination", "Greta"),
    ("The first round of the Talby census counted 700 farms; the second round counted 1,300 farms.",
     "The first round of the Talby census counted 1,300 farms.", "recombination", "1,300"),
    # a year of one passage put into the other passage's event (the alignment margin does not hold it back)
    ("passage 1: Sales of the Corvo phone rose in 2020 in Europe.\n\npassage 2: Sales of the Corvo phone fell "
     "in 2021 in Asia.", "Sales of the Corvo phone fell in 2020 in Asia.", "recombination", "2020"),
    # the same digits a power of ten apart
    ("The Ferris museum owns 42,000 coins and a few old maps.", "The Ferris museum owns 4,200 coins.",
     "quantity", "4,200"),
    # a swap of two names sharing a word ('River'), and a swap in a sentence with a relative clause
    ("The Esk Brook is a tributary of the Mardle Brook.", "The Mardle Brook is a tributary of the Esk Brook.",
     "roles", "Mardle"),
    ("In 2010, the Harrow Trust bought the old forge from the Dunmore family, who had owned it since 1850.",
     "The Dunmore family bought the old forge from the Harrow Trust.", "roles", "Dunmore"),
])
def test_the_error_is_confident(evidence, answer, cls, words):
    found = _confident(evidence, answer)
    assert any(c == cls and words in w for c, w, _ in found), found


@pytest.mark.parametrize("evidence, answer", [
    ("Sales of the Orla phone rose in May.", "Sales of the Orla phone did not fall in May."),
    ("The north tower of Vell is older than the south tower.", "The south tower is newer than the north tower."),
    ("One of the known causes of the Kell bridge closure is rust.",
     "Rust is not the only cause of the Kell bridge closure."),
    # two clauses that the answer joins, each value in its own
    ("Maren Holt was born in Bergen and later moved to Tromso, where she died in 1990.",
     "Maren Holt, born in Bergen, died in Tromso in 1990."),
    ("Oskar Lind founded the Vega Theatre in 1975, and he ran it until 1990.",
     "Oskar Lind ran the Vega Theatre until 1990."),
    # a bound, not a value; a part and its whole; a name kept by its words
    ("Dark Harbour 2 is a 2001 thriller directed by Ana Roe. It is the sequel to the 1998 film Dark Harbour.",
     "Dark Harbour 2 was made after 1998."),
    ("Over 40,000 people left after three of the plant's five turbines failed in the storm, which hit "
     "the coast three years ago.", "Three turbines failed in the storm, and 40,000 people left."),
    ("The final will be held at Marsh Lane Stadium, the home of the Kelby Rovers, on May 2. "
     "The Kelby Rovers' Marsh Lane Stadium hosted the cup final in 2011.",
     "The final will take place at the Kelby Rovers' Marsh Lane Stadium."),
    # a value the source states all over is its setting
    ("Protests across Norland turned violent. Marchers clashed with police in Elm Square in Varsby on "
     "Sunday. Leaders in Norland called for calm. Shops in Norland stayed shut.",
     "Marchers clashed with police at rallies across Norland."),
    # other digits, or the same digits of another unit
    ("The Ferris museum owns 42,000 coins and 4,200 maps.", "The Ferris museum owns 4,200 maps."),
    # a relative clause between the names; a negated word with other arguments; another clause's subject
    ("Police said she tried to pass a line of cars that had formed by swerving into the outer lane.",
     "She tried to pass line of cars by swerving into the outer lane."),
    ("The record came out in 2004 for Harlow Music and was produced by Dean Marsh.",
     "The record came out in 2004, but was not produced by Harlow Music."),
    ("Mina appears as Bolt's friend in two films, but is named only in one, where she is voiced by Ada Rusk.",
     "Bolt was not voiced by Ada Rusk."),
    # one name written two ways
    ("Carlo Di Marzio was angry after the defeat. Marzio's club chairman, Carlo De Marzio, spoke to the press.",
     "Carlo Di Marzio was angry after the defeat."),
])
def test_the_faithful_answer_is_not_confident(evidence, answer):
    assert not _confident(evidence, answer)


def test_clauses_split_events_but_not_joined_names():
    lex = lexicon()
    doc, = parse_texts(["Anya Petrov and Sergei Petrov founded the Lumen Theatre, and Sergei ran the Astra "
                        "Cinema while Anya taught."], progress=False)
    v = sentence_views(doc)[0]
    pieces = [" ".join(v.word(k) for k in range(lo, hi)) for lo, hi in clauses(v, values(v, lex), lex)]
    assert pieces[0].startswith("anya petrov and sergei petrov founded") and len(pieces) == 3, pieces
    sure = clauses(v, values(v, lex), lex, sure=True)
    assert len(sure) == 3  # the comma before 'and' makes it sure; 'while' always starts a clause


def test_firing_counts_answers_with_a_confident_signal(tmp_path):
    import gzip
    import json

    from evidencechain.errors import InputError
    from evidencechain.features.semantic.firing import measure
    from evidencechain.text.parse import ParseCache

    rows = [{"premise": "The council approved the new library in 2019.", "hypothesis": h, "label": "entailment"}
            for h in ("The council rejected the new library in 2019.", "The council approved the library.")]
    rows.append({"premise": "x", "hypothesis": "y", "label": "neutral"})
    with gzip.open(tmp_path / "pairs.jsonl.gz", "wt", encoding="utf-8") as f:
        f.write("".join(json.dumps(r) + "\n" for r in rows))
    spec = {"format": "jsonl", "files": "pairs.jsonl.gz", "evidence": "premise", "answer": "hypothesis",
            "where": {"label": "entailment"}, "limit": 0, "answers": "faithful"}
    rates, firings = measure("pairs", spec, tmp_path, ParseCache(tmp_path / "parse.sqlite"))
    assert rates == [{"corpus": "pairs", "answers": "faithful", "n": 2, "any_signal": 1, "confident": 1,
                      "confident_rate": 0.5}]
    assert [(f["class"], f["words"], f["evidence_words"]) for f in firings] == [("antonym", "rejected", "approved")]
    with pytest.raises(InputError, match=r"\[firing.pairs\]: no answers found"):  # absent data is said, not a 0-row rate
        measure("pairs", {**spec, "files": "absent*.jsonl.gz"}, tmp_path, ParseCache(None))
