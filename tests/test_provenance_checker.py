"""The learned checker inside Provenance: the 'learned-checker' fact checker and relevance scorer."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from checker_support import save_tiny_bert

from evidencechain.config import config_from_dict
from evidencechain.detectors import provenance as prov
from evidencechain.detectors.response_methods import FamilyResult, ProvenanceFamily
from evidencechain.errors import ConfigError
from evidencechain.features import FeatureConfig
from evidencechain.features.neural import NeuralUnavailable
from evidencechain.text.parse import ParseCache

FIXTURE = Path(__file__).parent / "fixtures" / "halueval"
ITEMS = ("paris is the capital of france .", "the river seine flows through paris .",
         "berlin is the capital of germany .", "the city has a large old tower .")
QUERY = "what is the capital of france ?"


def _family(**params) -> ProvenanceFamily:
    return ProvenanceFamily(prov.ProvenanceSettings.from_params(params), FeatureConfig(), 0, {})


def _components(**params) -> dict[tuple[str, str], dict]:
    family, out = _family(**params), FamilyResult()
    family.parts.scorers("qa", out.components)
    family.parts.checkers("qa", out.components, None)
    return {(c["kind"], c["component"]): c for c in out.components}


# -- absent -----------------------------------------------------------------------------------------


def test_absent_checker_raises_naming_the_directory_and_make_checker(tmp_path):
    missing = str(tmp_path / "no-checker")
    for make in (prov.LearnedChecker, prov.LearnedCheckerRelevance):
        with pytest.raises(NeuralUnavailable, match=r"no trained checker at .*no-checker \(make checker\)"):
            make(missing)
        with pytest.raises(NeuralUnavailable, match=r"not configured.*make checker"):
            make("")
    comps = _components(relevance=["learned-checker"], checkers=["learned-checker"], learned_checker=missing)
    for kind in ("relevance", "fact checker"):
        row = comps[(kind, "learned-checker")]
        assert row["status"] == "absent" and "no-checker" in row["detail"] and "make checker" in row["detail"]


# -- settings ---------------------------------------------------------------------------------------


def test_settings_accept_the_learned_checker_and_keep_the_defaults():
    s = prov.ProvenanceSettings.from_params({"relevance": ["learned-checker"], "checkers": ["learned-checker"],
                                             "temperatures": {"learned-checker": 0.1}})
    assert s.learned_checker == "results/checker"
    defaults = prov.ProvenanceSettings()
    assert "learned-checker" not in defaults.relevance and "learned-checker" not in defaults.checkers
    assert "learned-checker" in prov.RELEVANCE_SCORERS and "learned-checker" in prov.FACT_CHECKERS


@pytest.mark.parametrize("params, message", [
    ({"checkers": ["learned_checker"]}, r"checkers: unknown name 'learned_checker' \(did you mean 'learned-checker'"),
    ({"relevance": ["learned-checkr"]}, r"relevance: unknown name 'learned-checkr' \(did you mean 'learned-checker'"),
    ({"learned-checker": "x"}, r"learned-checker: unknown key \(did you mean 'learned_checker'"),
    ({"temperatures": {"learned_checker": 0.1}}, r"temperatures: unknown relevance scorer 'learned_checker' "
                                                 r"\(did you mean 'learned-checker'"),
    ({"learned_checker": 3}, r"learned_checker: expected a string"),
    ({"checkers": ["learned-checker"], "learned_checker": ""}, r"learned_checker: empty, but checkers list "
                                                               r"'learned-checker'.*make checker"),
])
def test_settings_errors_name_the_key_and_suggest(params, message):
    with pytest.raises(ConfigError, match=r"^\[detectors.params.Provenance\] " + message):
        prov.ProvenanceSettings.from_params(params)


def _config(params: dict, where: str):
    return config_from_dict({
        "name": "learned", "output_dir": "out", "cache_dir": "",
        "corpora": {"halueval": {"format": "halueval", "path": str(FIXTURE), "subsets": ["qa"]}},
        "evaluations": [{"fit": "halueval", "test": ["halueval"]}],
        "detectors": {"names": ["Lexical"], "primary": "Lexical", "response_methods": ["Provenance"],
                      "params": {"Provenance": params}},
    }, where)


def test_config_error_names_the_file():
    with pytest.raises(ConfigError, match=r"^exp\.toml \[detectors.params.Provenance\] checkers: unknown name "
                                          r"'learned_checker' \(did you mean 'learned-checker'"):
        _config({"checkers": ["learned_checker"]}, "exp.toml")


# -- a tiny trained checker -------------------------------------------------------------------------


def _words(text: str) -> list[str]:
    return re.findall(r"\w+|[^\w\s]", text.lower())


@pytest.fixture(scope="module")
def tiny_checker(tmp_path_factory) -> Path:
    """A checker trained for seconds on a tiny random BERT (as `tests/test_checker_model.py`)."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")

    from evidencechain.checker.model import ModelSettings
    from evidencechain.checker.records import Pair
    from evidencechain.checker.train import TrainSettings, train

    premise = " ".join(ITEMS)
    pairs = [Pair(premise, ITEMS[0], "supported"), Pair(premise, ITEMS[1], "supported"),
             Pair(premise, "paris is the capital of germany .", "conflict"),
             Pair(premise, "the river spree flows through paris .", "conflict"),
             Pair(premise, "paris is the largest city in france .", "baseless"),
             Pair(premise, "many people visit paris in winter .", "baseless")]
    claims = [prov.make_claim("QA", QUERY, a).text for a in ("paris", "berlin")]
    words = (w for t in (premise, QUERY, *claims, *(p.claim for p in pairs)) for w in _words(t))
    base = save_tiny_bert(words, tmp_path_factory.mktemp("tiny-bert"))
    out = tmp_path_factory.mktemp("checker")
    train(pairs, pairs[:2], ModelSettings(base=str(base), max_length=64, freeze_layers=1),
          TrainSettings(epochs=1, batch_size=4, lr=1e-3, head_lr=5e-3, threads=1, checkpoint_every=100),
          out, 7, progress=False)
    return out


def _example(rid: str, answer: str, items=ITEMS, query=QUERY) -> prov.Example:
    return prov.Example(rid, "s1", "QA", query, answer, tuple(items), 0)


def test_learned_fact_checker_supports_in_input_order(tiny_checker, monkeypatch):
    cache = ParseCache(None)
    checker = prov.LearnedChecker(str(tiny_checker), cache=cache)
    assert checker.name == "learned-checker" and str(tiny_checker) in checker.describe()
    examples = [_example("a", "paris"), _example("b", "berlin")]
    batch = prov.PairBatch(examples, np.array([1, 0, 1, 0, 0]), np.array([3, 0, 0, 2, 1]))
    support = checker.support(batch)
    assert support.shape == (5,) and ((support >= 0) & (support <= 1)).all()
    one_by_one = [checker.model.scorer.score([p], [c]).probs[0, 0] for p, c in zip(batch.premises(), batch.claims())]
    assert np.allclose(support, one_by_one, atol=1e-5)
    assert checker.support(prov.PairBatch(examples, np.zeros(0, int), np.zeros(0, int))).shape == (0,)
    monkeypatch.setattr(checker.model.scorer, "score", lambda *a, **k: pytest.fail("not cached"))
    assert np.array_equal(checker.support(batch), support)  # every pair from the parse cache


def test_learned_relevance_scores_each_item_against_the_query(tiny_checker):
    relevance = prov.LearnedCheckerRelevance(str(tiny_checker))
    assert relevance.temperature == prov.SIMILARITY_TEMPERATURE and relevance.name == "learned-checker"
    assert "T=0.05" in relevance.describe() and str(tiny_checker) in relevance.describe()
    examples = [_example("a", "paris"), _example("b", "rome", items=ITEMS[2:]), _example("c", "x", items=())]
    scores = relevance.score(examples)
    assert [s.shape for s in scores] == [(4,), (2,), (0,)]
    assert all(((s >= 0) & (s <= 1)).all() for s in scores)
    direct = relevance.model.scorer.score(list(ITEMS), [QUERY] * 4).probs[:, 0]
    assert np.allclose(scores[0], direct, atol=1e-5) and np.allclose(scores[1], direct[2:], atol=1e-5)
    assert relevance.model is prov.LearnedChecker(str(tiny_checker)).model  # loaded once per directory


def test_learned_components_run_in_the_grid_and_validate_in_a_config(tiny_checker):
    params = {"relevance": ["learned-checker", "bm25"], "checkers": ["learned-checker"],
              "learned_checker": str(tiny_checker), "temperatures": {"learned-checker": 0.1}}
    config = _config(params, "learned.toml")
    assert config.detectors.params["Provenance"]["checkers"] == ["learned-checker"]
    comps = _components(**params)
    for kind in ("relevance", "fact checker"):
        row = comps[(kind, "learned-checker")]
        assert row["status"] == "present" and str(tiny_checker) in row["detail"]
    relevance = prov.LearnedCheckerRelevance(str(tiny_checker), temperature=0.1)
    grid = prov.run_grid([_example("a", "paris"), _example("b", "berlin")], [relevance, prov.BM25Relevance()],
                         [prov.TopK(2), prov.TopP(0.9)], [prov.LearnedChecker(str(tiny_checker))], ["max", "weighted"])
    assert prov.config_name("learned-checker", "top_k=2", "weighted", "learned-checker") in grid.factuality
    for values in grid.factuality.values():
        assert values.shape == (2,) and ((values >= 0) & (values <= 1)).all()


def test_learned_checker_is_skipped_outside_its_subsets_with_the_reason(tmp_path):
    family, out = _family(relevance=["learned-checker"], checkers=["learned-checker"],
                          learned_checker=str(tmp_path), learned_checker_subsets=["qa"]), FamilyResult()
    assert family.parts.scorers("summarization", out.components) == []
    assert family.parts.checkers("summarization", out.components, None) == []
    rows = {(c["kind"], c["component"]): c for c in out.components}
    for kind in ("relevance", "fact checker"):
        row = rows[(kind, "learned-checker")]
        assert row["status"] == "skipped" and "learned_checker_subsets" in row["detail"]


def test_cached_pairs_load_no_checker_model(tiny_checker, monkeypatch):
    from evidencechain.checker.infer import CheckerScorer
    from evidencechain.features.checker import CheckerFeatures

    cache = ParseCache(None)
    premises, claims = list(ITEMS), [QUERY] * len(ITEMS)
    cold = CheckerFeatures(tiny_checker)
    assert cold._scorer is None and "support checker" in cold.describe()
    first = cold.score_pairs(premises, claims, cache)
    assert cold._scorer is not None
    assert cold.scorer_description == cold.scorer.describe()  # the cache key does not depend on loading

    def refuse(*args, **kwargs):
        raise AssertionError("the checker was loaded")

    monkeypatch.setattr(CheckerScorer, "load", refuse)
    warm = CheckerFeatures(tiny_checker)
    again = warm.score_pairs(premises, claims, cache)
    assert all(np.array_equal(a, b) for x, y in zip(first, again) for a, b in zip(x, y))
    with pytest.raises(AssertionError, match="was loaded"):
        warm.score_pairs(["another premise ."], [QUERY], cache)
    prov.checkers.load_learned_checker.__globals__["_loaded"].cache_clear()  # a new process
    relevance = prov.LearnedCheckerRelevance(str(tiny_checker), cache=cache)
    assert str(tiny_checker) in relevance.describe()
    assert str(tiny_checker) in prov.LearnedChecker(str(tiny_checker), cache=cache).describe()
    scored = relevance.score([_example("a", "paris")])[0]
    assert np.array_equal(scored, [float(p[0]) for p, _, _ in first])
