"""`evidencechain calibrate`: refusals, bad lines, determinism, no leakage, and the model it writes."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest
from detect_support import ROOT, data_error_lines, one_error_line, run_cli

from evidencechain.data.plain import load_plain
from evidencechain.data.ragtruth import DataValidationError
from evidencechain.detect import calibrate as cal

EXAMPLE = ROOT / "data" / "examples" / "my_labelled.jsonl"


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path, monkeypatch):
    """Refusals come before the model is loaded: a test that built one here would fail on time."""
    monkeypatch.setenv("EVIDENCECHAIN_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="session")
def calibrated(cache_root, tmp_path_factory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("calibrated") / "model"
    code, stdout, err = run_cli(["calibrate", str(EXAMPLE), "--out", str(out), "--cache-dir", str(cache_root),
                                 "-q"])
    assert code == 0, err
    return out, stdout


def _records(n_pos: int, n_neg: int) -> list[dict]:
    rows = []
    for k in range(n_pos + n_neg):
        bad = k < n_pos
        rows.append({"id": f"a{k}", "question": f"When did museum {k} open?",
                     "context": [f"Museum {k} opened in {1900 + k}."],
                     "answer": f"Museum {k} opened in {2000 + k if bad else 1900 + k}.", "hallucinated": bad})
    return rows


def _write(path: Path, rows: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), "utf-8")
    return path


def test_the_example_file_is_the_seeded_generator_output():
    lines = EXAMPLE.read_text("utf-8").splitlines()
    assert [json.loads(line) for line in lines] == cal.labelled_example()
    rows = [json.loads(line) for line in lines]
    assert sum(r["hallucinated"] for r in rows) >= cal.MIN_PER_CLASS
    assert any(r["hallucinated"] and "spans" not in r for r in rows)  # spans are optional


def test_too_few_labels_of_a_class_are_refused_with_the_counts(tmp_path):
    labelled = _write(tmp_path / "few.jsonl", _records(3, 30))
    code, out, err = run_cli(["calibrate", str(labelled), "--out", str(tmp_path / "m")])
    assert code == 2 and out == ""
    line = one_error_line(err, "few.jsonl", "at least 10 hallucinated", "3 hallucinated and 30 supported")
    assert "label more" in line
    assert not (tmp_path / "m").exists()
    code, _, err = run_cli(["calibrate", str(_write(tmp_path / "b.jsonl", _records(12, 12))), "--folds", "20",
                            "--out", str(tmp_path / "m")])
    assert code == 2 and "at least 20 hallucinated" in err


@pytest.mark.parametrize("line, field", [
    ({"question": "q", "context": ["c d"], "answer": "a b"}, "hallucinated"),
    ({"question": "q", "context": ["c d"], "answer": "a b", "hallucinated": "maybe"}, "hallucinated"),
    ({"question": "q", "context": ["c d"], "answer": "a b", "hallucinated": True, "label": 1}, "hallucinated"),
    ({"question": "q", "context": ["c d"], "answer": "a b", "hallucinated": False,
      "spans": [{"start": 0, "end": 1}]}, "hallucinated"),
    ({"question": "q", "context": ["c d"], "answer": "a b", "hallucinated": True,
      "spans": [{"start": 2, "end": 9}]}, "spans[0].start/end"),
    ({"question": "q", "answer": "a b", "hallucinated": True}, "context"),
    ("{not json", "-"),
])
def test_a_bad_line_is_named_by_file_line_and_field(tmp_path, line, field):
    rows = _records(12, 12)
    rows.insert(2, line)
    labelled = _write(tmp_path / "labels.jsonl", rows)
    code, out, err = run_cli(["calibrate", str(labelled), "--out", str(tmp_path / "m")])
    assert code == 2 and out == ""
    data_error_lines(err, 1, "labels.jsonl:3", field)


def test_bad_arguments_are_refused_before_any_work(tmp_path):
    labelled = _write(tmp_path / "l.jsonl", _records(12, 12))
    for argv, text in (([str(labelled), "--response-jsonl", "r.jsonl", "--source-info-jsonl", "s.jsonl"], "not both"),
                       (["--response-jsonl", "r.jsonl"], "go together"),
                       ([], "give LABELLED"),
                       ([str(labelled), "--folds", "1"], "at least 2"),
                       ([str(tmp_path / "absent.jsonl")], "no such file")):
        code, _, err = run_cli(["calibrate", *argv, "--out", str(tmp_path / "m")])
        assert code == 2, argv
        one_error_line(err, text)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep")
    code, _, err = run_cli(["calibrate", str(labelled), "--out", str(tmp_path / "mine")])
    assert code == 2 and "notes.txt" in err and (tmp_path / "mine" / "notes.txt").read_text() == "keep"


def test_hallucinated_is_read_like_label():
    corpus = load_plain(EXAMPLE, require_label=True)
    assert corpus.labelled and sum(r.hallucinated for r in corpus.responses) == 16


def test_plain_loading_without_require_label_still_accepts_unlabelled_records(tmp_path):
    path = _write(tmp_path / "u.jsonl", [{"context": "c d", "answer": "a b"}])
    assert not load_plain(path).labelled
    with pytest.raises(DataValidationError, match="hallucinated"):
        load_plain(path, require_label=True)


def test_calibrate_prints_the_estimate_and_writes_a_model_detect_loads(calibrated, cache_root, tmp_path):
    out, stdout = calibrated
    assert "16 hallucinated, 44 supported" in stdout and "5 folds by context, seed 17" in stdout
    for level in ("response F1", "span F1"):
        line = next(x for x in stdout.splitlines() if x.strip().startswith(level))
        assert line.count("±") == 2, line
    report = json.loads((out / cal.REPORT).read_text("utf-8"))
    assert len(report["per_fold"]) == 5 and sum(f["answers"] for f in report["per_fold"]) == 60
    code, records, err = run_cli(["detect", str(ROOT / "data" / "examples" / "my_answers.jsonl"),
                                  "--model", str(out), "--cache-dir", str(cache_root), "-q"])
    assert code == 0, err
    rows = [json.loads(x) for x in records.splitlines()]
    assert len(rows) == 7 and {r["detector"] for r in rows} == {report["detector_after"]}
    assert {r["threshold"] for r in rows} == {round(report["thresholds_after"]["response"], 4)}


def test_the_model_written_keeps_the_base_models_conflict_rule(calibrated, cache_root):
    """`detect --model OUT` flags confident semantic conflicts by rule as the default model's `detect`
    does: the rule is on in the default model's card, and the written model's card keeps it."""
    from types import SimpleNamespace

    from evidencechain.detect.api import Detector
    from evidencechain.detect.calibrate_command import card

    out, _ = calibrated
    base = Detector.default(cache_dir=cache_root, quiet=True)
    written = Detector.load(out, cache_dir=cache_root)
    assert base.conflicts is True and written.conflicts is True and written.info()["conflict_rule"] is True
    assert json.loads((out / "card.json").read_text("utf-8"))["base_model"] == base.name
    assert Detector.load(out, cache_dir=cache_root, conflicts=False).conflicts is False  # --conflict-rule off
    other = SimpleNamespace(name="RUN/model", conflicts=False, card={})  # a model without the rule
    assert card(other, written.model)["conflict_rule"] is False
    base.close()
    written.close()


@pytest.mark.slow
def test_same_seed_gives_byte_identical_model_and_estimate(calibrated, cache_root, tmp_path):
    first, stdout = calibrated
    again = tmp_path / "again"
    code, stdout2, err = run_cli(["calibrate", str(EXAMPLE), "--out", str(again), "--cache-dir", str(cache_root),
                                  "-q"])
    assert code == 0, err
    assert stdout2.replace(str(again), "OUT") == stdout.replace(str(first), "OUT")
    assert (again / cal.REPORT).read_bytes() == (first / cal.REPORT).read_bytes()
    assert _without_weights(again) == _without_weights(first)
    other = tmp_path / "other"
    assert run_cli(["calibrate", str(EXAMPLE), "--out", str(other), "--seed", "3", "--cache-dir",
                    str(cache_root), "-q"])[0] == 0
    assert json.loads((other / cal.REPORT).read_text())["per_fold"] != \
        json.loads((first / cal.REPORT).read_text())["per_fold"]


def _without_weights(model_dir: Path) -> str:
    """model.json without the sha256 of the serialized estimators: scikit-learn's tree node arrays
    carry uninitialised padding bytes, so equal trees can serialize to different bytes."""
    meta = json.loads((model_dir / "model.json").read_text("utf-8"))
    meta["files"] = {k: v for k, v in meta["files"].items() if not k.startswith("model.")}
    return json.dumps(meta, sort_keys=True)


def test_each_fold_is_calibrated_without_its_held_out_answers(example_data, monkeypatch):
    detector, data = example_data
    seen = []
    real = cal.refit

    def spy(model, part, *args):
        seen.append(set(part.ids))
        assert set(part.tables.responses["response_id"]) == set(part.ids)
        assert set(part.tables.sentences["response_id"]) <= set(part.ids)
        return real(model, part, *args)

    monkeypatch.setattr(cal, "refit", spy)
    # the guard's own inner folds are tested in test_calibrate_guard.py; here the outer folds alone
    estimate = cal.cross_validate(detector.model, detector.detector, data, folds=5, seed=17, keep_base=False)
    folds = cal.folds_of(data, 5, 17)
    assert len(seen) == len(folds) == 5
    held = [set(test) for _, test in folds]
    assert set().union(*held) == set(data.ids) and sum(map(len, held)) == len(data.ids)
    for train, test, fold in zip(seen, held, estimate.per_fold):
        assert not train & test
        # the same thresholds from a corpus that never held the fold's answers
        alone = cal.read_labelled(EXAMPLE).subset(response_ids=train)
        alone.span_labels = True
        model = real(copy.deepcopy(detector.model), cal.featurize(detector.model, alone), 5, 17, keep_base=False)[0]
        assert model.primary == fold["detector"] and model.thresholds[model.primary] == fold["thresholds"]


def test_a_file_without_spans_keeps_the_base_word_threshold(example_data):
    detector, data = example_data
    bare = copy.deepcopy(data)
    bare.word_known = {r.id for r in bare.corpus.responses if not r.hallucinated}
    assert not bare.has_spans(bare.word_known)
    model = cal.refit(copy.deepcopy(detector.model), bare, keep_base=False)[0]
    for name, base in detector.model.thresholds.items():
        after = model.thresholds[name]
        assert after["word"] == base["word"] and after["sentence"] == base["sentence"], name
        assert model.span_rules.get(name) == detector.model.span_rules.get(name), name


def _objective(model, name, data, spans: bool) -> float:
    got = cal.evaluate(model, name, data)
    return (got["response_f1"] + got["span_f1"]) / 2 if spans else got["response_f1"]


@pytest.mark.parametrize("spans, objective", [(True, "joint"), (False, "joint"), (True, "answer")])
def test_the_answer_threshold_is_chosen_for_the_default_models_objective(example_data, spans, objective):
    """An answer is flagged by its risk or by a word. Without word labels (or with `objective`
    "answer") the chosen cut is the best verdict F1; with them, the best mean of verdict F1 and span
    F1 (`detect`'s spans), as in the default model."""
    detector, data = example_data
    if not spans:
        data = copy.deepcopy(data)
        data.word_known = {r.id for r in data.corpus.responses if not r.hallucinated}
    model = cal.refit(copy.deepcopy(detector.model), data, objective=objective, keep_base=False)[0]
    name = model.primary
    spans = spans and objective == "joint"
    chosen = _objective(model, name, data, spans)
    for other in (0.0, 0.3, 0.5, 0.7, 0.9, 1.0):
        trial = copy.deepcopy(model)
        trial.thresholds[name]["response"] = other
        assert _objective(trial, name, data, spans) <= chosen + 1e-9, other


def test_the_objective_the_choice_scores_is_detects_for_every_detector(example_data, monkeypatch):
    """The objective by which thresholds and the detector are chosen (`_Choices`: verdicts from
    risks and word flags, span counts from `default.flagged_span_counts`) is that of `detect`'s
    verdicts and spans under the chosen levels and span rule (the span counts were once made from
    the words of other thresholds: those the tables were scored with)."""
    detector, data = example_data
    made = {}

    class Recording(cal._Choices):
        def __init__(self, scored, name, *args):
            super().__init__(scored, name, *args)
            made[name] = self

    monkeypatch.setattr(cal, "_Choices", Recording)
    model = cal.refit(copy.deepcopy(detector.model), data, keep_base=False)[0]
    assert set(made) == set(model.detector_names)
    for name, choice in made.items():
        rows = np.arange(len(choice.y))
        assert choice.objective(rows, rows) == pytest.approx(_objective(model, name, data, True)), name


def test_detector_can_be_fixed_and_an_unknown_one_is_refused(cache_root, tmp_path):
    out = tmp_path / "fixed"
    code, stdout, err = run_cli(["calibrate", str(EXAMPLE), "--out", str(out), "--detector", "EvidenceChain_Token",
                                 "--always-calibrate", "--cache-dir", str(cache_root), "-q"])
    assert code == 0, err
    report = json.loads((out / cal.REPORT).read_text("utf-8"))
    assert report["detector_after"] == "EvidenceChain_Token" and "given by --detector" in stdout
    assert {f["detector"] for f in report["per_fold"]} == {"EvidenceChain_Token"}
    code, _, err = run_cli(["calibrate", str(EXAMPLE), "--out", str(tmp_path / "x"), "--detector", "Lexicl",
                            "--cache-dir", str(cache_root)])
    assert code == 2 and not (tmp_path / "x").exists()
    one_error_line(err, "Lexicl", "Lexical")
