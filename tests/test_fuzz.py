"""Property-based fuzzing of every input boundary (hypothesis: bounded, seeded, no database).

Each property feeds generated input to one boundary and checks that it either works and
accounts for everything it read, or fails with the documented error (one `error:` line from
the CLI, exit 2), never with any other exception and never leaving a partial output:

1. corrupted RAGTruth files: `load_ragtruth` and `data check`
2. plain JSONL / CSV answers: `load_plain`
3. odd but valid answers scored end to end: `EvidenceChain.score` / `predict`, `detect`
4. mutated experiment configs: `load_config`, `run --config`
5. failing commands leave no partial output: `detect`, `run`, `data audit`
6. regression: `run` on an unlabelled plain corpus stops before any feature extraction

Beside the random properties, a few exhaustive tables (every field x every edge value, every
literal x every Data2txt position) catch rare combinations deterministically; `@example`s pin
the bugs this suite found (huge integer temperatures, damaged gzip data, deeply nested literals
in Data2txt evidence, an unknown spaCy pipeline). Known, unfixed holes are strict xfails.

Everything is written under pytest's tmp_path (the working directory is tmp_path too).
`derandomize=True` and `database=None` make every run draw the same examples.

Not covered on purpose: long runs of punctuation ("?" * 4000) take spaCy's tokenizer
quadratic time (about 2.5 s for 4,000 characters), so generated texts stay short.
"""
from __future__ import annotations

import contextlib
import csv
import gzip
import io
import itertools
import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from evidencechain import cli
from evidencechain.config import ExperimentConfig, load_config
from evidencechain.data.check import check_files
from evidencechain.data.plain import load_plain
from evidencechain.data.ragtruth import MAX_PROBLEMS, DataValidationError, load_ragtruth, write_ragtruth
from evidencechain.errors import ConfigError, InputError
from evidencechain.features import FeatureConfig
from evidencechain.features.table import STATUS_EMPTY, STATUS_SCORED
from evidencechain.io import MARKER, staged_directory
from evidencechain.model import EvidenceChain
from evidencechain.records import Corpus, Response, Source, is_empty_answer
from evidencechain.text.chunks import build_evidence

ROOT = Path(__file__).resolve().parents[1]
RAGTRUTH_VALID = ROOT / "tests" / "fixtures" / "ragtruth" / "valid"
AUDIT_TOML = ROOT / "experiments" / "audit.toml"
DETECTORS = ("Lexical", "NLI_Rules", "EvidenceChain_LR")
PRIMARY = "EvidenceChain_LR"


def fuzz(examples: int):
    """Bounded, deterministic hypothesis settings (fits `make test`)."""
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    print_blob=False,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much,
                                           HealthCheck.large_base_example])


@pytest.fixture(autouse=True)
def _work_in_tmp(tmp_path, monkeypatch):
    """Relative defaults (.cache, results/...) land under tmp_path, never in the project."""
    monkeypatch.chdir(tmp_path)


_fresh = itertools.count()


def _fresh_dir(root: Path, prefix: str = "ex") -> Path:
    """A new directory per hypothesis example (tmp_path is shared by all examples of a test)."""
    out = root / f"{prefix}{next(_fresh)}"
    out.mkdir(parents=True)
    return out


def _cli(argv: list[str]) -> tuple[int, str, str]:
    """Run the CLI in-process: (exit code, stdout, stderr); an unexpected exception propagates."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


def _error_lines(err: str, *names: str) -> str:
    """One `error:` line, or a data error: a count line, then one `error:` line per problem."""
    lines = err.strip().splitlines()
    assert lines and all(line.startswith("error: ") for line in lines), err
    assert len(lines) == 1 or "problem(s)" in lines[0], err
    for name in names:
        assert any(name in line for line in lines), (name, lines)
    return "\n".join(lines)


def _tree(root: Path) -> dict[str, bytes] | None:
    """Every file under `root` with its bytes (None if `root` does not exist)."""
    if not root.exists():
        return None
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _assert_problems_name_file_and_line(exc: DataValidationError, files: set[str]) -> None:
    text = str(exc)
    assert exc.problems and exc.total >= len(exc.problems)
    for p in exc.problems[:MAX_PROBLEMS]:
        assert p.file in files, p
        assert p.line >= 1 and isinstance(p.field, str), p
        assert f"{p.file}:{p.line}: field '{p.field}'" in text, p


# =========================================================================== 1. RAGTruth files

RESPONSE_FIELDS = ["id", "source_id", "model", "temperature", "labels", "split", "quality", "response",
                   "sentence_meta", "response_label"]
SOURCE_FIELDS = ["source_id", "task_type", "source", "source_info", "prompt"]
ODD_STRINGS = ["", " ", "NaN", "nan", "Infinity", "-Infinity", "1e999", "0x10", "\r\n", "a\r\nb", "\ufeff",
               "\ud800", "x\udfff", "\ud83d\ude00", "😀👍🏽", "\x00", "\u2028", "\u0085", "good", "truncated",
               "incorrect_refusal", "train", "test", "calibration", "QA", "Summary", "Data2txt", "Dialogue",
               "Evident Conflict", "15501", "15504", "0", "6"]
JSON_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(),
    st.sampled_from([2**63, -(2**63) - 1, 10**400, -(10**400), 0, 1, -1]),
    st.floats(),  # NaN and infinities too: json.dumps writes NaN / Infinity, which json.loads accepts
    st.sampled_from(ODD_STRINGS), st.text(max_size=12))
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["start", "end", "text", "label_type", "question", "passages", "meta", "supported",
                         "\ud800", ""]) | st.text(max_size=4), inner, max_size=3),
    max_leaves=6)
RAW = "__RAW_JSON_VALUE__"
RAW_VALUES = ["1" + "0" * 5000, "1e999", "-1e999", "NaN", "-Infinity", "[" * 150 + "]" * 150,
              "[" * 3000 + "]" * 3000, '"\\ud800"', '"\\udc00x"', '"a\\u0000b"', "01", "tru", '"open', "{}",
              "[]", "-0", "1E400"]
NESTED_PATHS = [("labels", 0, "start"), ("labels", 0, "end"), ("labels", 0, "text"), ("labels", 0, "label_type"),
                ("labels", 0, "meta"), ("labels", 0, "implicit_true"), ("labels", 0, "due_to_null"), ("labels", 0),
                ("labels", 1), ("source_info", "question"), ("source_info", "passages"),
                ("source_info", "passages", 0), ("source_info", "name"), ("sentence_meta",),
                ("sentence_meta", 0), ("sentence_meta", 0, "start"), ("sentence_meta", 0, "chunk_index")]
LINE_BYTES = st.binary(max_size=40) | st.sampled_from(
    [b"", b"   ", b"\r", b"\x00", b"\xff\xfe", b"\xed\xa0\x80", b"\xc3", b"\xef\xbb\xbf{}", b"null", b"[]", b"42",
     b'"str"', b"{", b"}", b'{"id": 1}', b"{}", b'{"id": "0"}'])
FILES = st.sampled_from(["response", "source"])
INDEX = st.integers(0, 12)
KEYS = st.sampled_from(RESPONSE_FIELDS + SOURCE_FIELDS + ["extra", "\ud800", ""])
OPS = st.one_of(
    st.tuples(st.just("delete"), FILES, INDEX),
    st.tuples(st.just("duplicate"), FILES, INDEX),
    st.tuples(st.just("drop_field"), FILES, INDEX, INDEX),
    st.tuples(st.just("set_field"), FILES, INDEX, KEYS, JSON_VALUES),
    st.tuples(st.just("raw_field"), FILES, INDEX, KEYS, st.sampled_from(RAW_VALUES)),
    st.tuples(st.just("set_nested"), FILES, INDEX, st.sampled_from(NESTED_PATHS), JSON_VALUES),
    st.tuples(st.just("truncate"), FILES, INDEX, st.integers(0, 1500)),
    st.tuples(st.just("replace_line"), FILES, INDEX, LINE_BYTES),
    st.tuples(st.just("insert_line"), FILES, INDEX, LINE_BYTES),
    st.tuples(st.just("bom"), FILES),
    st.tuples(st.just("crlf"), FILES),
    st.tuples(st.just("swap")),
)


def _fixture_lines() -> dict[str, list[bytes]]:
    return {"response": (RAGTRUTH_VALID / "response.jsonl").read_bytes().splitlines(),
            "source": (RAGTRUTH_VALID / "source_info.jsonl").read_bytes().splitlines()}


def _dump(row: dict, ascii_only: bool) -> bytes:
    # surrogatepass: a lone surrogate written raw (ensure_ascii=False) becomes invalid UTF-8
    return json.dumps(row, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")


def _edit_row(lines: list[bytes], i: int, op: tuple, ascii_only: bool) -> None:
    """Apply a field operation to line i if it holds a JSON object (else leave it)."""
    try:
        row = json.loads(lines[i])
    except (ValueError, RecursionError):
        return
    if not isinstance(row, dict):
        return
    kind = op[0]
    if kind == "drop_field":
        if row:
            del row[list(row)[op[3] % len(row)]]
    elif kind == "set_field":
        row[op[3]] = op[4]
    elif kind == "set_nested":
        _set_nested(row, op[3], op[4])
    elif kind == "raw_field":  # a value json.dumps cannot write: splice the text in
        row[op[3]] = RAW
        lines[i] = _dump(row, ascii_only).replace(json.dumps(RAW).encode(), op[4].encode())
        return
    lines[i] = _dump(row, ascii_only)


def _set_nested(row: dict, path: tuple, value) -> None:
    node = row
    for step in path[:-1]:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return
    last = path[-1]
    if isinstance(node, dict) and isinstance(last, str):
        node[last] = value
    elif isinstance(node, list) and isinstance(last, int) and last < len(node):
        node[last] = value


def _mutate(files: dict[str, list[bytes]], ops: list[tuple], ascii_only: bool) -> dict[str, list[bytes]]:
    files = {k: list(v) for k, v in files.items()}
    for op in ops:
        kind = op[0]
        if kind == "swap":
            files = {"response": files["source"], "source": files["response"]}
            continue
        lines = files[op[1]]
        if kind == "bom":
            lines[:1] = [b"\xef\xbb\xbf" + (lines[0] if lines else b"")]
            continue
        if kind == "crlf":
            files[op[1]] = [line + b"\r" for line in lines]
            continue
        if kind == "insert_line":
            lines.insert(op[2] % (len(lines) + 1), op[3])
            continue
        if not lines:
            continue
        i = op[2] % len(lines)
        if kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "truncate":
            lines[i] = lines[i][:op[3] % (len(lines[i]) + 1)]
        elif kind == "replace_line":
            lines[i] = op[3]
        else:
            _edit_row(lines, i, op, ascii_only)
    return files


def _write_pair(directory: Path, files: dict[str, list[bytes]]) -> tuple[Path, Path]:
    resp, src = directory / "response.jsonl", directory / "source_info.jsonl"
    resp.write_bytes(b"".join(line + b"\n" for line in files["response"]))
    src.write_bytes(b"".join(line + b"\n" for line in files["source"]))
    return resp, src


def _rows(path: Path) -> list[dict]:
    """The non-blank rows of a file that loaded without problems, read independently."""
    rows = []
    for number, raw in enumerate(path.read_bytes().split(b"\n"), start=1):
        if number == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        text = raw.decode("utf-8")
        if text.strip():
            rows.append(json.loads(text))
    return rows


def _assert_accounted(corpus: Corpus, resp: Path, src: Path) -> None:
    """Every valid response row is kept or counted as filtered; every source row likewise."""
    responses, sources = _rows(resp), _rows(src)
    kept = [r for r in responses if r["quality"] == "good"]
    assert [r.id for r in corpus.responses] == [r["id"] for r in kept]
    assert [r.response for r in corpus.responses] == [r["response"] for r in kept]
    by_quality = Counter(f"quality={r['quality']}" for r in responses if r["quality"] != "good")
    assert {k: v for k, v in corpus.filtered.items() if k.startswith("quality=")} == dict(by_quality)
    assert len(corpus.responses) + sum(by_quality.values()) == len(responses)
    assert set(corpus.sources) == {r["source_id"] for r in kept}
    assert len(corpus.sources) + corpus.filtered.get("sources without kept responses", 0) == len(sources)
    for r in corpus.responses:
        assert r.source_id in corpus.sources
        for lab in r.labels:
            assert 0 <= lab.start < lab.end <= len(r.response) and r.response[lab.start:lab.end] == lab.text


@fuzz(100)
@given(ops=st.lists(OPS, min_size=1, max_size=4), ascii_only=st.booleans())
@example(ops=[("set_field", "response", 0, "temperature", 10**400)], ascii_only=True)  # was an OverflowError
@example(ops=[("set_field", "response", 0, "temperature", -(10**400))], ascii_only=True)
@example(ops=[("raw_field", "response", 3, "labels", "[" * 3000 + "]" * 3000)], ascii_only=True)
@example(ops=[("set_field", "response", 2, "quality", "good"), ("delete", "source", 4)], ascii_only=True)
@example(ops=[("set_field", "response", 6, "response", "bad \ud800 text")], ascii_only=False)
@example(ops=[("swap",)], ascii_only=True)
def test_corrupted_ragtruth_files_load_or_name_file_and_line(tmp_path, ops, ascii_only):
    resp, src = _write_pair(_fresh_dir(tmp_path), _mutate(_fixture_lines(), ops, ascii_only))
    try:
        corpus = load_ragtruth(resp, src)
    except DataValidationError as exc:
        corpus, error = None, exc
        event("refused")
        _assert_problems_name_file_and_line(exc, {str(resp), str(src)})
    else:
        event("loaded")
        _assert_accounted(corpus, resp, src)

    code, out, err = _cli(["data", "check", "--response-jsonl", str(resp), "--source-info-jsonl", str(src)])
    if code == 2:
        _error_lines(err)
        return
    assert err == ""
    assert code == (0 if corpus is not None else 1), out
    if corpus is not None:
        assert out.rstrip().endswith("OK")
        assert f"Responses: {len(corpus.responses)} kept of {len(_rows(resp))} valid rows read" in out
    else:
        assert "FAILED" in out
        report = check_files(resp, src)  # the check refuses exactly what the loader refuses
        assert [str(p) for p in report.problems][:MAX_PROBLEMS] == [str(p) for p in error.problems]
        assert len(report.problems) == error.total


EDGE_VALUES = [None, True, False, 0, -1, 1, 2**63, 10**400, -(10**400), 1.5, 1e308, float("nan"), float("inf"),
               float("-inf"), "", " ", "\r\n", "\ud800", "NaN", "0", "good", [], [None], [[[]]], {}, {"start": 0},
               ["x"] * 3, [[0]] * 101, "x" * 5000]
"""Every value a JSON field can be confused with, tried in every field below (deterministic)."""
EDGE_PATHS = {
    "response": [(name,) for name in RESPONSE_FIELDS] + [("labels", 0, key) for key in (
        "start", "end", "text", "label_type", "meta", "implicit_true", "due_to_null")] + [("labels", 0)],
    "source": [(name,) for name in SOURCE_FIELDS] + [("source_info", "question"), ("source_info", "passages"),
                                                     ("source_info", "passages", 0), ("source_info", "name")],
}
EDGE_LINES = {"response": [2, 5], "source": [1, 3, 4]}  # rows with labels; a QA, a Summary, a Data2txt source


def test_every_field_confused_with_every_edge_value(tmp_path):
    """Exhaustive single-field edits of the fixture: each loads and is accounted for, or is named."""
    files = _fixture_lines()
    for kind, numbers in EDGE_LINES.items():
        for number, path, value in itertools.product(numbers, EDGE_PATHS[kind], EDGE_VALUES):
            for ascii_only in (True, False) if value == "\ud800" else (True,):
                edited = _mutate(files, [("set_nested", kind, number - 1, path, value)], ascii_only)
                resp, src = _write_pair(_fresh_dir(tmp_path, "edge"), edited)
                where = (kind, number, path, repr(value)[:40], ascii_only)
                report = check_files(resp, src)
                try:
                    corpus = load_ragtruth(resp, src)
                except DataValidationError as exc:
                    assert not report.ok, where
                    _assert_problems_name_file_and_line(exc, {str(resp), str(src)})
                    assert [str(p) for p in report.problems][:MAX_PROBLEMS] == [str(p) for p in exc.problems]
                else:
                    assert report.ok, where
                    _assert_accounted(corpus, resp, src)


# =========================================================================== 2. plain answers

TEXT = st.text(max_size=60) | st.sampled_from(
    ["", " ", "\r\n", "\t\n ", "Line one.\r\nLine two.", "😀👍🏽 emoji 🇫🇷", "é ü ß ñ", "\u2028\u2029", "\x00",
     "\ufeff", "Ünïcödé tëxt. Ωmega!", "a" * 300, "NaN"])
NONBLANK = st.builds(lambda pre, word, post: pre + word + post, TEXT,
                     st.sampled_from(["Evidence.", "x", "Ω", "😀", "42", "\u00a0y"]), TEXT)
CONTEXT = NONBLANK | st.tuples(st.lists(TEXT, max_size=3), NONBLANK, st.integers(0, 3)).map(
    lambda t: t[0][:t[2]] + [t[1]] + t[0][t[2]:])  # a passage list with at least one non-blank passage
SPAN_TYPES = ["conflict", "baseless", " Conflict ", "BASELESS", "Evident Conflict", "subtle baseless info",
              "Subtle Conflict"]


@st.composite
def valid_records(draw) -> dict:
    """A record load_plain must accept (ids are added by the caller)."""
    answer = draw(TEXT)
    record: dict = {"context": draw(CONTEXT), "answer": answer}
    if draw(st.booleans()):
        record["question"] = draw(TEXT | st.none())
    spans = None
    if answer and draw(st.booleans()):
        spans = []
        for _ in range(draw(st.integers(0, 3))):
            start = draw(st.integers(0, len(answer) - 1))
            span = {"start": start, "end": draw(st.integers(start + 1, len(answer)))}
            if draw(st.booleans()):
                span["text"] = answer[span["start"]:span["end"]]
            if draw(st.booleans()):
                span["type"] = draw(st.sampled_from(SPAN_TYPES))
            spans.append(span)
        record["spans"] = spans
    labels = [1, True, "1", "true", " TRUE "] if spans else [0, 1, False, True, "0", "false", "True", None]
    if draw(st.booleans()):
        record["label"] = draw(st.sampled_from(labels))
    if draw(st.booleans()):
        record["model"] = draw(TEXT)
    if draw(st.booleans()):
        record["temperature"] = draw(st.integers(-10**6, 10**6)
                                     | st.floats(allow_nan=False, allow_infinity=False))
    return record


MESSY_VALUE = JSON_VALUES | TEXT
MESSY_SPAN = st.fixed_dictionaries({}, optional={"start": st.integers(-3, 80) | MESSY_VALUE,
                                                 "end": st.integers(-3, 80) | MESSY_VALUE,
                                                 "text": TEXT | MESSY_VALUE,
                                                 "type": st.sampled_from(SPAN_TYPES + ["other", ""]) | MESSY_VALUE})
MESSY_RECORD = st.fixed_dictionaries({}, optional={
    "context": CONTEXT | MESSY_VALUE, "answer": TEXT | MESSY_VALUE, "question": TEXT | MESSY_VALUE,
    "id": st.integers() | TEXT | MESSY_VALUE, "label": st.sampled_from([0, 1, "yes", 2, True]) | MESSY_VALUE,
    "spans": st.lists(MESSY_SPAN, max_size=3) | MESSY_VALUE, "model": TEXT | MESSY_VALUE,
    "temperature": st.floats() | st.integers() | MESSY_VALUE, "extra": MESSY_VALUE})


def _assert_plain_corpus(corpus: Corpus, answers: list[str], ids: list[str]) -> None:
    assert [r.id for r in corpus.responses] == ids
    assert [r.response for r in corpus.responses] == answers
    for r in corpus.responses:
        assert r.source_id in corpus.sources and r.split == "test"
        for lab in r.labels:
            assert 0 <= lab.start < lab.end <= len(r.response)
            assert r.response[lab.start:lab.end] == lab.text
        if r.labels:
            assert r.hallucinated


def _write_jsonl(path: Path, lines: list[bytes], gz: bool) -> Path:
    data = b"".join(line + b"\n" for line in lines)
    if gz:
        path = path.with_name(path.name + ".gz")
        path.write_bytes(gzip.compress(data, mtime=0))
    else:
        path.write_bytes(data)
    return path


@fuzz(60)
@given(records=st.lists(valid_records(), min_size=1, max_size=5), explicit_ids=st.booleans(),
       ascii_only=st.booleans(), gz=st.booleans())
def test_valid_plain_records_all_load(tmp_path, records, explicit_ids, ascii_only, gz):
    if explicit_ids:
        records = [{"id": f"a{n}", **r} for n, r in enumerate(records)]
    lines = [json.dumps(r, ensure_ascii=ascii_only).encode("utf-8") for r in records]
    path = _write_jsonl(_fresh_dir(tmp_path) / "answers.jsonl", lines, gz)
    corpus = load_plain(path)
    ids = [f"a{n}" for n in range(len(records))] if explicit_ids else [str(n) for n in range(1, len(records) + 1)]
    _assert_plain_corpus(corpus, [r["answer"] for r in records], ids)
    gold = ["spans" in r or r.get("label") is not None for r in records]
    assert corpus.labelled == all(gold)
    assert corpus.span_labels == all("spans" in r for r in records)
    assert len(corpus.sources) == len({(json.dumps(r["context"]), r.get("question") or None) for r in records})


@fuzz(100)
@given(records=st.lists(MESSY_RECORD | valid_records(), min_size=1, max_size=5),
       raw_lines=st.lists(st.tuples(st.integers(0, 5), LINE_BYTES), max_size=2), ascii_only=st.booleans())
@example(records=[{"context": "c", "answer": "a", "temperature": 10**400}], raw_lines=[], ascii_only=True)
@example(records=[{"context": "c", "answer": "a", "temperature": -(10**400)}], raw_lines=[], ascii_only=True)
@example(records=[{"context": "c", "answer": "a\ud800"}], raw_lines=[], ascii_only=False)
def test_messy_plain_records_load_or_name_file_line_and_field(tmp_path, records, raw_lines, ascii_only):
    lines = [json.dumps(r, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass") for r in records]
    for at, raw in raw_lines:
        lines.insert(at % (len(lines) + 1), raw)
    path = _write_jsonl(_fresh_dir(tmp_path) / "answers.jsonl", lines, gz=False)
    code, out, err = _cli(["data", "check", "--plain", str(path)])
    assert err == "" and out.strip(), (code, err)
    try:
        corpus = load_plain(path)
    except InputError as exc:
        assert isinstance(exc, DataValidationError), exc
        event("refused")
        assert code == 1 and str(exc.problems[0]) in out  # `data check --plain` refuses exactly the same
        if [p.message for p in exc.problems] == ["no records found"]:
            return
        _assert_problems_name_file_and_line(exc, {str(path)})
        return
    event("loaded")
    assert code == 0 and f"answers: {len(corpus.responses)}" in out
    rows = [json.loads(t) for t in (line.decode("utf-8") for line in path.read_bytes().split(b"\n"))
            if t.strip()]
    assert len(corpus.responses) == len(rows)  # one response per record
    _assert_plain_corpus(corpus, [r["answer"] for r in rows],
                         [str(r.get("id", n)) if r.get("id") is not None else str(n)
                          for n, r in _numbered_rows(path)])


def _numbered_rows(path: Path):
    for number, raw in enumerate(path.read_bytes().split(b"\n"), start=1):
        text = raw.decode("utf-8")
        if text.strip():
            yield number, json.loads(text)


PLAIN_BASE = {"id": "a1", "context": ["Passage one.", "Passage two."], "question": "Which?", "answer": "Passage one.",
              "label": 1, "spans": [{"start": 0, "end": 7, "text": "Passage", "type": "baseless"}], "model": "m",
              "temperature": 0.5}


def test_every_plain_field_confused_with_every_edge_value(tmp_path):
    """Exhaustive single-field edits of a plain record: it loads, or the problem names file:line."""
    paths = [(key,) for key in PLAIN_BASE] + [("spans", 0, key) for key in ("start", "end", "text", "type")] + [
        ("context", 0), ("spans", 0)]
    for path, value in itertools.product(paths, EDGE_VALUES):
        record = json.loads(json.dumps(PLAIN_BASE))
        _set_nested(record, path, value)
        file = _fresh_dir(tmp_path, "plain") / "answers.jsonl"
        file.write_text(json.dumps({"id": "a0", "context": "Other.", "answer": "Fine."}) + "\n" + json.dumps(record)
                        + "\n", encoding="utf-8")
        try:
            corpus = load_plain(file)
        except DataValidationError as exc:
            _assert_problems_name_file_and_line(exc, {str(file)})
            assert {p.line for p in exc.problems} == {2}, (path, value, exc.problems)
        else:
            _assert_plain_corpus(corpus, ["Fine.", record["answer"]], [r.id for r in corpus.responses])


CSV_CELL = TEXT | st.sampled_from(['"quoted, cell"', '["p1", "p2"]', "[not json", "1", "0", "true", "nan", "inf",
                                   '[{"start": 0, "end": 1}]', "[]"])


@fuzz(50)
@given(rows=st.lists(st.fixed_dictionaries({"context": CSV_CELL, "answer": CSV_CELL},
                                           optional={"question": CSV_CELL, "label": CSV_CELL, "spans": CSV_CELL,
                                                     "temperature": CSV_CELL, "id": CSV_CELL}),
                     min_size=1, max_size=4),
       gz=st.booleans())
def test_plain_csv_loads_or_names_file_line_and_field(tmp_path, rows, gz):
    columns = sorted({k for r in rows for k in r} | {"context", "answer"})
    text = io.StringIO(newline="")
    writer = csv.DictWriter(text, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows)
    data = text.getvalue().encode("utf-8", "surrogatepass")
    path = _fresh_dir(tmp_path) / ("answers.csv.gz" if gz else "answers.csv")
    path.write_bytes(gzip.compress(data, mtime=0) if gz else data)
    try:
        corpus = load_plain(path)
    except InputError as exc:
        assert isinstance(exc, DataValidationError), exc
        event("refused")
        for p in exc.problems:
            assert p.file == str(path) and p.field, p
            assert str(p) in str(exc)
        return
    event("loaded")
    assert len(corpus.responses) == len(rows)  # one response per record
    _assert_plain_corpus(corpus, [r["answer"] for r in rows], [r.id for r in corpus.responses])


@pytest.mark.parametrize("name", ["answers.jsonl.gz", "answers.csv.gz"])
def test_a_damaged_gzip_file_is_an_input_error(tmp_path, name):
    """Corrupt deflate data (zlib.error) is reported like a truncated file, not raised."""
    record = {"context": "The sky is blue. " * 5, "answer": "The sky is green. " * 5, "label": 1}
    header = "answer,context,label\n" if name.startswith("answers.csv") else ""
    rows = [json.dumps({**record, "id": n}) if not header else f"answer {n},context {n * 7919},1" for n in range(60)]
    body = header + "".join(row + "\n" for row in rows)
    data = bytearray(gzip.compress(body.encode(), mtime=0))
    for i in range(20, 60):
        data[i] ^= 0x55
    path = tmp_path / name
    path.write_bytes(bytes(data))
    with pytest.raises(DataValidationError, match=re.escape(str(path))):
        load_plain(path)


# =========================================================================== 3. scoring odd answers

def _fixture_corpus() -> Corpus:
    return load_ragtruth(RAGTRUTH_VALID / "response.jsonl", RAGTRUTH_VALID / "source_info.jsonl")


@pytest.fixture(scope="module")
def model() -> EvidenceChain:
    """One small model for the module: blank spaCy pipeline, fitted on the fixture corpus (< 1 s)."""
    corpus = _fixture_corpus()
    return EvidenceChain(detectors=DETECTORS, primary=PRIMARY,
                         features=FeatureConfig(pipeline="blank")).fit(corpus, corpus, progress=False)


@pytest.fixture(scope="module")
def saved_model(model, tmp_path_factory) -> Path:
    return model.save(tmp_path_factory.mktemp("model") / "model")


SOURCES = _fixture_corpus().sources
SENTENCES = ["Hard-boiled eggs take 10 to 12 minutes.", "The plane landed on Interstate 25.", "No one was injured.",
             "It costs $4.50 per 100 g (about 3.5 oz).", "Dr. Smith arrived at 3 p.m. on Jan. 5th.", "Why?", "!!!",
             "Ça coûte 12 €.", "東京は日本の首都です。", "مرحبا بالعالم.", "😀😀😀.", "e.g.", "- item one\n- item two"]
ODD_ANSWERS = st.one_of(
    st.sampled_from(["", " ", "\n\n\t ", "\u2028", "\ufeff", "\x00", ".", "...", "?!", "\r\n\r\n",
                     "a" * 5000, "Supercalifragilistic" * 400, "😀" * 300, "1.\n2.\n3.", "A\u0301" * 50,
                     "x" * 20000 + ".", "word " * 2000]),
    st.text(max_size=120),
    st.lists(st.sampled_from(SENTENCES), min_size=1, max_size=120).map(" ".join),
    st.lists(st.sampled_from(SENTENCES) | st.text(min_size=1, max_size=15), min_size=1, max_size=8).map("\r\n".join),
    st.sampled_from(sorted(SOURCES)).map(lambda sid: build_evidence(SOURCES[sid]).text),  # the evidence itself
)


def _check_scored(model: EvidenceChain, corpus: Corpus) -> None:
    scored = model.score(corpus, progress=False)
    responses = scored.responses
    assert list(responses["response_id"]) == [r.id for r in corpus.responses]  # one row per answer
    for r, status in zip(corpus.responses, responses["status"], strict=True):
        assert status == (STATUS_EMPTY if is_empty_answer(r.response) else STATUS_SCORED), (r.response, status)
    text_of = {r.id: r.response for r in corpus.responses}
    empty = {r.id for r in corpus.responses if is_empty_answer(r.response)}
    assert not empty & set(scored.sentences["response_id"])
    for frame in (responses, scored.sentences, scored.tokens):
        for name in DETECTORS:
            if f"risk_{name}" in frame:
                risk = frame[f"risk_{name}"].to_numpy(dtype=float)
                assert ((risk >= 0) & (risk <= 1)).all(), (name, risk)
            if f"pred_{name}" in frame:
                assert set(frame[f"pred_{name}"].unique()) <= {0, 1}
    assert (responses.loc[responses["status"] == STATUS_EMPTY, [f"risk_{n}" for n in DETECTORS]] == 0).all().all()
    for s in scored.sentences.itertuples():
        answer = text_of[s.response_id]
        assert 0 <= s.start < s.end <= len(answer) and answer[s.start:s.end] == s.text, s
    for t in scored.tokens.itertuples():
        answer = text_of[t.response_id]
        assert 0 <= t.start <= t.end <= len(answer) and answer[t.start:t.end] == t.text, t


@fuzz(30)
@given(answers=st.lists(st.tuples(ODD_ANSWERS, st.sampled_from(sorted(SOURCES))), min_size=1, max_size=5))
def test_odd_answers_to_ragtruth_sources_get_one_row_each(model, answers):
    responses = [Response(f"r{n}", sid, "unknown", 0.0, (), "test", "good", text)
                 for n, (text, sid) in enumerate(answers)]
    used = {sid for _, sid in answers}
    _check_scored(model, Corpus("odd", {k: v for k, v in SOURCES.items() if k in used}, responses))


@fuzz(25)
@given(records=st.lists(st.tuples(CONTEXT, ODD_ANSWERS, st.none() | TEXT), min_size=1, max_size=4))
def test_odd_plain_answers_get_one_row_each(model, tmp_path, records):
    lines = [json.dumps({"context": c, "answer": a, **({"question": q} if q is not None else {})}).encode()
             for c, a, q in records]
    corpus = load_plain(_write_jsonl(_fresh_dir(tmp_path) / "answers.jsonl", lines, gz=False))
    _check_scored(model, corpus)


@fuzz(30)
@given(answer=ODD_ANSWERS, sid=st.sampled_from(sorted(SOURCES)), detector=st.sampled_from(DETECTORS))
def test_predict_odd_answers(model, answer, sid, detector):
    pred = model.predict(answer, SOURCES[sid], detector=detector)
    assert 0.0 <= pred.risk <= 1.0 and pred.detector == detector
    if is_empty_answer(answer):
        assert pred.note == STATUS_EMPTY and pred.risk == 0.0 and not pred.hallucinated
        assert pred.verdict == "nothing to check" and pred.sentences == [] and pred.spans == []
        return
    assert pred.verdict != "nothing to check"
    for s in pred.sentences:
        assert answer[s.start:s.end] == s.text and 0.0 <= s.risk <= 1.0
    last = 0
    for span in pred.spans:
        assert last <= span.start < span.end <= len(answer) and answer[span.start:span.end] == span.text
        last = span.end


LITERALS = st.sampled_from([
    "{'garage': False, 'street': True}", "u'free'", "'quoted'", "{'a': [1, {'b': None}], 'c': (1, 2)}",
    "{not a literal}", "{" + "x" * 1000 + "}", "{'a': " * 150 + "1" + "}" * 150,  # deeper than the recursion
    '{"a": ' * 400 + "1" + "}" * 400, "[" * 300 + "]" * 300, "{'a': {1, 2, 3}}", "{}", "''"])  # limit allows
CLEAN_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(), TEXT, LITERALS),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8)
DATA2TXT = st.fixed_dictionaries({}, optional={
    "name": CLEAN_VALUES, "hours": st.dictionaries(st.sampled_from(["Monday", "Tuesday", ""]), CLEAN_VALUES,
                                                   max_size=2) | CLEAN_VALUES,
    "attributes": CLEAN_VALUES, "business_stars": CLEAN_VALUES,
    "review_info": st.lists(st.fixed_dictionaries({}, optional={"review_text": TEXT, "review_stars": CLEAN_VALUES,
                                                                 "review_date": TEXT}) | CLEAN_VALUES, max_size=3)
    | CLEAN_VALUES}) | st.dictionaries(st.text(max_size=8), CLEAN_VALUES, max_size=4)
QA_INFO = st.fixed_dictionaries({"question": TEXT, "passages": TEXT | st.lists(
    TEXT | st.dictionaries(st.sampled_from(["passage_text", "text", "url", "is_selected"]), CLEAN_VALUES, max_size=3),
    max_size=4)})
SUMMARY_INFO = TEXT | st.lists(st.sampled_from(SENTENCES), max_size=60).map(" ".join) | st.sampled_from(
    ["", "\n\n\n", "x" * 5000, "Passage 1: one.\nPassage 2: two."])
ODD_SOURCES = st.one_of(st.tuples(st.just("QA"), QA_INFO), st.tuples(st.just("Summary"), SUMMARY_INFO),
                        st.tuples(st.just("Data2txt"), DATA2TXT))


@fuzz(40)
@given(sources=st.lists(ODD_SOURCES, min_size=1, max_size=3),
       answers=st.lists(st.tuples(ODD_ANSWERS, st.integers(0, 2)), min_size=1, max_size=4))
@example(sources=[("Data2txt", {"name": '{"a": ' * 400 + "1" + "}" * 400})], answers=[("It is open.", 0)])
def test_odd_sources_that_pass_the_check_can_be_scored(model, tmp_path, sources, answers):
    """`data check` promises that files it passes can be scored: odd evidence of every task type."""
    srcs = {f"s{n}": Source(f"s{n}", task, "Odd", info, "Prompt.") for n, (task, info) in enumerate(sources)}
    responses = [Response(f"r{n}", f"s{k % len(srcs)}", "m", 0.0, (), "test", "good", text)
                 for n, (text, k) in enumerate(answers)]
    resp, src = write_ragtruth(Corpus("odd", srcs, responses), _fresh_dir(tmp_path))
    report = check_files(resp, src)
    if not report.ok:
        event("refused by the check")
        return
    event("scored")
    _check_scored(model, load_ragtruth(resp, src))


LITERAL_TEXTS = [
    "{'garage': False}", "u'free'", "{'a': " * 150 + "1" + "}" * 150, '{"a": ' * 400 + "1" + "}" * 400,
    "[" * 300 + "]" * 300, "{" * 300 + "}" * 300, "{'a': {1, 2}}",
    "'" + "\\" * 10 + "'", "{'a': 1e999}", "{'a': 10**400}", "{'a': b'bytes'}", "{'a': None}", "{}", "''"]
"""Strings a Yelp-like record may hold: Python / JSON literals, some nested beyond the recursion limit.
(Kept short: spaCy tokenizes a long run of punctuation in quadratic time, see the module docstring.)"""


def test_every_literal_in_every_data2txt_position_can_be_scored(model):
    """Deterministic: evidence built from literal strings anywhere in a record never raises."""
    places = [lambda t: {"name": t}, lambda t: {"attributes": {"Parking": t}}, lambda t: {"hours": {"Monday": t}},
              lambda t: {"review_info": [t]}, lambda t: {"review_info": [{"review_text": t, "stars": t}]},
              lambda t: {"other": [t, {"x": t}]}]
    sources = {}
    for n, (text, place) in enumerate(itertools.product(LITERAL_TEXTS, places)):
        sources[f"s{n}"] = Source(f"s{n}", "Data2txt", "Yelp", place(text), "Write an overview.")
        build_evidence(sources[f"s{n}"])
    sources["str"] = Source("str", "Data2txt", "Yelp", LITERAL_TEXTS[3], "Write an overview.")  # via the API
    responses = [Response(f"r-{sid}", sid, "m", 0.0, (), "test", "good", "It is open on Monday. Parking is free.")
                 for sid in sources]
    _check_scored(model, Corpus("literals", sources, responses))


def test_detect_scores_odd_answers_end_to_end(saved_model, tmp_path):
    """The CLI path once: a RAGTruth corpus of odd answers, written and scored by `detect`."""
    answers = ["", "  \n", "😀 " * 50, "a" * 3000, "Why? " * 100, build_evidence(SOURCES["15503"]).text,
               "Ünïcödé\r\nlines.\r\n"]
    responses = [Response(f"r{n}", "15503", "m", 0.5, (), "test", "good", text) for n, text in enumerate(answers)]
    resp, src = write_ragtruth(Corpus("odd", {"15503": SOURCES["15503"]}, responses), tmp_path / "data")
    code, out, err = _cli(["detect", "--model", str(saved_model), "--response-jsonl", str(resp),
                           "--source-info-jsonl", str(src), "--out", str(tmp_path / "scores"), "-q"])
    assert code == 0, err
    table = pd.read_csv(tmp_path / "scores" / "responses.csv", keep_default_na=False)
    assert list(table["response_id"]) == [f"r{n}" for n in range(len(answers))]
    assert list(table["status"][:2]) == [STATUS_EMPTY, STATUS_EMPTY]
    assert (table["status"][2:] == STATUS_SCORED).all()


# =========================================================================== 4. configs

TOML_VALUES = ['"text"', '""', "-1", "0", "1", "2", "0.5", "1e308", "-1e-9", "nan", "+inf", "-inf", "true", "false",
               "[]", '["Lexical"]', '["Lexicall", "BM25"]', '["Lexical", "Lexical"]', "[1, 2]", '[0.0, "x"]',
               "{a = 1}", "99999999999999999999", "9223372036854775807", "1979-05-27", "07:32:00",
               '"EvidenceChain_RF"', '"evidencechain_rf"', '"auto"', '"blank"', '"max"', '"median"', '"fit"',
               '"test"', '"plain"', '"halueval"', '"nonexistent/dir"', "'single'", '"""multi\nline"""', "0x10",
               "[[1]]", '"\\ud800"', '"\\u00e9"']
BROKEN_LINES = ["[detectors", "[[evaluations]", "name = ", "= 1", "name = 'unterminated", "[corpora.audit]",
                "[features]", "[[evaluations]]", "fit = \"missing\"", "test = [\"audit\"", "x.y.z = 1", "seed = 1",
                "[detectors.params.Nonsense]", "[detectors.params.Lexical]", "unknown_key = 1", "\x00", "\ufeff",
                "a = " + "[" * 50 + "]" * 50]
# Not drawn while they are known holes (see CONFIG_HOLES below): "[detectors.params.Provenance]"
# (its errors do not name the file) and nesting deeper than the recursion limit (RecursionError).
KEY_LINE = re.compile(r"^(\s*)([A-Za-z0-9_]+)(\s*=\s*)(.*)$")


def _misspell(key: str, how: int) -> str:
    if how == 0:
        return key[:-1]
    if how == 1:
        return key.upper()
    if how == 2 and len(key) > 2:
        return key[1] + key[0] + key[2:]
    return key + "s"


CONFIG_OPS = st.one_of(
    st.tuples(st.just("value"), INDEX, st.sampled_from(TOML_VALUES)),
    st.tuples(st.just("misspell"), INDEX, st.integers(0, 3)),
    st.tuples(st.just("delete"), st.integers(0, 60)),
    st.tuples(st.just("duplicate"), st.integers(0, 60)),
    st.tuples(st.just("insert"), st.integers(0, 60), st.sampled_from(BROKEN_LINES)),
    st.tuples(st.just("truncate"), st.integers(0, 3000)),
    st.tuples(st.just("bytes"), st.integers(0, 3000), st.binary(min_size=1, max_size=6)),
)


def _mutate_config(text: str, ops: list[tuple]) -> bytes:
    data = text.encode()
    for op in ops:
        lines = data.decode("utf-8", "replace").split("\n")
        keyed = [n for n, line in enumerate(lines) if KEY_LINE.match(line)]
        kind = op[0]
        if kind in ("value", "misspell") and keyed:
            n = keyed[op[1] % len(keyed)]
            indent, key, eq, value = KEY_LINE.match(lines[n]).groups()
            lines[n] = f"{indent}{key}{eq}{op[2]}" if kind == "value" else f"{indent}{_misspell(key, op[2])}{eq}{value}"
        elif kind == "delete" and lines:
            del lines[op[1] % len(lines)]
        elif kind == "duplicate" and lines:
            n = op[1] % len(lines)
            lines.insert(n, lines[n])
        elif kind == "insert":
            lines.insert(op[1] % (len(lines) + 1), op[2])
        data = "\n".join(lines).encode("utf-8", "surrogatepass")
        if kind == "truncate":
            data = data[:op[1] % (len(data) + 1)]
        elif kind == "bytes":
            at = op[1] % (len(data) + 1)
            data = data[:at] + op[2] + data[at:]
    return data


@fuzz(100)
@given(ops=st.lists(CONFIG_OPS, min_size=1, max_size=3))
def test_mutated_configs_load_or_raise_config_error_naming_the_file(tmp_path, ops):
    path = _fresh_dir(tmp_path) / "experiment.toml"
    path.write_bytes(_mutate_config(AUDIT_TOML.read_text("utf-8"), ops))
    try:
        config = load_config(path)
    except ConfigError as exc:
        event("refused")
        assert str(path) in str(exc), str(exc)
    else:
        event("loaded")
        assert isinstance(config, ExperimentConfig) and config.path == str(path)


def _run_config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    return path


AUDIT_TEXT = AUDIT_TOML.read_text("utf-8")
BROKEN_CONFIGS = {
    "broken TOML": AUDIT_TEXT.replace("[detectors]", "[detectors"),
    "unknown key": AUDIT_TEXT.replace("seed = 17", "seeds = 17"),
    "wrong type": AUDIT_TEXT.replace("seed = 17", 'seed = "17"'),
    "out of range": AUDIT_TEXT.replace("calibration_fraction = 0.2", "calibration_fraction = 1.5"),
    "unknown detector": AUDIT_TEXT.replace('"BM25"', '"BM26"'),
    "unknown section": AUDIT_TEXT + "\n[detector]\nnames = []\n",
    "undefined corpus": AUDIT_TEXT.replace('test = ["audit"]', 'test = ["audti"]'),
    "not UTF-8": AUDIT_TEXT.replace('name = "audit"', 'name = "\xff"'),  # written as Latin-1
}


@pytest.mark.parametrize("argv", [["data", "check"], ["data", "check", "--response-jsonl", "r.jsonl"],
                                  ["data", "check", "--plain", "a.jsonl", "--response-jsonl", "r.jsonl"]])
def test_data_check_with_a_wrong_combination_of_files_exits_2(argv):
    try:
        code, _, err = _cli(argv)
    except SystemExit as exc:
        pytest.fail(f"SystemExit({exc.code!r}) instead of returning 2")
    assert code == 2
    _error_lines(err)


@pytest.mark.parametrize("case", list(BROKEN_CONFIGS))
def test_run_with_a_broken_config_is_one_line_and_writes_nothing(tmp_path, case):
    text = BROKEN_CONFIGS[case]
    path = tmp_path / "broken.toml"
    path.write_bytes(text.encode("latin-1" if case == "not UTF-8" else "utf-8"))
    out = tmp_path / "out"
    code, stdout, err = _cli(["run", "--config", str(path), "--out", str(out), "-q"])
    assert code == 2 and stdout == ""
    _error_lines(err, str(path))
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["broken.toml"]


def _fixture_config(tmp_path: Path, features: str = 'pipeline = "blank"') -> Path:
    config = tmp_path / "fixture.toml"
    config.write_text(f"""
cache_dir = ""
[corpora.fixture]
format = "ragtruth"
response_jsonl = {json.dumps(str(RAGTRUTH_VALID / "response.jsonl"))}
source_info_jsonl = {json.dumps(str(RAGTRUTH_VALID / "source_info.jsonl"))}
calibration_fraction = 0.4
[[evaluations]]
fit = "fixture"
test = ["fixture"]
[features]
{features}
[detectors]
names = ["Lexical"]
primary = "Lexical"
""", encoding="utf-8")
    return config


def test_run_with_an_unknown_spacy_pipeline_is_error_lines(tmp_path):
    """Was an OSError from spaCy ([E050]) without a file name: an internal error with a traceback."""
    out = tmp_path / "out"
    code, stdout, err = _cli(["run", "--config", str(_fixture_config(tmp_path, 'pipeline = "no_such_pipeline"')),
                              "--out", str(out), "-q"])
    assert code == 2
    _error_lines(err, "'no_such_pipeline'")
    assert not out.exists()


# Known holes, found by this suite and not fixed here (config.py was being edited in parallel):
# values the schema accepts although the run then fails with an internal error, or that do not
# name the file. Strict xfail: when fixed, these turn into failures, so drop the marker then.
CONFIG_HOLES = {  # what `evidencechain run` did with each before the schema checked it
    # RecursionError out of tomllib: an internal error with a traceback
    "nested too deeply (RecursionError)": "a = " + "[" * 2000 + "]" * 2000 + "\n" + AUDIT_TEXT,
    # ProvenanceSettings.from_params raises a ConfigError that names the table but not the file
    "Provenance params without the file name": AUDIT_TEXT + "\n[detectors.params.Provenance]\nbogus = 1\n",
    # sklearn InvalidParameterError (random_state) when the forest is fitted: internal error
    "seed beyond 2**32 - 1": AUDIT_TEXT.replace("seed = 17", "seed = 99999999999999999999"),
    # NaN passes the range check; the splitter refuses it later (one error line, but not up front)
    "NaN calibration_fraction": AUDIT_TEXT.replace("calibration_fraction = 0.2", "calibration_fraction = nan"),
    # "bins must increase monotonically" after every unit has run: internal error
    "NaN coverage bin": AUDIT_TEXT.replace("[0.0, 0.2, 0.4", "[0.0, nan, 0.4"),
    # sklearn ValueError ngram_range=(1, 0) when TF-IDF is fitted: internal error
    "tfidf_ngram_max = 0": AUDIT_TEXT.replace("tfidf_ngram_max = 2", "tfidf_ngram_max = 0"),
    # accepted; the run completes with BM25 scores of a meaningless parameter
    "negative bm25_k1": AUDIT_TEXT.replace("bm25_k1 = 1.5", "bm25_k1 = -1.5"),
    # sklearn "Input contains NaN" when detectors are fitted: internal error
    "NaN bm25_b": AUDIT_TEXT.replace("bm25_b = 0.75", "bm25_b = nan"),
    # sklearn InvalidParameterError (max_depth) when the forest is fitted: internal error
    "negative max_depth": AUDIT_TEXT.replace("max_depth = 8", "max_depth = -5"),
}


@pytest.mark.parametrize("case", list(CONFIG_HOLES))
def test_known_config_holes_are_config_errors(tmp_path, case):
    path = _run_config(tmp_path, CONFIG_HOLES[case])
    with pytest.raises(ConfigError, match=re.escape(str(path))):
        load_config(path)


# =========================================================================== 5. no partial output

MODEL_DAMAGE = st.one_of(
    st.tuples(st.sampled_from(["model.skops", "model.json"]), st.just("truncate"), st.integers(0, 10**6)),
    st.tuples(st.sampled_from(["model.skops", "model.json"]), st.just("flip"), st.integers(0, 10**6),
              st.integers(1, 255)),
    st.tuples(st.sampled_from(["model.skops", "model.json"]), st.just("append"), st.binary(min_size=1, max_size=8)),
    st.tuples(st.sampled_from(["model.skops", "model.json"]), st.just("delete")),
    st.tuples(st.sampled_from(["model.skops", "model.json"]), st.just("replace"), st.binary(max_size=64)),
    st.tuples(st.just("model.json"), st.just("json"), st.sampled_from([
        {"files": {}}, {"files": {"model.skops": "0" * 64}}, {"files": {"model.skops": None}}, {"files": []},
        {"files": {"model.skops": "x", "../outside": "y"}}, {"files": {"model.skops": "x", "/etc/passwd": "y"}},
        {"feature_schema": 999}, {"feature_schema": None}, [], "text", None])),
)


def _damage(model_dir: Path, damage: tuple) -> None:
    file = model_dir / damage[0]
    data = file.read_bytes()
    kind = damage[1]
    if kind == "truncate":
        file.write_bytes(data[:damage[2] % len(data)])
    elif kind == "flip":
        at = damage[2] % len(data)
        file.write_bytes(data[:at] + bytes([data[at] ^ damage[3]]) + data[at + 1:])
    elif kind == "append":
        file.write_bytes(data + damage[2])
    elif kind == "delete":
        file.unlink()
    elif kind == "replace":
        file.write_bytes(damage[2])
    else:
        meta = json.loads(data)
        change = damage[2]
        meta = {**meta, **change} if isinstance(change, dict) else change
        file.write_text(json.dumps(meta))


@pytest.fixture(scope="module")
def earlier_scores(saved_model, tmp_path_factory) -> Path:
    """An earlier `detect` output (replaceable, so a failed detect must leave it as it was)."""
    out = tmp_path_factory.mktemp("earlier") / "scores"
    code, _, err = _cli(["detect", "--model", str(saved_model), "--response-jsonl",
                         str(RAGTRUTH_VALID / "response.jsonl"), "--source-info-jsonl",
                         str(RAGTRUTH_VALID / "source_info.jsonl"), "--out", str(out), "-q"])
    assert code == 0, err
    assert (out / MARKER).is_file()
    return out


@fuzz(30)
@given(damage=MODEL_DAMAGE, existing=st.booleans())
def test_detect_with_a_damaged_model_leaves_no_partial_output(saved_model, earlier_scores, tmp_path, damage,
                                                              existing):
    work = _fresh_dir(tmp_path)
    model_dir = work / "model"
    shutil.copytree(saved_model, model_dir)
    _damage(model_dir, damage)
    out = work / "scores"
    if existing:
        shutil.copytree(earlier_scores, out)
    before = _tree(out)
    code, stdout, err = _cli(["detect", "--model", str(model_dir), "--response-jsonl",
                              str(RAGTRUTH_VALID / "response.jsonl"), "--source-info-jsonl",
                              str(RAGTRUTH_VALID / "source_info.jsonl"), "--out", str(out), "-q"])
    event(f"exit {code}")
    if code == 0:  # a change the checks cannot see (e.g. in the description of model.json) is harmless
        assert (out / "responses.csv").is_file()
        return
    assert code == 2 and stdout == ""
    _error_lines(err, str(model_dir))
    assert _tree(out) == before
    assert sorted(p.name for p in work.iterdir()) == sorted(["model", *(["scores"] if existing else [])])


def test_detect_with_bad_data_leaves_the_earlier_output(saved_model, earlier_scores, ragtruth_copy, tmp_path):
    resp, src = ragtruth_copy.write(responses={3: '{"id": '})
    out = tmp_path / "scores"
    shutil.copytree(earlier_scores, out)
    before = _tree(out)
    code, _, err = _cli(["detect", "--model", str(saved_model), "--response-jsonl", str(resp),
                         "--source-info-jsonl", str(src), "--out", str(out), "-q"])
    assert code == 2
    _error_lines(err, f"{resp}:3")
    assert _tree(out) == before


def test_run_failing_after_loading_leaves_the_earlier_output(tmp_path):
    """An evaluation with an empty fit split fails after the corpora load: nothing replaced."""
    answers = tmp_path / "labelled.jsonl"  # every plain answer is test data: nothing to fit on
    answers.write_text("".join(json.dumps({"context": "The sky is blue.", "answer": f"Answer {n}.", "label": n % 2})
                               + "\n" for n in range(4)), encoding="utf-8")
    config = tmp_path / "plain.toml"
    config.write_text(f"""
cache_dir = ""
[corpora.labelled]
format = "plain"
path = {json.dumps(str(answers))}
[[evaluations]]
fit = "labelled"
test = ["labelled"]
[detectors]
names = ["Lexical"]
primary = "Lexical"
""", encoding="utf-8")
    out = tmp_path / "out"
    with staged_directory(out) as stage:
        (stage / "metrics.csv").write_text("an earlier run\n")
    before = _tree(out)
    code, stdout, err = _cli(["run", "--config", str(config), "--out", str(out), "-q"])
    assert code == 2 and stdout == ""
    _error_lines(err, "fit split is empty")
    assert _tree(out) == before


@pytest.mark.parametrize("kind", ["user folder", "file", "input corpus"])
def test_data_audit_onto_a_users_path_changes_nothing(tmp_path, kind):
    target = tmp_path / "target"
    if kind == "user folder":
        target.mkdir()
        (target / "notes.txt").write_text("years of work")
    elif kind == "file":
        target.write_text("keep me")
    else:
        shutil.copytree(RAGTRUTH_VALID, target)
    before = _tree(target) if target.is_dir() else target.read_bytes()
    code, stdout, err = _cli(["data", "audit", "--out", str(target)])
    assert code == 2 and stdout == ""
    _error_lines(err, str(target))
    assert (_tree(target) if target.is_dir() else target.read_bytes()) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["target"]


# =========================================================================== 6. unlabelled plain corpus

def _plain_unlabelled(path: Path) -> Path:
    rows = [{"context": "The sky is blue. Grass is green.", "answer": "The sky is blue."},
            {"context": ["Passage one.", "Passage two."], "question": "What?", "answer": "Passage three.",
             "label": 1}]  # one labelled record is not enough: every record needs gold
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize("fit", ["fixture", "mine"])
def test_run_on_an_unlabelled_plain_corpus_stops_before_features(tmp_path, monkeypatch, fit):
    from evidencechain.features import table as feature_table

    def no_features(*args, **kwargs):
        raise AssertionError("feature extraction started before the labels were checked")

    monkeypatch.setattr(feature_table, "build_indices", no_features)
    monkeypatch.setattr(feature_table, "parse_texts", no_features)
    mine = _plain_unlabelled(tmp_path / "mine.jsonl")
    config = tmp_path / "mine.toml"
    config.write_text(f"""
name = "mine"
cache_dir = ""
[corpora.fixture]
format = "ragtruth"
response_jsonl = {json.dumps(str(RAGTRUTH_VALID / "response.jsonl"))}
source_info_jsonl = {json.dumps(str(RAGTRUTH_VALID / "source_info.jsonl"))}
[corpora.mine]
format = "plain"
path = {json.dumps(str(mine))}
[[evaluations]]
fit = "{fit}"
test = ["mine"]
[features]
pipeline = "blank"
[detectors]
names = ["Lexical"]
primary = "Lexical"
""", encoding="utf-8")
    out = tmp_path / "out"
    code, stdout, err = _cli(["run", "--config", str(config), "--out", str(out), "-q"])
    assert code == 2
    _error_lines(err, "'mine'", "no gold labels")
    assert not out.exists()
