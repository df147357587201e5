"""Outputs never replace a user's files: the output guard, staging, report file ownership, models."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from evidencechain.errors import ModelError, OutputError
from evidencechain.io import (
    MARKER,
    REPORT_MANIFEST,
    check_output_dir,
    clean_stale_staging,
    foreign_entries,
    staged_directory,
    staged_files,
)
from evidencechain.model import EvidenceChain


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _user_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "thesis"
    folder.mkdir()
    (folder / "chapter1.docx").write_bytes(b"years of work")
    return folder


# ---------------------------------------------------------------- check_output_dir

def test_absent_empty_and_own_outputs_are_allowed(tmp_path):
    assert check_output_dir(tmp_path / "new" / "run") == tmp_path / "new" / "run"
    (tmp_path / "empty").mkdir()
    check_output_dir(tmp_path / "empty")
    with staged_directory(tmp_path / "mine") as stage:
        (stage / "metrics.csv").write_text("a\n1\n")
    check_output_dir(tmp_path / "mine")


def test_a_folder_of_user_files_is_refused(tmp_path):
    folder = _user_folder(tmp_path)
    with pytest.raises(OutputError, match=r"thesis holds files evidencechain did not write \(chapter1.docx\)"):
        check_output_dir(folder)


def test_a_user_file_added_to_an_output_is_refused(tmp_path):
    with staged_directory(tmp_path / "run") as stage:
        (stage / "metrics.csv").write_text("a\n1\n")
    (tmp_path / "run" / "notes.txt").write_text("mine")
    assert foreign_entries(tmp_path / "run") == ["notes.txt"]
    with pytest.raises(OutputError, match="notes.txt"):
        check_output_dir(tmp_path / "run")


def test_a_file_is_refused(tmp_path):
    file = tmp_path / "results.txt"
    file.write_text("keep")
    with pytest.raises(OutputError, match="results.txt is an existing file"):
        check_output_dir(file)


def test_a_read_only_directory_is_refused(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        with pytest.raises(OutputError, match="not writable"):
            check_output_dir(locked)
    finally:
        locked.chmod(0o755)


def test_a_symbolic_link_is_refused(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with pytest.raises(OutputError, match="symbolic link"):
        check_output_dir(tmp_path / "link")


@pytest.mark.parametrize("where", [".", "cwd", "parent-of-cwd"])
def test_the_current_directory_and_its_parents_are_refused(tmp_path, monkeypatch, where):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    path = {".": ".", "cwd": str(work), "parent-of-cwd": str(tmp_path)}[where]
    with pytest.raises(OutputError, match="current directory"):
        check_output_dir(path)


def test_home_and_root_are_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    with pytest.raises(OutputError, match="home directory"):
        check_output_dir(tmp_path / "home")
    with pytest.raises(OutputError, match="filesystem root|current directory"):
        check_output_dir("/")


def test_input_directories_and_their_parents_are_refused(tmp_path):
    data = tmp_path / "data" / "audit"
    data.mkdir(parents=True)
    response = data / "response.jsonl"
    response.write_text("{}\n")
    for out in (data, tmp_path / "data"):
        with pytest.raises(OutputError, match="would replace the input"):
            check_output_dir(out, inputs=[response, None])
    check_output_dir(data / "run", inputs=[response])  # beside the inputs is fine


# ---------------------------------------------------------------- staged_directory

def test_staged_directory_refuses_before_the_block_runs(tmp_path):
    folder = _user_folder(tmp_path)
    before = _tree(folder)
    ran = False
    with pytest.raises(OutputError):
        with staged_directory(folder):
            ran = True
    assert not ran and _tree(folder) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["thesis"]


def test_staged_directory_refuses_the_input_directory(tmp_path):
    response = tmp_path / "corpus" / "response.jsonl"
    response.parent.mkdir()
    response.write_text("{}\n")
    with pytest.raises(OutputError, match="input"):
        with staged_directory(response.parent, inputs=[response]):
            pass
    assert response.read_text() == "{}\n"


def test_staged_output_carries_a_marker_and_umask_permissions(tmp_path):
    old = os.umask(0o027)
    try:
        with staged_directory(tmp_path / "run", command="evidencechain run --out run") as stage:
            (stage / "a.csv").write_text("x\n")
            (stage / "model").mkdir()
    finally:
        os.umask(old)
    marker = json.loads((tmp_path / "run" / MARKER).read_text())
    assert marker["command"] == "evidencechain run --out run" and marker["time"]
    assert marker["files"] == ["a.csv", "model"]
    assert (tmp_path / "run").stat().st_mode & 0o777 == 0o750


def test_a_failed_swap_is_an_output_error_and_leaves_nothing_behind(tmp_path, monkeypatch):
    with staged_directory(tmp_path / "run") as stage:
        (stage / "a.csv").write_text("first\n")
    real_replace = os.replace

    def refuse(src, dst):
        if Path(dst) == tmp_path / "run" and ".partial-" in Path(src).name:
            raise PermissionError(13, "Permission denied", str(dst))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OutputError, match="cannot move the new output into place"):
        with staged_directory(tmp_path / "run") as stage:
            (stage / "a.csv").write_text("second\n")
    monkeypatch.undo()
    assert (tmp_path / "run" / "a.csv").read_text() == "first\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_stale_staging_directories_are_cleaned(tmp_path):
    start = Path(f"/proc/{os.getpid()}/stat").read_text().rsplit(")", 1)[1].split()[19] \
        if Path("/proc/self/stat").exists() else "0"
    dead = tmp_path / f".run.partial-{_dead_pid()}-123-abcdefgh"
    reused = tmp_path / f".run.old-{os.getpid()}-1"  # same PID, another process start
    alive = tmp_path / f".run.partial-{os.getpid()}-{start}-abcdefgh"
    other = tmp_path / f".other.partial-{_dead_pid()}-1-abcdefgh"
    for d in (dead, reused, alive, other):
        d.mkdir()
    removed = clean_stale_staging(tmp_path, "run")
    assert set(removed) == ({dead, reused} if start != "0" else {dead})
    assert alive.exists() and other.exists()
    with staged_directory(tmp_path / "run"):
        pass
    assert not dead.exists()


# ---------------------------------------------------------------- report file ownership

def test_staged_files_move_in_only_when_all_were_produced(tmp_path):
    shared = tmp_path / "figures"
    shared.mkdir()
    (shared / "README.md").write_text("the user's")
    with pytest.raises(RuntimeError):
        with staged_files() as stage:
            (stage.dir(shared) / "a.png").write_bytes(b"new")
            raise RuntimeError("a later step failed")
    assert sorted(p.name for p in shared.iterdir()) == ["README.md"]
    with staged_files() as stage:
        (stage.dir(shared) / "a.png").write_bytes(b"new")
        assert stage.find(shared / "a.png").read_bytes() == b"new"
        assert stage.find(shared / "README.md") == shared / "README.md"
    assert (shared / "a.png").read_bytes() == b"new" and (shared / "README.md").read_text() == "the user's"
    assert "a.png" in json.loads((shared / REPORT_MANIFEST).read_text())["files"]


def test_staged_files_overwrite_only_their_own_files(tmp_path):
    shared = tmp_path / "tables"
    with staged_files() as stage:
        (stage.dir(shared) / "summary.csv").write_text("v1\n")
    with staged_files() as stage:  # its own earlier output: replaced
        (stage.dir(shared) / "summary.csv").write_text("v2\n")
    assert (shared / "summary.csv").read_text() == "v2\n"
    (shared / "summary.csv").write_text("edited by hand\n")
    (shared / "notes.csv").write_text("the user's\n")
    with pytest.raises(OutputError, match="summary.csv exists and was not written by evidencechain"):
        with staged_files() as stage:
            (stage.dir(shared) / "summary.csv").write_text("v3\n")
            (stage.dir(shared) / "other.csv").write_text("new\n")
    assert (shared / "summary.csv").read_text() == "edited by hand\n"
    assert not (shared / "other.csv").exists()
    assert sorted(p.name for p in shared.iterdir()) == [REPORT_MANIFEST, "notes.csv", "summary.csv"]
    (shared / "summary.csv").write_text("v3\n")  # identical content is accepted
    with staged_files() as stage:
        (stage.dir(shared) / "summary.csv").write_text("v3\n")


# ---------------------------------------------------------------- models

@pytest.fixture
def model_dir(tmp_path) -> Path:
    return EvidenceChain().save(tmp_path / "model")


def test_save_records_checksums_and_load_verifies_them(model_dir):
    meta = json.loads((model_dir / "model.json").read_text())
    assert set(meta["files"]) == {"model.skops"} and len(meta["files"]["model.skops"]) == 64
    assert meta["format"] == "skops"
    assert isinstance(EvidenceChain.load(model_dir), EvidenceChain)


def test_a_truncated_model_is_refused(model_dir):
    data = (model_dir / "model.skops").read_bytes()
    (model_dir / "model.skops").write_bytes(data[: len(data) // 2])
    with pytest.raises(ModelError, match=r"model.skops does not match its sha256"):
        EvidenceChain.load(model_dir)


def test_damaged_model_json_and_missing_files_are_model_errors(model_dir, tmp_path):
    with pytest.raises(ModelError, match="no fitted model"):
        EvidenceChain.load(tmp_path / "nowhere")
    (model_dir / "model.json").write_text('{"files": {"model.skops": ')
    with pytest.raises(ModelError, match="model.json is damaged"):
        EvidenceChain.load(model_dir)
    (model_dir / "model.json").write_text('{"feature_schema": 1}')
    with pytest.raises(ModelError, match="lists no sha256"):
        EvidenceChain.load(model_dir)
    (model_dir / "model.json").unlink()
    with pytest.raises(ModelError, match="model.json does not exist"):
        EvidenceChain.load(model_dir)


def test_an_unloadable_model_file_with_a_matching_checksum_is_a_model_error(model_dir):
    import hashlib

    (model_dir / "model.skops").write_bytes(b"not a zip")
    meta = json.loads((model_dir / "model.json").read_text())
    meta["files"]["model.skops"] = hashlib.sha256(b"not a zip").hexdigest()
    (model_dir / "model.json").write_text(json.dumps(meta))
    with pytest.raises(ModelError, match="model.skops is not a readable model file"):
        EvidenceChain.load(model_dir)
