"""The feature-family registry: columns follow the registry, a family runs only when a configured
detector needs it, and adding a family is one class plus `register` (the README recipe)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from evidencechain.data.ragtruth import load_ragtruth
from evidencechain.detectors import feature_families
from evidencechain.features import (
    FeatureConfig,
    FeatureExtractor,
    FeatureFamily,
    configure,
    register,
    unregister,
)
from evidencechain.features.families import FAMILIES, feature_columns, feature_groups
from evidencechain.model import EvidenceChain

VALID = Path(__file__).parent / "fixtures" / "ragtruth" / "valid"


def _corpus():
    return load_ragtruth(VALID / "response.jsonl", VALID / "source_info.jsonl")


class Digits(FeatureFamily):
    """The toy family of the recipe: digits per sentence, and a flag on each token with one."""

    name = "digits"
    columns = ("digit_count",)
    token_columns = ("has_digit",)
    groups = {"digits": ("digit_count",)}
    needs = ("the sentence text",)

    def add(self, tables, context):
        tables.sentences["digit_count"] = tables.sentences["text"].str.count(r"\d").to_numpy(dtype=float)
        if tables.tokens is not None and len(tables.tokens):
            tables.tokens["has_digit"] = tables.tokens["text"].str.contains(r"\d").to_numpy(dtype=np.int8)


@pytest.fixture
def digits():
    family = register(Digits())
    try:
        yield family
    finally:
        unregister("digits")


def test_columns_follow_the_registry_order():
    corpus = _corpus()
    fx = FeatureExtractor(FeatureConfig(pipeline="blank", claims=True, semantic=True)).fit(corpus, progress=False)
    tables = fx.transform(corpus, progress=False)
    ran = [f for name, f in FAMILIES.items() if fx.family_plan()[name] == "runs"]
    assert {f.name for f in ran} >= {"sentence", "lexical", "tfidf", "semantic", "claims"}
    assert list(tables.sentences.columns) == [c for f in ran for c in f.columns]
    token_columns = [c for f in ran for c in f.token_columns]
    assert list(tables.tokens.columns) == list(dict.fromkeys(token_columns))  # 'label' once
    assert set(fx.family_seconds) == {f.name for f in ran}


def test_a_registered_family_reaches_a_detector_configured_with_it(digits):
    corpus = _corpus()
    assert "digits" in feature_groups()
    assert feature_columns(("lexical", "digits")) == (["coverage", "best_chunk_overlap", "novel_count",
                                                     "digit_count"], [])
    model = EvidenceChain(("Lexical", "EvidenceChain_LR"), "EvidenceChain_LR", FeatureConfig(pipeline="blank"),
                          detector_params={"EvidenceChain_LR": {"groups": ("lexical", "digits")}})
    assert model.features.families == ("digits",)
    model.fit(corpus, corpus, progress=False)
    assert model.extractor.family_plan()["digits"] == "runs"
    assert "digit_count" in model.detectors["EvidenceChain_LR"].features
    scored = model.score(corpus, progress=False)
    text = scored.sentences["text"]
    assert (scored.sentences["digit_count"] == text.str.count(r"\d")).all() and (text.str.count(r"\d") > 0).any()
    assert list(scored.tokens.columns).index("has_digit") > list(scored.tokens.columns).index("label")
    assert scored.sentences["risk_EvidenceChain_LR"].between(0, 1).all()

    # no configured detector reads the group: the family does not run
    plain = EvidenceChain(("Lexical",), "Lexical", FeatureConfig(pipeline="blank")).fit(corpus, corpus, progress=False)
    assert plain.features.families == ()
    assert plain.extractor.family_plan()["digits"].startswith("not needed")
    assert "digit_count" not in plain.score(corpus, progress=False).sentences


def test_a_family_registered_after_another_places_its_columns_there():
    register(Digits(), after="metadata")
    try:
        corpus = _corpus()
        fx = FeatureExtractor(FeatureConfig(pipeline="blank", families=("digits",))).fit(corpus, progress=False)
        columns = list(fx.transform(corpus, progress=False, with_tokens=False).sentences.columns)
        assert columns[columns.index("source_collection") + 1] == "digit_count"
    finally:
        unregister("digits")
    assert "digits" not in FAMILIES and "digits" not in feature_groups()
    with pytest.raises(ValueError, match="unknown feature group"):
        feature_columns(("digits",))


def test_registry_refuses_duplicates_unknown_places_and_builtin_removals(digits):
    with pytest.raises(ValueError, match="already registered"):
        register(Digits())
    with pytest.raises(ValueError, match="unknown feature family 'nope'"):
        register(type("Other", (Digits,), {"name": "other"})(), after="nope")
    with pytest.raises(ValueError, match="built in"):
        unregister("claims")


def test_detectors_name_the_families_they_need():
    assert {"claims", "lexical", "metadata"} <= feature_families(("RefChecker", "EvidenceChain_LR"))
    assert not {"claims_checker", "checker", "semantic", "tiers"} & feature_families(("RefChecker", "EvidenceChain_LR"))
    assert "tiers" in feature_families(("RAGHalu",))
    assert {"claims", "claims_checker", "checker"} <= feature_families(("RefChecker_NLI",))
    assert "semantic" in feature_families(("EvidenceChain_LR",), {"EvidenceChain_LR": {"groups": ["semantic"]}})
    checked = configure(FeatureConfig(), feature_families(("RefChecker_NLI",)))
    assert checked.claims and checked.claims_checker and not checked.semantic
    assert configure(FeatureConfig(claims_checker=True), set()).claims  # a checked claim needs the claims
    assert configure(FeatureConfig(), {"response"}).response_features
    assert configure(FeatureConfig(), {"embedding", "checker"}) == FeatureConfig()  # need a model path


def test_config_names_only_registered_families(tmp_path, digits):
    from evidencechain.config import load_config
    from evidencechain.errors import ConfigError

    audit = (Path(__file__).parents[1] / "experiments" / "audit.toml").read_text()
    path = tmp_path / "x.toml"
    path.write_text(audit.replace("tfidf_ngram_max = 2", 'tfidf_ngram_max = 2\nfamilies = ["digit"]'))
    with pytest.raises(ConfigError, match=r"families: unknown feature family 'digit'.*digits"):
        load_config(path)
    path.write_text(audit.replace("tfidf_ngram_max = 2", 'tfidf_ngram_max = 2\nfamilies = ["digits"]'))
    assert load_config(path).features.families == ("digits",)
