"""Real-data headline rows are chosen on calibration data (`realdata.select_row`, the `select`
rules of report/data/sections.toml), never on the test rows they report."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from evidencechain.report.benchmarks import benchmark_tables
from evidencechain.report.readme import WORD_TITLES
from evidencechain.report.realdata import (
    ON_CALIBRATION,
    ON_TEST,
    VALUES,
    abstract_sentence,
    headline,
    realdata_section,
    sections,
    select_row,
    word_level,
)
from evidencechain.report.render import write_table
from evidencechain.report.runs import load_run

AUDIT, HALU = "audit -> ragtruth_qa", "halueval_qa -> ragtruth_qa"
TEST_COLUMNS = ["precision", "recall", "f1", "roc_auc", "balanced_accuracy", "flagged_share", "span_words"]


def _row(unit, level, method, f1, cal_auc, family="unsupervised"):
    fit = unit.split(" -> ")[0]
    return {"unit": unit, "fit": fit, "calibrated_on": fit, "test": "ragtruth_qa", "subset": "", "level": level,
            "method": method, "family": family, "precision": f1, "recall": f1, "f1": f1, "roc_auc": f1,
            "balanced_accuracy": f1, "flagged_share": 0.1, "flagged_share_calibration": 0.1,
            "calibration_roc_auc": cal_auc}


def _metrics() -> pd.DataFrame:
    """Lexical is best on every test column, EvidenceChain_RF on every calibration column of the
    audit rows; the halueval_qa row has the highest calibration value of all but is calibrated on
    other data (the rule keeps the rows fitted on audit)."""
    rows = [_row(AUDIT, "response", "Lexical", 0.50, 0.70), _row(AUDIT, "response", "BM25", 0.45, 0.80),
            _row(AUDIT, "response", "EvidenceChain_RF", 0.40, 0.90, "supervised"),
            _row(AUDIT, "response", "Flag everything (floor)", 0.29, np.nan, "floor"),
            _row(AUDIT, "word", "Lexical", 0.30, 0.80), _row(AUDIT, "word", "BM25", 0.28, 0.82),
            _row(AUDIT, "word", "EvidenceChain_RF", 0.20, 0.85, "supervised"),
            _row(AUDIT, "span", "Lexical", 0.35, np.nan), _row(AUDIT, "span", "BM25", 0.33, np.nan),
            _row(AUDIT, "span", "EvidenceChain_RF", 0.25, np.nan, "supervised"),
            _row(HALU, "response", "EvidenceChain_RF", 0.30, 0.99, "supervised")]
    return pd.DataFrame(rows)


def _run(tmp_path, metrics: pd.DataFrame):
    run_dir = tmp_path / "run"
    run_dir.mkdir(exist_ok=True)
    (run_dir / "run.json").write_text(json.dumps({"name": "ragtruth_qa", "primary": "EvidenceChain_RF"}))
    metrics.to_csv(run_dir / "metrics.csv", index=False)
    return load_run(run_dir)


def _values(tmp_path, metrics: pd.DataFrame) -> dict:
    tables = tmp_path / "tables"
    for table in benchmark_tables(_run(tmp_path, metrics)):
        write_table(table, tables)
    return realdata_section(tables)[1]


def test_headline_is_the_row_chosen_on_calibration_not_the_best_test_row(tmp_path):
    values = _values(tmp_path, _metrics())
    assert values["real.ragtruth_qa.response_f1"] == pytest.approx(0.40)
    assert values["real.ragtruth_qa.response_method"] == "EvidenceChain_RF"
    assert values["real.ragtruth_qa.response_fit"] == "audit"
    assert values["real.ragtruth_qa.span_f1"] == pytest.approx(0.25)
    assert values["real.ragtruth_qa.span_method"] == "EvidenceChain_RF, fitted on audit"
    assert values["real.ragtruth_qa.response_f1.selection"] == ON_CALIBRATION
    rows = headline(values).set_index("benchmark")
    response, span = rows.loc["RAGTruth QA, response F1"], rows.loc["RAGTruth QA, span F1"]
    assert response["ours"] == pytest.approx(0.40) and response["detector"].startswith("EvidenceChain_RF")
    assert ON_CALIBRATION in response["detector"] and span["ours"] == pytest.approx(0.25)
    assert response["best_test"] == "0.500 (Lexical, fitted on audit)"  # shown, for reference only
    assert span["best_test"] == "0.350 (Lexical, fitted on audit)"
    words = word_level(values).set_index("benchmark")
    assert words.loc["RAGTruth QA, span F1", "ours"] == pytest.approx(0.25)
    assert words.loc["RAGTruth QA, span F1", "detector"] == "EvidenceChain_RF, fitted on audit"
    assert "selection on test" in WORD_TITLES["best_test"]
    assert "response-level F1 0.400 on real RAGTruth QA" in abstract_sentence(values)


def test_corrupting_the_test_rows_does_not_change_the_chosen_row(tmp_path):
    clean = _metrics()
    chosen = {c: select_row(_table(tmp_path / "a", clean), c, sections()["ragtruth_qa"]["select"])[0]
              for c in ("response_f1", "span_f1", "word_f1")}
    rng = np.random.default_rng(17)
    for trial in range(5):
        corrupt = clean.copy()
        for column in TEST_COLUMNS:
            if column in corrupt:
                corrupt[column] = rng.uniform(0, 1, len(corrupt))
        table = _table(tmp_path / str(trial), corrupt)
        for column, row in chosen.items():
            again, how = select_row(table, column, sections()["ragtruth_qa"]["select"])
            assert (again["method"], again["fitted_on"]) == (row["method"], row["fitted_on"]), column
            assert how == ON_CALIBRATION and again[column] == pytest.approx(table.loc[again.name, column])


def _table(tmp_path, metrics: pd.DataFrame) -> pd.DataFrame:
    tmp_path.mkdir(parents=True, exist_ok=True)
    return benchmark_tables(_run(tmp_path, metrics))[0].frame


def test_ties_go_to_the_earlier_row_and_a_missing_rule_is_labelled_a_selection_on_test():
    frame = pd.DataFrame({"fitted_on": ["audit", "audit", "audit", "other"],
                          "method": ["EvidenceChain_LR", "EvidenceChain_Token", "Lexical", "EvidenceChain_RF"],
                          "response_f1": [0.3, 0.4, 0.5, 0.6], "response_calibration_roc_auc": [0.9, 0.9, 0.8, 0.99]})
    rule = {"fitted_on": "audit", "by": {"response_f1": "response_calibration_roc_auc"}}
    row, how = select_row(frame, "response_f1", rule)
    assert (row["method"], how) == ("EvidenceChain_LR", ON_CALIBRATION)
    row, how = select_row(frame, "response_f1", {"by": rule["by"]})  # no fitted_on: every row competes
    assert row["method"] == "EvidenceChain_RF"
    row, how = select_row(frame, "response_f1", None)
    assert (row["method"], how) == ("EvidenceChain_RF", ON_TEST)
    row, how = select_row(frame.drop(columns="response_calibration_roc_auc"), "response_f1", rule)
    assert how == ON_TEST  # the table lacks the calibration column: never passed off as chosen on it


def test_summedits_headline_is_chosen_on_the_evaluation_splits():
    frame = pd.DataFrame({"fitted_on": ["audit", "summedits (leave-one-domain-out)", "published"],
                          "method": ["NLI_Rules", "EvidenceChain_LR", "GPT-4"], "mean": [0.70, 0.65, 0.83],
                          "mean_calibration_roc_auc": [0.55, 0.72, np.nan]})
    values = VALUES["domains"]("summedits", frame, sections()["summedits"])
    assert values["mean"] == 0.65 and values["method"] == "EvidenceChain_LR"
    assert values["mean.selection"] == ON_CALIBRATION and values["mean.best_test"] == 0.70


def test_shipped_rules_name_calibration_columns_only():
    for name in ("ragtruth_qa", "summedits", "cliff"):
        rule = sections()[name]["select"]
        assert rule["by"] and all("calibration" in by for by in rule["by"].values()), name
