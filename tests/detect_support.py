"""Shared by the detect tests: the default model, built once per session in a temporary cache.

`default_cache(tmp_path_factory)` builds the default model (about 30 s on 2 cores) under the
session's base temporary directory the first time any detect test asks for it; every later
test, in any of the three files, reuses it. The project tree and the user's cache are never
written (`EVIDENCECHAIN_CACHE_DIR` points into the temporary directory during each test).
"""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from evidencechain import cli

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "data" / "examples" / "my_answers.jsonl"
PLANTED = {"museum": "1808", "curie": "Krakow", "python": "Google", "library": "five", "zurich": "950,000"}
"""The hallucination planted in each example answer (a word the detector must name)."""
SUPPORTED = ("eiffel", "everest")
RAGTRUTH_QA = ROOT.parent / "shared" / "data" / "ragtruth_qa"
_BUILT: dict[str, Path] = {}


def default_cache(tmp_path_factory) -> Path:
    """A cache directory holding the default model (built on the first call of the session)."""
    if "root" not in _BUILT:
        from evidencechain.detect.default import ensure_default_model

        root = tmp_path_factory.getbasetemp() / "evidencechain-cache"
        ensure_default_model("auto", root, quiet=True)
        _BUILT["root"] = root
    return _BUILT["root"]


def examples() -> list[dict]:
    return [json.loads(line) for line in EXAMPLES.read_text("utf-8").splitlines() if line.strip()]


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """The CLI in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


def one_error_line(err: str, *names: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    for name in names:
        assert name in lines[0], (name, lines[0])
    return lines[0]


def data_error_lines(err: str, count: int, *names: str) -> list[str]:
    """A data error as the CLI prints it: a count line, then one `error:` line per problem."""
    lines = err.strip().splitlines()
    assert lines and all(line.startswith("error: ") for line in lines), err
    assert f"{count} problem(s)" in lines[0], lines[0]
    assert len(lines) == 1 + min(count, 20) + (count > 20), err
    for name in names:
        assert sum(name in line for line in lines[1:]) == 1, (name, lines)
    return lines


def spans_of(records: list[dict]) -> dict[str, list[tuple[int, int, str]]]:
    return {r["id"]: [(s["start"], s["end"], s["text"]) for s in r["spans"]] for r in records}
