"""`semantic_ablation --runs`: with/without rows from two finished runs (per-subset means)."""
from __future__ import annotations

import pandas as pd
import pytest

from evidencechain.detect.semantic_ablation import main, run_rows


def _run(path, ba_rf):
    rows = []
    for unit, fit in (("audit -> se[{}]", "audit"), ("se[-{}] -> se[{}]", "se")):
        for subset, delta in (("a", 0.0), ("b", 0.1)):
            for method, family, ba in (("NLI_Rules", "unsupervised", 0.6), ("EvidenceChain_RF", "supervised", ba_rf),
                                       ("Lexical", "unsupervised", 0.5)):
                rows.append({"unit": unit.format(subset, subset), "fit": fit, "test": "se", "subset": subset,
                             "level": "response", "method": method, "family": family,
                             "balanced_accuracy": ba + delta, "roc_auc": 0.7, "n": 10})
    rows.append({**rows[0], "level": "sentence", "balanced_accuracy": 0.99})
    path.mkdir()
    pd.DataFrame(rows).to_csv(path / "metrics.csv", index=False)
    return path


def test_rows_average_the_subsets_and_keep_rules_once(tmp_path):
    rows = run_rows("with", _run(tmp_path / "w", 0.6))
    got = {(r["benchmark"], r["detector"]): r["balanced_accuracy"] for r in rows}
    assert got == {("se, mean of 2, fitted on audit", "NLI_Rules"): pytest.approx(0.65),
                   ("se, mean of 2, fitted on audit", "EvidenceChain_RF"): pytest.approx(0.65),
                   ("se, mean of 2, fitted on se (leave-one-domain-out)", "EvidenceChain_RF"): pytest.approx(0.65)}
    assert {r["variant"] for r in rows} == {"with"} and {r["answers"] for r in rows} == {20}


def test_runs_are_combined_into_the_ablation_table(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["--runs", f"without={_run(tmp_path / 'a', 0.5)}", f"with={_run(tmp_path / 'b', 0.7)}",
                 "--out", str(out)]) == 0
    table = pd.read_csv(out / "ablation.csv")
    lodo = table[table["benchmark"].str.contains("leave-one-domain-out")].set_index("variant")
    assert lodo.loc["with", "balanced_accuracy"] > lodo.loc["without", "balanced_accuracy"]
    assert main(["--runs", f"with={tmp_path / 'missing'}", "--out", str(out)]) == 2
    assert "expected VARIANT=RUN_DIR" in capsys.readouterr().err


def test_a_run_of_one_subset_is_named_without_a_mean(tmp_path):
    path = tmp_path / "one"
    path.mkdir()
    pd.DataFrame([{"unit": "audit -> c", "fit": "audit", "test": "c", "subset": "", "level": "response",
                   "method": "EvidenceChain_LR", "family": "supervised", "balanced_accuracy": 0.7, "roc_auc": 0.8,
                   "n": 5}]).to_csv(path / "metrics.csv", index=False)
    assert [r["benchmark"] for r in run_rows("with", path)] == ["c, fitted on audit"]


def test_the_readme_table_pairs_without_and_with_and_averages_domains(tmp_path):
    from evidencechain.report.readme_blocks import semantic_ablation_body

    rows = [{"benchmark": f"se:{d}", "variant": v, "detector": "EvidenceChain_RF", "balanced_accuracy": ba,
             "roc_auc": 0.7, "response_f1": "", "span_f1": ""}
            for d, (lo, hi) in (("a", (0.5, 0.6)), ("b", (0.7, 0.9))) for v, ba in (("without", lo), ("with", hi))]
    rows.append({"benchmark": "qa", "variant": "planted_60", "detector": "NLI_Rules", "balanced_accuracy": "",
                 "roc_auc": 0.8, "response_f1": 0.4, "span_f1": ""})
    pd.DataFrame(rows).to_csv(tmp_path / "ablation.csv", index=False)
    body = semantic_ablation_body(tmp_path / "ablation.csv")
    assert "| se (mean of 2 domains) | EvidenceChain_RF | 0.600 → 0.750 | 0.700 → 0.700 |  |  |" in body
    assert "| qa | planted_60 | NLI_Rules |  | 0.800 | 0.400 |  |" in body.split("Other variants")[1]
