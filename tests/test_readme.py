"""The README's figures come from files, never from typing (issue 24).

* every generated block's body matches the digest in its provenance line (a hand edit inside a
  block fails even on a fresh clone, where the sources are absent);
* where a block's source exists (results/default_model, results/checker), the block equals what
  the generator renders from it; the command reference always equals the parser's;
* outside the generated blocks, the Performance section (rendered by `make bench`, tested with
  it) and the performance regions (`<!-- performance-*:start -->`, hand-typed until a make target
  writes them), the README holds no measured figure (three-decimal metrics, seconds, minutes,
  rates, megabytes).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from evidencechain.report import readme_blocks
from evidencechain.report.readme import body_digest, generated_blocks, refresh_blocks, wrap

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text("utf-8")
FIGURE = re.compile(r"(?<![\w.-])(?:0\.\d{3}|\d[\d,]*(?:\.\d+)? ?(?:s|min|minutes|seconds|pairs/s|answers/s|MB|GB))"
                    r"(?![\w.])")
PERFORMANCE = re.compile(r"<!-- (performance[a-z-]*):start -->.*?<!-- \1:end -->|^## Performance\n.*?(?=^## )",
                         re.S | re.M)
EXPECTED_BLOCKS = {"results", "commands", "default-model", "checker", "checker-gpu", "calibrate", "semantic-suite",
                   "semantic-firing", "semantic-ablation", "invented-suite", "val-select"}


def _outside_blocks(text: str) -> str:
    text = re.sub(r"<!-- ([a-z-]+):start -->.*?<!-- \1:end -->", "", text, flags=re.S)
    return text


def test_every_generated_block_is_present_and_unedited():
    blocks = generated_blocks(README)
    assert EXPECTED_BLOCKS <= set(blocks)
    for name, (head, body) in ((n, blocks[n]) for n in sorted(EXPECTED_BLOCKS)):
        assert f"body sha256 {body_digest(body)}" in head, f"the README's {name} block was edited by hand"
        assert "commit" in head or name == "commands" or body == readme_blocks.pending_body(name), (name, head)


def test_the_command_reference_is_the_parser_s():
    _, body = generated_blocks(README)["commands"]
    assert body == readme_blocks.commands_body(), "run `make readme` to regenerate the command reference"


@pytest.mark.parametrize("name, source", [("default-model", ROOT / "results" / "default_model" / "card.json"),
                                          ("checker", ROOT / "results" / "checker" / "card.json")])
def test_a_block_equals_its_source_where_the_source_exists(name, source, monkeypatch):
    if not source.is_file():
        pytest.skip(f"{source} absent (its make target writes it); the digest test still guards the block")
    monkeypatch.chdir(ROOT)
    _, body = generated_blocks(README)[name]
    assert body == readme_blocks.RENDERERS[name](), f"{name}: the README differs from {source}; run `make readme`"


def test_no_measured_figure_outside_the_generated_blocks():
    text = _outside_blocks(PERFORMANCE.sub("", README))
    hits = [m.group(0) + " in: " + text[max(0, m.start() - 40):m.end() + 10].replace("\n", " ")
            for m in FIGURE.finditer(text)]
    assert hits == [], "hand-typed figures outside generated blocks:\n" + "\n".join(hits)


def test_the_figure_check_would_catch_a_typed_number():
    assert FIGURE.search("calibration answer F1 0.897, built in 59 s")
    assert not FIGURE.search("seed 17, 20% calibration, 437 answers, Python 3.11, within 0.01")


def _card(tmp_path: Path) -> Path:
    card = {"key": "abc", "commit": "1234567890ab", "build_seconds": 58.7, "detector": "EvidenceChain_Token",
            "recipe": {"detectors": ["Lexical", "EvidenceChain_Token"]},
            "answers": {"train": 400, "calibration": 100, "test": 252},
            "calibration_metrics": {"Lexical": {"response_f1": 0.61, "span_f1": 0.2},
                                    "EvidenceChain_Token": {"response_f1": 0.9071, "span_f1": 0.9043}},
            "audit_test_metrics": {"Lexical": {"response_f1": 0.6, "span_f1": 0.25},
                                   "EvidenceChain_Token": {"response_f1": 0.85, "span_f1": 0.82}}}
    out = tmp_path / "results" / "default_model"
    out.mkdir(parents=True)
    (out / "card.json").write_text(json.dumps(card))
    (out / "ragtruth_qa.json").write_text(json.dumps({
        "answers": 437, "hallucinated": 160, "detector": "EvidenceChain_Token", "answer_f1": 0.4241,
        "answer_precision": 0.3, "answer_recall": 0.7, "flag_everything_answer_f1": 0.286, "span_f1": 0.27,
        "commit": "1234567890ab", "other_rule": {"conflict_rule": True, "answer_f1": 0.4112,
                                                 "answer_precision": 0.28, "answer_recall": 0.75,
                                                 "span_f1": 0.265}}))
    return out


def test_the_default_model_block_is_rendered_from_its_card(tmp_path, monkeypatch):
    _card(tmp_path)
    monkeypatch.chdir(tmp_path)
    body = readme_blocks.default_model_body()
    assert "| **EvidenceChain_Token** (chosen) | 0.907 | 0.904 | 0.850 | 0.820 |" in body
    assert "commit 1234567890ab" in body and "2 detectors" in body and "built in 59 s" in body
    assert "answer F1 0.424" in body and "flagging every answer gives 0.286" in body
    assert "With the conflict rule on (`detect --conflict-rule on`): answer F1 0.411" in body
    assert "span F1 0.265." in body
    text = "intro\n<!-- default-model:start -->\n<!-- generated x -->\nold 0.897\n<!-- default-model:end -->\nend\n"
    new = refresh_blocks(text)
    assert "0.897" not in new and "0.907" in new and new.startswith("intro\n") and new.endswith("end\n")
    head, got = generated_blocks(new)["default-model"]
    assert got == body and f"body sha256 {body_digest(body)}" in head
    assert refresh_blocks(new) == new
    edited = new.replace("0.907", "0.917")
    head, got = generated_blocks(edited)["default-model"]
    assert f"body sha256 {body_digest(got)}" not in head  # the digest test would fail on this edit


def test_a_block_whose_source_is_absent_is_kept(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = wrap("checker", "results/checker/card.json", "kept as it is")
    assert refresh_blocks(text) == text


def test_the_results_block_carries_the_checker_rows_of_the_benchmark_tables(tmp_path):
    import pandas as pd

    from evidencechain.report.readme import _checker_rows

    pd.DataFrame({"method": ["BM25", "EvidenceChain_NLI", "RefChecker_NLI"], "fitted_on": ["audit"] * 3,
                  "response_f1": [0.433, 0.375, 0.317], "span_f1": [0.315, 0.12, float("nan")]}
                 ).to_csv(tmp_path / "ragtruth_qa.csv", index=False)
    rows = _checker_rows(tmp_path)
    assert "| ragtruth_qa | EvidenceChain_NLI | audit | response F1 0.375; span F1 0.120 |" in rows
    assert "| ragtruth_qa | RefChecker_NLI | audit | response F1 0.317 |" in rows
    assert not any("BM25" in row for row in rows) and _checker_rows(tmp_path / "absent") == []


def test_the_checker_block_is_rendered_from_its_card(tmp_path):
    card = {"seed": 17, "inputs_hash": "f" * 64, "commit": "abcdef123456",
            "pairs": {"train": 19160, "validation": 1100,
                      "train_by_source": {"anli": {"supported": 1000, "conflict": 1198, "baseless": 1000}}},
            "metrics": {"epochs": 1, "steps": 1198, "wall_seconds": 1992.0, "device": "cpu", "threads": 2,
                        "precision": "fp32", "trainable_parameters": 5_600_000, "validation_accuracy": 0.674,
                        "validation_balanced_accuracy": 0.655, "validation_roc_auc_supported": 0.8,
                        "validation_token_f1": 0.721}}
    (tmp_path / "card.json").write_text(json.dumps(card))
    body = readme_blocks.checker_body(tmp_path)
    assert "commit abcdef123456" in body and "19,160 training and 1,100 validation pairs" in body
    assert "anli 3,198" in body and "1,198 steps, 33.2 min on cpu" in body and "5.6 M trainable" in body
    assert "balanced accuracy 0.655" in body and "token F1 0.721" in body
    assert readme_blocks.checker_body(tmp_path / "absent") is None
