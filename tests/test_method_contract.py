"""Every registered method passes the contract checks (`detectors.checks.check_method`): a method
added to the registry is checked here without a new test."""
from __future__ import annotations

import numpy as np
import pytest

from evidencechain.data.audit import generate_audit_corpus
from evidencechain.data.splits import split_corpus
from evidencechain.detectors import DETECTORS, FitDataError, Method, NotFittedError, clone, make_detector
from evidencechain.detectors.checks import check_method, check_params, check_unfitted
from evidencechain.detectors.provenance import ProvenanceSettings
from evidencechain.errors import ConfigError, ModelError
from evidencechain.features import FeatureConfig, FeatureExtractor
from evidencechain.features.claims import CHECKER_COUNT_COLUMNS
from evidencechain.features.triplets import COUNT_COLUMNS
from evidencechain.modelfile import trusted_types

FAST = {"Provenance": {"relevance": ("bm25", "tfidf")}}
"""Parameters that keep a check on 2 CPU cores short (MiniLM relevance loads torch)."""


@pytest.fixture(scope="module")
def tables():
    """Train and calibration tables of a slice of the audit corpus (word labels, tiers, claims),
    with stand-ins for the learned checker's columns (tracking coverage and the triplet counts)."""
    parts = split_corpus(generate_audit_corpus(17, 1), 0.2, 17)
    train = parts["train"].subset(response_ids={r.id for r in parts["train"].responses[:120]})
    calibration = parts["calibration"].subset(response_ids={r.id for r in parts["calibration"].responses[:60]})
    extractor = FeatureExtractor(FeatureConfig(pipeline="blank", claims=True)).fit(train, progress=False)
    out = {}
    for name, corpus in (("train", train), ("calibration", calibration)):
        t = extractor.transform(corpus, progress=False, with_tokens=True)
        s = t.sentences
        for own, checker in zip(COUNT_COLUMNS, CHECKER_COUNT_COLUMNS):
            s[checker] = s[own]
        s["nli_support"], s["nli_baseless"] = s["coverage"], 1 - s["coverage"]
        s["nli_conflict"] = s["nli_conflict_max"] = 0.0
        t.tokens["nli_token"] = t.tokens["novelty"].astype(float)
        t.tokens["triplet_verdict_checker"] = t.tokens.get("triplet_verdict", 0)
        out[name] = t
    return out


@pytest.mark.parametrize("name", sorted(DETECTORS))
def test_every_registered_method_passes_the_contract_checks(name, tables):
    method = make_detector(name, **FAST.get(name, {}))
    ran = check_method(method, tables["train"], tables["calibration"], trusted_types())
    assert "check_fit" in ran and "check_saved" in ran


def test_the_checks_catch_a_method_that_breaks_the_contract(tables):
    class Keeps(Method):
        name = "Keeps"
        __ec_tags__ = {"requires_fit": True}

        def __init__(self, weight: float = 0.5):
            self.weight = weight
            self.columns = ["coverage"]  # derived state set in __init__: not a parameter

        def score_sentences(self, sentences):
            return np.zeros(len(sentences))

    with pytest.raises(AssertionError, match=r"not parameters: \['columns'\]"):
        check_params(Keeps())
    with pytest.raises(AssertionError, match="must raise NotFittedError"):
        check_unfitted(Keeps(), tables["train"])


def test_params_round_trip_and_unfitted_error():
    rf = make_detector("EvidenceChain_RF", max_depth=3)
    assert rf.get_params()["max_depth"] == 3 and clone(rf).get_params() == rf.get_params()
    assert rf.set_params(max_depth=5) is rf and "max_depth=5" in repr(rf)
    with pytest.raises(ConfigError, match="unknown parameter 'depth'"):
        rf.set_params(depth=5)
    with pytest.raises(NotFittedError, match="EvidenceChain_RF is not fitted"):
        rf.score_sentences(None)
    assert rf.fitted_attributes() == []


def test_provenance_parameters_are_its_settings_keys():
    """`[detectors.params.Provenance]` configures the method and the runner's grid alike."""
    cls = DETECTORS["Provenance"]
    defaults = ProvenanceSettings()
    shared = [k for k in cls.param_names() if hasattr(defaults, k)]
    assert sorted(shared) == sorted(f for f in vars(defaults))
    for key in shared:
        value = cls.default_params()[key]
        if key != "temperatures":
            assert list(value) == getattr(defaults, key) if isinstance(value, tuple) else \
                value == getattr(defaults, key), key
    assert cls.tags()["level"] == "response" and set(cls.tags()["feature_params"]) <= set(cls.param_names())


def test_provenance_is_fitted_saved_and_served_like_any_detector(tmp_path):
    import json

    from evidencechain import Detector
    from evidencechain.model import EvidenceChain

    parts = split_corpus(generate_audit_corpus(17, 1), 0.2, 17)
    train, calibration = (parts[k].subset(response_ids={r.id for r in parts[k].responses[:n]})
                          for k, n in (("train", 120), ("calibration", 60)))
    model = EvidenceChain(("Lexical", "Provenance"), "Provenance", FeatureConfig(pipeline="blank"),
                          detector_params={"Provenance": {"relevance": ["bm25"], "checkers": ["nli-rules"]}})
    model.fit(train, calibration, progress=False)
    method = model.detectors["Provenance"]
    assert method.configuration_.startswith("Provenance[bm25|") and method.pipeline == "blank"
    assert {c["component"] for c in method.components_} == {"bm25", "nli-rules"}
    model.save(tmp_path / "model")
    saved = json.loads((tmp_path / "model" / "model.json").read_text())["detectors"]
    assert saved["Provenance"]["params"]["relevance"] == ["bm25"] and saved["Provenance"]["tags"]["level"] == "response"
    assert saved["Lexical"]["params"] == {} and "top_k" in saved["Provenance"]["params"]
    with Detector.load(tmp_path / "model", detector="Provenance", cache_dir=tmp_path) as detector:
        result = detector.predict(context=["The museum opened in 1987 in Paris."],
                                  question="When did the museum open?", answer="It opened in 1991 in Rome.")
    assert result.detector == "Provenance" and 0.0 <= result.risk <= 1.0
    assert all(s.risk == result.risk for s in result.sentences)  # each sentence takes its answer's risk


def test_provenance_without_any_runnable_configuration_says_why(tables):
    method = make_detector("Provenance", relevance=("cross-encoder",), checkers=("nli-rules",))
    with pytest.raises(ModelError, match="no configuration can run: relevance cross-encoder: absent: not configured"):
        method.fit(tables["train"])
    with pytest.raises(FitDataError, match="reads the evidence of each answer"):
        make_detector("Provenance").fit(tables["train"].sentences)


def test_fact_checker_descriptions_keep_their_published_form():
    """provenance_components.csv names the sentence model behind a checker as it always has."""
    from evidencechain.detectors import provenance as prov

    lr = make_detector("EvidenceChain_LR", groups=("lexical", "retrieval", "mismatch"))
    assert prov.evidencechain_checker(lr).describe() == (
        "1 - EvidenceChainLR(groups=('lexical', 'retrieval', 'mismatch'), random_state=17) risk on "
        "(source item, answer) features")
    assert prov.nli_rules_checker().describe() == "1 - NLIRules() risk on (source item, answer) features"


class Shortfall(Method):
    """A toy method for the README recipe: risk = the share of a sentence's words not in the evidence,
    scaled by a weight learned as the hallucinated sentences' mean of that share."""

    name = "Shortfall"
    __ec_tags__ = {"supervised": True, "requires_fit": True}

    def __init__(self, power: float = 1.0, random_state: int = 17):
        self.power, self.random_state = power, random_state

    def fit(self, tables):
        sentences = tables.sentences
        self.scale_ = float(max(1e-9, (1 - sentences["coverage"])[sentences["label"] == 1].mean()))
        return self

    def score_sentences(self, sentences):
        self.check_fitted("scale_")
        return np.clip(((1 - sentences["coverage"].to_numpy(float)) / self.scale_) ** self.power, 0, 1)


def test_a_registered_method_is_checked_and_fitted_like_the_others(tables):
    from evidencechain.model import EvidenceChain

    DETECTORS["Shortfall"] = Shortfall
    try:
        assert "check_saved" in check_method(make_detector("Shortfall"), tables["train"], tables["calibration"])
        model = EvidenceChain(("Lexical", "Shortfall"), "Shortfall", detector_params={"Shortfall": {"power": 2.0}})
        model.fit_tables(tables["train"], tables["calibration"])
        assert model.detectors["Shortfall"].power == 2.0 and "scale_" in model.detectors["Shortfall"].fitted_attributes()
        assert model.describe()["detectors"]["Shortfall"]["params"] == {"power": 2.0, "random_state": 17}
        assert "word" in model.thresholds["Shortfall"]
    finally:
        del DETECTORS["Shortfall"]
