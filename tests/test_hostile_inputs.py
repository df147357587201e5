"""Hostile inputs: limits that hold in every reader, no traceback anywhere, nothing from an input
reaches the terminal as a command, and messages that name file, line and field.

The property-based tests at the end feed random bytes, random documents and random field types
to the readers (RAGTruth JSONL, plain JSONL, CSV), the config loader and the writers.
"""
from __future__ import annotations

import contextlib
import csv
import io
import json
import re
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evidencechain import cli
from evidencechain.config import load_config
from evidencechain.data import plain
from evidencechain.data.plain import load_plain
from evidencechain.data.ragtruth import load_ragtruth, write_ragtruth
from evidencechain.data.validation import MAX_EVIDENCE_CHARS, MAX_RESPONSE_CHARS, DataValidationError
from evidencechain.detect import Detector
from evidencechain.detect.output import STYLE, pretty, terminal_safe
from evidencechain.detectors import FitDataError
from evidencechain.errors import ConfigError, EvidenceChainError, InputError
from evidencechain.features import FeatureConfig
from evidencechain.features import sentences as sentence_features
from evidencechain.model import EvidenceChain
from evidencechain.records import Corpus, Response, Source
from evidencechain.results import DetectionResult, EvidenceRef, SentenceResult, Span

ROOT = Path(__file__).resolve().parents[1]
RAGTRUTH_VALID = ROOT / "tests" / "fixtures" / "ragtruth" / "valid"
AUDIT_TOML = ROOT / "experiments" / "audit.toml"
HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x1b[1;32mOK\x1b[0m\r\u202etxt.exe\x9b31m\x00"


def _fuzz(examples: int):
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None, print_blob=False,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                           HealthCheck.data_too_large])


@pytest.fixture(autouse=True)
def _work_in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVIDENCECHAIN_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def fixture_corpus() -> Corpus:
    return load_ragtruth(RAGTRUTH_VALID / "response.jsonl", RAGTRUTH_VALID / "source_info.jsonl")


@pytest.fixture(scope="module")
def model(fixture_corpus) -> EvidenceChain:
    return EvidenceChain(detectors=("Lexical", "EvidenceChain_LR"), primary="EvidenceChain_LR",
                         features=FeatureConfig(pipeline="blank")).fit(fixture_corpus, fixture_corpus,
                                                                       progress=False)


@pytest.fixture(scope="module")
def saved_model(model, tmp_path_factory) -> Path:
    return model.save(tmp_path_factory.mktemp("model") / "model")


def _cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


def _one_line(argv: list[str], *words: str) -> str:
    """One error line, or a data error's count line and one line per problem (exit 2, no traceback)."""
    code, _, err = _cli(argv)
    lines = err.strip().splitlines()
    assert code == 2 and lines and all(line.startswith("error: ") for line in lines), (code, err[-2000:])
    if len(lines) > 1:
        count = int(lines[0].split("error: ", 1)[1].split(" problem(s)", 1)[0])
        assert len(lines) == 1 + min(count, 20) + (count > 20), lines
    text = " ".join(lines)
    for word in words:
        assert word in text, (word, text[:500])
    return text


def _jsonl(path: Path, rows: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return path


def _check_plain(path: Path) -> list[str]:
    """`data check --plain` problems (the checker and the loader share the reader)."""
    with pytest.raises(DataValidationError) as info:
        load_plain(path)
    return [str(p) for p in info.value.problems]


# ---------------------------------------------------------------- limits that hold

@pytest.mark.parametrize("kind", ["jsonl", "csv"])
def test_an_answer_one_character_over_the_limit_is_refused_by_check_and_detect(tmp_path, kind):
    answer = "a" * (MAX_RESPONSE_CHARS + 1)
    if kind == "jsonl":
        path = _jsonl(tmp_path / "long.jsonl", [{"context": "x", "answer": answer}])
    else:
        path = tmp_path / "long.csv"
        with open(path, "w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows([["context", "answer"], ["x", answer]])
    line = 2 if kind == "csv" else 1
    assert _check_plain(path) == [f"{path}:{line}: field 'answer': {MAX_RESPONSE_CHARS + 1:,} characters; answers are limited "
                                  f"to {MAX_RESPONSE_CHARS:,} (MAX_RESPONSE_CHARS)"]
    assert _cli(["data", "check", "--plain", str(path)])[0] == 1
    _one_line(["detect", str(path), "-q"], str(path), "answer", "MAX_RESPONSE_CHARS")
    _one_line(["detect", str(path), "-q", "--out-dir", str(tmp_path / "streamed")], str(path), "answer",
              "MAX_RESPONSE_CHARS")


def test_an_answer_at_the_limit_is_accepted(tmp_path):
    path = _jsonl(tmp_path / "edge.jsonl", [{"context": "x", "answer": "a" * MAX_RESPONSE_CHARS}])
    assert len(load_plain(path).responses) == 1


def test_evidence_over_the_limit_is_refused_by_check_detect_and_the_api(tmp_path, model):
    context = "The museum opened in 1987. " * (MAX_EVIDENCE_CHARS // 27 + 1)
    path = _jsonl(tmp_path / "big.jsonl", [{"context": context, "answer": "It opened in 1987."}])
    assert any("field 'context'" in p and "MAX_EVIDENCE_CHARS" in p for p in _check_plain(path))
    _one_line(["detect", str(path), "-q"], str(path), "context", "MAX_EVIDENCE_CHARS")
    with pytest.raises(InputError, match=r"records\[0\]: field 'context': .*MAX_EVIDENCE_CHARS"):
        Detector(model).predict_batch([{"context": [context], "answer": "It opened in 1987."}])
    with pytest.raises(InputError, match=r"source 'big': .*MAX_EVIDENCE_CHARS"):
        model.predict("It opened in 1987.", Source("big", "Summary", "CNN/DM", context, "Summarize."))


def test_sentence_features_read_entities_once_per_answer(model, fixture_corpus, monkeypatch):
    calls = []
    real = sentence_features.entity_spans
    monkeypatch.setattr(sentence_features, "entity_spans", lambda doc: calls.append(1) or real(doc))
    answer = "The Plane landed near Denver in 1987. No one was hurt, Police said. " * 200
    prediction = model.predict(answer, fixture_corpus.sources["15503"])
    assert len(prediction.sentences) == 400 and len(calls) == 1


def test_a_long_answer_is_scored_in_bounded_time(model, fixture_corpus):
    answer = ("The plane landed on a highway near Denver in 1987. No one was hurt, police said. " * 1300)[:100_000]
    t0 = time.perf_counter()
    prediction = model.predict(answer, fixture_corpus.sources["15503"])
    assert len(prediction.sentences) > 2000
    assert time.perf_counter() - t0 < 60  # about 3 s; 156 s when each sentence rescanned the answer


# ---------------------------------------------------------------- no traceback

def test_a_training_corpus_of_one_class_names_the_corpus_and_what_to_do(fixture_corpus):
    from dataclasses import replace

    clean = Corpus("clean-corpus", fixture_corpus.sources,
                   [replace(r, labels=(), response_label=0) for r in fixture_corpus.responses], {})
    with pytest.raises(FitDataError) as info:
        EvidenceChain(detectors=("Lexical", "EvidenceChain_LR"), primary="EvidenceChain_LR",
                      features=FeatureConfig(pipeline="blank")).fit(clean, clean, progress=False)
    message = str(info.value)
    assert "'clean-corpus'" in message and "single class" in message and "Lexical" in message
    assert "\n" not in message and isinstance(info.value, InputError)


@pytest.mark.parametrize("where", ["first line", "a field", "csv context", "csv spans"])
def test_json_nested_50000_levels_is_one_line(tmp_path, where):
    deep = "[" * 50_000 + "]" * 50_000
    if where.startswith("csv"):
        path = tmp_path / "deep.csv"
        row = [deep, "y", "[]"] if where == "csv context" else ["x", "y", deep]
        with open(path, "w", newline="") as handle:
            csv.writer(handle).writerows([["context", "answer", "spans"], row])
        field = where.split()[1]
    else:
        path = tmp_path / "deep.jsonl"
        path.write_text(deep + "\n" if where == "first line" else '{"context": "x", "answer": "y", "z": ' + deep + "}\n")
        field = "-"
    assert _check_plain(path) == [f"{path}:{2 if where.startswith('csv') else 1}: field '{field}': nested too "
                                  f"deeply (more than 100 levels of lists and objects)"]
    _one_line(["detect", str(path), "-q"], str(path), "nested too deeply")


def test_deeply_nested_ragtruth_rows_and_model_json_are_one_line(tmp_path, saved_model):
    import shutil

    resp = _jsonl(tmp_path / "r.jsonl", ["[" * 50_000 + "]" * 50_000])
    _one_line(["detect", "--response-jsonl", str(resp), "--source-info-jsonl",
               str(RAGTRUTH_VALID / "source_info.jsonl"), "-q", "--model", str(saved_model)], "nested too deeply")
    model_dir = tmp_path / "model"
    shutil.copytree(saved_model, model_dir)
    (model_dir / "model.json").write_text("[" * 50_000 + "]" * 50_000)
    _one_line(["detect", str(_jsonl(tmp_path / "in.jsonl", [{"context": "x", "answer": "y"}])),
               "--model", str(model_dir), "-q"], "model.json")


def _with_detector_setting(path: Path, key: str, literal: str) -> Path:
    text, n = re.subn(rf"(?m)^{key} = .*$", lambda _: f"{key} = {literal}", AUDIT_TOML.read_text(), count=1)
    assert n == 1
    path.write_text(text)
    return path


def test_empty_detector_names_are_refused_by_config_validation(tmp_path):
    config = _with_detector_setting(tmp_path / "empty.toml", "names", "[]")
    with pytest.raises(ConfigError, match=r"\[detectors\] names: empty"):
        load_config(config)
    _one_line(["run", "--config", str(config)], str(config), "names")


@pytest.mark.parametrize("records", [None, "a string", {"context": "x", "answer": "y"}, 42])
def test_predict_batch_of_a_non_list_is_a_clear_type_error(model, records):
    with pytest.raises(TypeError, match="records must be a list") as info:
        Detector(model).predict_batch(records)
    assert isinstance(info.value, ConfigError)


# ---------------------------------------------------------------- terminal safety

def _hostile_result() -> DetectionResult:
    answer = f"It opened in 1991 {HOSTILE}. Then\r\nmore."
    evidence = EvidenceRef(0, 0, 0, 10, f"museum {HOSTILE}", 0.5)
    sentence = SentenceResult(0, 0, len(answer), answer, 0.9, "unsupported", evidence)
    span = Span(13, 30, answer[13:30], 0.9, "conflict", "word", 0)
    return DetectionResult(f"id{HOSTILE}", answer, "hallucinated", 0.9, 0.5, "EvidenceChain_LR", "m",
                           [sentence], [span], question=f"Q{HOSTILE}", note=f"note {HOSTILE}")


@pytest.mark.parametrize("colour", [False, True])
def test_pretty_output_escapes_control_characters_from_inputs(colour):
    out = pretty(_hostile_result(), colour=colour)
    for code in STYLE.values():
        out = out.replace(code, "")
    out = out.replace("\033[0m", "")
    assert not any(c in out for c in "\x1b\x07\x00\r\u202e\x9b"), repr(out)
    assert "\\x1b]0;pwned\\x07" in out and "\\u202e" in out and "\\r" in out


def test_terminal_safe_keeps_text_newlines_and_tabs():
    assert terminal_safe("a\tb\nc\r\nd é 東京") == "a\tb\nc\nd é 東京"
    assert terminal_safe("\x1b[2J") == "\\x1b[2J"


@pytest.mark.parametrize("colour", ["never", "always"])
def test_detect_pretty_sends_no_escape_sequence_from_an_answer(tmp_path, saved_model, colour):
    path = _jsonl(tmp_path / "evil.jsonl", [{"id": f"x{HOSTILE}", "context": "The museum opened in 1987.",
                                             "question": f"When{HOSTILE}?", "answer": f"It opened in 1991.{HOSTILE}"}])
    code, out, err = _cli(["detect", str(path), "--model", str(saved_model), "--format", "pretty",
                           "--color", colour, "-q"])
    assert code == 0, err
    for style in STYLE.values():
        out = out.replace(style, "")
    out = out.replace("\033[0m", "")
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out and "pwned" in out


# ---------------------------------------------------------------- messages that say where and what

def test_a_csv_cell_over_the_cell_limit_names_its_line(tmp_path, monkeypatch):
    monkeypatch.setattr(plain, "CSV_CELL_LIMIT", 1000)
    path = tmp_path / "wide.csv"
    with open(path, "w", newline="") as handle:
        csv.writer(handle).writerows([["context", "answer"], ["x", "y"], ["x", "y"], ["z" * 2000, "y"]])
    problems = _check_plain(path)
    assert len(problems) == 1 and problems[0].startswith(f"{path}:4: ") and "longer than 1,000" in problems[0]


def test_a_long_csv_cell_within_the_limit_is_read(tmp_path):
    path = tmp_path / "article.csv"
    with open(path, "w", newline="") as handle:
        csv.writer(handle).writerows([["context", "answer"], ["word " * 40_000, "y"]])
    assert len(load_plain(path).responses) == 1


def test_a_duplicate_id_from_the_line_number_default_says_so(tmp_path):
    path = _jsonl(tmp_path / "ids.jsonl", [{"id": "3", "context": "x", "answer": "a"},
                                           {"context": "x", "answer": "b"}, {"context": "x", "answer": "c"}])
    (problem,) = _check_plain(path)
    assert problem.startswith(f"{path}:3: field 'id'") and "no 'id'" in problem and "line number" in problem
    path = _jsonl(tmp_path / "ids2.jsonl", [{"context": "x", "answer": "a"}, {"id": 1, "context": "x", "answer": "b"}])
    (problem,) = _check_plain(path)
    assert "line 1 has no 'id' and takes its line number 1 as id" in problem


# ---------------------------------------------------------------- properties

JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                           | st.text(max_size=20), lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8)
FIELDS = ("id", "context", "question", "answer", "label", "spans", "model", "temperature")
TOML_VALUES = st.recursive(
    st.booleans() | st.integers(-2**63, 2**63 - 1) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_categories=("Cs", "Cc")), max_size=20) | st.sampled_from(["Lexical", "BM25"]),
    lambda inner: st.lists(inner, max_size=3), max_leaves=6) | st.just({})
"""Values written as TOML literals (JSON syntax is valid TOML for these: no surrogate escapes, no control
characters; `ensure_ascii=False` keeps characters beyond the BMP as they are)."""
RECORD = st.dictionaries(st.sampled_from(FIELDS), JSON_VALUES | st.text(min_size=1, max_size=30), max_size=8)


def _accounted(path: Path, lines: int) -> None:
    """`load_plain` either returns every non-blank record or names file, line and field of problems."""
    try:
        corpus = load_plain(path)
    except DataValidationError as exc:
        assert exc.problems and all(p.file == str(path) and p.line >= 0 and p.field for p in exc.problems)
        return
    assert len(corpus.responses) == lines


@_fuzz(60)
@given(records=st.lists(RECORD, min_size=1, max_size=4))
def test_plain_jsonl_with_random_field_types_loads_every_record_or_names_them(tmp_path, records):
    path = _jsonl(tmp_path / "r.jsonl", records)
    _accounted(path, len(records))


@_fuzz(40)
@given(records=st.lists(RECORD, min_size=1, max_size=4))
def test_plain_csv_with_random_cells_loads_every_record_or_names_them(tmp_path, records):
    path = tmp_path / "r.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(FIELDS))
        writer.writeheader()
        for r in records:
            writer.writerow({k: v if isinstance(v, str) else json.dumps(v) for k, v in r.items()})
    _accounted(path, len(records))


@_fuzz(40)
@given(data=st.binary(max_size=300), suffix=st.sampled_from([".jsonl", ".csv", ".jsonl.gz"]))
def test_random_bytes_to_detect_are_one_error_line_or_scored(tmp_path, saved_model, data, suffix):
    path = tmp_path / f"bytes{suffix}"
    path.write_bytes(data)
    code, out, err = _cli(["detect", str(path), "--model", str(saved_model), "-q"])
    assert code in (0, 2), err
    if code == 2:
        lines = err.strip().splitlines()
        assert lines and all(line.startswith("error: ") for line in lines) and str(path) in err
        assert len(lines) == 1 or "problem(s)" in lines[0], lines  # one line, or a data error's lines
    else:
        assert len(out.splitlines()) == len(load_plain(path).responses)


@_fuzz(40)
@given(response=st.binary(max_size=200), source=st.binary(max_size=200))
def test_random_bytes_as_ragtruth_files_raise_only_input_errors(tmp_path, response, source):
    resp, src = tmp_path / "response.jsonl", tmp_path / "source_info.jsonl"
    resp.write_bytes(response)
    src.write_bytes(source)
    try:
        load_ragtruth(resp, src)
    except InputError:
        pass
    code, _, err = _cli(["data", "check", "--response-jsonl", str(resp), "--source-info-jsonl", str(src)])
    assert code in (0, 1) and "Traceback" not in err


@_fuzz(50)
@given(data=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_random_config_documents_are_config_errors(tmp_path, data):
    path = tmp_path / "c.toml"
    path.write_bytes(data)
    try:
        load_config(path)
    except ConfigError as exc:
        assert str(path) in str(exc) and "\n" not in str(exc)


@_fuzz(40)
@given(key=st.sampled_from(["names", "primary", "response_aggregation"]), value=TOML_VALUES)
def test_random_detector_settings_are_config_errors_or_valid(tmp_path, key, value):
    path = _with_detector_setting(tmp_path / "c.toml", key, json.dumps(value, ensure_ascii=False) if value != {} else "{}")
    try:
        load_config(path)
    except EvidenceChainError as exc:
        assert isinstance(exc, ConfigError) and str(path) in str(exc) and "invalid TOML" not in str(exc)


TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)


@_fuzz(40)
@given(texts=st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=4))
def test_written_ragtruth_files_read_back_every_record(tmp_path, texts):
    sources = {f"s{k}": Source(f"s{k}", "Summary", "CNN/DM", ctx or "x", "Summarize.") for k, (ctx, _) in
               enumerate(texts)}
    responses = [Response(str(k), f"s{k}", "m", 0.0, (), "test", "good", ans) for k, (_, ans) in enumerate(texts)]
    write_ragtruth(Corpus("w", sources, responses, {}), tmp_path / "out")
    back = load_ragtruth(tmp_path / "out" / "response.jsonl", tmp_path / "out" / "source_info.jsonl", quality=None)
    assert [r.response for r in back.responses] == [r.response for r in responses]
    assert {k: s.source_info for k, s in back.sources.items()} == {k: s.source_info for k, s in sources.items()}


@_fuzz(60)
@given(text=st.text(max_size=60))
def test_terminal_safe_never_lets_a_control_character_through(text):
    safe = terminal_safe(text)
    assert not any(ord(c) < 32 and c not in "\t\n" or 0x7f <= ord(c) <= 0x9f for c in safe)


def test_run_on_a_corpus_of_one_class_stops_before_features_with_one_line(tmp_path, monkeypatch, audit_corpus):
    from evidencechain.features.table import FeatureExtractor

    rows = [json.loads(line) for line in (audit_corpus / "response.jsonl").read_text().splitlines()]
    resp = _jsonl(tmp_path / "response.jsonl", [r for r in rows if not r["labels"]])
    monkeypatch.setattr(FeatureExtractor, "fit", lambda *a, **k: pytest.fail("features were computed"))
    _one_line(["run", "--config", str(AUDIT_TOML), "--out", str(tmp_path / "run"), "--response-jsonl", str(resp),
               "--source-info-jsonl", str(audit_corpus / "source_info.jsonl")],
              "training corpus", "is supported", "[detectors] names")
    assert not (tmp_path / "run").exists()
