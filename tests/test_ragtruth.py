"""RAGTruth-format loading, validation, writing, `data check` and source-level splits.

Fixture layout (tests/fixtures/ragtruth/valid), 1-based line numbers:
  source_info.jsonl  1: 15501 QA/MARCO   2: 15502 QA/MARCO   3: 15503 Summary/CNN-DM
                     4: 15504 Data2txt/Yelp   5: 15505 Summary/Recent News
  response.jsonl     1: id 0 (15501, train)   2: id 1 (15501, train, 1 label)
                     3: id 2 (15502, train, incorrect_refusal)   4: id 3 (15503, train)
                     5: id 4 (15503, train, 2 labels)   6: id 5 (15504, test, 3 labels)
                     7: id 6 (15505, test)
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from evidencechain.cli import main
from evidencechain.data import (
    Corpus,
    DataValidationError,
    Response,
    Source,
    assign_splits,
    load_ragtruth,
    split_corpus,
    write_ragtruth,
)
from evidencechain.data.check import check_files
from evidencechain.data.ragtruth import MAX_PROBLEMS, read_responses, read_sources
from evidencechain.records import RESPONSE_FIELDS, SOURCE_FIELDS, TASK_TYPES

N_ROWS = 7


def _validation_error(resp: Path, src: Path) -> DataValidationError:
    with pytest.raises(DataValidationError) as info:
        load_ragtruth(resp, src)
    return info.value


def assert_reported(err: DataValidationError, path: Path, line: int, field: str,
                    *words: str) -> str:
    """The error text has a line naming `path:line` and `field`, containing `words`."""
    prefix = f"{path}:{line}: field '{field}':"
    hits = [ln.strip() for ln in str(err).splitlines() if ln.strip().startswith(prefix)]
    assert hits, f"no problem starting {prefix!r} in:\n{err}"
    assert any(all(w in h for w in words) for h in hits), f"{words} not in {hits}"
    assert any(p.file == str(path) and p.line == line and p.field == field
               for p in err.problems)
    return hits[0]


def _set(key: str, value):
    def edit(row: dict) -> dict:
        row[key] = value
        return row
    return edit


def _set_label(index: int, key: str, value):
    def edit(row: dict) -> dict:
        row["labels"][index][key] = value
        return row
    return edit


def _drop(key: str):
    def edit(row: dict) -> dict:
        del row[key]
        return row
    return edit


# --------------------------------------------------------------------------- valid corpus


def test_valid_fixture_loads_with_quality_filter(ragtruth_paths):
    corpus = load_ragtruth(*ragtruth_paths)
    assert len(corpus) == N_ROWS - 1
    assert corpus.name == "valid"
    assert [r.id for r in corpus.responses] == ["0", "1", "3", "4", "5", "6"]
    assert corpus.filtered == {"quality=incorrect_refusal": 1,
                               "sources without kept responses": 1}
    assert "15502" not in corpus.sources
    assert all(r.quality == "good" for r in corpus.responses)


def test_quality_none_keeps_every_row(ragtruth_paths):
    corpus = load_ragtruth(*ragtruth_paths, quality=None)
    assert len(corpus) == N_ROWS
    assert corpus.filtered == {}
    assert set(corpus.sources) == {"15501", "15502", "15503", "15504", "15505"}
    assert {r.quality for r in corpus.responses} == {"good", "incorrect_refusal"}


def test_quality_filter_accepts_other_values(ragtruth_paths):
    corpus = load_ragtruth(*ragtruth_paths, quality=["incorrect_refusal"])
    assert [r.id for r in corpus.responses] == ["2"]
    assert corpus.filtered == {"quality=good": 6, "sources without kept responses": 4}


def test_all_three_source_info_shapes_load(ragtruth_paths):
    corpus = load_ragtruth(*ragtruth_paths, quality=None)
    by_task = {t: [s for s in corpus.sources.values() if s.task_type == t] for t in TASK_TYPES}
    assert {t: len(v) for t, v in by_task.items()} == {"QA": 2, "Summary": 2, "Data2txt": 1}
    qa = corpus.sources["15501"]
    assert qa.source == "MARCO"
    assert isinstance(qa.source_info["passages"], str)
    assert qa.source_info["passages"].startswith("passage 1:")
    assert "\n\npassage 2:" in qa.source_info["passages"]
    assert qa.query == qa.source_info["question"]
    summary = corpus.sources["15503"]
    assert summary.source == "CNN/DM" and isinstance(summary.source_info, str)
    assert summary.query is None
    yelp = corpus.sources["15504"].source_info
    assert corpus.sources["15504"].source == "Yelp"
    assert isinstance(yelp["hours"], dict) and isinstance(yelp["attributes"], dict)
    assert isinstance(yelp["attributes"]["BusinessParking"], dict)
    assert isinstance(yelp["review_info"], list) and len(yelp["review_info"]) == 2
    assert corpus.sources["15505"].source == "Recent News"


def test_labels_and_flags_are_parsed(ragtruth_paths):
    corpus = load_ragtruth(*ragtruth_paths)
    by_id = {r.id: r for r in corpus.responses}
    assert not by_id["0"].hallucinated and by_id["1"].hallucinated
    for r in corpus.responses:
        for lab in r.labels:
            assert r.response[lab.start:lab.end] == lab.text
    labels = by_id["5"].labels
    assert [lab.start for lab in labels] == sorted(lab.start for lab in labels)
    assert {(lab.text, lab.implicit_true, lab.due_to_null) for lab in labels} == {
        ("on weekdays", False, False), ("outdoor seating", False, True),
        ("on weekends", True, False)}
    # flags absent in the file stay None (and are not written back)
    assert all(lab.implicit_true is None for lab in by_id["4"].labels)
    assert "implicit_true" not in by_id["4"].labels[0].to_json()
    assert by_id["4"].temperature == 1.0 and isinstance(by_id["4"].temperature, float)


# ----------------------------------------------------------------------- validation errors


def test_malformed_json_line(ragtruth_copy):
    resp, src = ragtruth_copy.write(responses={3: '{"id": "2", "source_id": '})
    err = _validation_error(resp, src)
    assert_reported(err, resp, 3, "-", "malformed JSON")
    assert err.total == 1


def test_non_object_line(ragtruth_copy):
    resp, src = ragtruth_copy.write(sources={2: '["15502", "QA"]'})
    err = _validation_error(resp, src)
    assert_reported(err, src, 2, "-", "expected a JSON object", "list")
    # the response that pointed at it is reported too, naming its source_id
    assert_reported(err, resp, 3, "source_id", "unknown source_id '15502'")


def test_invalid_utf8_line_is_reported_not_raised(ragtruth_copy):
    resp, src = ragtruth_copy.write()
    lines = resp.read_bytes().split(b"\n")
    lines[1] = lines[1].replace(b"passages", b"passag\xff\xfe")
    resp.write_bytes(b"\n".join(lines))
    err = _validation_error(resp, src)
    assert_reported(err, resp, 2, "-", "UTF-8")


def test_blank_lines_and_bom_are_tolerated_and_numbering_kept(ragtruth_copy):
    resp, src = ragtruth_copy.write(responses={4: _set("split", "dev")})
    text = resp.read_text("utf-8").replace("\n", "\n\n", 1)  # blank line after line 1
    resp.write_text("\ufeff" + text, encoding="utf-8")
    err = _validation_error(resp, src)
    assert err.total == 1
    assert_reported(err, resp, 5, "split", "unknown value 'dev'")


@pytest.mark.parametrize("key", RESPONSE_FIELDS)
def test_missing_response_field(ragtruth_copy, key):
    resp, src = ragtruth_copy.write(responses={5: _drop(key)})
    err = _validation_error(resp, src)
    assert_reported(err, resp, 5, key, "missing")


@pytest.mark.parametrize("key", SOURCE_FIELDS)
def test_missing_source_field(ragtruth_copy, key):
    resp, src = ragtruth_copy.write(sources={3: _drop(key)})
    err = _validation_error(resp, src)
    assert_reported(err, src, 3, key, "missing")


@pytest.mark.parametrize("key", ["start", "end", "text", "label_type"])
def test_missing_label_field(ragtruth_copy, key):
    def edit(row):
        del row["labels"][1][key]
        return row
    resp, src = ragtruth_copy.write(responses={5: edit})
    err = _validation_error(resp, src)
    assert_reported(err, resp, 5, f"labels[1].{key}", "missing")


@pytest.mark.parametrize("line, edit, field, words", [
    (1, _set("temperature", "0.7"), "temperature", ("expected int/float", "got str")),
    (1, _set("temperature", True), "temperature", ("got bool",)),
    (1, _set("id", 0), "id", ("expected str", "got int")),
    (1, _set("model", None), "model", ("expected str", "got null")),
    (1, _set("response", ["text"]), "response", ("expected str", "got list")),
    (1, _set("labels", "none"), "labels", ("expected list", "got str")),
    (1, _set("labels", {"start": 0}), "labels", ("expected list", "got dict")),
    (2, _set("labels", ["Adding salt"]), "labels[0]", ("expected object", "got str")),
    (2, _set_label(0, "start", True), "labels[0].start", ("expected int", "got bool")),
    (2, _set_label(0, "end", 125.0), "labels[0].end", ("expected int", "got float")),
    (2, _set_label(0, "text", 5), "labels[0].text", ("expected str", "got int")),
    (2, _set_label(0, "meta", 7), "labels[0].meta", ("expected str", "got int")),
    (2, _set_label(0, "implicit_true", "no"), "labels[0].implicit_true",
     ("expected bool", "got str")),
    (2, _set_label(0, "due_to_null", 0), "labels[0].due_to_null", ("expected bool", "got int")),
    (1, _set("response_label", True), "response_label", ("expected 0, 1 or null",)),
    (1, _set("temperature", float("nan")), "temperature", ("finite",)),
])
def test_mistyped_response_field(ragtruth_copy, line, edit, field, words):
    resp, src = ragtruth_copy.write(responses={line: edit})
    err = _validation_error(resp, src)
    assert_reported(err, resp, line, field, *words)


@pytest.mark.parametrize("edit, field, words", [
    (_set("source_id", 15501), "source_id", ("expected str", "got int")),
    (_set("task_type", ["QA"]), "task_type", ("expected str", "got list")),
    (_set("prompt", 3.5), "prompt", ("expected str", "got float")),
    (_set("source", False), "source", ("expected str", "got bool")),
])
def test_mistyped_source_field(ragtruth_copy, edit, field, words):
    resp, src = ragtruth_copy.write(sources={1: edit})
    err = _validation_error(resp, src)
    assert_reported(err, src, 1, field, *words)


@pytest.mark.parametrize("kind, line, edit, field, value", [
    ("response", 1, _set("split", "dev"), "split", "dev"),
    ("response", 1, _set("quality", "bad"), "quality", "bad"),
    ("response", 2, _set_label(0, "label_type", "Hallucination"), "labels[0].label_type",
     "Hallucination"),
    ("source", 3, _set("task_type", "Dialogue"), "task_type", "Dialogue"),
])
def test_unknown_enum_value(ragtruth_copy, kind, line, edit, field, value):
    if kind == "response":
        resp, src = ragtruth_copy.write(responses={line: edit})
    else:
        resp, src = ragtruth_copy.write(sources={line: edit})
    err = _validation_error(resp, src)
    path = resp if kind == "response" else src
    hit = assert_reported(err, path, line, field, f"unknown value {value!r}", "expected one of")
    assert "(" in hit  # the allowed values are listed


def test_unknown_source_id(ragtruth_copy):
    resp, src = ragtruth_copy.write(responses={4: _set("source_id", "99999")})
    err = _validation_error(resp, src)
    assert_reported(err, resp, 4, "source_id", "unknown source_id '99999'", "source_info")


@pytest.mark.parametrize("start, end", [(70, 999), (-1, 10), (200, 260)])
def test_label_offsets_outside_response(ragtruth_copy, start, end):
    def edit(row):
        row["labels"][0].update(start=start, end=end)
        return row
    resp, src = ragtruth_copy.write(responses={2: edit})
    err = _validation_error(resp, src)
    assert_reported(err, resp, 2, "labels[0].start/end", f"[{start}, {end})", "outside",
                    "length 125")


@pytest.mark.parametrize("start, end", [(70, 70), (80, 70)])
def test_label_empty_or_reversed_span(ragtruth_copy, start, end):
    def edit(row):
        row["labels"][0].update(start=start, end=end)
        return row
    resp, src = ragtruth_copy.write(responses={2: edit})
    err = _validation_error(resp, src)
    assert_reported(err, resp, 2, "labels[0].start/end", "empty or reversed")


def test_label_text_mismatch(ragtruth_copy):
    resp, src = ragtruth_copy.write(responses={5: _set_label(1, "text", "a retired Navy officer")})
    err = _validation_error(resp, src)
    assert_reported(err, resp, 5, "labels[1].text", "'a retired Navy officer'", "does not match",
                    "'a retired Air Force officer'")


def test_duplicate_response_id(ragtruth_copy):
    row = ragtruth_copy.row("response", 4)
    resp, src = ragtruth_copy.write(response_append=[row])
    err = _validation_error(resp, src)
    assert_reported(err, resp, N_ROWS + 1, "id", "duplicate id '3'", "first on line 4")


def test_duplicate_source_id(ragtruth_copy):
    row = ragtruth_copy.row("source", 2)
    resp, src = ragtruth_copy.write(source_append=[row])
    err = _validation_error(resp, src)
    assert_reported(err, src, 6, "source_id", "duplicate source_id '15502'", "first on line 2")


def _info(value):
    return _set("source_info", value)


def _qa_info(**changes):
    def edit(row):
        row["source_info"].update(changes)
        row["source_info"] = {k: v for k, v in row["source_info"].items() if v is not None}
        return row
    return edit


@pytest.mark.parametrize("line, edit, field, words", [
    (1, _info("how long does it take to boil an egg"), "source_info",
     ("QA evidence must be an object", "got str")),
    (1, _qa_info(passages=None), "source_info.passages", ("missing",)),
    (1, _qa_info(passages=3), "source_info.passages", ("not a string or list",)),
    (1, _qa_info(passages=["passage one", 7]), "source_info.passages", ("list of passages",)),
    (1, _qa_info(question=None), "source_info.question", ("missing or not a string",)),
    (3, _info({"article": "text"}), "source_info",
     ("Summary evidence must be a string", "got dict")),
    (4, _info(["Blue Door Cafe"]), "source_info",
     ("Data2txt evidence must be an object", "got list")),
    (4, _info("Blue Door Cafe"), "source_info", ("Data2txt evidence must be an object",)),
])
def test_wrong_source_info_shape(ragtruth_copy, line, edit, field, words):
    resp, src = ragtruth_copy.write(sources={line: edit})
    err = _validation_error(resp, src)
    assert_reported(err, src, line, field, *words)


def test_list_of_passages_qa_is_accepted(ragtruth_copy):
    def edit(row):
        text = row["source_info"]["passages"]
        row["source_info"]["passages"] = [p.split(":", 1)[1].strip()
                                          for p in text.split("\n\n") if p.strip()]
        return row
    resp, src = ragtruth_copy.write(sources={1: edit})
    corpus = load_ragtruth(resp, src)
    assert len(corpus.sources["15501"].source_info["passages"]) == 3


def test_missing_file_is_a_problem_not_a_crash(tmp_path, ragtruth_paths):
    missing = tmp_path / "nope.jsonl"
    err = _validation_error(missing, ragtruth_paths[1])
    assert err.problems[0].file == str(missing) and err.problems[0].line == 0
    assert f"{missing}: field '-': cannot read file" in str(err)


# ------------------------------------------------------------------ collecting all problems


def test_error_lists_all_problems_from_several_lines(ragtruth_copy):
    resp, src = ragtruth_copy.write(
        responses={
            1: _set("temperature", "hot"),
            3: "not json",
            5: _set_label(0, "text", "six"),
            6: lambda row: {**row, "split": "validation", "quality": "meh"},
        },
        sources={5: _set("task_type", "Chat")},
    )
    err = _validation_error(resp, src)
    expected = {
        (str(resp), 1, "temperature"), (str(resp), 3, "-"), (str(resp), 5, "labels[0].text"),
        (str(resp), 6, "split"), (str(resp), 6, "quality"), (str(src), 5, "task_type"),
        # response 7 points at the source rejected on line 5
        (str(resp), 7, "source_id"),
    }
    assert {(p.file, p.line, p.field) for p in err.problems} == expected
    assert err.total == len(expected)
    assert str(err).startswith(f"{len(expected)} problem(s) in input data:")
    for file, line, field in expected:
        assert f"{file}:{line}: field '{field}'" in str(err)


def test_problem_cap(ragtruth_copy):
    n_bad = MAX_PROBLEMS + 13
    bad = [{**ragtruth_copy.row("response", 1), "id": f"x{i}", "split": "dev"}
           for i in range(n_bad)]
    resp, src = ragtruth_copy.write(response_append=bad)
    err = _validation_error(resp, src)
    assert err.total == n_bad
    assert len(err.problems) == MAX_PROBLEMS
    text = str(err)
    assert text.startswith(f"{n_bad} problem(s)")
    assert text.count("unknown value 'dev'") == MAX_PROBLEMS
    assert text.rstrip().endswith("... and 13 more")
    # the readers themselves return every problem
    sources, src_problems = read_sources(src)
    _, problems = read_responses(resp, sources)
    assert not src_problems and len(problems) == n_bad


# ------------------------------------------------------------------------------ round trip


@pytest.mark.parametrize("quality", [("good",), None])
def test_round_trip_load_write_load(tmp_path, ragtruth_paths, quality):
    first = load_ragtruth(*ragtruth_paths, quality=quality)
    resp1, src1 = write_ragtruth(first, tmp_path / "one")
    second = load_ragtruth(resp1, src1, quality=quality)
    assert second.responses == first.responses
    assert second.sources == first.sources
    resp2, src2 = write_ragtruth(second, tmp_path / "two")
    assert resp2.read_bytes() == resp1.read_bytes()
    assert src2.read_bytes() == src1.read_bytes()
    assert "Núñez" in src1.read_text("utf-8")  # non-ASCII written as is
    if quality is None:
        # the fixture is in the canonical layout: even the first write reproduces it
        assert resp1.read_bytes() == ragtruth_paths[0].read_bytes()
        assert src1.read_bytes() == ragtruth_paths[1].read_bytes()


def test_round_trip_keeps_extra_fields_and_sorts_labels(tmp_path, ragtruth_copy):
    def edit(row):
        row["labels"].reverse()
        row["annotator"] = "a7"
        return row
    resp, src = ragtruth_copy.write(responses={6: edit},
                                    sources={1: _set("dataset_version", "v1")})
    first = load_ragtruth(resp, src)
    by_id = {r.id: r for r in first.responses}
    assert by_id["5"].extra == {"annotator": "a7"}
    assert first.sources["15501"].extra == {"dataset_version": "v1"}
    out1 = write_ragtruth(first, tmp_path / "one")
    second = load_ragtruth(*out1)
    assert second.responses == first.responses and second.sources == first.sources
    out2 = write_ragtruth(second, tmp_path / "two")
    assert [p.read_bytes() for p in out2] == [p.read_bytes() for p in out1]
    row = json.loads(out1[0].read_text("utf-8").splitlines()[4])
    assert row["annotator"] == "a7"
    assert [lab["start"] for lab in row["labels"]] == sorted(lab["start"] for lab in row["labels"])


# ---------------------------------------------------------------------------------- check


def test_check_files_valid(ragtruth_paths):
    report = check_files(*ragtruth_paths)
    assert report.ok and report.problems == []
    c = report.counts
    assert c["sources"] == 4 and c["sources_valid"] == 5
    assert c["sources_by_task"] == {"QA": 1, "Summary": 2, "Data2txt": 1}
    assert c["sources_by_origin"] == {"QA": {"MARCO": 1},
                                      "Summary": {"CNN/DM": 1, "Recent News": 1},
                                      "Data2txt": {"Yelp": 1}}
    assert c["responses"] == 6 and c["rows_valid"] == 7
    assert c["responses_by_split"] == {"train": 4, "test": 2}
    assert c["responses_by_task"] == {"QA": 2, "Summary": 3, "Data2txt": 1}
    assert sum(c["responses_by_model"].values()) == 6 and c["responses_by_model"]["gpt-4-0613"] == 2
    assert c["hallucinated"] == 3
    assert c["labels"] == 6
    assert c["labels_by_type"] == {"Evident Conflict": 1, "Subtle Conflict": 1,
                                   "Evident Baseless Info": 2, "Subtle Baseless Info": 2}
    assert c["labels_implicit_true"] == 1 and c["labels_due_to_null"] == 1
    assert c["filtered"] == load_ragtruth(*ragtruth_paths).filtered
    for words in ("Sources: 4", "CNN/DM", "Recent News", "Responses: 6 kept of 7",
                  "mistral-7B-instruct", "Hallucinated responses: 3 of 6 (50.0%)",
                  "Labels: 6", "Subtle Baseless Info", "quality=incorrect_refusal",
                  "sources without kept responses", "Problems: none"):
        assert words in report.text, words


def test_check_files_quality_none(ragtruth_paths):
    report = check_files(*ragtruth_paths, quality=None)
    assert report.counts["responses"] == N_ROWS and report.counts["filtered"] == {}


def test_check_files_reports_problems_with_cap(ragtruth_copy):
    bad = [{**ragtruth_copy.row("response", 1), "id": f"x{i}", "quality": "meh"}
           for i in range(12)]
    resp, src = ragtruth_copy.write(responses={2: "{oops"}, response_append=bad)
    report = check_files(resp, src, max_problems=5)
    assert not report.ok
    assert len(report.problems) == 13 and report.counts["problems"] == 13
    assert f"{resp}:2: field '-': malformed JSON" in report.text
    assert report.text.count(str(resp)) == 1 + 5  # header + shown problems
    assert "Problems: 13 (first 5 shown)" in report.text
    assert "... and 8 more" in report.text
    assert "FAILED" in report.text
    # statistics still describe the rows that validated
    assert report.counts["rows_valid"] == N_ROWS - 1


def test_cli_data_check_ok(ragtruth_paths, capsys):
    rc = main(["data", "check", "--response-jsonl", str(ragtruth_paths[0]),
               "--source-info-jsonl", str(ragtruth_paths[1])])
    out = capsys.readouterr().out
    assert rc == 0
    assert "Problems: none" in out and "Responses: 6 kept of 7" in out


def test_cli_data_check_fails_on_problems(ragtruth_copy, capsys):
    resp, src = ragtruth_copy.write(responses={3: _set("split", "dev")},
                                    sources={4: _info(["x"])})
    rc = main(["data", "check", "--response-jsonl", str(resp), "--source-info-jsonl", str(src)])
    out = capsys.readouterr().out
    assert rc == 1
    assert f"{resp}:3: field 'split': unknown value 'dev'" in out
    assert f"{src}:4: field 'source_info': Data2txt evidence must be an object" in out
    assert f"{resp}:6: field 'source_id': unknown source_id '15504'" in out
    assert "FAILED: 3 problem(s)" in out


def test_cli_data_check_missing_file(tmp_path, ragtruth_paths, capsys):
    rc = main(["data", "check", "--response-jsonl", str(ragtruth_paths[0]),
               "--source-info-jsonl", str(tmp_path / "none.jsonl")])
    out = capsys.readouterr().out
    assert rc == 1
    assert "cannot read file" in out


# --------------------------------------------------------------------------------- splits


def _synthetic(n_train: int = 45, n_test: int = 12) -> Corpus:
    sources, responses = {}, []
    for i in range(n_train + n_test):
        sid = f"s{i:03d}"
        task = TASK_TYPES[i % 3]
        info = "Article text." if task == "Summary" else {"question": "q?", "passages": "p"}
        sources[sid] = Source(sid, task, "test", info, "prompt")
        split = "train" if i < n_train else "test"
        for m in range(2):
            responses.append(Response(f"{sid}-{m}", sid, f"model-{m}", 0.7, (), split, "good",
                                      "An answer."))
    return Corpus("synthetic", sources, responses)


def _assert_partition(corpus: Corpus, parts: dict[str, Corpus]) -> None:
    assert set(parts) == {"train", "calibration", "test"}
    seen: dict[str, str] = {}
    for name, part in parts.items():
        for r in part.responses:
            assert seen.setdefault(r.source_id, name) == name, f"{r.source_id} in two splits"
        assert set(part.sources) == {r.source_id for r in part.responses}
    assert sorted(r.id for p in parts.values() for r in p.responses) == \
        sorted(r.id for r in corpus.responses)


def test_split_corpus_partitions_by_source(ragtruth_paths):
    corpus = load_ragtruth(*ragtruth_paths)
    parts = split_corpus(corpus)
    _assert_partition(corpus, parts)
    assert {r.split for r in parts["test"].responses} == {"test"}
    assert {r.split for r in parts["train"].responses} <= {"train"}
    assert parts["train"].name == "valid:train"


@pytest.mark.parametrize("fraction", [0.0, 0.2, 0.5])
def test_assign_splits_synthetic(fraction):
    corpus = _synthetic()
    assignment = assign_splits(corpus, calibration_fraction=fraction, seed=3)
    assert set(assignment) == set(corpus.sources)
    counts = {n: sum(v == n for v in assignment.values()) for n in ("train", "calibration", "test")}
    assert counts["test"] == 12
    assert counts["calibration"] == round(fraction * 45)
    assert counts["train"] == 45 - counts["calibration"]
    # calibration is carved from train sources only, in proportion to task types
    for sid, name in assignment.items():
        if name == "calibration":
            assert int(sid[1:]) < 45
    if fraction == 0.2:
        per_task = {t: sum(1 for s, v in assignment.items()
                           if v == "calibration" and corpus.sources[s].task_type == t)
                    for t in TASK_TYPES}
        assert per_task == {"QA": 3, "Summary": 3, "Data2txt": 3}
    _assert_partition(corpus, split_corpus(corpus, fraction, seed=3))


def test_assign_splits_deterministic_per_seed_and_differs_across_seeds():
    corpus = _synthetic()
    a = assign_splits(corpus, seed=1)
    assert a == assign_splits(corpus, seed=1)
    assert a == assign_splits(_synthetic(), seed=1)  # a rebuilt corpus gets the same split
    calib = {s for s, v in a.items() if v == "calibration"}
    others = [{s for s, v in assign_splits(corpus, seed=k).items() if v == "calibration"}
              for k in (2, 3, 4)]
    assert all(o != calib for o in others)
    assert all(len(o) == len(calib) for o in others)
    # order of responses does not matter
    shuffled = Corpus(corpus.name, dict(reversed(list(corpus.sources.items()))),
                      list(reversed(corpus.responses)))
    assert assign_splits(shuffled, seed=1) == a


def test_assign_splits_rejects_source_in_both_train_and_test(ragtruth_copy):
    resp, src = ragtruth_copy.write(responses={1: _set("split", "test")})
    corpus = load_ragtruth(resp, src)
    with pytest.raises(ValueError, match="more than one split") as info:
        assign_splits(corpus)
    assert "'15501'" in str(info.value)
    with pytest.raises(ValueError, match="more than one split"):
        split_corpus(corpus)


@pytest.mark.parametrize("fraction", [-0.1, 1.0, 1.5])
def test_assign_splits_rejects_bad_fraction(fraction):
    with pytest.raises(ValueError, match="calibration_fraction"):
        assign_splits(_synthetic(), calibration_fraction=fraction)
