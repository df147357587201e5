"""Outputs never replace what is not ours: devices, FIFOs, sockets and links are refused even
with --force; a folder evidencechain wrote is replaced only while its files are as written; a
path under a file, or a cache directory that is a file, is named as such."""
from __future__ import annotations

import json
import os
import shutil
import socket
from pathlib import Path

import pytest

from evidencechain import cli
from evidencechain.errors import OutputError
from evidencechain.io import MARKER, changed_files, check_output_dir, staged_directory

INPUT = '{"context": "The museum opened in 1987.", "answer": "It opened in 1991."}\n'


@pytest.fixture(autouse=True)
def _work_in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVIDENCECHAIN_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "in.jsonl").write_text(INPUT)


def _one_line(capsys, argv: list[str], *words: str) -> str:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: "), err
    for word in words:
        assert word in err[0], (word, err[0])
    return err[0]


def _special(kind: str, path: Path) -> Path:
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
        server.close()
    elif kind == "symlink":
        (path.parent / "target.jsonl").write_text("the user's file\n")
        path.symlink_to(path.parent / "target.jsonl")
    return path


@pytest.mark.parametrize("kind", ["fifo", "socket", "symlink"])
@pytest.mark.parametrize("flag", ["--out", "--html"])
def test_force_never_replaces_a_fifo_socket_or_link(capsys, tmp_path, kind, flag):
    target = _special(kind, tmp_path / "special")
    before = os.lstat(target)
    _one_line(capsys, ["detect", "in.jsonl", flag, str(target), "--force", "-q"], str(target))
    after = os.lstat(target)
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    if kind == "symlink":
        assert (tmp_path / "target.jsonl").read_text() == "the user's file\n"


def test_force_never_replaces_a_character_device(capsys):
    line = _one_line(capsys, ["detect", "in.jsonl", "--out", os.devnull, "--force", "-q"], os.devnull)
    assert "not a regular file" in line and "--force" in line
    assert not Path(os.devnull).is_file() and Path(os.devnull).exists()


@pytest.mark.parametrize("argv", [["detect", "in.jsonl", "--out", "afile/results.jsonl", "-q"],
                                  ["detect", "in.jsonl", "--html", "afile/deeper/r.html", "-q"],
                                  ["data", "audit", "--out", "afile/audit"]])
def test_an_output_under_a_regular_file_says_not_a_directory(capsys, tmp_path, argv):
    (tmp_path / "afile").write_text("keep")
    line = _one_line(capsys, argv, "afile", "not a directory")
    assert "read-only" not in line
    assert (tmp_path / "afile").read_text() == "keep"


@pytest.mark.parametrize("how", ["flag", "env"])
def test_a_cache_dir_that_is_a_file_is_named(capsys, tmp_path, monkeypatch, how):
    (tmp_path / "afile").write_text("keep")
    argv = ["detect", "in.jsonl", "-q"]
    if how == "flag":
        argv += ["--cache-dir", "afile"]
    else:
        monkeypatch.setenv("EVIDENCECHAIN_CACHE_DIR", str(tmp_path / "afile" / "sub"))
    line = _one_line(capsys, argv, "afile", "not a directory")
    assert "File exists" not in line and ("--cache-dir" if how == "flag" else "EVIDENCECHAIN_CACHE_DIR") in line


# ---------------------------------------------------------------- the ownership marker

def test_the_marker_records_every_files_sha256(tmp_path):
    with staged_directory(tmp_path / "run") as stage:
        (stage / "a.csv").write_text("x\n")
        (stage / "model").mkdir()
        (stage / "model" / "m.json").write_text("{}")
    marker = json.loads((tmp_path / "run" / MARKER).read_text())
    assert set(marker["sha256"]) == {"a.csv", "model/m.json"}
    assert changed_files(tmp_path / "run") == []


@pytest.mark.parametrize("edit", ["content", "nested", "replaced by a link"])
def test_a_file_edited_since_we_wrote_it_is_never_replaced(tmp_path, edit):
    with staged_directory(tmp_path / "run") as stage:
        (stage / "a.csv").write_text("x\n")
        (stage / "model").mkdir()
        (stage / "model" / "m.json").write_text("{}")
    run = tmp_path / "run"
    if edit == "content":
        (run / "a.csv").write_text("my notes\n")
    elif edit == "nested":
        (run / "model" / "m.json").write_text('{"mine": 1}')
    else:
        (run / "a.csv").unlink()
        (run / "a.csv").symlink_to(tmp_path / "elsewhere")
    name = "model/m.json" if edit == "nested" else "a.csv"
    with pytest.raises(OutputError, match=f"changed since evidencechain wrote them \\({name}\\)"):
        check_output_dir(run)
    with pytest.raises(OutputError):
        with staged_directory(run) as stage:
            (stage / "new.csv").write_text("y\n")
    assert not (run / "new.csv").exists()


def test_run_out_onto_an_audit_folder_with_an_edited_response_file_is_refused(capsys, tmp_path):
    assert cli.main(["data", "audit", "--out", "aud"]) == 0
    capsys.readouterr()
    shutil.copytree(tmp_path / "aud", tmp_path / "inputs")
    with open(tmp_path / "aud" / "response.jsonl", "a") as handle:
        handle.write("\n")
    edited = (tmp_path / "aud" / "response.jsonl").read_bytes()
    data = [str(tmp_path / "inputs" / "response.jsonl"), str(tmp_path / "inputs" / "source_info.jsonl")]
    root = Path(__file__).resolve().parents[1]
    _one_line(capsys, ["run", "--config", str(root / "experiments" / "audit.toml"), "--out", "aud",
                       "--response-jsonl", data[0], "--source-info-jsonl", data[1]],
              "aud", "response.jsonl", "changed since")
    _one_line(capsys, ["data", "audit", "--out", "aud"], "response.jsonl", "changed since")
    assert (tmp_path / "aud" / "response.jsonl").read_bytes() == edited


def test_an_unchanged_folder_we_wrote_is_still_replaced(capsys, tmp_path):
    assert cli.main(["data", "audit", "--out", "aud"]) == 0
    first = (tmp_path / "aud" / "response.jsonl").read_bytes()
    assert cli.main(["data", "audit", "--out", "aud", "--seed", "18"]) == 0
    assert (tmp_path / "aud" / "response.jsonl").read_bytes() != first
    assert changed_files(tmp_path / "aud") == []


# ---------------------------------------------------------------- detect --out-dir partitions

@pytest.fixture(scope="module")
def small_model(tmp_path_factory) -> Path:
    from evidencechain.data.ragtruth import load_ragtruth
    from evidencechain.features import FeatureConfig
    from evidencechain.model import EvidenceChain

    valid = Path(__file__).parent / "fixtures" / "ragtruth" / "valid"
    corpus = load_ragtruth(valid / "response.jsonl", valid / "source_info.jsonl")
    model = EvidenceChain(detectors=("Lexical", "EvidenceChain_LR"), primary="EvidenceChain_LR",
                          features=FeatureConfig(pipeline="blank")).fit(corpus, corpus, progress=False)
    return model.save(tmp_path_factory.mktemp("model") / "model")


def test_force_over_another_streaming_run_keeps_an_edited_partition(capsys, tmp_path, small_model):
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps({"context": f"The museum opened in {1900 + k}.",
                                       "answer": f"It opened in {1950 + k}."}) + "\n" for k in range(6)))
    out = tmp_path / "parts"
    base = ["detect", str(log), "--model", str(small_model), "--out-dir", str(out), "-q"]
    assert cli.main([*base, "--partition-size", "2"]) == 0
    edited = out / "part-000001.jsonl"
    edited.write_text("my notes\n")
    capsys.readouterr()
    _one_line(capsys, [*base, "--partition-size", "3", "--force"], "part-000001.jsonl", "changed since")
    assert edited.read_text() == "my notes\n"
    assert cli.main([*base, "--partition-size", "2"]) == 0  # resuming: the edited partition is redone, named
    assert "part-000001.jsonl changed since it was written" in capsys.readouterr().err
