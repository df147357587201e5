"""Shared test fixtures: the valid RAGTruth-format fixture corpus and edited copies of it."""
from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

pytest_plugins = ["conftest_tree"]  # the tree-clean check (tests/conftest_tree.py)

FIXTURES = Path(__file__).parent / "fixtures"
RAGTRUTH_VALID = FIXTURES / "ragtruth" / "valid"

# An edit of one line: a callable (given the parsed row, returns the new row, or a str to
# write verbatim, or None to drop the line), a str written verbatim, or None (drop).
LineEdit = Callable[[dict], Any] | str | None


def _apply(lines: list[str], edits: Mapping[int, LineEdit] | None,
           append: list[Any] | None) -> list[str]:
    out = list(lines)
    for number, edit in (edits or {}).items():
        if callable(edit):
            edit = edit(json.loads(out[number - 1]))
        if edit is None:
            out[number - 1] = None
        elif isinstance(edit, str):
            out[number - 1] = edit
        else:
            out[number - 1] = json.dumps(edit, ensure_ascii=False)
    for row in append or []:
        out.append(row if isinstance(row, str) else json.dumps(row, ensure_ascii=False))
    return [line for line in out if line is not None]


class RagtruthCopy:
    """Writes edited copies of the valid fixture corpus under a directory.

    `write(responses={2: edit}, sources={1: edit}, response_append=[row, ...])` returns
    (response.jsonl, source_info.jsonl) paths; line numbers are 1-based as in the files.
    """

    def __init__(self, root: Path):
        self.root = root
        self.response_lines = (RAGTRUTH_VALID / "response.jsonl").read_text("utf-8").splitlines()
        self.source_lines = (RAGTRUTH_VALID / "source_info.jsonl").read_text("utf-8").splitlines()
        self._count = 0

    def row(self, kind: str, number: int) -> dict:
        lines = self.response_lines if kind == "response" else self.source_lines
        return json.loads(lines[number - 1])

    def write(self, *, responses: Mapping[int, LineEdit] | None = None,
              sources: Mapping[int, LineEdit] | None = None,
              response_append: list[Any] | None = None,
              source_append: list[Any] | None = None,
              name: str | None = None) -> tuple[Path, Path]:
        self._count += 1
        out = self.root / (name or f"copy{self._count}")
        out.mkdir(parents=True, exist_ok=True)
        resp, src = out / "response.jsonl", out / "source_info.jsonl"
        resp.write_text("".join(line + "\n" for line in _apply(
            self.response_lines, responses, response_append)), encoding="utf-8")
        src.write_text("".join(line + "\n" for line in _apply(
            self.source_lines, sources, source_append)), encoding="utf-8")
        return resp, src


@pytest.fixture
def ragtruth_dir() -> Path:
    """Directory of the valid official-format fixture corpus (read-only: copy to edit)."""
    return RAGTRUTH_VALID


@pytest.fixture
def ragtruth_paths(ragtruth_dir: Path) -> tuple[Path, Path]:
    """(response.jsonl, source_info.jsonl) of the valid fixture corpus."""
    return ragtruth_dir / "response.jsonl", ragtruth_dir / "source_info.jsonl"


@pytest.fixture
def ragtruth_copy(tmp_path: Path) -> RagtruthCopy:
    """Factory for edited copies of the valid fixture corpus in tmp_path."""
    return RagtruthCopy(tmp_path / "ragtruth")


@pytest.fixture
def copy_ragtruth(tmp_path: Path) -> Callable[[], Path]:
    """Copy the valid fixture corpus into tmp_path unchanged; returns the directory."""
    def make(name: str = "valid_copy") -> Path:
        dest = tmp_path / name
        shutil.copytree(RAGTRUTH_VALID, dest)
        return dest
    return make
