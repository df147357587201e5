"""The conflict rule: confident semantic signals (features.semantic.confidence) and `detect`
flagging their words by rule when asked (level 'rule', class and evidence words)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from evidencechain.detect.invented_suite import read_cases, summary
from evidencechain.errors import InputError
from evidencechain.features.semantic import EvidenceSide, text_signals
from evidencechain.text.parse import parse_texts

SUITE = Path(__file__).parent / "data" / "invented_suite.jsonl"


def _signals(evidence: str, answer: str):
    ev, doc = parse_texts([evidence, answer], progress=False)
    return doc, [s for ss in text_signals(doc, EvidenceSide(ev)) for s in ss]


def test_invented_suite_errors_are_confident_and_paraphrases_are_not():
    cases = read_cases(SUITE)
    caught, alarms = {}, 0
    for case in cases:
        doc, signals = _signals(case["evidence"], case["answer"])
        confident = [s for s in signals if s.confident]
        if case["kind"] == "paraphrase":
            alarms += bool(confident)
            continue
        hit = any(any(a < doc.ends[t] and doc.starts[t] < b for a, b in case["spans"])
                  for s in confident for t in s.tokens)
        caught.setdefault(case["class"], []).append(hit)
    assert len(caught) == 7 and all(len(v) >= 6 for v in caught.values())
    assert sum(map(sum, caught.values())) >= 0.8 * sum(map(len, caught.values())), caught
    assert all(sum(v) >= len(v) / 2 for v in caught.values()), caught
    assert alarms <= 2


@pytest.mark.parametrize("evidence, answer", [
    ("The drug reduces pain.", "The drug may reduce pain."),                       # a hedge added: weaker
    ("The Rovers won the final against Dunmore.", "Dunmore lost the final to the Rovers."),  # converse
    ("The expedition reached the summit before the storm arrived.",
     "The storm arrived after the expedition reached the summit."),
    ("Tickets cost 45 euros, and parking cost 12 euros.", "Parking cost 12 euros, while tickets cost 45 euros."),
])
def test_meaning_kept_or_weakened_is_not_confident(evidence, answer):
    _, signals = _signals(evidence, answer)
    assert not [s for s in signals if s.confident], signals


def test_a_near_copy_with_a_flip_is_confident():
    doc, signals = _signals("The council approved the new library in 2019.",
                            "The council rejected the new library in 2019.")
    [s] = [s for s in signals if s.confident]
    assert (s.cls, doc.token_text(s.tokens[0]), s.evidence) == ("antonym", "rejected", "approved")


_HOURS = ("passage 1: Park Depot sells tools. The chain operates 693 stores.\n\npassage 2: Most Park Depot "
          "locations are open from 8:00 AM to 10:00 PM Monday through Saturday. Use the store locator to "
          "confirm hours before visiting.\n\npassage 3: Green Base Hardware stores generally open at 6:00 AM "
          "and close at 11:00 PM, Monday through Saturday.")


def test_an_answer_whose_place_picks_one_of_two_passages_is_judged_against_it():
    """'fell in Europe' where Europe rose and Asia fell: the place decides which passage the answer
    follows (a sentence fused from two evidence sentences), so the flip is confident."""
    evidence = ("passage 1: Sales of the Corvo phone rose in 2020 in Europe.\n\npassage 2: Sales of the Corvo "
                "phone fell in 2020 in Asia.")
    doc, signals = _signals(evidence, "Sales of the Corvo phone fell in 2020 in Europe.")
    assert [(s.cls, doc.token_text(s.tokens[0]), s.evidence) for s in signals if s.confident] == [("antonym", "fell", "rose")]
    doc, signals = _signals(evidence, "Sales of the Corvo phone fell in 2020 in Asia.")
    assert not [s for s in signals if s.confident]


@pytest.mark.parametrize("evidence, answer, guard", [
    # the answer's words stand in their slot elsewhere in the source ('usually live', 'for 22 to 26')
    ("passage 1: In captivity, emperor penguins may live up to 43 years.\n\npassage 2: In the wild, emperor "
     "penguins usually live between 16 and 19 years.", "In captivity, emperor penguins usually live up to 43 years.",
     "stated_elsewhere"),
])
def test_multi_passage_guard_removes_a_signal_the_source_supports(evidence, answer, guard, monkeypatch):
    from evidencechain.features.semantic.lexicon import lexicon

    assert not [s for s in _signals(evidence, answer)[1] if s.confident]
    monkeypatch.setitem(lexicon().confidence, guard, -1.0 if guard == "min_margin" else 0.0)
    assert [s for s in _signals(evidence, answer)[1] if s.confident]


@pytest.mark.parametrize("evidence, answer, value", [
    ("The Corbel Library opened in 1962. Its east wing was added in 1987.",
     "The Corbel Library opened in 1987.", "1987"),
    ("The Greyhaven folk festival started in 2004. Its founder, Maura Quinn, died in 2011.",
     "The Greyhaven folk festival started in 2011.", "2011"),
])
def test_multi_passage_guard_keeps_a_value_stated_elsewhere_in_another_slot(evidence, answer, value):
    doc, signals = _signals(evidence, answer)
    [s] = [s for s in signals if s.confident]
    assert (s.cls, doc.token_text(s.tokens[0])) == ("recombination", value)


def test_suite_file_errors_name_file_and_line(tmp_path):
    bad = tmp_path / "suite.jsonl"
    bad.write_text(json.dumps({"id": "x", "class": "polarity"}) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"suite.jsonl:1: not a suite case"):
        read_cases(bad)


def test_summary_counts_per_class():
    import pandas as pd
    scored = pd.DataFrame({"class": ["a", "a", "p"], "kind": ["error", "error", "paraphrase"],
                           "flagged": [True, True, False], "caught": [True, False, False]})
    assert summary(scored).to_dict("records") == [
        {"class": "a", "kind": "error", "cases": 2, "flagged": 2, "caught": 1},
        {"class": "p", "kind": "paraphrase", "cases": 1, "flagged": 0, "caught": 0}]


def test_summary_keeps_paraphrases_apart_when_they_name_an_error_class():
    import pandas as pd
    scored = pd.DataFrame({"class": ["a", "a", "a"], "kind": ["error", "paraphrase", "paraphrase"],
                           "flagged": [True, True, False], "caught": [True, False, False]})
    assert summary(scored).to_dict("records") == [
        {"class": "a", "kind": "error", "cases": 1, "flagged": 1, "caught": 1},
        {"class": "a", "kind": "paraphrase", "cases": 2, "flagged": 1, "caught": 0}]


@pytest.mark.slow
def test_detect_flags_a_confident_conflict_by_rule(tmp_path_factory, monkeypatch):
    from detect_support import default_cache

    from evidencechain import Detector
    root = default_cache(tmp_path_factory)
    monkeypatch.setenv("EVIDENCECHAIN_CACHE_DIR", str(root))
    record = {"context": ["In a 2019 trial, the drug Veltrazine reduced blood pressure in adults over sixty."],
              "answer": "Veltrazine did not reduce blood pressure in adults over sixty."}
    with Detector.default(cache_dir=root, quiet=True) as detector:  # on in the default model's card
        assert detector.conflicts and detector.info()["conflict_rule"]
        result = detector.predict(**record)
    with Detector.default(cache_dir=root, quiet=True, conflicts=False) as plain:
        assert not plain.conflicts
        off = plain.predict(**record)
    assert result.verdict == "hallucinated"
    rule = [s for s in result.spans if s.level == "rule"]
    assert rule and rule[0].error_class == "polarity" and rule[0].evidence_words == "reduced"
    assert rule[0].type == "conflict" and "flagged by rule" in result.note
    assert all(s.level != "rule" for s in off.spans)


@pytest.mark.slow
def test_detect_cli_conflict_rule_flag_names_class_and_evidence(tmp_path_factory, tmp_path, monkeypatch):
    from detect_support import default_cache, run_cli

    monkeypatch.setenv("EVIDENCECHAIN_CACHE_DIR", str(default_cache(tmp_path_factory)))
    data = tmp_path / "answers.jsonl"
    data.write_text(json.dumps({"id": "a", "context": "Sales at Corvane Foods increased by 12 percent in 2021.",
                                "answer": "Sales at Corvane Foods decreased by 12 percent in 2021."}) + "\n",
                    encoding="utf-8")
    code, out, err = run_cli(["detect", str(data), "-q", "--conflict-rule", "on"])
    assert code == 0, err
    [record] = [json.loads(line) for line in out.splitlines()]
    assert record["verdict"] == "hallucinated"
    assert [(s["text"], s["level"], s["error_class"], s["evidence_words"]) for s in record["spans"]
            if s["level"] == "rule"] == [("decreased", "rule", "antonym", "increased")]
    code, out, err = run_cli(["detect", str(data), "-q", "--conflict-rule", "on", "--format", "pretty",
                              "--color", "never"])
    assert code == 0 and "antonym; evidence: increased" in out, out + err
    code, out, err = run_cli(["detect", str(data), "-q"])  # on for the default model
    assert code == 0 and [s["level"] for s in json.loads(out)["spans"]].count("rule") == 1
    code, out, err = run_cli(["detect", str(data), "-q", "--conflict-rule", "off"])
    assert code == 0 and all(s["level"] != "rule" for s in json.loads(out)["spans"])


def test_evidence_sentences_never_cross_a_passage_break():
    from evidencechain.features.semantic.align import evidence_views, unbroken_spans

    text = ("passage 1: Prairie Bank opens at 8 am. Its fee is 40 pounds\n\npassage 2: Keystone Bank opens "
            "at 7 am.\n\nHave your card ready.\n \nPassage 3:Call us")
    assert [text[a:b] for a, b in unbroken_spans(text, [(0, len(text))])] == [
        "Prairie Bank opens at 8 am. Its fee is 40 pounds", "Keystone Bank opens at 7 am.", "Have your card ready.",
        "Call us"]
    [ev] = parse_texts([text], progress=False)
    shown = [text[v.start:v.end] for v in evidence_views(ev)]
    assert all("\n" not in s and "passage" not in s.lower() for s in shown), shown
    assert "Its fee is 40 pounds" in shown and "Keystone Bank opens at 7 am." in shown


@pytest.mark.parametrize("evidence", [
    "passage 1: The Varn clinic opened in 1990 and its fee is 40 pounds\n\npassage 2: The Varn clinic treats "
    "about 300 patients a week.",
    ["The Varn clinic opened in 1990 and its fee is 40 pounds", "The Varn clinic treats about 300 patients a week."],
])
def test_the_aligned_evidence_sentence_is_one_passage(evidence):
    from evidencechain.features.semantic.align import best_evidence, sentence_view

    text = evidence if isinstance(evidence, str) else "\n\n".join(evidence)
    ev, doc = parse_texts([text, "The Varn clinic treats about 300 patients a week."], progress=False)
    best, _ = best_evidence(sentence_view(doc, *doc.sentences[0]), EvidenceSide(ev).sentences)
    assert text[best.start:best.end] == "The Varn clinic treats about 300 patients a week."


@pytest.mark.parametrize("evidence, answer", [
    # the evidence sentence of one passage only (once aligned across the break, and only the guard kept it)
    ("passage 1: Bake banana bread at 350 degrees Fahrenheit for 55 to 65 minutes.\n\npassage 2: For best "
     "results, cook chicken breasts in a 400 degree oven for 22 to 26 minutes.",
     "Bake chicken breasts at 400 degrees Fahrenheit for 22 to 26 minutes."),
    (_HOURS, "Park Depot stores typically close at 10:00 PM from Monday to Saturday."),
    # a passive with its agent after other words ('founded in 1957 by') and a reduced passive
    ("Summit Capital was founded in 1957 by Paula Dawson in Tulsa.", "Paula Dawson founded Summit Capital in 1957."),
    ("A collision between a steam train and a bus was missed by barely a minute.",
     "Collision with steam train missed by barely a minute."),
    # a verb of saying after a comma: its complement is a clause, not a role
    ("At least 8 people were injured near Peoria, said Amina Wilson of the highway patrol.",
     "Amina Wilson of the highway patrol said 8 people were injured near Peoria."),
    # the negation stands further from the word on the other side ('won't let them entertain such talk')
    ("Ann Moss insists the players are not feeling the pressure, as their captain won't let them entertain "
     "such talk.", "Ann Moss insists the players are not talking about the pressure."),
    ("Ann Moss insists the players are not feeling the pressure, as their captain won’t let them entertain "
     "such talk.", "Ann Moss insists the players are not talking about the pressure."),
    ("She refused to give up the location of her husband.", "She refused to give up location of her husband."),
    # a hedge kept by an auxiliary or by a verb of saying; scale words bearing on different things
    ("In captivity, harbor seals may live up to 33 years.", "In captivity, harbor seals can live up to 33 years."),
    ("Mendez told police that Acevedo allegedly hit him with a bottle.", "Mendez said Acevedo hit him with a bottle."),
    ("This may seem premature, but Eden Hazard prepares to make his 100th appearance on Sunday.",
     "Eden Hazard will make his 100th appearance on Sunday."),
])
def test_kept_meaning_raises_no_confident_signal(evidence, answer):
    _, signals = _signals(evidence, answer)
    assert not [s for s in signals if s.confident], signals


@pytest.mark.parametrize("evidence, answer, cls, word", [
    ("As a child, Tomas Brandt was taught the cello by Ilse Varga.", "Tomas Brandt taught Ilse Varga the cello.",
     "roles", "Tomas"),
    ("Roldan says Castro was considerate.", "Castro says Roldan was considerate.", "roles", "Castro"),
    ("The drug may reduce pain in older patients.", "The drug reduces pain in older patients.", "modality",
     "reduces"),
    ("The council will consider the plan.", "The council may consider the plan.", "modality", "may"),
])
def test_the_narrowed_checks_still_flag_the_error(evidence, answer, cls, word):
    doc, signals = _signals(evidence, answer)
    assert any(s.cls == cls and word in [doc.token_text(t) for t in s.tokens] for s in signals), signals


@pytest.mark.slow
def test_card_scores_ragtruth_qa_with_the_conflict_rule_when_asked(tmp_path_factory, tmp_path):
    from detect_support import default_cache

    from evidencechain.detect.card import write_card

    data = tmp_path / "qa"
    data.mkdir()
    source = {"source_id": "s1", "task_type": "QA", "source": "MARCO", "prompt": "Answer the question.", "source_info": {
        "question": "Does Veltrazine lower blood pressure?",
        "passages": "passage 1: In a 2019 trial, the drug Veltrazine reduced blood pressure in adults over sixty."}}
    answers = ["Veltrazine did not reduce blood pressure in adults over sixty.",
               "Veltrazine reduced blood pressure in adults over sixty."]
    flip = {"start": 15, "end": 18, "text": "not", "meta": "", "label_type": "Evident Conflict"}
    (data / "source_info.jsonl").write_text(json.dumps(source) + "\n", encoding="utf-8")
    (data / "response.jsonl").write_text("".join(
        json.dumps({"id": f"r{k}", "source_id": "s1", "model": "m", "temperature": 0.7, "labels": labels,
                    "split": "test", "quality": "good", "response": text}) + "\n"
        for k, (text, labels) in enumerate(zip(answers, ([flip], [])))), encoding="utf-8")
    scored = {}
    for on in (False, True):
        write_card(tmp_path / f"card-{on}", data, cache_dir=default_cache(tmp_path_factory), conflicts=on)
        scored[on] = json.loads((tmp_path / f"card-{on}" / "ragtruth_qa.json").read_text(encoding="utf-8"))
    assert [scored[on]["conflict_rule"] for on in (False, True)] == [False, True]
    assert scored[True]["answers"] == 2 and scored[True]["answer_recall"] == 1.0  # the flip, by rule
    assert scored[False]["answer_recall"] == 0.0
    assert scored[False]["other_rule"]["conflict_rule"] is True  # each card also scores the rule the other way
    assert scored[False]["other_rule"]["answer_recall"] == 1.0 and scored[True]["other_rule"]["answer_recall"] == 0.0
