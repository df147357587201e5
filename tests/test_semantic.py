"""The semantic error classes (features.semantic), their suite, the 'planted' corpus and the
output that names a class and its evidence words."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from evidencechain.data.planted.corpus import generate_planted_corpus, load_passages
from evidencechain.features import FeatureConfig, FeatureExtractor
from evidencechain.features.semantic import EvidenceSide, text_signals
from evidencechain.features.semantic.suite import read_suite, score_cases, summary
from evidencechain.records import Corpus, Response, Source
from evidencechain.text.parse import parse_texts
from evidencechain.wordlevel import token_evidence

SUITE = Path(__file__).parent / "data" / "semantic_suite.jsonl"

ERRORS = [  # (evidence, answer, class, a flagged word, the evidence words named)
    ("The drug reduced blood pressure in adults.", "The drug did not reduce blood pressure in adults.",
     "polarity", "not", "reduced"),
    ("Officials said the plan was likely to pass.", "Officials said the plan was unlikely to pass.",
     "polarity", "unlikely", "likely"),
    ("Sales rose sharply in the third quarter.", "Sales fell sharply in the third quarter.", "antonym", "fell", "rose"),
    ("The village lies north of the river.", "The village lies south of the river.", "antonym", "south", "north"),
    ("Barcelona defeated Madrid in the final.", "Madrid defeated Barcelona in the final.", "roles", "Madrid",
     "Barcelona defeated Madrid"),
    ("The trail is 5 km long.", "The trail is 5 miles long.", "quantity", "miles", "km"),
    ("The firm earned 2.4 million dollars.", "The firm earned 2.4 billion dollars.", "quantity", "billion",
     "2.4 million"),
    ("About 30 percent of residents voted.", "About 30 people of residents voted.", "quantity", "people", "percent"),
    ("The bridge opened in 1998. The tunnel opened in 2004.", "The bridge opened in 2004.", "recombination",
     "2004", "1998"),
    ("Revenue grew 5% in 2019 and 7% in 2020.", "Revenue grew 7% in 2019 and 5% in 2020.", "recombination", "7", "5"),
    ("Some residents oppose the plan.", "All residents oppose the plan.", "modality", "All", "Some"),
    ("The drug may reduce pain.", "The drug reduces pain.", "modality", "reduces", "may reduce"),
    ("The council proposed a new bridge.", "The council completed a new bridge.", "modality", "completed", "proposed"),
]
PARAPHRASES = [
    ("Such side effects are common in older patients.", "Such side effects are not uncommon in older patients."),
    ("Sales rose sharply in the third quarter.", "Sales did not fall in the third quarter."),
    ("Barcelona defeated Madrid in the final.", "Madrid was defeated by Barcelona in the final."),
    ("The road is 5 km long and cost 1,200 dollars.", "The road is five kilometres long and cost 1200 dollars."),
    ("About 30% of residents voted.", "About 30 percent of residents voted."),
    ("The drug may reduce pain.", "The drug might reduce pain."),
    ("In 2019, the company opened two stores.", "The company opened 2 stores in 2019."),
    ("The drug reduced blood pressure in adults.", "The drug lowered blood pressure in adults."),
]


def _signals(evidence: str, answer: str):
    ev, doc = parse_texts([evidence, answer], progress=False)
    return doc, [s for ss in text_signals(doc, EvidenceSide(ev)) for s in ss]


@pytest.mark.parametrize("evidence,answer,cls,word,named", ERRORS, ids=[e[2] + "-" + e[3] for e in ERRORS])
def test_each_class_flags_the_wrong_words_and_names_the_evidence(evidence, answer, cls, word, named):
    doc, signals = _signals(evidence, answer)
    assert [s.cls for s in signals] == [cls] * len(signals) and signals
    flagged = {doc.token_text(t) for s in signals for t in s.tokens}
    assert word in flagged
    assert signals[0].evidence == named


@pytest.mark.parametrize("evidence,answer", PARAPHRASES)
def test_meaning_preserving_paraphrases_raise_nothing(evidence, answer):
    assert _signals(evidence, answer)[1] == []


def test_the_suite_meets_the_per_class_targets():
    table = summary(score_cases(read_suite(SUITE))).set_index("class")
    assert set(table.index) == {"polarity", "antonym", "roles", "quantity", "recombination", "modality"}
    assert (table["errors"] >= 30).all() and (table["paraphrases"] >= 30).all()
    assert (table["recall"] >= 0.80).all(), table
    assert (table["false_alarm_rate"] <= 0.10).all(), table


def test_the_suite_is_built_from_val_and_dev_text_only():
    cases = read_suite(SUITE)
    assert {c["origin"].split(":")[0] for c in cases} <= {"cliff-val", "wice-dev"}
    for c in cases:
        for a, b in c["spans"]:
            assert 0 <= a < b <= len(c["answer"])
        assert bool(c["spans"]) == (c["kind"] == "error")


def test_planted_corpus_is_deterministic_and_labels_the_planted_words():
    a, b = generate_planted_corpus(17, limit=24), generate_planted_corpus(17, limit=24)
    assert [r.to_json() for r in a.responses] == [r.to_json() for r in b.responses]
    assert sum(r.hallucinated for r in a.responses) >= 24
    assert any(not r.hallucinated for r in a.responses)
    for r in a.responses:
        for lab in r.labels:
            assert r.response[lab.start:lab.end] == lab.text and lab.label_type == "Evident Conflict"
    suite = {c["evidence"] for c in read_suite(SUITE)}
    passages = {s for _, sents in load_passages() for s in sents}
    assert not any(s in text for s in passages for text in suite)


def test_antonym_lexicon_keeps_the_wordnet_notice():
    from importlib import resources

    text = resources.files("evidencechain.features.semantic").joinpath("data", "antonyms.tsv").read_text("utf-8")
    assert "WordNet 3.0 Copyright 2006 by Princeton University" in text
    assert "decrease\tincrease\tv" in text


def test_project_opposites_say_where_they_come_from_and_hold_word_pairs():
    from importlib import resources

    text = resources.files("evidencechain.features.semantic").joinpath("data", "opposites.tsv").read_text("utf-8")
    assert "Written for this project" in text.split("word\t", 1)[0]
    rows = [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]
    assert rows[0] == ["word", "opposite"] and all(len(r) == 2 and all(w.strip() == w and " " not in w for w in r)
                                                  for r in rows[1:])


def test_feature_table_gains_the_semantic_group_only_when_configured():
    source = Source("s1", "QA", "test", {"question": "What did the drug do?",
                                         "passages": ["The drug reduced blood pressure in adults."]}, "")
    answer = Response("r1", "s1", "m", 0.7, (), "test", "good", "The drug did not reduce blood pressure in adults.")
    corpus = Corpus("tiny", {"s1": source}, [answer])
    plain = FeatureExtractor(FeatureConfig()).fit(corpus, progress=False).transform(corpus, progress=False)
    assert "semantic_conflict" not in plain.sentences and "semantic_conflict" not in plain.tokens
    tables = FeatureExtractor(FeatureConfig(semantic=True)).fit(corpus, progress=False).transform(corpus, progress=False)
    assert tables.sentences["sem_polarity"].tolist() == [1]
    assert tables.sentences["semantic_conflict"].tolist() == [1]
    flagged = tables.tokens[tables.tokens["semantic_conflict"] == 1]
    assert flagged["text"].tolist() == ["not", "reduce"]
    assert set(flagged["semantic_class"]) == {"polarity"} and set(flagged["semantic_evidence"]) == {"reduced"}
    own = token_evidence(tables.tokens)
    assert own[flagged.index].min() == 1.0


def test_semantic_group_switches_the_family_on():
    from evidencechain.model import EvidenceChain

    model = EvidenceChain(("EvidenceChain_LR",), "EvidenceChain_LR", FeatureConfig(),
                          detector_params={"EvidenceChain_LR": {"groups": ("lexical", "semantic")}})
    assert model.features.semantic


def test_suite_cases_round_trip_as_json():
    line = SUITE.read_text("utf-8").splitlines()[0]
    assert set(json.loads(line)) == {"id", "class", "kind", "origin", "evidence", "answer", "spans",
                                     "evidence_words", "how"}


DETECT_CASES = [  # (id, context, answer, expected class or None for a paraphrase)
    ("pol", "In the trial, the new drug reduced blood pressure in adults over 60.",
     "In the trial, the new drug did not reduce blood pressure in adults over 60.", "polarity"),
    ("ant", "Exports from the region increased sharply in 2021.", "Exports from the region decreased sharply in 2021.",
     "antonym"),
    ("qty", "The new trail is 5 km long.", "The new trail is 5 miles long.", "quantity"),
    ("mod", "Some residents oppose the new highway.", "All residents oppose the new highway.", "modality"),
    ("fmt", "The school has 1,200 students and two libraries.", "The school has 1200 students and 2 libraries.", None),
    ("hedge", "The vaccine may reduce the risk of severe illness.", "The vaccine might reduce the risk of severe illness.",
     None),
]


@pytest.fixture(scope="module")
def planted_model(tmp_path_factory):
    """The default recipe fitted with 120 planted passages (the opt-in that teaches the classes)."""
    from evidencechain.detect import default

    out = tmp_path_factory.mktemp("planted-model")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(default, "RECIPE", {**default.RECIPE, "planted": 120})
        default.build_default_model(out)
    return out


@pytest.mark.slow
def test_detect_names_the_class_and_the_evidence_words(planted_model, tmp_path):
    from detect_support import run_cli

    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(json.dumps({"id": i, "context": c, "answer": a}) + "\n"
                               for i, c, a, _ in DETECT_CASES), encoding="utf-8")
    code, out, err = run_cli(["detect", str(answers), "-q", "--model", str(planted_model)])
    assert code == 0, err
    records = {r["id"]: r for r in map(json.loads, out.splitlines())}
    for i, _, _, cls in DETECT_CASES:
        r = records[i]
        if cls is None:
            assert r["verdict"] == "supported", r
            continue
        assert r["verdict"] == "hallucinated", r
        named = [s for s in r["spans"] if s["error_class"]]
        assert named and named[0]["error_class"] == cls and named[0]["type"] == "conflict"
        assert named[0]["evidence_words"]
    code, pretty, _ = run_cli(["detect", str(answers), "-q", "--model", str(planted_model),
                               "--format", "pretty", "--color", "never"])
    assert code == 0 and "conflict: polarity; evidence: reduced" in pretty


def test_data_planted_writes_a_ragtruth_corpus_that_checks(tmp_path):
    from detect_support import run_cli

    out = tmp_path / "planted"
    code, stdout, err = run_cli(["data", "planted", "--out", str(out)])
    assert code == 0, err
    assert {"response.jsonl", "source_info.jsonl"} <= {p.name for p in out.iterdir()}
    code, report, _ = run_cli(["data", "check", "--response-jsonl", str(out / "response.jsonl"),
                               "--source-info-jsonl", str(out / "source_info.jsonl")])
    assert code == 0 and "OK" in report
