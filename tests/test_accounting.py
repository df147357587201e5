"""Every answer is accounted for: empty answers keep a row with a verdict, `data check`
refuses exactly what scoring cannot use, and API arguments are checked with clear errors."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from evidencechain.data.check import check_files
from evidencechain.data.ragtruth import load_ragtruth, write_ragtruth
from evidencechain.data.validation import MAX_JSON_DEPTH, MAX_RESPONSE_CHARS, DataValidationError
from evidencechain.errors import ConfigError, InputError
from evidencechain.features import FeatureConfig, FeatureExtractor
from evidencechain.features.table import SENTENCE_COLUMNS, STATUS_EMPTY, STATUS_SCORED
from evidencechain.model import EvidenceChain
from evidencechain.records import Corpus, Source
from evidencechain.text import parse

RAGTRUTH_VALID = Path(__file__).parent / "fixtures" / "ragtruth" / "valid"
EMPTY_ROW = {"id": "e1", "source_id": "15501", "model": "gpt-4-0613", "temperature": 0.7,
             "labels": [], "split": "test", "quality": "good", "response": "  \n "}


def _fixture_corpus() -> Corpus:
    return load_ragtruth(RAGTRUTH_VALID / "response.jsonl", RAGTRUTH_VALID / "source_info.jsonl")


@pytest.fixture(scope="module")
def model() -> EvidenceChain:
    corpus = _fixture_corpus()
    return EvidenceChain(detectors=("Lexical", "EvidenceChain_LR"), primary="EvidenceChain_LR",
                         features=FeatureConfig(pipeline="blank")).fit(corpus, corpus, progress=False)


def _problems(resp, src) -> list:
    with pytest.raises(DataValidationError) as info:
        load_ragtruth(resp, src)
    report = check_files(resp, src)
    assert not report.ok
    assert [str(p) for p in report.problems] == [str(p) for p in info.value.problems]
    return info.value.problems


def _only_problem(resp, src, path, line, field, *words):
    problems = [p for p in _problems(resp, src) if p.file == str(path) and p.line == line]
    assert [p.field for p in problems] == [field], problems
    assert all(w in problems[0].message for w in words), problems[0]


def _blank_out(row: dict) -> dict:
    return {**row, "response": "", "labels": []}


# ------------------------------------------------------------------------- empty answers


def test_empty_answer_keeps_one_response_row_with_a_verdict(model, ragtruth_copy):
    resp, src = ragtruth_copy.write(response_append=[EMPTY_ROW])
    corpus = load_ragtruth(resp, src)
    assert corpus.empty_answers == 1
    report = check_files(resp, src)
    assert report.ok and report.counts["empty_responses"] == 1
    assert "empty answers (kept, nothing to check): 1 (id 'e1')" in report.text
    scored = model.score(corpus, progress=False)
    responses = scored.responses.set_index("response_id")
    assert list(responses.index) == [r.id for r in corpus.responses]
    empty = responses.loc["e1"]
    assert empty["status"] == STATUS_EMPTY and empty["sentences"] == 0
    assert empty["risk_EvidenceChain_LR"] == 0.0 and empty["pred_EvidenceChain_LR"] == 0
    assert (responses.drop("e1")["status"] == STATUS_SCORED).all()
    assert "e1" not in set(scored.sentences["response_id"])


def test_a_corpus_of_empty_answers_scores_every_answer(model, ragtruth_copy):
    resp, src = ragtruth_copy.write(responses={n: _blank_out for n in range(1, 8)})
    corpus = load_ragtruth(resp, src)
    assert corpus.empty_answers == len(corpus) == 6
    scored = model.score(corpus, progress=False)
    assert list(scored.responses["response_id"]) == [r.id for r in corpus.responses]
    assert (scored.responses["status"] == STATUS_EMPTY).all()
    assert (scored.responses["risk_Lexical"] == 0.0).all()
    assert scored.sentences.empty and scored.tokens.empty


def test_response_features_handle_a_corpus_without_sentences():
    corpus = _fixture_corpus()
    fx = FeatureExtractor(FeatureConfig(pipeline="blank", response_features=True)).fit(corpus, progress=False)
    empty = Corpus("empty", corpus.sources, [dataclasses.replace(r, response="", labels=())
                                             for r in corpus.responses])
    tables = fx.transform(empty, progress=False)
    assert tables.sentences.empty and len(tables.responses) == len(corpus)


def test_empty_sentence_table_has_the_columns_of_a_full_one():
    corpus = _fixture_corpus()
    fx = FeatureExtractor(FeatureConfig(pipeline="blank")).fit(corpus, progress=False)
    columns = list(fx.transform(corpus, progress=False).sentences.columns)
    assert columns[:len(SENTENCE_COLUMNS)] == list(SENTENCE_COLUMNS)


def test_predict_on_an_empty_answer(model):
    source = _fixture_corpus().sources["15503"]
    for answer in ("", "   \n"):
        result = model.predict(answer, source)
        assert result.sentences == [] and result.spans == []
        assert result.risk == 0.0 and result.hallucinated is False
        assert result.verdict == "nothing to check" and result.note == STATUS_EMPTY
    assert model.predict("A plane landed on a highway.", source).verdict != "nothing to check"


# --------------------------------------------------------------- what check and load refuse


def _with_surrogate(key: str):
    def edit(row: dict) -> str:
        row[key] = row[key] + "\ud800" if isinstance(row[key], str) else row[key]
        return json.dumps(row)  # ASCII JSON: the lone surrogate is written as an escape
    return edit


def test_lone_surrogate_in_an_answer_is_refused_with_its_field(ragtruth_copy):
    resp, src = ragtruth_copy.write(responses={4: _with_surrogate("response")})
    assert "\\ud800" in resp.read_text("utf-8")
    _only_problem(resp, src, resp, 4, "response", "UTF-8", "surrogate")


def test_lone_surrogate_in_nested_evidence_and_keys_is_refused(ragtruth_copy):
    def edit(row: dict) -> str:
        row["source_info"]["hours"] = {"Mon\udfff": "9-5"}
        row["source_info"]["categories"] += "\ud800"
        return json.dumps(row)
    resp, src = ragtruth_copy.write(sources={4: edit})
    problems = [p for p in _problems(resp, src) if p.file == str(src)]
    fields = {p.field for p in problems}
    assert fields == {"source_info.categories", "source_info.hours (a key)"}
    for p in problems:
        str(p).encode("utf-8")  # the report itself stays printable


def test_predict_refuses_a_lone_surrogate(model):
    with pytest.raises(InputError, match="surrogate"):
        model.predict("Bad \ud800 text.", _fixture_corpus().sources["15503"])


def test_deeply_nested_json_is_a_problem_not_a_crash(ragtruth_copy):
    deep = "[" * 100_000 + "]" * 100_000
    resp, src = ragtruth_copy.write(
        responses={3: lambda row: json.dumps(row)[:-1] + f', "extra": {deep}}}'})
    _only_problem(resp, src, resp, 3, "-", "nested too deeply")


def test_nesting_past_the_limit_is_reported_with_its_field(ragtruth_copy):
    nested: list = []
    for _ in range(MAX_JSON_DEPTH):
        nested = [nested]
    resp, src = ragtruth_copy.write(sources={4: lambda row: {**row, "source_info": {
        **row["source_info"], "attributes": nested}}})
    problems = [p for p in _problems(resp, src) if p.file == str(src)]
    assert len(problems) == 1 and problems[0].field.startswith("source_info.attributes[0]")
    assert "nested too deeply" in problems[0].message


def test_oversized_integer_literal_is_a_problem(ragtruth_copy):
    resp, src = ragtruth_copy.write(responses={1: lambda row: json.dumps(row)[:-1] + ', "n": '
                                                + "9" * 5000 + "}"})
    _only_problem(resp, src, resp, 1, "-", "malformed JSON")


def test_answer_over_the_length_limit_is_refused_naming_the_limit(model, ragtruth_copy):
    long = "Eggs boil. " * (MAX_RESPONSE_CHARS // 11 + 1)
    resp, src = ragtruth_copy.write(responses={1: lambda row: {**row, "response": long}})
    _only_problem(resp, src, resp, 1, "response", "MAX_RESPONSE_CHARS", f"{MAX_RESPONSE_CHARS:,}")
    with pytest.raises(InputError, match="MAX_RESPONSE_CHARS"):
        model.predict(long, _fixture_corpus().sources["15503"])


def test_long_evidence_passes_check_and_is_scored_in_pieces(model, ragtruth_copy):
    para = ("A small plane carrying four people made an emergency landing on a highway near "
            "Denver on Sunday. No one was injured, police said.")
    article = "\n\n".join([para] * 9500)
    assert len(article) > 1_200_000
    resp, src = ragtruth_copy.write(sources={3: lambda row: {**row, "source_info": article}})
    assert check_files(resp, src).ok
    scored = model.score(load_ragtruth(resp, src), progress=False)
    assert len(scored.responses) == 6 and (scored.responses["status"] == STATUS_SCORED).all()
    chunks = scored.features.indices["15503"].evidence.chunks
    assert len(chunks) == 9500


def test_pieces_keep_offsets_tokens_and_sentences(monkeypatch):
    text = "\n\n".join(f"Paragraph {i} says the bridge opened in {1900 + i}. It carries "
                       f"2,400 cars a day!" for i in range(40))
    whole = parse.parse_texts([text], pipeline="blank", progress=False)[0]
    monkeypatch.setattr(parse, "PIECE_CHARS", 250)
    bounds = parse.piece_bounds(text + " ", 250)
    assert len(bounds) > 10 and bounds[0][0] == 0 and bounds[-1][1] == len(text) + 1
    assert all(b - a <= 250 and b == c for (a, b), (c, _) in zip(bounds, bounds[1:]))
    pieces = parse.parse_texts([text + " "], pipeline="blank", progress=False)[0]
    assert np.array_equal(whole.starts, pieces.starts) and np.array_equal(whole.ends, pieces.ends)
    assert whole.lower == pieces.lower and whole.sentences == pieces.sentences


def test_unbroken_text_is_cut_hard():
    assert parse.piece_bounds("x" * 25, 10) == [(0, 10), (10, 20), (20, 25)]


# ------------------------------------------------------------ optional fields of the format


def test_null_optional_label_fields_are_accepted_and_kept(ragtruth_copy, tmp_path):
    def edit(row: dict) -> dict:
        row["labels"][0].update(meta=None, due_to_null=None, implicit_true=None)
        return row
    resp, src = ragtruth_copy.write(responses={2: edit})
    corpus = load_ragtruth(resp, src)
    label = next(r for r in corpus.responses if r.id == "1").labels[0]
    assert label.meta is None and label.due_to_null is None and label.implicit_true is None
    assert check_files(resp, src).ok
    out_resp, _ = write_ragtruth(corpus, tmp_path / "out")
    written = [json.loads(line) for line in out_resp.read_text("utf-8").splitlines()]
    assert next(r for r in written if r["id"] == "1")["labels"][0]["meta"] is None


# ------------------------------------------------------------------------ API arguments


@pytest.mark.parametrize("kwargs, words", [
    ({"detectors": ("Lexical", "Foo")}, ("unknown detector 'Foo'", "known detectors")),
    ({"detectors": ("lexical",), "primary": "lexical"}, ("did you mean 'Lexical'?",)),
    ({"detectors": "Lexical", "primary": "Lexical"}, ("list or tuple",)),
    ({"detectors": ("Lexical",)}, ("primary detector 'EvidenceChain_RF'",)),
    ({"response_aggregation": "maximum"}, ("unknown response_aggregation", "did you mean 'max'?")),
    ({"random_state": "17"}, ("random_state must be an int",)),
    ({"features": {"pipeline": "blank"}}, ("FeatureConfig",)),
    ({"detector_params": {"Foo": {}}}, ("detector_params['Foo']",)),
])
def test_constructor_rejects_bad_arguments(kwargs, words):
    with pytest.raises(ConfigError) as info:
        EvidenceChain(**kwargs)
    assert all(w in str(info.value) for w in words), str(info.value)


def test_auto_aggregation_is_accepted():
    assert EvidenceChain(response_aggregation="auto").response_aggregation == "auto"


@pytest.mark.parametrize("args, words", [
    (("An answer.", {"source_id": "x"}), ("source must be an evidencechain Source", "dict")),
    (("An answer.", None), ("source must be", "NoneType")),
    ((None, "SOURCE"), ("response must be", "NoneType")),
])
def test_predict_rejects_bad_arguments(model, args, words):
    response, source = args
    source = _fixture_corpus().sources["15503"] if source == "SOURCE" else source
    with pytest.raises(ConfigError) as info:
        model.predict(response, source)
    assert all(w in str(info.value) for w in words)


def test_predict_rejects_a_detector_it_has_not_fitted(model):
    source = _fixture_corpus().sources["15503"]
    with pytest.raises(ConfigError, match=r"'Foo' is not fitted.*fitted detectors"):
        model.predict("A plane landed.", source, detector="Foo")
    with pytest.raises(ConfigError, match="did you mean 'Lexical'"):
        model.predict("A plane landed.", source, detector="lexical")


def test_source_task_type_is_validated_with_a_suggestion():
    with pytest.raises(ConfigError, match=r"unknown task_type 'qa' \(did you mean 'QA'\?\)"):
        Source("s", "qa", "MARCO", {"question": "q", "passages": "p"}, "prompt")
    with pytest.raises(ConfigError, match="source_info must be a str or dict"):
        Source("s", "Summary", "CNN/DM", None, "prompt")
    assert Source("s", "Dialogue", "HaluEval", {"knowledge": "k"}, "p").task_type == "Dialogue"
