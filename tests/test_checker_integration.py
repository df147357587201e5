"""The learned checker wired into config, features, detectors and the runner (no training here
except a tiny random model; the real checker is never needed)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evidencechain.checker.config import checker_config_from_dict, load_checker_config
from evidencechain.config import apply_overrides, config_from_dict
from evidencechain.detectors import DETECTORS
from evidencechain.detectors.nli import EvidenceChainNLI
from evidencechain.errors import ConfigError
from evidencechain.features.checker import checker_absent_reason, token_column


def test_checker_config_is_validated_with_file_and_key(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[train]\nepocs = 2\n')
    with pytest.raises(ConfigError, match=r"c\.toml \[train\]: unknown key 'epocs' \(did you mean 'epochs'\?\)"):
        load_checker_config(path)
    with pytest.raises(ConfigError, match="unknown source"):
        checker_config_from_dict({"data": {"recipe": {"anl": 10}}})
    with pytest.raises(ConfigError, match="summedits_domains"):
        checker_config_from_dict({"data": {"recipe": {"summedits": -1}}})
    with pytest.raises(ConfigError, match="every source is 0"):
        checker_config_from_dict({"data": {"recipe": {"anli": 0}}})


def test_shipped_checker_config_loads():
    config = load_checker_config("experiments/checker.toml")
    assert config.seed == 17 and config.data.recipe["cliff_val"] == -1
    assert "summedits" not in config.data.recipe, "SummEdits is a benchmark: only leave-one-domain-out trainings"


def test_feature_config_checker_keys_are_checked():
    base = {"corpora": {"a": {"format": "cliff", "path": "x"}}, "evaluations": [{"fit": "a", "test": ["a"]}]}
    with pytest.raises(ConfigError, match="checker_quantize"):
        config_from_dict({**base, "features": {"checker_quantize": "int4"}})
    assert config_from_dict({**base, "features": {"checker": "results/checker"}}).features.checker == "results/checker"


def test_absent_checker_has_a_reason(tmp_path):
    assert checker_absent_reason(None) == "absent: not configured"
    assert "no trained checker" in checker_absent_reason(str(tmp_path / "none"))


def test_runner_skips_checker_detectors_without_a_checker(tmp_path):
    from evidencechain.plan import unit_detectors

    base = {"corpora": {"a": {"format": "cliff", "path": "x"}}, "evaluations": [{"fit": "a", "test": ["a"]}],
            "features": {"checker": str(tmp_path / "missing")},
            "detectors": {"names": ["Lexical", "EvidenceChain_NLI"], "primary": "Lexical"}}
    config = config_from_dict(base)

    class Fit:
        span_labels, name = True, "a"

    names, primary, reasons = unit_detectors(config, Fit())
    assert names == ("Lexical",) and primary == "Lexical"
    assert any("EvidenceChain_NLI: not scored" in r and "make checker" in r for r in reasons)


def _unit_plan(config, name="a"):
    from evidencechain.plan import unit_detectors

    class Fit:
        span_labels = True

    Fit.name = name
    return unit_detectors(config, Fit())


def test_run_checker_flag_replaces_the_configured_checker(tmp_path, monkeypatch):
    import json

    from evidencechain import cli, runner

    seen = {}

    def fake_run(config, out, progress=True):
        seen["config"] = config
        Path(out).mkdir(parents=True)
        (Path(out) / "run.json").write_text(json.dumps({"corpora": {}, "config": config.to_dict()}))
        return Path(out)

    monkeypatch.setattr(runner, "run", fake_run)
    args = ["run", "--config", "experiments/cliff.toml", "--out", str(tmp_path / "out"), "-q"]
    assert cli.main([*args, "--checker", str(tmp_path / "gpu")]) == 0
    assert seen["config"].features.checker == str(tmp_path / "gpu")
    recorded = json.loads((tmp_path / "out" / "run.json").read_text())["config"]["features"]
    assert recorded["checker"] == str(tmp_path / "gpu") and recorded["checker_windows"] == 1
    assert cli.main([*args[:3], "--out", str(tmp_path / "plain"), "-q"]) == 0
    assert seen["config"].features.checker == "results/checker"


def test_checker_override_is_validated_and_degrades_like_the_key(tmp_path):
    base = {"corpora": {"a": {"format": "cliff", "path": "x"}}, "evaluations": [{"fit": "a", "test": ["a"]}],
            "detectors": {"names": ["Lexical", "EvidenceChain_NLI"], "primary": "Lexical"}}
    missing = str(tmp_path / "missing")
    by_key = config_from_dict({**base, "features": {"checker": missing}})
    by_flag = apply_overrides(config_from_dict({**base, "features": {"checker": "results/checker"}}),
                              checker=missing)
    assert by_flag.features == by_key.features
    assert _unit_plan(by_flag) == _unit_plan(by_key)
    names, _, reasons = _unit_plan(by_flag)
    assert names == ("Lexical",) and any(missing in r and "EvidenceChain_NLI: not scored" in r for r in reasons)
    with pytest.raises(ConfigError, match=r"\[features\] checker: expected str \| None, got int 3"):
        apply_overrides(config_from_dict(base), checker=3)


def _tables():
    sentences = pd.DataFrame({"response_id": ["r", "r"], "sentence_index": [0, 1], "start": [0, 12],
                              "nli_support": [0.9, 0.2]})
    tokens = pd.DataFrame({"response_id": ["r"] * 5, "sentence_index": [0, 0, 1, 1, 1],
                           "start": [0, 6, 12, 16, 22], "end": [5, 11, 15, 21, 23],
                           "is_punct": [0, 0, 0, 0, 1]})
    return sentences, tokens


def test_token_column_maps_word_pieces_by_offsets():
    sentences, tokens = _tables()
    scored = [None, (np.zeros(3), np.array([[0, 3], [4, 6], [6, 9]]), np.array([0.1, 0.8, 0.6]))]
    out = token_column(tokens, sentences, scored)
    assert out.tolist() == pytest.approx([0.0, 0.0, 0.1, 0.8, 0.0])


def test_nli_detector_caps_word_risk_by_sentence_risk():
    sentences, tokens = _tables()
    tokens["nli_token"] = [0.9, 0.1, 0.95, 0.5, 0.9]
    det = DETECTORS["EvidenceChain_NLI"]()
    assert isinstance(det, EvidenceChainNLI) and det.tags()["needs_checker"]
    risk = det.score_sentences(sentences)
    assert risk.tolist() == pytest.approx([0.1, 0.8])
    words = det.score_tokens(tokens, sentences, risk)
    assert words.tolist() == pytest.approx([0.1, 0.1, 0.8, 0.5, 0.0])
