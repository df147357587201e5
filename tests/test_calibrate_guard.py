"""`calibrate`'s guard: the base model as it is competes with its calibration on inner folds."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest
from detect_support import ROOT, default_cache, run_cli

from evidencechain.detect import calibrate as cal
from evidencechain.detect.default import TIE
from evidencechain.detect.guard import base_outcome, score_rows

EXAMPLE = ROOT / "data" / "examples" / "my_labelled.jsonl"


@pytest.fixture(scope="session")
def cache_root(tmp_path_factory) -> Path:
    return default_cache(tmp_path_factory)


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("EVIDENCECHAIN_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="session")
def example_data(cache_root):
    from evidencechain.detect.api import Detector

    detector = Detector.default(cache_dir=cache_root, quiet=True)
    return detector, cal.featurize(detector.model, cal.read_labelled(EXAMPLE))


def _order(data) -> list[int]:
    return list(range(len(data.ids)))


def _relabelled_as_the_base_says(model, data):
    """`data` with every answer labelled as the base model's verdict: the base is perfect on it."""
    verdict, _ = base_outcome(model, data, _order(data), False)
    out = copy.deepcopy(data)
    for response, bad in zip(out.corpus.responses, verdict):
        response.response_label = int(bad)
    label = dict(zip(out.ids, verdict.astype(int)))
    out.tables.responses["label"] = out.tables.responses["response_id"].map(label).astype(int)
    return out


def _thresholds_unchanged(a, b) -> bool:
    return a.primary == b.primary and a.thresholds == b.thresholds and a.span_rules == b.span_rules


def test_the_base_objective_is_detects_on_each_inner_folds_held_out_answers(example_data):
    """The base model is scored as `evaluate` scores a model: `detect`'s verdicts and spans."""
    detector, data = example_data
    model = detector.model
    verdict, counts = base_outcome(model, data, _order(data), True)
    for _, test in cal.folds_of(data, 3, 17):
        rows = np.array([data.ids.index(i) for i in test])
        got = cal.evaluate(model, model.primary, data.subset(test))
        expected = (got["response_f1"] + got["span_f1"]) / 2
        assert score_rows(verdict[rows], data.labels[rows] > 0, counts[rows]) == pytest.approx(expected)


def test_the_base_model_is_kept_when_calibration_does_not_beat_it(example_data):
    detector, data = example_data
    perfect = _relabelled_as_the_base_says(detector.model, data)
    assert 5 <= perfect.labels.sum() <= len(perfect.labels) - 5
    given = copy.deepcopy(detector.model)
    model, guard = cal.refit(given, perfect, objective="answer")
    assert guard.kept == "base" and guard.enabled and guard.base == pytest.approx(1.0)
    assert guard.calibrated <= guard.base + TIE
    assert model is not given and _thresholds_unchanged(model, detector.model)
    assert model.aggregations == detector.model.aggregations
    assert "base model kept" in guard.why() and "--always-calibrate" in guard.why()


def test_the_guard_can_be_turned_off(example_data):
    detector, data = example_data
    perfect = _relabelled_as_the_base_says(detector.model, data)
    model, guard = cal.refit(copy.deepcopy(detector.model), perfect, objective="answer", keep_base=False)
    assert guard.kept == "calibrated" and not guard.enabled and guard.base == pytest.approx(1.0)
    assert not _thresholds_unchanged(model, detector.model)
    assert guard.why().startswith("guard: off (--always-calibrate)")


def test_the_calibrated_model_is_kept_when_it_clearly_beats_the_base(example_data):
    """A base model that flags nothing (its thresholds above every risk) loses to its calibration."""
    detector, data = example_data
    blind = copy.deepcopy(detector.model)
    for name in blind.thresholds:
        blind.thresholds[name] = {level: 2.0 for level in blind.thresholds[name]}
    model, guard = cal.refit(copy.deepcopy(blind), data)
    assert guard.kept == "calibrated" and guard.calibrated > guard.base + TIE
    assert guard.base < 0.2 and guard.best_detector in model.detector_names
    assert model.thresholds[model.primary]["response"] < 1.0
    assert guard.why().startswith("guard: calibrated thresholds kept")


def test_with_a_fixed_detector_the_base_reports_it(example_data):
    detector, data = example_data
    perfect = _relabelled_as_the_base_says(detector.model, data)
    other = next(n for n in detector.model.detector_names if n != detector.model.primary)
    model, guard = cal.refit(copy.deepcopy(detector.model), perfect, detector=other, objective="answer")
    assert model.primary == other and guard.base_detector == other and guard.best_detector == other
    if guard.kept == "base":
        assert model.thresholds == detector.model.thresholds


def test_calibration_json_records_the_guard_per_fold_and_for_the_model(cache_root, tmp_path):
    for flags, enabled in (([], True), (["--always-calibrate"], False)):
        out = tmp_path / f"m{int(enabled)}"
        code, stdout, err = run_cli(["calibrate", str(EXAMPLE), "--out", str(out), "--folds", "3", "--cache-dir",
                                     str(cache_root), "-q", *flags])
        assert code == 0, err
        report = json.loads((out / cal.REPORT).read_text("utf-8"))
        guard = report["guard"]
        assert guard["enabled"] is enabled and guard["kept"] in ("base", "calibrated")
        assert {"inner_objective_base", "inner_objective_calibrated", "base_detector", "best_detector",
                "why"} <= set(guard)
        kept = [f["guard"]["kept"] for f in report["per_fold"]]
        assert len(kept) == 3 and guard["folds_base_kept"] == kept.count("base")
        assert all(f["guard"]["enabled"] is enabled for f in report["per_fold"])
        if not enabled:
            assert guard["kept"] == "calibrated" and "base" not in kept
        if guard["kept"] == "base":
            assert report["thresholds_after"] == report["thresholds_before"]
            assert report["detector_after"] == report["detector"]
        for fold in report["per_fold"]:
            if fold["guard"]["kept"] == "base":
                assert fold["response_f1_after"] == fold["response_f1_before"]
                assert fold["span_f1_after"] == fold["span_f1_before"]
        said = [x for x in stdout.splitlines() if x.startswith("guard: ")]
        assert said == [guard["why"]]
        assert f"base model kept in {kept.count('base')} of 3 folds" in stdout
