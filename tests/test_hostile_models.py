"""Crafted model files: nothing in a model directory (or the default-model cache) runs code.

A pickled model.pkl with a resealed model.json, a skops file naming a foreign type, a planted
default model: each is refused with one line (or the default model is rebuilt), and the
marker file their payload would create never appears.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import skops.io as sio

from evidencechain import cli
from evidencechain.data.ragtruth import load_ragtruth
from evidencechain.detect import default
from evidencechain.errors import ModelError
from evidencechain.features import FeatureConfig
from evidencechain.model import EvidenceChain
from evidencechain.modelfile import MODEL_FILE, UntrustedModelError, trusted_types

RAGTRUTH_VALID = Path(__file__).parent / "fixtures" / "ragtruth" / "valid"
DATA = (RAGTRUTH_VALID / "response.jsonl", RAGTRUTH_VALID / "source_info.jsonl")


class _Payload:
    """Unpickling it creates `path` (a stand-in for any code an attacker would run)."""

    def __init__(self, path: Path):
        self.path = path

    def __reduce__(self):
        return (open, (str(self.path), "w"))


class _Stealthy:
    """Like `_Payload`, then hands back a real model (the user would see normal results)."""

    def __init__(self, path: Path, model: EvidenceChain):
        self.path, self.model = path, model

    def __reduce__(self):
        return (_touch_then, (str(self.path), self.model))


def _touch_then(path: str, model):
    Path(path).write_text("ran")
    return model


def _fit() -> EvidenceChain:
    corpus = load_ragtruth(*DATA)
    return EvidenceChain(detectors=("Lexical", "EvidenceChain_LR", "EvidenceChain_RF"), primary="EvidenceChain_LR",
                         features=FeatureConfig(pipeline="blank"),
                         detector_params={"EvidenceChain_RF": {"n_estimators": 5}}).fit(corpus, corpus, progress=False)


@pytest.fixture(scope="module")
def fitted() -> EvidenceChain:
    return _fit()


@pytest.fixture
def model_dir(fitted, tmp_path) -> Path:
    return fitted.save(tmp_path / "model")


def _reseal(model_dir: Path, files: dict[str, bytes], drop: tuple[str, ...] = ()) -> None:
    """Write `files` into the model directory and list their true sha256 in model.json."""
    meta = json.loads((model_dir / "model.json").read_text())
    for name in drop:
        (model_dir / name).unlink()
        meta["files"].pop(name, None)
    for name, data in files.items():
        (model_dir / name).write_bytes(data)
        meta["files"][name] = hashlib.sha256(data).hexdigest()
    (model_dir / "model.json").write_text(json.dumps(meta))


def _one_error_line(capsys, argv) -> str:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: "), err
    return err[0]


# ---------------------------------------------------------------- the format

def test_save_writes_skops_and_json_only_and_one_fit_gives_one_sha256(fitted, tmp_path):
    first, second = fitted.save(tmp_path / "a"), fitted.save(tmp_path / "b")
    assert sorted(p.name for p in first.iterdir()) == ["model.json", MODEL_FILE]
    assert (first / MODEL_FILE).read_bytes() == (second / MODEL_FILE).read_bytes()
    assert zipfile.is_zipfile(first / MODEL_FILE)


def test_the_model_file_holds_no_wall_seconds_and_no_memory_address(fitted, tmp_path):
    fitted.score(load_ragtruth(*DATA), progress=False)  # scoring sets the vectorizers' id(stop_words)
    assert fitted.timings
    with zipfile.ZipFile(fitted.save(tmp_path / "m") / MODEL_FILE) as archive:
        schema = json.loads(archive.read("schema.json"))
    found: dict[str, list] = {"_stop_words_id": [], "timings": [], "family_seconds": []}

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key in found and isinstance(value, dict):
                    found[key].append(value["content"])
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(schema)
    assert found["_stop_words_id"] and set(found["_stop_words_id"]) == {"0"}
    assert found["timings"] == [{}] and found["family_seconds"] == [{}]


def test_a_loaded_model_scores_exactly_as_the_fitted_one(fitted, model_dir):
    corpus = load_ragtruth(*DATA)
    before = fitted.score(corpus, progress=False).responses
    after = EvidenceChain.load(model_dir).score(corpus, progress=False).responses
    for name in fitted.detector_names:
        assert before[f"risk_{name}"].tolist() == after[f"risk_{name}"].tolist()


def test_the_trusted_types_are_model_classes_and_sklearn_estimators_only():
    names = trusted_types()
    assert {"evidencechain.model.EvidenceChain", "evidencechain.detectors.supervised.EvidenceChainRF",
            "sklearn.linear_model._logistic.LogisticRegression", "sklearn.tree._tree.Tree"} <= names
    assert all(n.startswith(("evidencechain.", "sklearn.")) for n in names)
    assert not any(n.startswith(("evidencechain.features.checker", "evidencechain.features.neural",
                                 "evidencechain.text.parse")) for n in names)



def test_a_loaded_model_holds_the_same_objects_as_skops_own_loader_builds(fitted, model_dir):
    """`load_model` merges the vocabularies' nodes into one JSON node each: the objects built are
    those of `skops.io.load` (the vocabularies equal, keys in the same order, values ints)."""
    ours = EvidenceChain.load(model_dir)
    theirs = sio.load(model_dir / MODEL_FILE, trusted=sorted(trusted_types()))
    mine, reference = ours.extractor.vectorizer.vocabulary_, theirs.extractor.vectorizer.vocabulary_
    assert len(mine) > 100 and list(mine.items()) == list(reference.items())
    assert {type(k) for k in mine} == {str} and {type(v) for v in mine.values()} == {int}
    assert ours.describe() == theirs.describe()
    corpus = load_ragtruth(*DATA)
    assert ours.score(corpus, progress=False).responses.equals(theirs.score(corpus, progress=False).responses)


def test_only_plain_dicts_of_strings_to_json_values_are_merged(model_dir):
    from evidencechain.modelfile import _merge_json_dicts

    samples = {"vocabulary": {"alpha": 3, "beta": 1, "\u00e9t\u00e9": 2}, "odd keys": {1: "a", 2: "b"},
               "not json": {"a": 1, "b": [1, 2]}, "floats": {"x": 0.1, "y": float("nan")}}
    with zipfile.ZipFile(io.BytesIO(sio.dumps(samples))) as archive:
        schema = json.loads(archive.read("schema.json"))
    _merge_json_dicts(schema)
    loaders = {k: v["__loader__"] for k, v in schema["content"].items()}
    assert loaders == {"vocabulary": "JsonNode", "odd keys": "DictNode", "not json": "DictNode", "floats": "JsonNode"}
    merged = json.loads(schema["content"]["vocabulary"]["content"])
    assert list(merged.items()) == list(samples["vocabulary"].items())


def test_a_dict_of_strings_holding_a_foreign_object_is_still_refused(fitted, model_dir, tmp_path):
    ran = tmp_path / "code-ran"
    crafted = EvidenceChain.__new__(EvidenceChain)
    crafted.__dict__.update(fitted.__dict__, cache=None)
    crafted.hook = {"a": 1, "b": 2, "run": _Payload(ran)}
    _reseal(model_dir, {MODEL_FILE: sio.dumps(crafted)})
    with pytest.raises(UntrustedModelError, match="_Payload"):
        EvidenceChain.load(model_dir)
    assert not ran.exists()

# ---------------------------------------------------------------- pickles

@pytest.mark.parametrize("keep_skops", [False, True])
def test_a_resealed_pickle_is_refused_and_never_unpickled(model_dir, tmp_path, keep_skops):
    ran = tmp_path / "code-ran"
    drop = () if keep_skops else (MODEL_FILE,)
    _reseal(model_dir, {"model.pkl": pickle.dumps(_Payload(ran))}, drop)
    if keep_skops:  # a stray model.pkl beside a real model is never read
        assert isinstance(EvidenceChain.load(model_dir), EvidenceChain)
    else:
        with pytest.raises(UntrustedModelError, match=r"model.pkl is a pickled model .*evidencechain run"):
            EvidenceChain.load(model_dir)
    assert not ran.exists()


def test_a_stealthy_pickle_fails_detect_with_one_line_and_runs_nothing(fitted, model_dir, tmp_path, capsys):
    ran = tmp_path / "code-ran"
    _reseal(model_dir, {"model.pkl": pickle.dumps(_Stealthy(ran, fitted))}, (MODEL_FILE,))
    line = _one_error_line(capsys, ["detect", "--model", str(model_dir), "--response-jsonl", str(DATA[0]),
                                    "--source-info-jsonl", str(DATA[1]), "--out", str(tmp_path / "out"), "-q"])
    assert "model.pkl" in line and "pickle" in line and "evidencechain run" in line
    assert not ran.exists() and not (tmp_path / "out").exists()


def test_detector_load_refuses_a_resealed_pickle(fitted, model_dir, tmp_path):
    from evidencechain import Detector

    ran = tmp_path / "code-ran"
    _reseal(model_dir, {"model.pkl": pickle.dumps(_Stealthy(ran, fitted))}, (MODEL_FILE,))
    with pytest.raises(UntrustedModelError, match="pickled model"):
        Detector.load(model_dir, cache_dir=tmp_path / "cache")
    assert not ran.exists()


def test_an_old_model_directory_without_model_json_is_refused_as_a_pickle(model_dir, tmp_path):
    ran = tmp_path / "code-ran"
    (model_dir / "model.pkl").write_bytes(pickle.dumps(_Payload(ran)))
    (model_dir / "model.json").unlink()
    with pytest.raises(UntrustedModelError, match="pickled model"):
        EvidenceChain.load(model_dir)
    assert not ran.exists()


# ---------------------------------------------------------------- crafted skops files

@pytest.mark.parametrize("payload", ["function", "class"])
def test_a_skops_file_naming_a_foreign_type_is_refused_before_loading(fitted, model_dir, tmp_path, payload):
    ran = tmp_path / "code-ran"
    crafted = EvidenceChain.__new__(EvidenceChain)
    crafted.__dict__.update(fitted.__dict__, cache=None)
    crafted.hook = os.system if payload == "function" else _Payload(ran)
    _reseal(model_dir, {MODEL_FILE: sio.dumps(crafted)})
    with pytest.raises(UntrustedModelError) as info:
        EvidenceChain.load(model_dir)
    message = str(info.value)
    assert "not part of an evidencechain model" in message and "\n" not in message
    assert ("system" in message) if payload == "function" else ("_Payload" in message)
    assert not ran.exists()


def test_a_skops_file_naming_a_scipy_ufunc_is_refused_when_evidencechain_imports_skops(fitted, model_dir):
    """skops trusts scipy's ufuncs by default; imported by `modelfile` (a new process, as `detect`
    runs) it trusts none, and no evidencechain model holds one."""
    import scipy.special

    crafted = EvidenceChain.__new__(EvidenceChain)
    crafted.__dict__.update(fitted.__dict__, cache=None)
    crafted.hook = scipy.special.expit
    _reseal(model_dir, {MODEL_FILE: sio.dumps(crafted)})
    code = ("import sys\nfrom evidencechain.model import EvidenceChain\nfrom evidencechain.errors import ModelError\n"
            "try:\n    EvidenceChain.load(sys.argv[1])\nexcept ModelError as exc:\n    print(exc)\n")
    done = subprocess.run([sys.executable, "-c", code, str(model_dir)], capture_output=True, text=True, timeout=300)
    assert "not part of an evidencechain model" in done.stdout and "expit" in done.stdout, done.stdout + done.stderr


def test_a_skops_file_of_another_object_is_refused(model_dir):
    _reseal(model_dir, {MODEL_FILE: sio.dumps({"detectors": [1, 2]})})
    with pytest.raises(ModelError, match="holds a dict, not an EvidenceChain"):
        EvidenceChain.load(model_dir)


# ---------------------------------------------------------------- the default-model cache

def test_a_pickle_planted_in_the_default_model_cache_never_runs(fitted, tmp_path, monkeypatch, capfd):
    ran, root = tmp_path / "code-ran", tmp_path / "cache"
    builds = []

    def fake_build(out, pipeline="auto"):
        builds.append(out)
        (Path(out) / default.CARD).parent.mkdir(parents=True, exist_ok=True)
        (Path(out) / default.CARD).write_text(json.dumps({"detector": "EvidenceChain_LR"}))
        return fitted.save(out)

    monkeypatch.setattr(default, "build_default_model", fake_build)
    planted = default.default_model_dir("blank", root)
    planted.mkdir(parents=True)
    (planted / default.CARD).write_text(json.dumps({"detector": "EvidenceChain_LR"}))
    fitted.save(planted)
    _reseal(planted, {"model.pkl": pickle.dumps(_Payload(ran))}, (MODEL_FILE,))

    from evidencechain import Detector

    detector = Detector.default(cache_dir=root, pipeline="blank")
    assert not ran.exists() and len(builds) == 1
    assert "pickled model" in capfd.readouterr().err
    assert (planted / MODEL_FILE).is_file() and not (planted / "model.pkl").exists()
    assert detector.predict(context="The museum opened in 1987.", answer="It opened in 1987.").verdict
    detector.close()
