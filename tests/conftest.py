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


@pytest.fixture(scope="session")
def audit_corpus(tmp_path_factory) -> Path:
    """The audit corpus (seed 17) written once per session (read-only: copy to edit)."""
    from evidencechain.data.audit import write_audit_corpus

    out = tmp_path_factory.mktemp("audit_corpus")
    write_audit_corpus(out, seed=17)
    return out


@pytest.fixture(scope="session")
def audit_run(audit_corpus, tmp_path_factory) -> tuple[Path, dict[str, list]]:
    """The audit experiment (experiments/audit.toml: full pipeline, every detector, ablation) on
    `audit_corpus`, run once per session and parsed in two processes, with spies on everything
    that learns from data: (output directory, the source ids each fit saw). Read-only: copy to edit."""
    from evidencechain.config import apply_overrides, load_config
    from evidencechain.features import FeatureExtractor
    from evidencechain.model import EvidenceChain
    from evidencechain.runner import run

    tmp = tmp_path_factory.mktemp("audit_run")
    seen: dict[str, list] = {"extractor_fit": [], "fit_detectors": [], "calibrate": []}
    original_fit, original_fit_detectors = FeatureExtractor.fit, EvidenceChain.fit_detectors
    original_calibrate = EvidenceChain.calibrate_scored  # `calibrate` calibrates through it

    def fit(self, corpus, progress=True):
        seen["extractor_fit"].append({r.source_id for r in corpus.responses})
        return original_fit(self, corpus, progress)

    def fit_detectors(self, train, corpus=None):
        seen["fit_detectors"].append(set(train.sentences.source_id))
        return original_fit_detectors(self, train, corpus)

    def calibrate_scored(self, calibration, span_labels=True):
        seen["calibrate"].append(set(calibration.sentences.source_id))
        return original_calibrate(self, calibration, span_labels)

    config = load_config(Path(__file__).resolve().parents[1] / "experiments" / "audit.toml")
    config.cache_dir = str(tmp / "cache")
    config = apply_overrides(config, response_jsonl=str(audit_corpus / "response.jsonl"),
                             source_info_jsonl=str(audit_corpus / "source_info.jsonl"))
    mp = pytest.MonkeyPatch()
    mp.setenv("EVIDENCECHAIN_WORKERS", "2")  # test_experiment's second run parses in one
    mp.setattr(FeatureExtractor, "fit", fit)
    mp.setattr(EvidenceChain, "fit_detectors", fit_detectors)
    mp.setattr(EvidenceChain, "calibrate_scored", calibrate_scored)
    try:
        out = run(config, tmp / "out", progress=False)
    finally:
        mp.undo()
    return out, seen


@pytest.fixture(scope="session")
def cache_root(tmp_path_factory) -> Path:
    """A cache directory holding the default model (built once a session)."""
    from detect_support import default_cache

    return default_cache(tmp_path_factory)


@pytest.fixture(scope="session")
def example_data(cache_root):
    """The default detector and its features of `data/examples/my_labelled.jsonl` (made once a
    session for every calibrate test; tests copy what they change)."""
    from detect_support import ROOT

    from evidencechain.detect import calibrate as cal
    from evidencechain.detect.api import Detector

    detector = Detector.default(cache_dir=cache_root, quiet=True)
    return detector, cal.featurize(detector.model, cal.read_labelled(ROOT / "data" / "examples" / "my_labelled.jsonl"))
