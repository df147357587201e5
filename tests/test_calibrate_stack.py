"""`calibrate`'s stacker: when it is fitted, nested cross-validation, what is kept, and `detect --model`."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest
from detect_support import ROOT, run_cli

from evidencechain.detect import calibrate as cal
from evidencechain.detect import calibrate_command as command
from evidencechain.detect.stack import STACK_MIN, stack, stack_decision
from evidencechain.model import EvidenceChain
from evidencechain.stacking import STACKED

EXAMPLE = ROOT / "data" / "examples" / "my_labelled.jsonl"
ANSWERS = ROOT / "data" / "examples" / "my_answers.jsonl"
FEW = 10
"""--stack-min for the example (16 hallucinated answers): enough for a stacker."""


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("EVIDENCECHAIN_CACHE_DIR", str(tmp_path / "cache"))


def _calibrate_kept_stacked(out: Path, cache_root: Path) -> tuple[int, str, str]:
    """`calibrate --stack-min 10` on the example, the stacked model kept whatever the estimate
    (the writing and loading path; `keep` itself is tested on its own)."""
    real = command.keep
    command.keep = lambda summary: ("stacked", "kept: stacked (test)")
    try:
        return run_cli(["calibrate", str(EXAMPLE), "--out", str(out), "--stack-min", str(FEW),
                        "--cache-dir", str(cache_root), "-q"])
    finally:
        command.keep = real


@pytest.fixture(scope="session")
def stacked_dir(cache_root, tmp_path_factory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("stacked") / "model"
    code, stdout, err = _calibrate_kept_stacked(out, cache_root)
    assert code == 0, err
    return out, stdout


def test_the_stacker_needs_enough_labels_of_both_classes():
    assert STACK_MIN == 30
    assert stack_decision(np.array([1] * 30 + [0] * 30), 30) == (True, "")
    fit, line = stack_decision(np.array([1] * 29 + [0] * 300), 30)
    assert not fit and "29 hallucinated and 300 supported" in line and "--stack-min" in line
    assert "\n" not in line and "thresholds only" in line
    assert not stack_decision(np.array([1] * 40 + [0] * 40), 30, disabled=True)[0]


def test_too_few_labels_fall_back_to_thresholds_in_one_line(cache_root, tmp_path):
    out = tmp_path / "m"
    code, stdout, err = run_cli(["calibrate", str(EXAMPLE), "--out", str(out), "--cache-dir", str(cache_root),
                                 "-q", "--folds", "3"])
    assert code == 0, err
    said = [x for x in stdout.splitlines() if x.startswith("stacker:")]
    assert said == ["stacker: not fitted: 16 hallucinated and 44 supported answers, it needs at least 30 of "
                    "each (--stack-min); thresholds only"]
    assert "stacked" not in stdout.splitlines()[2]  # no stacked column
    report = json.loads((out / cal.REPORT).read_text("utf-8"))
    assert report["stacker"]["estimated"] is False and report["stacker"]["kept"] == "thresholds"
    assert all("response_f1_stacked" not in f for f in report["per_fold"])
    assert "stacker" not in json.loads((out / "model.json").read_text("utf-8"))


@pytest.mark.slow  # nested cross-validation end to end: tens of seconds (`make test-slow`, CI)
def test_enough_labels_give_three_estimates_and_the_better_is_kept(cache_root, tmp_path):
    out = tmp_path / "m"
    code, stdout, err = run_cli(["calibrate", str(EXAMPLE), "--out", str(out), "--stack-min", str(FEW),
                                 "--cache-dir", str(cache_root), "-q"])
    assert code == 0, err
    report = json.loads((out / cal.REPORT).read_text("utf-8"))
    s = report["summary"]
    assert report["stacker"]["estimated"] and s["response_f1_stacked"]["folds"] == 5
    for level in ("response F1", "span F1"):
        line = next(x for x in stdout.splitlines() if x.strip().startswith(level))
        assert line.count("±") == 3, line
    better = s["response_f1_stacked"]["mean"] > s["response_f1_after"]["mean"]
    assert report["stacker"]["kept"] == ("stacked" if better else "thresholds")
    assert report["detector_after"] == (STACKED if better else report["detector_thresholds"])
    assert any(x.startswith("kept: ") for x in stdout.splitlines())
    assert ("stacker" in json.loads((out / "model.json").read_text("utf-8"))) == better


def test_keep_prefers_thresholds_unless_stacked_is_higher():
    def summary(st, th):
        return {"response_f1_stacked": {"mean": st}, "response_f1_after": {"mean": th}}

    assert command.keep(summary(0.52, 0.50))[0] == "stacked"
    assert command.keep(summary(0.50, 0.50))[0] == "thresholds"
    assert command.keep(summary(0.40, 0.50))[0] == "thresholds"


def test_the_stacker_does_not_get_around_the_guard():
    """Stacked above thresholds only but below the base model as it is: the base's thresholds stay."""
    summary = {"response_f1_stacked": {"mean": 0.404}, "response_f1_after": {"mean": 0.395},
               "response_f1_before": {"mean": 0.429}}
    kept, why = command.keep(summary)
    assert kept == "thresholds" and "the base model as it is 0.429" in why
    summary["response_f1_stacked"]["mean"] = 0.44
    assert command.keep(summary)[0] == "stacked"


@pytest.mark.slow  # nested cross-validation end to end: tens of seconds (`make test-slow`, CI)
def test_each_fold_stacks_without_its_held_out_answers(example_data, monkeypatch):
    detector, data = example_data
    seen = []

    def spy(model, part, *args):
        ids = set(part.ids)
        assert set(part.tables.responses["response_id"]) == ids
        assert set(part.tables.sentences["response_id"]) <= ids and set(part.tables.tokens["response_id"]) <= ids
        fitted = stack(model, part, *args)
        assert fitted.stacker.answers == len(ids)
        seen.append(ids)
        return fitted

    monkeypatch.setattr(cal, "stack", spy)
    estimate = cal.cross_validate(detector.model, detector.detector, data, folds=5, seed=17, stacked=True)
    held = [set(test) for _, test in cal.folds_of(data, 5, 17)]
    assert len(seen) == 5 and all(f["response_f1_stacked"] is not None for f in estimate.per_fold)
    for train, test in zip(seen, held):
        assert not train & test and train | test == set(data.ids)


@pytest.mark.slow  # nested cross-validation end to end: tens of seconds (`make test-slow`, CI)
def test_detect_model_reports_the_stacker(stacked_dir, cache_root):
    out, stdout = stacked_dir
    meta = json.loads((out / "model.json").read_text("utf-8"))
    st = meta["stacker"]
    assert meta["primary"] == STACKED and st["detector"] == STACKED
    assert set(st["coefficients"]) == set(st["inputs"]) and any(i.startswith("risk_") for i in st["inputs"])
    assert {"response_f1_stacked", "response_f1_after"} <= set(st["cross_validated"])
    report = json.loads((out / cal.REPORT).read_text("utf-8"))
    assert report["stacker"]["model"] == st and report["detector_after"] == STACKED
    code, records, err = run_cli(["detect", str(ANSWERS), "--model", str(out), "--cache-dir", str(cache_root), "-q"])
    assert code == 0, err
    rows = [json.loads(x) for x in records.splitlines()]
    assert {r["detector"] for r in rows} == {STACKED}
    assert {r["threshold"] for r in rows} == {round(st["threshold"], 4)}
    for r in rows:  # the verdict is the regression's; words are named only in the answers it flags
        assert (r["verdict"] == "hallucinated") == (r["risk"] >= r["threshold"]), r
        assert not r["spans"] or r["verdict"] == "hallucinated", r
    model = EvidenceChain.load(out)
    assert model.stacker is not None and model.detector_for(None) == STACKED


def test_the_stacked_risk_is_the_regression_on_the_model_signals(example_data):
    detector, data = example_data
    model = stack(cal.refit(copy.deepcopy(detector.model), data)[0], data)
    scored = model.score_tables(data.tables, evidence=False)
    x = model.stacker.matrix(scored.sentences, scored.tokens, scored.responses)
    expected = model.stacker.estimator.predict_proba(x)[:, 1]
    has = scored.responses["sentences"].to_numpy() > 0
    assert np.allclose(scored.responses[f"risk_{STACKED}"].to_numpy()[has], expected[has])
    spans, tokens = model.stacker.spans, scored.tokens
    flagged = set(scored.responses.loc[scored.responses[f"pred_{STACKED}"] > 0, "response_id"])
    own = (tokens[f"pred_{spans}"] > 0) & tokens["response_id"].isin(flagged)
    assert ((tokens[f"pred_{STACKED}"] > 0) == own).all() and own.any()
    model.thresholds[STACKED]["response"] = 1.01  # no answer flagged: no word named, whatever its risk
    scored = model.score_tables(data.tables, evidence=False)
    assert (scored.tokens[f"pred_{spans}"] > 0).any() and not (scored.tokens[f"pred_{STACKED}"] > 0).any()
    model.thresholds[STACKED]["response"] = model.stacker.threshold
    assert model.thresholds[STACKED]["word"] == model.thresholds[spans]["word"]
    again = stack(cal.refit(copy.deepcopy(detector.model), data)[0], data)
    assert again.stacker.describe() == model.stacker.describe()


@pytest.mark.slow
def test_same_seed_gives_the_same_stacked_model_and_output(stacked_dir, cache_root, tmp_path):
    first, stdout = stacked_dir
    again = tmp_path / "again"
    code, stdout2, err = _calibrate_kept_stacked(again, cache_root)
    assert code == 0, err
    assert stdout2.replace(str(again), "OUT") == stdout.replace(str(first), "OUT")
    assert (again / cal.REPORT).read_bytes() == (first / cal.REPORT).read_bytes()
    meta = [json.loads((d / "model.json").read_text("utf-8")) for d in (first, again)]
    for m in meta:
        m["files"] = {k: v for k, v in m["files"].items() if not k.startswith("model.")}
    assert meta[0] == meta[1]
    outputs = [run_cli(["detect", str(ANSWERS), "--model", str(d), "--cache-dir", str(cache_root), "-q"])[1]
               .replace(str(d), "OUT") for d in (first, again)]
    assert outputs[0] == outputs[1] and outputs[0]


def test_the_readme_block_shows_the_three_estimates_and_what_was_kept(tmp_path):
    from evidencechain.report.readme_blocks import calibrate_body

    cell = {"mean": 0.5, "sd": 0.1, "folds": 2}
    fold = {"response_f1_before": 0.4, "response_f1_after": 0.5, "response_f1_stacked": 0.45}
    report = {"summary": {k: cell for k in (*command.METRICS, *command.STACKED_METRICS)},
              "labelled": {"answers": 100, "hallucinated": 40}, "folds": 2, "seed": 17, "commit": "abc",
              "per_fold": [fold, fold], "detector": "A", "detector_after": "B", "detector_thresholds": "B",
              "stacker": {"estimated": True, "kept": "thresholds", "why": "kept: thresholds only: because"}}
    (tmp_path / "calibration.json").write_text(json.dumps(report), "utf-8")
    absent = tmp_path / "absent"
    body = calibrate_body(tmp_path, absent)
    assert "| before (base model) | after `calibrate`, thresholds only | stacked |" in body
    assert "| B | Stacked |" in body and "higher in 2 of 2 folds" in body
    assert body.endswith("Kept: thresholds only: because.") and "Guard" not in body
    report["guard"] = {"folds_base_kept": 1, "why": "guard: base model kept as it is: because"}
    (tmp_path / "calibration.json").write_text(json.dumps(report), "utf-8")
    body = calibrate_body(tmp_path, absent)
    assert "Guard (the base model kept as it is in 1 of 2 folds, thresholds only): base model kept as it is: " \
           "because." in body


def test_the_readme_block_shows_the_answer_objective_run_after_the_default_one(tmp_path):
    from evidencechain.report.readme_blocks import calibrate_body

    cell = {"mean": 0.5, "sd": 0.1, "folds": 2}
    fold = {"response_f1_before": 0.4, "response_f1_after": 0.5}
    for name, detector in (("joint", "B"), ("answer", "C")):
        report = {"summary": {k: cell for k in command.METRICS}, "labelled": {"answers": 100, "hallucinated": 40},
                  "folds": 2, "seed": 17, "commit": "abc", "per_fold": [fold, fold], "detector": "A",
                  "detector_after": detector, "detector_thresholds": detector}
        (tmp_path / name).mkdir()
        (tmp_path / name / "calibration.json").write_text(json.dumps(report), "utf-8")
    body = calibrate_body(tmp_path / "joint", tmp_path / "answer")
    first, second = body.index("| A | B |"), body.index("| A | C |")
    assert body.startswith("Default objective") and first < body.index("`--objective answer`") < second
    assert calibrate_body(tmp_path / "absent", tmp_path / "answer") is None

