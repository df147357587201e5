"""Where a meaning error sits and what keeps the meaning (features/semantic: comparatives.py,
irrealis.py, the asides of align.py, polarity's cancelling cues, modality's floating quantifiers):
for each mechanism an error the rule flags and a paraphrase it leaves alone. All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals

from evidencechain.features.semantic.align import asides, sentence_views
from evidencechain.features.semantic.comparatives import exchanged
from evidencechain.features.semantic.irrealis import governed, realised
from evidencechain.features.semantic.lexicon import lexicon
from evidencechain.text.parse import parse_texts

# (evidence, wrong answer, a word the rule must flag in it, its class)
ERRORS = [
    # 'no longer' / 'still': the answer's word asserting that the state goes on is flagged
    ("Since the storm in 2021 the Hollin cable car no longer carries passengers to the summit.",
     "The Hollin cable car still carries passengers to the summit, even after the storm in 2021.", "still", "polarity"),
    # the opposite of the evidence's 'less' in the answer
    ("The Dray canal carries less freight than the Tolmer canal, which links the two ports.",
     "The Dray canal carries more freight than the Tolmer canal, which links the two ports.", "more", "polarity"),
    # a negation in the main clause of a sentence whose apposition comes from another sentence
    ("Priya Holt is a painter from Wexby. She exhibited at the Corran gallery in 2019.",
     "Priya Holt, a painter from Wexby, did not exhibit at the Corran gallery in 2019.", "not", "polarity"),
    # ... and in a passive restating an active sentence, after a relative clause from another one
    ("The Pryor viaduct was finished in 1899. Railway surveyors examined the viaduct in 2012.",
     "The Pryor viaduct, which was finished in 1899, was never examined by railway surveyors.", "never", "polarity"),
    # a floating quantifier on the subject the evidence quantifies with 'some'
    ("Some of the shops on Quay Street have closed since the bypass opened.",
     "Since the bypass opened, the shops on Quay Street have all closed.", "all", "modality"),
    # an event ordered, considered or planned that the answer states done or certain
    ("An inspector ordered the Galt dairy to recall its cheese from the Lonsdale shops.",
     "The Galt dairy has recalled its cheese from the Lonsdale shops.", "recalled", "modality"),
    ("The Brayford theatre is considering cutting its matinee performances.",
     "The Brayford theatre will cut its matinee performances.", "will", "modality"),
    ("passage 1: The Kelda choir, founded in 1975, sings every Christmas.\n\n"
     "passage 2: The choir hopes to record an album this year. It has 40 singers.",
     "The Kelda choir, founded in 1975 and singing every Christmas, has recorded an album.", "recorded", "modality"),
    # a thing proposed or planned that a passive states done
    ("The Arlow trust has proposed a footbridge over the Minn river near the old mill.",
     "A footbridge over the Minn river near the old mill has been installed by the Arlow trust.", "installed", "modality"),
    ("The Vance college is planning a new library for its north campus.",
     "A new library for the north campus has been built by the Vance college.", "built", "modality"),
    # the same number with another unit, in a fronted participle clause
    ("The Tess river walk, which begins at Orley, runs 12 kilometres beside the water.",
     "Running 12 miles beside the water, the Tess river walk begins at Orley.", "miles", "quantity"),
    # a sentence fusing two, its main clause after a fronted phrase that restates the other one
    ("Some of the 30 boats in the Dunmore regatta finished before noon on Sunday. The organisers had "
     "shortened the course to 9 miles.", "With the organisers having cut the course to 9 miles, all 30 boats in "
     "the Dunmore regatta finished before noon on Sunday.", "all", "modality"),
    ("Each library in the Parwick district got new shelving this spring under a 2-million-pound plan. "
     "The city paid for the work.", "Under a city-funded 2-million-pound plan, only some libraries in the "
     "Parwick district received new shelving this spring.", "some", "modality"),
    # ... or before a closing phrase that restates the other one
    ("Few members of the Carrick rowing club voted for the new boathouse. The committee will make its decision in May.",
     "Most Carrick rowing club members voted for the new boathouse, ahead of the committee's May decision.",
     "Most", "modality"),
    ("The Oster lighthouse lamp is 2.1 metres tall. It was restored over two years in a yard at Tansey.",
     "After two years of restoration in a Tansey yard, the Oster lighthouse lamp stands 2.1 feet tall.", "feet", "quantity"),
]

# (evidence, faithful answer)
PARAPHRASES = [
    # converse comparisons: the arguments exchanged with the comparison turned round
    ("The Dray canal carries less freight than the Tolmer canal, which links the two ports.",
     "The Tolmer canal, which links the two ports, carries more freight than the Dray canal."),
    ("Fewer visitors came to the Holm museum than to the Ridd gallery last year.",
     "More visitors came to the Ridd gallery than to the Holm museum last year."),
    ("The Esk bridge opened two years earlier than the Carron tunnel.",
     "The Carron tunnel opened two years after the Esk bridge."),
    # a double negation
    ("The Selwyn drug lowered cholesterol in the study.", "In the study the Selwyn drug did not fail to lower cholesterol."),
    ("Hail is common on the Brent moors in April.", "Hail is not uncommon on the Brent moors in April."),
    # 'stopped' restated as 'no longer'
    ("The Carrow quarry stopped cutting slate in 1979.", "Since 1979 the Carrow quarry has no longer cut slate."),
    # a list that the floating quantifier names
    ("Nia Bell, Tom Ash and Ida Roe have all left the Fenn board.", "Nia Bell, Tom Ash and Ida Roe have each left the Fenn board."),
    ("All of the Dunn sisters studied medicine.", "The Dunn sisters all studied medicine."),
    # a hedge or plan kept: a modal, the plan's own 'will', a passive of the order
    ("Rowan Foods is considering selling its bakery division.", "Rowan Foods may sell its bakery division."),
    ("The Harker cricket club plans to build a new pavilion.", "The Harker cricket club will build a new pavilion."),
    ("A court ordered Denby Mills to pay its former staff.", "Denby Mills was ordered by a court to pay its former staff."),
    ("The Arlow trust has proposed a footbridge over the river.", "A footbridge over the river has been proposed by the Arlow trust."),
    ("Mayor Lin Ode kept her promise to open a night shelter in Tarby.", "Mayor Lin Ode opened a night shelter in Tarby."),
    # a unit written another way
    ("The Tess river walk, which begins at Orley, runs 12 kilometres beside the water.",
     "Running 12 km beside the water, the Tess river walk begins at Orley."),
    # a fronted phrase and a main clause that restate two sentences faithfully
    ("Some of the 30 boats in the Dunmore regatta finished before noon on Sunday. The organisers had "
     "shortened the course to 9 miles.", "With the organisers having cut the course to 9 miles, some of the 30 "
     "boats in the Dunmore regatta crossed the line before noon on Sunday."),
    ("Each library in the Parwick district got new shelving this spring under a 2-million-pound plan. "
     "The city paid for the work.", "Under a city-funded 2-million-pound plan, every library in the "
     "Parwick district received new shelving this spring."),
    ("Few members of the Carrick rowing club voted for the new boathouse. The committee will make its decision in May.",
     "Few Carrick rowing club members voted for the new boathouse, ahead of the committee's May decision."),
]


@pytest.mark.parametrize("evidence, answer, word, cls", ERRORS)
def test_the_error_is_flagged_on_its_word(evidence, answer, word, cls):
    found = confident_signals(evidence, answer)
    assert any(c == cls and word in words.split() for c, words, _ in found), found


@pytest.mark.parametrize("evidence, answer", PARAPHRASES)
def test_the_paraphrase_is_not_flagged(evidence, answer):
    assert confident_signals(evidence, answer) == []


def _views(*texts):
    return [sentence_views(d)[0] for d in parse_texts(list(texts), progress=False)]


def test_exchanged_counts_a_comparison_read_the_other_way_round():
    lex = lexicon()
    e, turned, same = _views("The Avon hall seats fewer people than the Corby hall.",
                             "The Corby hall seats more people than the Avon hall.",
                             "The Avon hall seats more people than the Corby hall.")
    assert exchanged(turned, e, lex) == 1
    assert exchanged(same, e, lex) == 0


def test_governed_finds_the_event_a_head_takes_and_realised_its_asserted_forms():
    lex = lexicon()
    e, a = _views("The board asked the Pell school to delay its exams, and it is weighing closing early.",
                  "The school has delayed its exams, will close early, hopes to move and is to open.")
    assert [(e.word(g), e.word(k)) for g, k in governed(e, lex)] == [("asked", "delay"), ("weighing", "closing")]
    forms = {a.word(k): realised(a, k, lex) for k in range(len(a))}
    assert [a.word(i) for i in forms["delayed"]] == ["has", "delayed"]
    assert [a.word(i) for i in forms["close"]] == ["will", "close"]
    assert forms["move"] is None and forms["open"] is None
    assert realised(a, a.find(frozenset({"close"}))[0], lex, certain=False) is None


def test_asides_are_the_clauses_set_off_by_commas():
    (v,) = _views("Finished in 1899, the Pryor viaduct, which crosses the Lune, carries two tracks, a local said.")
    got = [" ".join(v.word(k) for k in range(lo, hi)) for lo, hi in asides(v, lexicon().relative)]
    assert got == ["finished in 1899 ,", "which crosses the lune ,"]
    (w,) = _views("Under a new plan, the Pryor viaduct carries two tracks.")
    assert asides(w, lexicon().relative) == []
    assert [" ".join(w.word(k) for k in range(lo, hi)) for lo, hi in asides(w, lexicon().relative, lexicon().fronted)] \
        == ["under a new plan ,"]
    (y,) = _views("The Pryor viaduct carries two tracks, a plan the board will revisit.")
    lex = lexicon()
    assert [" ".join(y.word(k) for k in range(lo, hi)) for lo, hi in asides(y, lex.relative, lex.fronted, lex.trailing)] \
        == ["a plan the board will revisit"]
    (x,) = _views("Without a new plan, the Pryor viaduct carries two tracks.")
    assert asides(x, lexicon().relative, lexicon().fronted) == []  # a negating opener is no aside


def test_a_frame_without_its_fronted_phrase_is_shown_by_the_rule_only():
    from semantic_support import semantic_table

    from evidencechain.features.semantic import EvidenceSide, sentence_signals
    from evidencechain.features.semantic.align import sentence_view

    evidence, answer = next(x[:2] for x in ERRORS if x[1].startswith("With the organisers"))  # fronted
    doc, sentences, tokens = semantic_table(evidence, answer)
    (ev,) = parse_texts([evidence], progress=False)
    plain = sentence_signals(sentence_view(doc, 0, len(doc.text)), EvidenceSide(ev))
    assert not any(s.confident for s in plain)  # the whole sentence mixes two: no confident signal
    assert sentences.loc[0, "sem_modality"] == sum(s.cls == "modality" for s in plain)  # the counts do not move
    shown = [doc.token_text(int(t)) for t in tokens.loc[tokens.semantic_confident == 1, "token_index"]]
    assert shown == ["all"] and set(tokens.loc[tokens.semantic_confident == 1, "semantic_class"]) == {"modality"}
