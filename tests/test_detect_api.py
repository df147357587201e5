"""The Detector API: the default model (built once, cached by hash), predict / predict_batch,
verdicts that always name words, 'no evidence', and the same spans as `detect`."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from detect_support import EXAMPLES, PLANTED, ROOT, SUPPORTED, examples, run_cli, spans_of

from evidencechain import Detector
from evidencechain.detect import DetectionResult, Span
from evidencechain.detect.default import RECIPE, SELECTION_RULE, cache_dir, choose_detector, read_card
from evidencechain.errors import ConfigError, InputError, ModelError

pytestmark = pytest.mark.slow  # the session builds the default model once (about 30 s)


@pytest.fixture(autouse=True)
def _cache_env(cache_root, monkeypatch):
    monkeypatch.setenv("EVIDENCECHAIN_CACHE_DIR", str(cache_root))


@pytest.fixture(scope="session")
def detector(cache_root) -> Detector:
    return Detector.default(cache_dir=cache_root, quiet=True)


@pytest.fixture(scope="session")
def example_results(detector) -> dict[str, DetectionResult]:
    return {r.id: r for r in detector.predict_batch(examples())}


# ---------------------------------------------------------------- the default model

def test_default_model_is_cached_by_content_hash_with_its_card(detector, cache_root):
    path = detector.path
    assert path.parent == cache_root / "models" and re.fullmatch(r"default-[0-9a-f]{16}", path.name)
    card = read_card(path)
    assert card["recipe"] == RECIPE and "metadata" not in card["recipe"]["groups"]
    assert card["selection_rule"] == SELECTION_RULE
    assert card["detector"] == choose_detector(card["calibration_metrics"]) == detector.detector
    assert json.loads((path / "model.json").read_text())["files"]["card.json"]  # checksummed
    assert detector.info()["learned_checker"].startswith("not used")  # the package has one; this model does not use it


def test_the_answer_threshold_maximises_answer_and_span_f1_on_calibration(detector):
    from evidencechain.data.audit import generate_audit_corpus
    from evidencechain.data.splits import split_corpus
    from evidencechain.detect.default import _level_metrics

    calibration = split_corpus(generate_audit_corpus(RECIPE["seed"], RECIPE["scale"]),
                               RECIPE["calibration_fraction"], RECIPE["split_seed"])["calibration"]
    model, name = detector.model, detector.detector
    scored = model.score(calibration, progress=False)
    chosen = model.thresholds[name]["response"]
    mean = {}
    try:
        for cut in sorted(set(scored.responses[f"risk_{name}"].tolist())):  # brute force: every cut
            model.thresholds[name] = {**model.thresholds[name], "response": cut}
            m = _level_metrics(model, calibration, scored=scored)[name]
            mean[cut] = (m["response_f1"] + m["span_f1"]) / 2
    finally:
        model.thresholds[name] = {**model.thresholds[name], "response": chosen}
    assert chosen in mean and mean[chosen] >= max(mean.values()) - 1e-3  # metrics are rounded to 4 places


def test_a_second_default_loads_the_cache_without_building(cache_root, capfd):
    again = Detector.default(cache_dir=cache_root)
    assert "building" not in capfd.readouterr().err
    assert again.path == Detector.default(cache_dir=cache_root, quiet=True).path


def test_cache_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("EVIDENCECHAIN_CACHE_DIR", str(tmp_path / "ec"))
    assert cache_dir() == tmp_path / "ec"
    monkeypatch.delenv("EVIDENCECHAIN_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "evidencechain"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "evidencechain"


def test_selection_rule_prefers_the_simpler_of_near_ties():
    metrics = {"Lexical": {"response_f1": 0.5, "span_f1": 0.3},
               "NLI_Rules": {"response_f1": 0.80, "span_f1": 0.50},
               "EvidenceChain_RF": {"response_f1": 0.81, "span_f1": 0.505}}
    assert choose_detector(metrics) == "NLI_Rules"
    metrics["EvidenceChain_RF"]["span_f1"] = 0.60
    assert choose_detector(metrics) == "EvidenceChain_RF"


def test_a_damaged_cached_model_is_rebuilt(cache_root, tmp_path, monkeypatch, capfd):
    root = tmp_path / "cache"
    shutil.copytree(cache_root / "models", root / "models")
    model = next((root / "models").glob("default-*"))
    (model / "model.skops").write_bytes(b"damaged")
    built = []

    def rebuild(out, pipeline="auto"):  # stands in for the 30 s build: copy the good model
        built.append(out)
        shutil.copytree(next((cache_root / "models").glob("default-*")), out, dirs_exist_ok=True)

    monkeypatch.setattr("evidencechain.detect.default.build_default_model", rebuild)
    fresh = Detector.default(cache_dir=root)
    assert built and fresh.path == model and "building the default model" in capfd.readouterr().err
    result = fresh.predict(context=["The museum opened in 1987."], answer="The museum opened in 1991.")
    assert [s.text for s in result.spans] == ["1991"]


# ---------------------------------------------------------------- predict

def test_planted_hallucinations_are_named_and_clean_answers_pass(example_results):
    for rid, word in PLANTED.items():
        result = example_results[rid]
        assert result.verdict == "hallucinated", rid
        assert any(word in s.text or s.text in word for s in result.spans), (rid, result.spans)
    for rid in SUPPORTED:
        assert example_results[rid].verdict == "supported" and not example_results[rid].spans


def test_every_flagged_answer_names_words_and_spans_are_exact(example_results):
    for result in example_results.values():
        if result.hallucinated:
            assert result.spans, result.id
        for span in result.spans:
            assert isinstance(span, Span) and result.answer[span.start:span.end] == span.text
            assert span.level in ("word", "sentence") and span.type in ("conflict", "baseless", None)
            assert 0.0 <= span.confidence <= 1.0
            assert result.sentences[span.sentence].verdict == "unsupported"


def test_a_sentence_without_support_says_no_evidence(example_results, detector):
    greeting = example_results["python"].sentences[0]
    assert greeting.text == "Sure, happy to help!" and greeting.evidence is None and greeting.note == "no evidence"
    supported = example_results["museum"].sentences[1]
    assert supported.evidence is not None and supported.evidence.score > 0
    ctx = examples()[0]["context"]
    ev = supported.evidence
    assert ctx[ev.passage][ev.start:ev.end] == ev.text


def test_weak_answers_get_sentence_level_names(detector):
    """An answer flagged although no word passes the word threshold still names its words."""
    results = detector.predict_batch(examples())
    fallback = [s for r in results for s in r.spans if s.level == "sentence"]
    assert all(r.spans for r in results if r.hallucinated)
    for span in fallback:
        assert span.text.strip()


def test_predict_and_predict_batch_agree_whatever_the_batch(detector, cache_root):
    records = examples()
    one = [detector.predict(context=r["context"], question=r.get("question"), answer=r["answer"], id=r["id"])
           for r in records]
    small = Detector.default(cache_dir=cache_root, quiet=True, batch_size=2).predict_batch(records)
    assert [r.to_dict() for r in one] == [r.to_dict() for r in small]


def test_predict_and_detect_give_the_same_spans(detector, tmp_path):
    code, out, err = run_cli(["detect", str(EXAMPLES), "-q"])
    assert code == 0, err
    from_cli = [json.loads(line) for line in out.splitlines()]
    from_api = [r.to_dict() for r in detector.predict_batch(examples())]
    assert spans_of(from_cli) == spans_of(from_api)
    assert from_cli == from_api


def test_to_dict_is_json_and_names_the_detector(example_results, detector):
    record = json.loads(json.dumps(example_results["museum"].to_dict()))
    assert record["detector"] == detector.detector and record["model"] == detector.path.name
    assert set(record) >= {"id", "verdict", "risk", "threshold", "spans", "sentences", "answer", "note"}
    assert set(record["spans"][0]) == {"start", "end", "text", "confidence", "type", "level", "sentence",
                                      "error_class", "evidence_words"}


def test_empty_answer_has_nothing_to_check(detector):
    result = detector.predict(context=["Some evidence."], answer="   ")
    assert result.verdict == "nothing to check" and not result.spans and not result.sentences


@pytest.mark.parametrize("kwargs, error, text", [
    ({"context": 3, "answer": "x"}, InputError, "field 'context'"),
    ({"context": "", "answer": "x"}, InputError, "empty"),
    ({"context": "a", "answer": None}, InputError, "field 'answer'"),
    ({"context": "a", "answer": "x", "question": 5}, InputError, "field 'question'"),
])
def test_bad_arguments_name_the_field(detector, kwargs, error, text):
    with pytest.raises(error, match=text):
        detector.predict(**kwargs)


def test_bad_records_and_settings_are_refused(detector, cache_root, tmp_path):
    with pytest.raises(InputError, match=r"records\[1\]: field 'context': missing \(this record has 'passages'"):
        detector.predict_batch([{"context": "a", "answer": "b"}, {"passages": ["a"], "answer": "b"}])
    with pytest.raises(ConfigError, match="device"):
        Detector.default(cache_dir=cache_root, quiet=True, device="gpu")
    with pytest.raises(ConfigError, match="not fitted in this model"):
        Detector.default(cache_dir=cache_root, quiet=True, detector="Nope")
    with pytest.raises(ModelError):
        Detector.load(tmp_path / "no-model")
    cpu = Detector.default(cache_dir=cache_root, quiet=True, device="cuda")
    assert cpu.device == "cpu"  # the default model has no neural component


def test_load_takes_a_model_directory_and_another_detector(detector, cache_root):
    other = Detector.load(detector.path, detector="NLI_Rules", cache_dir=cache_root)
    result = other.predict(context="Paris is in France.", answer="Paris is in Spain.")
    assert result.detector == "NLI_Rules" and result.model == str(detector.path)


# ---------------------------------------------------------------- start-up and caches

def test_detect_imports_neither_torch_nor_spacy_cli_and_caches_outside_the_working_directory(cache_root, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    code = ("import sys; from evidencechain.cli import main; "
            f"rc = main(['detect', {str(EXAMPLES)!r}, '-q']); "
            "assert rc == 0; print('torch' in sys.modules, 'spacy.cli' in sys.modules, file=sys.stderr)")
    env = {**os.environ, "EVIDENCECHAIN_CACHE_DIR": str(cache_root), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], cwd=work, capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines()[-1] == "False False"  # nor spaCy's command line
    assert len(done.stdout.splitlines()) == len(examples())
    assert list(work.iterdir()) == []  # no parse cache (or anything else) in the current directory
    assert (cache_root / "parse.sqlite").is_file()
