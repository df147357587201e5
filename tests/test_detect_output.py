"""`evidencechain detect` outputs: JSONL spans that are exact slices (property test), inputs
(plain JSONL, CSV, stdin, RAGTruth pairs, and a plain copy of ragtruth_qa), safe output files,
the terminal view and the self-contained HTML report."""
from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys

import pytest
from detect_support import (
    EXAMPLES,
    PLANTED,
    RAGTRUTH_QA,
    ROOT,
    data_error_lines,
    examples,
    one_error_line,
    run_cli,
    spans_of,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evidencechain import Detector
from evidencechain.detect.command import LEGACY_REMOVAL
from evidencechain.detect.output import jsonl_line

pytestmark = pytest.mark.slow  # the session builds the default model once (about 30 s)
FIXTURE = ROOT / "tests" / "fixtures" / "ragtruth" / "valid"


@pytest.fixture(autouse=True)
def _cache_env(cache_root, monkeypatch):
    monkeypatch.setenv("EVIDENCECHAIN_CACHE_DIR", str(cache_root))


@pytest.fixture(scope="session")
def detector(cache_root) -> Detector:
    return Detector.default(cache_dir=cache_root, quiet=True)


def _records(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


# ---------------------------------------------------------------- spans are exact slices

CONTEXT = ["The Rijksmuseum in Amsterdam opened in 1800 and holds 8,000 objects.",
           "Zürich has about 420,000 inhabitants; its lake is 40 km long."]
WORDS = st.sampled_from(["The", "Rijksmuseum", "opened", "in", "1800", "1808", "Amsterdam", "Zürich", "420,000",
                         "950,000", "Krakow", "lake", "km", "objects", "naïve", "東京", "😀", "café", "-", "—",
                         "’s", "e\u0301", "Ωmega", "42%", "third"])
SEPARATORS = st.sampled_from([" ", " ", " ", ", ", ". ", "\r\n", "\n\n", "\t", "  ", "! ", "? ", "\u00a0"])


@st.composite
def answers(draw) -> str:
    n = draw(st.integers(0, 30))
    parts = [draw(WORDS) + draw(SEPARATORS) for _ in range(n)]
    noise = draw(st.text(max_size=12))
    return draw(st.sampled_from(["", " ", "\r\n"])) + "".join(parts) + noise


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.lists(answers(), min_size=1, max_size=4))
def test_every_jsonl_span_is_an_exact_slice_of_the_answer(detector, batch):
    records = [{"id": str(k), "context": CONTEXT if k % 2 else " ".join(CONTEXT), "answer": a,
                "question": "What about the museum?" if k % 3 else None} for k, a in enumerate(batch)]
    for result, answer in zip(detector.predict_batch(records), batch):
        record = json.loads(jsonl_line(result))
        assert record["answer"] == answer
        for span in record["spans"]:
            assert answer[span["start"]:span["end"]] == span["text"] and span["text"].strip()
        for s in record["sentences"]:
            assert answer[s["start"]:s["end"]] == s["text"]
            ev = s["evidence"]
            if ev is not None:
                context = CONTEXT[ev["passage"]] if ev["passage"] is not None else " ".join(CONTEXT)
                assert context[ev["start"]:ev["end"]] == ev["text"] and ev["score"] > 0
        if record["verdict"] == "hallucinated":
            assert record["spans"]


# ---------------------------------------------------------------- inputs

def test_jsonl_to_stdout_by_default(capsys):
    code, out, err = run_cli(["detect", str(EXAMPLES)])
    assert code == 0, err
    records = _records(out)
    assert [r["id"] for r in records] == [r["id"] for r in examples()]
    assert "7 answer(s) checked" in err and "5 hallucinated" in err


def test_csv_and_stdin_give_the_same_records_as_jsonl(tmp_path, cache_root):
    _, expected, _ = run_cli(["detect", str(EXAMPLES), "-q"])
    table = tmp_path / "answers.csv"
    with open(table, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["id", "question", "context", "answer"])
        writer.writeheader()
        for r in examples():
            writer.writerow({**r, "context": json.dumps(r["context"], ensure_ascii=False)
                             if isinstance(r["context"], list) else r["context"], "question": r.get("question", "")})
    code, out, err = run_cli(["detect", str(table), "-q"])
    assert code == 0, err
    assert spans_of(_records(out)) == spans_of(_records(expected))
    env = {**os.environ, "EVIDENCECHAIN_CACHE_DIR": str(cache_root), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "evidencechain", "detect", "-", "-q"], input=EXAMPLES.read_bytes(),
                          capture_output=True, env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert _records(done.stdout.decode()) == _records(expected)


def test_bad_records_are_named_counted_and_nothing_is_written(tmp_path):
    bad = tmp_path / "bad.jsonl"
    lines = EXAMPLES.read_text("utf-8").splitlines()
    lines[1] = json.dumps({"id": "x", "context": 7, "answer": "y"})
    lines[3] = "{not json"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    code, stdout, err = run_cli(["detect", str(bad), "--out", str(out), "--html", str(tmp_path / "r.html")])
    assert code == 2 and stdout == ""
    lines = data_error_lines(err, 2, f"{bad}:2: field 'context'", f"{bad}:4:")
    assert "malformed JSON" in lines[2] and "one JSON object" in lines[2]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.jsonl"]


def test_many_bad_records_give_the_first_20_one_a_line_and_count_the_rest(tmp_path):
    bad = tmp_path / "many.jsonl"
    bad.write_text("".join(json.dumps({"id": str(k), "answer": "x"}) + "\n" for k in range(45)), encoding="utf-8")
    code, _, err = run_cli(["detect", str(bad)])
    assert code == 2
    lines = data_error_lines(err, 45, f"{bad}:1: field 'context'", f"{bad}:20: field 'context'")
    assert lines[-1] == "error: ... and 25 more (`evidencechain data check` lists every problem)"
    assert max(map(len, lines)) < 200


def test_an_unknown_extension_is_refused_with_the_formats_read(tmp_path):
    notes = tmp_path / "answers.txt"
    notes.write_text(EXAMPLES.read_text("utf-8"), encoding="utf-8")
    code, _, err = run_cli(["detect", str(notes)])
    assert code == 2
    line = one_error_line(err, f"{notes}: unknown input format .txt", ".jsonl", ".csv", "--input-format")
    assert "malformed" not in line
    code, _, err = run_cli(["detect", str(notes), "--input-format", "csv"])
    assert code == 2 and "CSV header" in err  # read as the format named, not refused by its name


def test_stdin_errors_name_stdin(cache_root, tmp_path):
    env = {**os.environ, "EVIDENCECHAIN_CACHE_DIR": str(cache_root), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "evidencechain", "detect", "-"], input=b'{"answer": "a"}\n',
                          capture_output=True, env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 2 and done.stdout == b""
    data_error_lines(done.stderr.decode(), 1, "<stdin>:1: field 'context': missing; add the field")


def test_a_ragtruth_file_given_as_input_says_how_to_pass_it(tmp_path):
    code, _, err = run_cli(["detect", str(FIXTURE / "response.jsonl")])
    assert code == 2
    one_error_line(err, "RAGTruth response file", "--source-info-jsonl")


def test_ragtruth_pairs_give_jsonl_and_the_old_form_gives_tables(tmp_path):
    pairs = ["--response-jsonl", str(FIXTURE / "response.jsonl"), "--source-info-jsonl", str(FIXTURE / "source_info.jsonl")]
    code, out, err = run_cli(["detect", *pairs, "-q"])
    assert code == 0, err
    records = _records(out)
    assert records and all(r["answer"][s["start"]:s["end"]] == s["text"] for r in records for s in r["spans"])
    code, out, err = run_cli(["detect", *pairs, "--out", str(tmp_path / "tables"), "-q"])
    assert code == 0, err
    assert {p.name for p in (tmp_path / "tables").iterdir()} >= {"sentences.csv", "responses.csv", "tokens.csv"}
    assert sorted(out.split()) == sorted(str(p) for p in (tmp_path / "tables").iterdir() if p.suffix == ".csv")
    assert "deprecated" in err and LEGACY_REMOVAL in err and f"--tables {tmp_path / 'tables'}" in err
    code, _, err = run_cli(["detect", *pairs, "--out", str(tmp_path / "scores.jsonl"), "-q"])
    assert code == 0 and _records((tmp_path / "scores.jsonl").read_text()) == records


@pytest.mark.skipif(not (RAGTRUTH_QA / "response.jsonl").is_file(),
                    reason=f"real RAGTruth QA data not found at {RAGTRUTH_QA}")
def test_ragtruth_qa_and_a_plain_copy_give_the_same_spans(tmp_path):
    """The first 120 real answers (a slice keeps the test short; the input forms are what is compared)."""
    answers = [json.loads(line) for line in (RAGTRUTH_QA / "response.jsonl").read_text("utf-8").splitlines()[:120]]
    sources = {s["source_id"]: s for s in map(json.loads, (RAGTRUTH_QA / "source_info.jsonl").read_text("utf-8").splitlines())}
    response, source = tmp_path / "response.jsonl", tmp_path / "source_info.jsonl"
    response.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in answers), "utf-8")
    used = dict.fromkeys(r["source_id"] for r in answers)
    source.write_text("".join(json.dumps(sources[k], ensure_ascii=False) + "\n" for k in used), "utf-8")
    plain = tmp_path / "ragtruth_qa_plain.jsonl"
    with open(plain, "w", encoding="utf-8") as handle:
        for r in answers:
            info = sources[r["source_id"]]["source_info"]
            handle.write(json.dumps({"id": r["id"], "question": info["question"], "context": info["passages"],
                                     "answer": r["response"]}, ensure_ascii=False) + "\n")
    # the session's parse cache: the plain copy reads the parses of the pairs run where its texts are
    # the same, so the input forms are what is compared (a text assembled differently parses anew)
    code, pairs_out, err = run_cli(["detect", "--response-jsonl", str(response), "--source-info-jsonl", str(source),
                                    "-q"])
    assert code == 0, err
    code, plain_out, err = run_cli(["detect", str(plain), "-q"])
    assert code == 0, err
    a, b = _records(pairs_out), _records(plain_out)
    assert len(a) == len(b) == 120
    assert any(spans_of(a).values()) and spans_of(a) == spans_of(b)
    assert [r["verdict"] for r in a] == [r["verdict"] for r in b]


# ---------------------------------------------------------------- output files

def test_out_refuses_an_existing_file_unless_forced_and_never_an_input(tmp_path):
    out = tmp_path / "results.jsonl"
    out.write_text("the user's notes\n")
    code, _, err = run_cli(["detect", str(EXAMPLES), "--out", str(out), "-q"])
    assert code == 2 and out.read_text() == "the user's notes\n"
    one_error_line(err, str(out), "--force")
    code, _, err = run_cli(["detect", str(EXAMPLES), "--out", str(out), "--force", "-q"])
    assert code == 0, err
    assert [r["id"] for r in _records(out.read_text())] == [r["id"] for r in examples()]
    copy = tmp_path / "mine.jsonl"
    copy.write_bytes(EXAMPLES.read_bytes())
    code, _, err = run_cli(["detect", str(copy), "--out", str(copy), "--force", "-q"])
    assert code == 2 and copy.read_bytes() == EXAMPLES.read_bytes()
    one_error_line(err, "input")
    code, _, err = run_cli(["detect", str(EXAMPLES), "--out", str(tmp_path / "x.html"), "--html",
                            str(tmp_path / "x.html")])
    assert code == 2 and not (tmp_path / "x.html").exists()
    code, _, err = run_cli(["detect", str(EXAMPLES), "--out", str(tmp_path)])
    assert code == 2
    one_error_line(err, "directory")
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no partial files left


def test_pretty_view_marks_spans_with_and_without_colour(tmp_path):
    code, out, err = run_cli(["detect", str(EXAMPLES), "--format", "pretty", "--color", "never", "-q"])
    assert code == 0, err
    assert "[[1808]]" in out and "HALLUCINATED" in out and "no evidence" in out and "\033[" not in out
    code, out, _ = run_cli(["detect", str(EXAMPLES), "--format", "pretty", "--color", "always", "-q"])
    assert "\033[1;97;41m1808\033[0m" in out


def test_html_report_is_self_contained_and_escaped(tmp_path):
    hostile = tmp_path / "hostile.jsonl"
    hostile.write_text(json.dumps({"id": "<b>x</b>", "context": ["<script>alert(1)</script> The tower is 300 m."],
                                   "answer": "The tower is 500 m. <img src=x onerror=alert(1)>"}) + "\n", encoding="utf-8")
    report = tmp_path / "report.html"
    code, _, err = run_cli(["detect", str(hostile), "--html", str(report), "-q"])
    assert code == 0, err
    page = report.read_text("utf-8")
    assert "<script>alert" not in page and "<img src=x" not in page and "&lt;b&gt;x&lt;/b&gt;" in page
    assert not re.search(r"(?:src|href)=\"(?:https?:)?//", page) and "@import" not in page
    assert page.count("<script>") == 1  # the report's own filter script, inline


def test_html_report_of_the_examples_marks_every_planted_word(tmp_path):
    report = tmp_path / "report.html"
    code, _, err = run_cli(["detect", str(EXAMPLES), "--html", str(report), "-q"])
    assert code == 0, err
    page = report.read_text("utf-8")
    marks = re.findall(r'<mark class="span [^"]*"[^>]*>([^<]*)</mark>', page)
    for word in PLANTED.values():
        assert any(word in m or m in word for m in marks), word
    assert 'data-verdict="hallucinated"' in page and 'href="#a0-c0"' in page and 'id="a0-c0"' in page


def test_tables_beside_jsonl_from_plain_input(tmp_path):
    code, out, err = run_cli(["detect", str(EXAMPLES), "--tables", str(tmp_path / "tables"), "-q"])
    assert code == 0, err
    assert len(_records(out)) == len(examples())
    assert {p.name for p in (tmp_path / "tables").iterdir()} >= {"sentences.csv", "responses.csv", "tokens.csv"}


def test_span_type_follows_the_learned_checker_unless_a_number_or_name_conflicts():
    import numpy as np

    from evidencechain.results import _span_type, _Tokens

    def toks(mismatch):
        z = np.zeros(2)
        return _Tokens(start=np.array([0, 5]), end=np.array([4, 9]), word=np.ones(2, bool), sentence=z,
                       risk=z, pred=z > 0, own=z > 0, mismatch=np.array(mismatch, bool))

    rests = {"best_chunk_overlap": 0.9, "tfidf_max": 0.4, "coverage": 0.9}
    assert _span_type(toks([0, 1]), 5, 9, rests | {"nli_conflict": 0.1, "nli_baseless": 0.8}) == "conflict"
    assert _span_type(toks([0, 0]), 0, 4, rests | {"nli_conflict": 0.1, "nli_baseless": 0.8}) == "baseless"
    assert _span_type(toks([0, 0]), 0, 4, rests | {"nli_conflict": 0.7, "nli_baseless": 0.2}) == "conflict"
    assert _span_type(toks([0, 0]), 0, 4, rests) is None  # no checker, rests on the evidence: unknown
    assert _span_type(toks([0, 0]), 0, 4, rests | {"coverage": 0.2}) == "baseless"


def test_one_numbering_of_passages_and_sentences_in_json_pretty_and_html(tmp_path):
    out, report = tmp_path / "r.jsonl", tmp_path / "r.html"
    code, _, err = run_cli(["detect", str(EXAMPLES), "--out", str(out), "--html", str(report), "-q"])
    assert code == 0, err
    code, pretty, err = run_cli(["detect", str(EXAMPLES), "--format", "pretty", "--color", "never", "-q"])
    assert code == 0, err
    page = report.read_text("utf-8")
    records = {r["id"]: r for r in _records(out.read_text("utf-8"))}
    museum = records["museum"]
    context = next(e for e in examples() if e["id"] == "museum")["context"]
    block = pretty.split("── museum")[1].split("── ")[0]
    for s in museum["sentences"]:
        p = s["evidence"]["passage"]
        assert context[p][s["evidence"]["start"]:s["evidence"]["end"]] == s["evidence"]["text"]
        assert re.search(rf"\[{s['index']}\] \w+ +[\d.]+  passage {p} ", block), block
        assert f"s{s['index']}&#8594;P{p}</a>" in page
    assert '<ol class="passages" start="0">' in page and 'value="0"' in page
