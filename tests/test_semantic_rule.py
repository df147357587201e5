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


# Cues, opposites and relations of the polarity, antonym and roles classes (cues.toml [polarity],
# [roles], data/opposites.tsv): (evidence, an error of the frame, its class, a flagged word, a
# meaning-preserving variant that stays unflagged).
FRAMES = [
    ("The Pell council approved the new parking rules in June.",
     "The Pell council was unable to approve the new parking rules in June.", "polarity", "unable",
     "The new parking rules were approved by the Pell council in June."),
    ("Ravi Coll signed the lease for the Dunmore shop.", "Ravi Coll declined to sign the lease for the Dunmore shop.",
     "polarity", "declined", "The lease for the Dunmore shop was signed by Ravi Coll."),
    ("Both the Arden and the Hollis libraries open on Sundays.",
     "Neither the Arden nor the Hollis library opens on Sundays.", "polarity", "Neither",
     "The Arden and Hollis libraries both open on Sundays."),
    ("Neither Mara Olin nor Teo Vance attended the Brisk summit.", "Mara Olin and Teo Vance attended the Brisk summit.",
     "polarity", "attended", "Mara Olin did not attend the Brisk summit, and neither did Teo Vance."),
    ("The Kessel ferry has a cafe on its upper deck.", "The Kessel ferry lacks a cafe on its upper deck.",
     "polarity", "lacks", "There is a cafe on the upper deck of the Kessel ferry."),
    ("Commuters in Tarrow use the night bus every weekend.", "Commuters in Tarrow hardly ever use the night bus.",
     "polarity", "hardly", "Every weekend, commuters in Tarrow use the night bus."),
    ("Commuters in Tarrow rarely use the night bus.", "Commuters in Tarrow often use the night bus.", "polarity",
     "use", "Commuters in Tarrow hardly ever use the night bus."),
    ("The goalkeeper Ivo Brandt is eligible for the cup final.", "The goalkeeper Ivo Brandt is ineligible for the cup final.",
     "polarity", "ineligible", "The goalkeeper Ivo Brandt can play in the cup final."),
    ("The Maple Street bakery still sells rye bread.", "The Maple Street bakery no longer sells rye bread.",
     "polarity", "no", "Rye bread is still sold by the Maple Street bakery."),
    ("Guests at the Orwell inn can park with a permit.", "Guests at the Orwell inn can park without a permit.",
     "polarity", "without", "With a permit, guests at the Orwell inn can park."),
    ("The Harlan mill managed to fill every order in March.", "The Harlan mill failed to fill every order in March.",
     "polarity", "failed", "In March, the Harlan mill filled every order."),
    ("Selma Roy was allowed to enter the Tovin archive.", "Selma Roy was barred from entering the Tovin archive.",
     "polarity", "barred", "Selma Roy was permitted to enter the Tovin archive."),
    ("The Brenn museum has yet to reopen its east wing.", "The Brenn museum reopened its east wing.", "polarity",
     "reopened", "The Brenn museum has not reopened its east wing yet."),
    ("The Arlo bus pass is more expensive than the rail pass.",
     "The Arlo bus pass is less expensive than the rail pass.", "polarity", "less",
     "The rail pass is cheaper than the Arlo bus pass."),
    ("The Arlo bus pass is cheaper than the rail pass.", "The Arlo bus pass is more expensive than the rail pass.",
     "antonym", "expensive", "The Arlo bus pass is less expensive than the rail pass."),
    ("Corvell exports copper wire to Chile.", "Corvell imports copper wire from Chile.", "antonym", "imports",
     "Copper wire is exported by Corvell to Chile."),
    ("The Arlo tower is taller than the Berwin tower.", "The Arlo tower is shorter than the Berwin tower.", "antonym",
     "shorter", "The Berwin tower is shorter than the Arlo tower."),
    ("Shares of Vantor plunged 9 percent on Monday.", "Shares of Vantor soared 9 percent on Monday.", "antonym",
     "soared", "Vantor shares fell 9 percent on Monday."),
    ("Halden Rovers finished three points ahead of Tilby Town.", "Halden Rovers finished three points behind Tilby Town.",
     "antonym", "behind", "Tilby Town finished three points behind Halden Rovers."),
    ("Dunmore Rovers finished top of the Kell league.", "Dunmore Rovers finished bottom of the Kell league.",
     "antonym", "bottom", "Dunmore Rovers won the Kell league table."),
    ("Lord Askew was an ally of the Duke of Pell.", "Lord Askew was a rival of the Duke of Pell.", "antonym", "rival",
     "Lord Askew was a friend and ally of the Duke of Pell."),
    ("The Corran dam lies downstream of Kettle Bridge.", "The Corran dam lies upstream of Kettle Bridge.", "antonym",
     "upstream", "Kettle Bridge lies upstream of the Corran dam."),
    ("Prices at the Tamsin market rose in April.", "Prices at the Tamsin market sank in April.", "antonym", "sank",
     "Prices at the Tamsin market did not fall in April."),
    ("Ola Brek joined the Tarn choir in 2010.", "Ola Brek left the Tarn choir in 2010.", "antonym", "left",
     "In 2010, Ola Brek became a member of the Tarn choir."),
    ("The weir stands a mile upstream of the Holt mill.", "A mile downstream of the Holt mill sits the weir.",
     "antonym", "downstream", "A mile upstream of the Holt mill sits the weir."),
    ("In 2021 the Berlo group acquired Nettle Foods.", "In 2021 Berlo was acquired by Nettle Foods.", "roles", "Berlo",
     "In 2021 Nettle Foods was bought by the Berlo group."),
    ("Ada Brent reports to Colin Fray at the Rusk bank.", "Colin Fray reports to Ada Brent at the Rusk bank.", "roles",
     "Colin", "At the Rusk bank, Colin Fray manages Ada Brent."),
    ("Tovey Athletic beat Marston City 2-0 in the final.", "Tovey Athletic lost to Marston City 2-0 in the final.",
     "roles", "Tovey", "Marston City lost to Tovey Athletic 2-0 in the final."),
    ("Tovey Athletic beat Marston City 2-0 in the final.", "Marston City defeated Tovey Athletic 2-0 in the final.",
     "roles", "Marston", "Marston City were defeated 2-0 by Tovey Athletic in the final."),
    ("The reporter Lina Moss interviewed the painter Otto Fenn in 2019.", "In 2019 Lina Moss was interviewed by Otto Fenn.",
     "roles", "Lina", "In 2019 the painter Otto Fenn was interviewed by Lina Moss."),
    ("The potter Ines Vale trained under Jorge Lind in Porto.", "In Porto, Jorge Lind trained under Ines Vale.", "roles",
     "Jorge", "In Porto, Jorge Lind taught the potter Ines Vale."),
    ("A group of tenants sued the Harrow housing trust over damp.",
     "The Harrow housing trust sued a group of tenants over damp.", "roles", "Harrow",
     "The Harrow housing trust was sued by a group of tenants over damp."),
    ("The Kell foundation employs Rosa Dane as its archivist.", "Rosa Dane employs the Kell foundation as its archivist.",
     "roles", "Rosa", "Rosa Dane works for the Kell foundation as its archivist."),
    ("Mira Holt gave the Selby museum a rare clock.", "The Selby museum gave Mira Holt a rare clock.", "roles",
     "Selby", "The Selby museum received a rare clock from Mira Holt."),
    ("Jonah Reyes sold the Seaview bakery to Ama Lind.", "Ama Lind sold the Seaview bakery to Jonah Reyes.", "roles",
     "Ama", "Ama Lind bought the Seaview bakery from Jonah Reyes."),
    # a name the parser tags in part ('Bexley' of 'Bexley Town'); a sale said from the other side
    ("Bexley Town were beaten 2-1 by Morton Athletic on Saturday.", "Bexley Town beat Morton Athletic 2-1 on Saturday.",
     "roles", "Bexley", "On Saturday, Bexley Town lost 2-1 to Morton Athletic."),
    ("In 2015 the Vesta group bought Arno Shoes.", "In 2015 Arno Shoes bought the Vesta group.", "roles", "Arno",
     "In 2015 Arno Shoes was sold to the Vesta group."),
    ("The Pell fund awarded Nora Tait a grant in 2020.", "Nora Tait awarded the Pell fund a grant in 2020.", "roles",
     "Nora", "Nora Tait received a grant from the Pell fund in 2020."),
]


@pytest.mark.parametrize("evidence, error, cls, word, variant", FRAMES, ids=[f"{f[2]}-{f[3]}" for f in FRAMES])
def test_each_cue_and_frame_flags_its_error_and_not_its_paraphrase(evidence, error, cls, word, variant):
    found = _confident(evidence, error)
    assert any(c == cls and word in w.split() for c, w, _ in found), found
    assert not _confident(evidence, variant)


@pytest.mark.parametrize("evidence, answer, classes", [
    ("Pia Lowe married Tom Ardent in 2004.", "Tom Ardent married Pia Lowe in 2004.", []),  # a symmetric relation
    ("Fewer than 200 people live in Osk.", "Less than 200 people live in Osk.", []),  # 'less than' is a bound
    ("Under 200 people live in Osk.", "Less than 200 people live in Osk.", []),
    ("Residents rarely use the Pell lane.", "Residents hardly ever use the Pell lane.", []),  # two cues, one meaning
    # 'unable' read once (a cue that flips 'hold', not also a prefix), and 'not unable' twice
    ("The Vell dam is able to hold the flood.", "The Vell dam is unable to hold the flood.", ["polarity"]),
    ("The Vell dam is able to hold the flood.", "The Vell dam is not unable to hold the flood.", []),
    # a participle after its noun is no cue before the next word ('their rights denied in this case')
    ("In this case, tenants had their rights denied.", "Tenants had their rights denied in this case.", []),
    # a dropped 'no' before a noun that the answer uses in another frame; a noun before 'by' is no passive;
    # a name before its title is no relation of two parties
    ("Ivo Marek (right) is wanted by a host of clubs but no transfer away from Tarnby has been agreed.",
     "Ivo Marek has been linked with a transfer away from Tarnby.", []),
    ("Keller was unable to stop goals by Rovers' Ada Marsh and Tom Vey.",
     "Jon Keller was unable to stop goals from Ada Marsh and Tom Vey.", []),
    ("Dale Orr, a young linebacker at Pell State, was arrested in March after a fight in a bar near the campus.",
     "Pell State linebacker Dale Orr, 19, was arrested last month after he allegedly started a fight.", []),
    # a noun takes a name before it or after 'of' ('Bath co-owners X' = 'X, co-owners of Bath')
    ("Bath co-owners Lady Ama Brook and Sir Ian Pell spoke to the Gazette's Ola Finn.",
     "Lady Ama Brook and Sir Ian Pell are co-owners of Bath.", []),
])
def test_symmetric_relations_bounds_and_cues_read_once(evidence, answer, classes):
    found = _confident(evidence, answer)
    assert [c for c, _, _ in found] == classes, found


def test_relations_and_opposites_are_read_from_data():
    lex = lexicon()
    assert lex.relations[("lost", "to")] == "lose_to" and "defeat" in lex.converses["lose_to"]
    assert "rival" in lex.antonyms["ally"] and "import" in lex.antonyms["export"]
    assert "married" in lex.symmetric and ("hardly", "ever") in lex.pair_cues
