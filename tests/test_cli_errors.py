"""The CLI's error boundary: one `error:` line and exit 2, 130 on Ctrl-C, never a user's files lost."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evidencechain import cli
from evidencechain.io import MARKER, staged_directory
from evidencechain.model import EvidenceChain

ROOT = Path(__file__).resolve().parents[1]
METHODS = ["Lexical", "BM25"]
AUDIT_TOML = ROOT / "experiments" / "audit.toml"
RUN = ["run", "--config", str(AUDIT_TOML)]


@pytest.fixture(autouse=True)
def _work_in_tmp(tmp_path, monkeypatch):
    """Relative defaults (.cache, results/...) land under tmp_path, never in the project."""
    monkeypatch.chdir(tmp_path)


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _fails(capsys, argv: list[str], *names: str) -> str:
    """Run the CLI in-process; expect exit 2 and one `error:` line naming each of `names`."""
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    for name in names:
        assert name in lines[0], (name, lines[0])
    return lines[0]


def _subprocess(args: list[str], cwd: Path, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "evidencechain", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


# ---------------------------------------------------------------- run --out

@pytest.fixture
def user_folder(tmp_path) -> Path:
    folder = tmp_path / "my-folder"
    folder.mkdir()
    (folder / "notes.txt").write_text("years of work")
    return folder


def test_run_refuses_a_folder_of_user_files(capsys, user_folder):
    before = _tree(user_folder)
    _fails(capsys, [*RUN, "--out", str(user_folder)], str(user_folder), "notes.txt")
    assert _tree(user_folder) == before


def test_run_refuses_a_file(capsys, tmp_path):
    file = tmp_path / "results"
    file.write_text("keep me")
    _fails(capsys, [*RUN, "--out", str(file)], str(file), "file")
    assert file.read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results"]


def test_run_refuses_a_read_only_directory(capsys, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        _fails(capsys, [*RUN, "--out", str(locked)], str(locked), "not writable")
        assert locked.is_dir()
    finally:
        locked.chmod(0o755)


def test_run_refuses_the_current_directory(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "keep.txt").write_text("x")
    _fails(capsys, [*RUN, "--out", "."], "current directory")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]


def test_run_refuses_the_input_directory_and_its_parent(capsys, copy_ragtruth):
    corpus = copy_ragtruth("data/audit")
    before = _tree(corpus.parent)
    data = ["--response-jsonl", str(corpus / "response.jsonl"), "--source-info-jsonl",
            str(corpus / "source_info.jsonl")]
    for out in (corpus, corpus.parent):
        _fails(capsys, [*RUN, "--out", str(out), *data], "would replace the input")
    assert _tree(corpus.parent) == before


def test_run_refusal_through_the_installed_entry_point(user_folder):
    done = _subprocess([*RUN, "--out", str(user_folder)], user_folder.parent)
    out, err = done.communicate(timeout=120)
    assert done.returncode == 2, err
    assert err.strip().splitlines() == [err.strip()] and err.startswith("error: "), err
    assert (user_folder / "notes.txt").read_text() == "years of work"


def test_a_half_given_pair_of_files_is_an_error(capsys, ragtruth_paths):
    _fails(capsys, [*RUN, "--response-jsonl", str(ragtruth_paths[0])], "--response-jsonl", "together")


def test_run_replaces_its_own_earlier_output(tmp_path):
    from evidencechain.data.audit import generate_audit_corpus
    from evidencechain.data.ragtruth import write_ragtruth

    audit = generate_audit_corpus(17)
    write_ragtruth(audit.subset(source_ids=set(sorted(audit.sources)[::4])), tmp_path / "data")
    small = tmp_path / "small.toml"  # the audit config cut down: the replacement, not the scores, is tested
    text = AUDIT_TOML.read_text()
    for key, value in (("pipeline", '"blank"'), ("names", '["Lexical", "EvidenceChain_LR"]'),
                       ("primary", '"EvidenceChain_LR"'), ("ablation", "false")):
        text, count = re.subn(rf"(?m)^{key} = .*$", f"{key} = {value}", text)
        assert count == 1, key
    small.write_text(text)
    out = tmp_path / "run"
    with staged_directory(out) as stage:
        (stage / "old.csv").write_text("old\n")
    code = cli.main(["run", "--config", str(small), "--out", str(out), "--response-jsonl", str(tmp_path / "data" / "response.jsonl"),
                     "--source-info-jsonl", str(tmp_path / "data" / "source_info.jsonl"), "-q"])
    assert code == 0
    assert not (out / "old.csv").exists() and (out / "run.json").is_file() and (out / MARKER).is_file()
    model = next(out.rglob("model.skops")).parent
    data = (tmp_path / "data" / "response.jsonl", tmp_path / "data" / "source_info.jsonl")
    for _ in range(2):  # the second detect replaces its own earlier output
        assert cli.main(_detect(model, tmp_path / "scores", data)) == 0
    assert (tmp_path / "scores" / "responses.csv").is_file()


# ---------------------------------------------------------------- detect

@pytest.fixture
def model_dir(tmp_path) -> Path:
    return EvidenceChain().save(tmp_path / "model")


def _detect(model: Path, out: Path, paths) -> list[str]:
    return ["detect", "--model", str(model), "--response-jsonl", str(paths[0]),
            "--source-info-jsonl", str(paths[1]), "--out", str(out), "-q"]


def test_detect_refuses_a_folder_with_a_users_responses_csv(capsys, tmp_path, model_dir, ragtruth_paths):
    out = tmp_path / "scores"
    out.mkdir()
    (out / "responses.csv").write_text("the user's own table\n")
    _fails(capsys, _detect(model_dir, out, ragtruth_paths), str(out), "responses.csv")
    assert (out / "responses.csv").read_text() == "the user's own table\n"


def test_detect_refuses_to_replace_its_model(capsys, model_dir, ragtruth_paths):
    _fails(capsys, _detect(model_dir, model_dir, ragtruth_paths), "input")


@pytest.mark.parametrize("damage", ["truncated model", "edited model", "broken json"])
def test_detect_names_a_damaged_model_file(capsys, tmp_path, model_dir, ragtruth_paths, damage):
    file, meta = model_dir / "model.skops", model_dir / "model.json"
    if damage == "truncated model":
        file.write_bytes(file.read_bytes()[:100])
    elif damage == "edited model":
        file.write_bytes(file.read_bytes() + b"\x00")
    else:
        meta.write_text(meta.read_text()[:40])
    name = "model.json" if damage == "broken json" else "model.skops"
    _fails(capsys, _detect(model_dir, tmp_path / "scores", ragtruth_paths), str(model_dir / name))
    assert not (tmp_path / "scores").exists()


def test_detect_help_says_models_run_no_code(capsys):
    with pytest.raises(SystemExit):
        cli.main(["detect", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "runs no code" in text and "trusted types" in text and "model.pkl" in text


# ---------------------------------------------------------------- data audit

def _fake_writer(calls: list):
    def write(out_dir, seed=17, scale=1):
        out = Path(out_dir)
        calls.append(out)
        paths = [out / name for name in ("response.jsonl", "source_info.jsonl", "README.md")]
        for path in paths:
            path.write_text(f"seed {seed}\n")
        return paths
    return write


def test_data_audit_refuses_a_corpus_it_did_not_write(capsys, monkeypatch, copy_ragtruth):
    calls: list = []
    monkeypatch.setattr("evidencechain.data.audit.write_audit_corpus", _fake_writer(calls))
    corpus = copy_ragtruth()
    before = _tree(corpus)
    _fails(capsys, ["data", "audit", "--out", str(corpus)], str(corpus), "response.jsonl")
    assert _tree(corpus) == before and not calls


def test_data_audit_replaces_its_own_corpus_as_one_unit(capsys, monkeypatch, tmp_path):
    calls: list = []
    monkeypatch.setattr("evidencechain.data.audit.write_audit_corpus", _fake_writer(calls))
    out = tmp_path / "audit"
    assert cli.main(["data", "audit", "--seed", "1", "--out", str(out)]) == 0
    assert cli.main(["data", "audit", "--seed", "2", "--out", str(out)]) == 0
    assert (out / "response.jsonl").read_text() == "seed 2\n"
    assert all(call.parent == tmp_path and call.name.startswith(".audit.partial-") for call in calls)
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "README.md", "response.jsonl", "source_info.jsonl"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["audit"]


@pytest.mark.slow
def test_data_audit_generates_and_regenerates_the_real_corpus(tmp_path):
    out = tmp_path / "audit"
    assert cli.main(["data", "audit", "--out", str(out)]) == 0
    first = (out / "response.jsonl").read_bytes()
    assert cli.main(["data", "audit", "--out", str(out)]) == 0
    assert (out / "response.jsonl").read_bytes() == first


@pytest.mark.parametrize("argv", [["data", "audit", "--scale", "0"], ["data", "audit", "--scale", "-3"],
                                  ["data", "audit", "--seed", "-1"], ["run", "--seed", "x"],
                                  ["run", "--limit", "0"]])
def test_bad_numbers_are_rejected_by_the_parser(capsys, argv):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    assert exit_info.value.code == 2
    assert "error: argument" in capsys.readouterr().err


# ---------------------------------------------------------------- report on a damaged run

def _metrics(methods=METHODS) -> str:
    rows = "".join(f"{m},0.5,0.5,0.5,0.3,10,4\n" for m in methods)
    return "method,precision,recall,f1,threshold,n,positives\n" + rows


@pytest.fixture
def small_run(tmp_path) -> Path:
    run = tmp_path / "run"
    run.mkdir()
    files = {f"metrics_{level}.csv": _metrics() for level in ("word", "sentence", "response")}
    files["tokens.csv"] = ("response_id,start,end,is_punct,label,risk_Lexical\n"
                           + "".join(f"r{i},{i},{i + 1},0,0,0.{i}\n" for i in range(9)))
    for name, text in files.items():
        (run / name).write_text(text)
    meta = {"seed": 17, "config": {"detectors": {"names": METHODS}}, "outputs": sorted([*files, "run.json"])}
    (run / "run.json").write_text(json.dumps(meta))
    return run


def _report(run: Path, out: Path) -> list[str]:
    return ["report", "--run", str(run), "--tables", str(out / "tables"), "--figures", str(out / "figures"),
            "--paper", str(out / "paper")]


DAMAGE = {
    "deleted": (lambda f: f.unlink(), "is missing"),
    "empty": (lambda f: f.write_text(""), "is empty"),
    "truncated mid-line": (lambda f: f.write_bytes(f.read_bytes()[:-4]), "truncated"),
    "missing column": (lambda f: f.write_text(f.read_text().replace("is_punct", "is_punk")), "is_punct"),
    "no number": (lambda f: f.write_text(f.read_text().replace("0.3\n", "x\n")), "risk_Lexical"),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_report_names_a_damaged_csv_and_writes_nothing(capsys, tmp_path, small_run, damage):
    edit, what = DAMAGE[damage]
    edit(small_run / "tokens.csv")
    _fails(capsys, _report(small_run, tmp_path / "out"), str(small_run / "tokens.csv"), what)
    assert not (tmp_path / "out").exists()


def test_report_names_a_metrics_csv_truncated_at_a_line_end(capsys, tmp_path, small_run):
    (small_run / "metrics_sentence.csv").write_text(_metrics(METHODS[:1]))
    _fails(capsys, _report(small_run, tmp_path / "out"), "metrics_sentence.csv", "BM25")
    assert not (tmp_path / "out").exists()


def test_report_names_a_missing_run(capsys, tmp_path):
    _fails(capsys, ["report", "--run", str(tmp_path / "missing"), "--only", "tables"], "run.json does not exist")


# ---------------------------------------------------------------- the boundary itself

def test_ctrl_c_exits_130_with_one_line(capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("evidencechain.report.build_report", interrupted)
    assert cli.main(["report", "--run", "x"]) == 130
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    monkeypatch.setattr(cli, "build_parser", interrupted)  # start-up, before any command
    assert cli.main(["report"]) == 130


def test_ctrl_c_while_generating_leaves_nothing_behind(tmp_path):
    # --scale 3: the staging directory lives for seconds, so the signal lands inside it. The child
    # starts with Ctrl-C at its default: a shell that runs the suite in the background without job
    # control makes SIGINT ignored, which Python (and so the child) would inherit.
    child = _subprocess(["data", "audit", "--scale", "3", "--out", str(tmp_path / "audit")], tmp_path,
                        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline, staged = time.monotonic() + 120, False
    while not staged and child.poll() is None and time.monotonic() < deadline:
        staged = bool(list(tmp_path.glob(".audit.partial-*")))
        time.sleep(0.02)
    assert staged, f"no staging directory seen before the command ended (exit {child.poll()})"
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=120)
    assert child.returncode == 130, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert list(tmp_path.iterdir()) == []


def test_unexpected_errors_keep_their_traceback_with_a_hint(capsys, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("internal invariant")

    monkeypatch.setattr("evidencechain.report.build_report", broken)
    with pytest.raises(RuntimeError, match="internal invariant"):
        cli.main(["report", "--run", "x"])
    assert "bug" in capsys.readouterr().err


def test_verbose_shows_the_traceback_of_an_expected_error(capsys, tmp_path):
    assert cli.main(["-v", "report", "--run", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" in err and "error: " in err


@pytest.mark.parametrize("error, names", [
    (FileNotFoundError(2, "No such file or directory", "paper/template.md"), ["paper/template.md", "No such file"]),
    (PermissionError(13, "Permission denied", "figures/a.png"), ["figures/a.png", "Permission denied"]),
    (IsADirectoryError(21, "Is a directory", "README.md"), ["README.md", "Is a directory"]),
    (ModuleNotFoundError("No module named 'docx'", name="docx"), ["docx", "pip install"]),
])
def test_file_system_errors_and_missing_packages_are_one_line_errors(capsys, monkeypatch, error, names):
    def fail(*args, **kwargs):
        raise error

    monkeypatch.setattr("evidencechain.report.build_report", fail)
    _fails(capsys, ["report", "--run", "x"], *names)


def test_a_missing_model_directory_is_named(capsys, tmp_path, ragtruth_paths):
    _fails(capsys, _detect(tmp_path / "no-model", tmp_path / "scores", ragtruth_paths), "no-model")


def test_help_lists_only_real_commands(capsys):
    parser = cli.build_parser()
    commands = set(parser._subparsers._group_actions[0].choices)
    assert commands == {"data", "run", "checker", "detect", "calibrate", "report"}
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    text = capsys.readouterr().out
    assert "bench" not in text.replace("evidencechain.bench", "").replace("make bench", "")
