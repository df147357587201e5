"""Tests leave the project tree clean: `git status` is the same after the session as before.

Loaded from tests/conftest.py (`pytest_plugins`). At session start it records
`git status --porcelain --untracked-files=all` of the project root; at session end it
compares, prints what changed and fails the session (exit status 1) if anything did. Files
listed in .gitignore (.cache/, results/, ...) are not seen. The check is skipped, with a
line saying why, where git or the .git directory is absent, or when EVIDENCECHAIN_TREE_CHECK=0
(for example while someone edits the tree during the run: their edits would be reported).
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_KEY = pytest.StashKey[dict]()


def _status() -> tuple[list[str] | None, str]:
    """(status lines, '') or (None, why the check cannot run)."""
    if os.environ.get("EVIDENCECHAIN_TREE_CHECK", "1") == "0":
        return None, "EVIDENCECHAIN_TREE_CHECK=0"
    git = shutil.which("git")
    if git is None:
        return None, "git is not installed"
    if not (ROOT / ".git").exists():
        return None, f"{ROOT} has no .git directory"
    try:
        # --no-optional-locks: never refresh (write) the index while reading the status
        done = subprocess.run([git, "--no-optional-locks", "-C", str(ROOT), "status", "--porcelain",
                               "--untracked-files=all"], capture_output=True, text=True, timeout=60,
                              env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"})
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"git status failed: {exc}"
    if done.returncode != 0:
        return None, f"git status failed: {done.stderr.strip()}"
    return sorted(done.stdout.splitlines()), ""


def pytest_sessionstart(session: pytest.Session) -> None:
    lines, why = _status()
    session.config.stash[_KEY] = {"before": lines, "why": why}


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    state = session.config.stash.get(_KEY, None)
    if state is None:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    lines_written = []

    def say(text: str, **markup) -> None:
        if reporter is not None:
            if not lines_written:
                reporter.write("\n")  # the progress line ("... [100%]") is still open here
            reporter.write_line(text, **markup)
            lines_written.append(text)

    before = state["before"]
    if before is None:
        say(f"tree-clean check skipped: {state['why']}", yellow=True)
        return
    after, why = _status()
    if after is None:
        say(f"tree-clean check skipped at session end: {why}", yellow=True)
        return
    if after == before:
        return
    added = [line for line in after if line not in before]
    gone = [line for line in before if line not in after]
    say(f"FAILED tree-clean check: the tests changed `git status` of {ROOT}", red=True, bold=True)
    for line in added:
        say(f"  new:  {line}", red=True)
    for line in gone:
        say(f"  gone: {line}", red=True)
    say("  (tests must write only under tmp_path; set EVIDENCECHAIN_TREE_CHECK=0 to skip "
        "while the tree is edited during the run)", red=True)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
