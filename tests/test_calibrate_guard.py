"""`calibrate`'s guard: the base model as it is competes with its whole calibration on inner folds."""
from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from detect_support import ROOT, run_cli

from evidencechain.detect import calibrate as cal
from evidencechain.detect.default import TIE
from evidencechain.detect.guard import objective, outcome, score_rows

EXAMPLE = ROOT / "data" / "examples" / "my_labelled.jsonl"


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("EVIDENCECHAIN_CACHE_DIR", str(tmp_path / "cache"))


def _relabelled(data, labels):
    """`data` with the answer labels `labels` (in its order) and no word labels."""
    out = copy.deepcopy(data)
    for response, bad in zip(out.corpus.responses, labels):
        response.response_label = int(bad)
    label = dict(zip(out.ids, np.asarray(labels).astype(int)))
    out.tables.responses["label"] = out.tables.responses["response_id"].map(label).astype(int)
    out.word_known = set()
    return out


def _relabelled_as_the_base_says(model, data):
    """`data` with every answer labelled as the base model's verdict: the base is perfect on it."""
    return _relabelled(data, outcome(model, data, False)[0])


def _thresholds_unchanged(a, b) -> bool:
    return a.primary == b.primary and a.thresholds == b.thresholds and a.span_rules == b.span_rules


def test_the_base_objective_is_detects_on_each_inner_folds_held_out_answers(example_data):
    """The base model is scored as `evaluate` scores a model: `detect`'s verdicts and spans."""
    detector, data = example_data
    model = detector.model
    verdict, counts = outcome(model, data, True)
    for _, test in cal.folds_of(data, 3, 17):
        rows = np.array([data.ids.index(i) for i in test])
        got = cal.evaluate(model, model.primary, data.subset(test))
        expected = (got["response_f1"] + got["span_f1"]) / 2
        assert score_rows(verdict[rows], data.labels[rows] > 0, counts[rows]) == pytest.approx(expected)
        assert objective(model, data.subset(test), True) == pytest.approx(expected)


def test_calibration_is_scored_whole_on_answers_it_did_not_choose_on(example_data, monkeypatch):
    """Each inner fold's score is that of `refit`'s whole procedure (calibration choices, thresholds
    and the detector choice) run on the other inner folds only."""
    detector, data = example_data
    seen, real = [], cal._calibrated

    def spy(model, part, *args):
        seen.append(set(part.ids))
        return real(model, part, *args)

    monkeypatch.setattr(cal, "_calibrated", spy)
    _, guard = cal.refit(copy.deepcopy(detector.model), data)
    monkeypatch.setattr(cal, "_calibrated", real)
    split = cal.folds_of(data, 5, 17)
    assert seen[0] == set(data.ids) and len(seen) == 1 + len(split) == 1 + len(guard.folds)
    for fitted, (fit, held), fold in zip(seen[1:], split, guard.folds):
        assert fitted == set(fit) and not fitted & set(held) and fold["answers"] == len(held)
    assert guard.calibrated == pytest.approx(np.mean([f["calibrated"] for f in guard.folds]))
    assert guard.base == pytest.approx(np.mean([f["base"] for f in guard.folds]))
    fit, held = split[1]
    alone = cal.refit(copy.deepcopy(detector.model), data.subset(fit), keep_base=False)[0]
    assert alone.primary == guard.folds[1]["detector"]
    assert objective(alone, data.subset(held), True) == pytest.approx(guard.folds[1]["calibrated"], abs=1e-6)


def test_a_detector_that_wins_the_inner_folds_by_noise_does_not_score_the_calibration(example_data):
    """With labels that are noise, some detector still has the best inner objective; the maximum
    over nine noisy estimates is optimistic, while the calibration scored on answers it did not
    choose on is not: it is below that maximum (and can be, as here, of another detector per fold)."""
    detector, data = example_data
    labels = np.random.default_rng(3).permutation(data.labels)
    noise = _relabelled(data, labels)
    model, guard = cal.refit(copy.deepcopy(detector.model), noise)
    scores = cal._calibrated(copy.deepcopy(detector.model), noise, 5, 17, None, "joint")
    assert guard.best_single == max(scores.values()) and guard.best_detector == max(scores, key=scores.get)
    assert guard.calibrated < guard.best_single - TIE
    assert len({f["detector"] for f in guard.folds}) > 1  # the inner folds' winners differ: noise


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
    assert guard.kept == "calibrated" and not guard.enabled
    assert guard.base is None and guard.calibrated is None and not guard.folds
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
    assert guard.base < 0.2 and guard.detector == model.primary and guard.best_detector in model.detector_names
    assert model.thresholds[model.primary]["response"] < 1.0
    assert guard.why().startswith("guard: calibrated thresholds kept")


def test_with_a_fixed_detector_the_base_reports_it(example_data):
    detector, data = example_data
    perfect = _relabelled_as_the_base_says(detector.model, data)
    other = next(n for n in detector.model.detector_names if n != detector.model.primary)
    model, guard = cal.refit(copy.deepcopy(detector.model), perfect, detector=other, objective="answer")
    assert model.primary == other and guard.base_detector == other and guard.best_detector == other
    assert {f["detector"] for f in guard.folds} == {other}
    if guard.kept == "base":
        assert model.thresholds == detector.model.thresholds


@pytest.mark.slow  # nested cross-validation end to end: tens of seconds (`make test-slow`, CI)
def test_calibration_json_records_the_guard_per_fold_and_for_the_model(cache_root, tmp_path):
    for flags, enabled in (([], True), (["--always-calibrate"], False)):
        out = tmp_path / f"m{int(enabled)}"
        code, stdout, err = run_cli(["calibrate", str(EXAMPLE), "--out", str(out), "--folds", "3", "--cache-dir",
                                     str(cache_root), "-q", *flags])
        assert code == 0, err
        report = json.loads((out / cal.REPORT).read_text("utf-8"))
        guard = report["guard"]
        assert guard["enabled"] is enabled and guard["kept"] in ("base", "calibrated")
        assert {"inner_objective_base", "inner_objective_calibrated", "base_detector", "detector", "best_detector",
                "inner_objective_best_detector", "inner_folds", "why"} <= set(guard)
        assert (guard["inner_objective_calibrated"] is None) is (not enabled)
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
