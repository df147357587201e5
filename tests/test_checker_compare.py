"""report.checker_compare: two runs of one config with different checkers, side by side."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from evidencechain.report.checker_compare import compare, main, reads_checker


def _run(path, name, values):
    path.mkdir()
    rows = [{"unit": f"a -> b[{s}]" if s else "a -> b", "subset": s, "level": "response", "method": m,
             "f1": v, "balanced_accuracy": v} for (m, s), v in values.items()]
    pd.DataFrame(rows).to_csv(path / "metrics.csv", index=False)
    (path / "run.json").write_text(json.dumps({"name": name, "commit": "c0ffee",
                                               "config": {"detectors": {"primary": "Lexical"}}}))
    return path


def test_rows_that_read_the_checker_and_the_primary_are_compared(tmp_path):
    assert reads_checker("EvidenceChain_NLI") and reads_checker("EvidenceChain_RF")
    assert not reads_checker("BM25") and not reads_checker("Flag everything (floor)")
    base = _run(tmp_path / "base", "x", {("EvidenceChain_NLI", "d1"): 0.5, ("EvidenceChain_NLI", "d2"): 0.7,
                                         ("BM25", "d1"): 0.6, ("Lexical", "d1"): 0.4})
    other = _run(tmp_path / "other", "x", {("EvidenceChain_NLI", "d1"): 0.8, ("EvidenceChain_NLI", "d2"): 0.8,
                                           ("BM25", "d1"): 0.6, ("Lexical", "d1"): 0.4})
    table = compare(base, other)
    ba = table[table.metric == "response balanced_accuracy"].set_index("method")
    assert sorted(ba.index) == ["EvidenceChain_NLI", "Lexical"]
    assert ba.loc["EvidenceChain_NLI", "base"] == pytest.approx(0.6)
    assert ba.loc["EvidenceChain_NLI", "delta"] == pytest.approx(0.2)
    assert ba.loc["EvidenceChain_NLI", "evaluation"] == "a -> b (subset mean)"
    assert ba.loc["Lexical", "role"] == "primary (headline)"


def test_runs_of_different_configs_are_refused(tmp_path, capsys):
    base = _run(tmp_path / "base", "x", {("Lexical", ""): 0.4})
    other = _run(tmp_path / "other", "y", {("Lexical", ""): 0.4})
    assert main([f"{base}={other}"]) == 2
    assert "runs of different configs" in capsys.readouterr().err
    assert main([f"{base}"]) == 2
    assert main([f"{base}={tmp_path / 'none'}"]) == 2
    assert "not a finished run" in capsys.readouterr().err


def test_the_readme_block_renders_the_written_comparison(tmp_path, capsys):
    from evidencechain.report.readme_blocks import checker_gpu_body

    base = _run(tmp_path / "base", "x", {("EvidenceChain_NLI", ""): 0.5, ("Lexical", ""): 0.4})
    other = _run(tmp_path / "other", "x", {("EvidenceChain_NLI", ""): 0.75, ("Lexical", ""): 0.4})
    out = tmp_path / "cmp" / "summary.csv"
    assert main([f"{base}={other}", "--out", str(out)]) == 0
    assert (out.parent / "commit.txt").read_text().strip() == "c0ffee"
    body = checker_gpu_body(out)
    assert "| x | a -> b | EvidenceChain_NLI | 0.500 / 0.750 | 0.500 / 0.750 |  |" in body
    assert "| x | a -> b | Lexical (primary) |" in body
    assert checker_gpu_body(tmp_path / "none.csv") is None
