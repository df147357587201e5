"""Provenance pipeline: selection, order restoration, aggregation, claims, checkers, cross-encoders."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from evidencechain.detectors import make_detector
from evidencechain.detectors import provenance as prov
from evidencechain.features.neural import NeuralUnavailable
from evidencechain.text.parse import parse_texts

LOG = np.log


def _scores(probabilities):
    """Scores whose softmax at temperature 1 is exactly `probabilities`."""
    return LOG(np.asarray(probabilities, dtype=float))


# -- probabilities and selection ------------------------------------------------------------------


def test_softmax_with_temperature():
    p = prov.relevance_probabilities(np.array([0.2, 0.4]), temperature=0.1)
    assert p.sum() == pytest.approx(1.0)
    assert p[1] / p[0] == pytest.approx(math.exp(2.0))
    assert np.allclose(prov.relevance_probabilities(_scores([0.1, 0.6, 0.3]), 1.0), [0.1, 0.6, 0.3])
    with pytest.raises(ValueError):
        prov.relevance_probabilities(np.array([1.0]), 0.0)


def test_top_k_keeps_best_and_restores_original_order():
    probs = [0.1, 0.4, 0.2, 0.3]
    sel = prov.TopK(2).select(_scores(probs), 1.0)
    assert sel.indices.tolist() == [1, 3]  # original order, not [1, 3] by accident of rank
    assert np.allclose(sel.weights, [0.4 / 0.7, 0.3 / 0.7])
    sel = prov.TopK(3).select(_scores([0.05, 0.15, 0.5, 0.3]), 1.0)
    assert sel.indices.tolist() == [1, 2, 3]  # ranked 2, 3, 1 -> restored 1, 2, 3
    assert np.allclose(sel.weights, np.array([0.15, 0.5, 0.3]) / 0.95)
    assert sel.weights.sum() == pytest.approx(1.0)


def test_top_k_ties_prefer_earlier_items_and_k_beyond_length():
    sel = prov.TopK(2).select(np.array([1.0, 1.0, 1.0]), 0.5)
    assert sel.indices.tolist() == [0, 1]
    assert np.allclose(sel.weights, [0.5, 0.5])
    sel = prov.TopK(5).select(np.array([0.3, 0.1]), 0.1)
    assert sel.indices.tolist() == [0, 1]
    with pytest.raises(ValueError):
        prov.TopK(0)


def test_top_p_smallest_set_reaching_p():
    probs = [0.1, 0.5, 0.3, 0.1]
    sel = prov.TopP(0.75).select(_scores(probs), 1.0)
    assert sel.indices.tolist() == [1, 2]
    assert np.allclose(sel.weights, [0.5 / 0.8, 0.3 / 0.8])
    # reaching p exactly counts (rounding tolerated)
    assert prov.TopP(0.5).select(_scores(probs), 1.0).indices.tolist() == [1]
    assert prov.TopP(0.8).select(_scores(probs), 1.0).indices.tolist() == [1, 2]
    sel = prov.TopP(0.85).select(_scores(probs), 1.0)
    assert sel.indices.tolist() == [0, 1, 2]  # tie of 0.1 at rank 3: the earlier item wins
    assert np.allclose(sel.weights, np.array([0.1, 0.5, 0.3]) / 0.9)


def test_top_p_ties_and_restored_order():
    flat = np.zeros(4)  # four equal items, 0.25 each
    assert prov.TopP(0.5).select(flat, 1.0).indices.tolist() == [0, 1]
    assert prov.TopP(0.6).select(flat, 1.0).indices.tolist() == [0, 1, 2]
    sel = prov.TopP(0.7).select(_scores([0.05, 0.05, 0.3, 0.6]), 1.0)
    assert sel.indices.tolist() == [2, 3]  # ranked 3 then 2, restored to 2, 3
    assert np.allclose(sel.weights, [1 / 3, 2 / 3])


def test_top_p_one_keeps_everything_and_single_item():
    probs = [0.7, 0.2, 0.1]
    sel = prov.TopP(1.0).select(_scores(probs), 1.0)
    assert sel.indices.tolist() == [0, 1, 2]
    assert np.allclose(sel.weights, probs)
    # even items whose probability underflows to 0 are kept at p = 1.0
    sel = prov.TopP(1.0).select(np.array([0.0, -1e6]), 1.0)
    assert sel.indices.tolist() == [0, 1]
    for selector in (prov.TopP(0.1), prov.TopP(1.0), prov.TopK(1), prov.TopK(5)):
        one = selector.select(np.array([3.0]), 0.05)
        assert one.indices.tolist() == [0] and one.weights.tolist() == [1.0]
    with pytest.raises(ValueError):
        prov.TopP(0.0)
    with pytest.raises(ValueError):
        prov.TopP(1.5)


# -- aggregation and claims -------------------------------------------------------------------------


def test_aggregations():
    s, w = np.array([0.2, 0.9, 0.5]), np.array([0.5, 0.25, 0.25])
    assert prov.aggregate_support(s, w, "min") == pytest.approx(0.2)
    assert prov.aggregate_support(s, w, "max") == pytest.approx(0.9)
    assert prov.aggregate_support(s, w, "weighted") == pytest.approx(0.1 + 0.225 + 0.125)
    assert prov.aggregate_support(np.array([0.4]), np.array([1.0]), "weighted") == pytest.approx(0.4)
    assert math.isnan(prov.aggregate_support(np.zeros(0), np.zeros(0), "max"))
    with pytest.raises(ValueError, match="unknown aggregation"):
        prov.aggregate_support(s, w, "median")


def test_claims():
    qa = prov.make_claim("QA", "Who wrote Hamlet?", "Shakespeare.")
    assert qa.text == "The answer to question Who wrote Hamlet? is Shakespeare."
    assert qa.query == "Who wrote Hamlet?" and qa.answer == "Shakespeare."
    dia = prov.make_claim("Dialogue", "[Human]: Seen it?  ", "Yes, twice")
    assert dia.text == "The reply to the conversation [Human]: Seen it? is: Yes, twice."
    assert prov.make_claim("Summary", None, "A storm hit.").text == "A summary of the document is: A storm hit."
    assert prov.make_claim("QA", None, "Paris").text == "Given the context, Paris."


# -- relevance scorers and the grid ---------------------------------------------------------------


ITEMS = ("The Eiffel Tower is in Paris.", "Bananas are rich in potassium.",
         "Paris is the capital of France and home to the Louvre.")


def _example(answer="Paris", query="What is the capital of France?", items=ITEMS, rid="r1", label=0,
             parsed=False):
    ex = prov.Example(rid, "s1", "QA", query, answer, tuple(items), label)
    if parsed:
        evidence = " ".join(items)
        ev_doc, ans_doc, q_doc = parse_texts([evidence, answer, query or ""], pipeline="blank", progress=False)
        ex.evidence_doc, ex.answer_doc, ex.query_doc = ev_doc, ans_doc, q_doc
        ex.item_spans = prov.context_spans(ev_doc)
        ex.items = tuple(evidence[a:b] for a, b in ex.item_spans)
    return ex


def test_bm25_and_tfidf_rank_the_relevant_item_first():
    ex = _example()
    bm25 = prov.BM25Relevance().score([ex])[0]
    assert bm25.shape == (3,) and bm25.argmax() == 2 and bm25[1] == 0.0
    tfidf = prov.TfidfRelevance().fit(list(ITEMS) + [ex.query]).score([ex])[0]
    assert tfidf.argmax() == 2 and tfidf[1] == pytest.approx(0.0)
    summary = prov.Example("r2", "s2", "Summary", None, "Bananas have potassium.", ITEMS)
    assert summary.relevance_query == summary.answer  # no query: rank against the answer
    assert prov.BM25Relevance().score([summary])[0].argmax() == 1


class _FixedRelevance(prov.RelevanceScorer):
    name = "fixed"
    temperature = 1.0

    def __init__(self, scores):
        self.scores = scores

    def score(self, examples, progress=False):
        return [np.asarray(self.scores[k], dtype=float) for k in range(len(examples))]


class _ItemChecker(prov.FactChecker):
    """Support = a fixed value per item index; records which pairs it was asked about."""

    name = "by-item"

    def __init__(self, values):
        self.values, self.seen = values, []

    def support(self, batch):
        self.seen = list(zip(batch.example_index.tolist(), batch.item_index.tolist()))
        return np.array([self.values[i] for i in batch.item_index], dtype=float)


def test_grid_checks_only_selected_pairs_and_aggregates_with_weights():
    examples = [_example(rid="a"), _example(rid="b", items=ITEMS[:1])]
    scorer = _FixedRelevance([_scores([0.1, 0.3, 0.6]), np.array([0.0])])
    checker = _ItemChecker([0.9, 0.2, 0.5])
    grid = prov.run_grid(examples, [scorer], [prov.TopK(2)], [checker])
    assert sorted(checker.seen) == [(0, 1), (0, 2), (1, 0)]  # item 0 of example a not selected
    name = prov.config_name("fixed", "top_k=2", "weighted", "by-item")
    assert grid.factuality[name][0] == pytest.approx((0.3 * 0.2 + 0.6 * 0.5) / 0.9)
    assert grid.factuality[name][1] == pytest.approx(0.9)
    assert grid.factuality[prov.config_name("fixed", "top_k=2", "min", "by-item")][0] == pytest.approx(0.2)
    assert grid.factuality[prov.config_name("fixed", "top_k=2", "max", "by-item")][0] == pytest.approx(0.5)
    assert grid.pairs_checked == 3
    assert {c["mean_selected"] for c in grid.configs} == {1.5}
    pipe = prov.Provenance(scorer, prov.TopK(2), checker, "min")
    assert pipe.risk(examples)[0] == pytest.approx(0.8)


def test_example_without_items_gets_full_risk():
    ex = _example(items=())
    pipe = prov.Provenance(prov.BM25Relevance(), prov.TopP(0.9), _ItemChecker([]), "max")
    assert pipe.risk([ex]).tolist() == [1.0]


# -- offline fact checkers ------------------------------------------------------------------------


def test_pair_features_describe_answer_against_one_item():
    ex = _example(answer="Paris is the capital of France.", parsed=True)
    ex_bad = _example(answer="Berlin is the capital of France since 1990.", rid="r2", label=1, parsed=True)
    assert len(ex.items) == 3
    batch = prov.PairBatch([ex, ex_bad], np.array([0, 0, 1]), np.array([2, 1, 2]))
    f = batch.features()
    assert list(f.columns) == prov.PAIR_FEATURES
    assert f.loc[0, "coverage"] == pytest.approx(1.0) and f.loc[0, "novel_count"] == 0
    assert f.loc[0, "bm25_max"] > f.loc[1, "bm25_max"] and f.loc[1, "best_chunk_overlap"] < 1.0
    assert f.loc[2, "entity_mismatch"] >= 1 and f.loc[2, "numeric_mismatch"] == 1
    rules = prov.nli_rules_checker().support(batch)
    assert rules[0] > rules[2]
    assert prov.nli_rules_checker().name == "nli-rules"


def test_evidencechain_checker_and_feature_guard():
    import pandas as pd

    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.random((60, len(prov.PAIR_FEATURES))), columns=prov.PAIR_FEATURES)
    frame["label"] = (frame["coverage"] < 0.5).astype(int)
    det = make_detector("EvidenceChain_LR", groups=("lexical", "retrieval", "mismatch")).fit(frame)
    checker = prov.evidencechain_checker(det)
    assert checker.name == "evidencechain"
    ex = _example(answer="Paris is the capital of France.", parsed=True)
    support = checker.support(prov.PairBatch([ex], np.array([0, 0]), np.array([2, 1])))
    assert support.shape == (2,) and ((support >= 0) & (support <= 1)).all()
    full = make_detector("EvidenceChain_LR")  # default groups include metadata: not pair features
    with pytest.raises(ValueError, match="pair lacks"):
        prov.evidencechain_checker(full)


# -- embedding store -------------------------------------------------------------------------------


class _BatchSensitiveEncoder:
    """A fake embedder whose vectors, like real batched ones, depend on the other texts."""

    name = "fake"

    def __init__(self):
        self.calls = 0

    def encode(self, texts, batch_size=64):
        self.calls += 1
        base = np.array([[len(t), t.count("a")] for t in texts], dtype=float)
        return base + 1e-7 * len(texts)


def test_embedding_store_reuses_only_identical_calls(tmp_path):
    store = prov.EmbeddingStore(tmp_path / "emb.sqlite")
    enc = _BatchSensitiveEncoder()
    first = store.encode(enc, ["banana", "kiwi"])
    again = store.encode(enc, ["banana", "kiwi"])
    assert enc.calls == 1 and np.array_equal(first, again)
    other = store.encode(enc, ["banana", "kiwi", "apple"])  # a different call: encoded afresh
    assert enc.calls == 2 and not np.array_equal(other[:2], first)
    store.close()
    reopened = prov.EmbeddingStore(tmp_path / "emb.sqlite")
    assert np.array_equal(reopened.encode(enc, ["banana", "kiwi"]), first) and enc.calls == 2
    assert prov.EmbeddingStore(None).encode(enc, []).shape == (0, 1)


# -- cross-encoders on a tiny random model ----------------------------------------------------------


neural = pytest.mark.neural


def _tiny_bert(tmp_path: Path, num_labels: int, id2label: dict[int, str] | None = None) -> Path:
    torch = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizer

    torch.manual_seed(0)
    words = sorted({w.lower().strip(".,?!:") for t in (*ITEMS, "What is the capital of France?",
                                                      "The answer to question is Paris") for w in t.split()})
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *words, ".", ",", "?", "!", ":"]
    out = tmp_path / f"tiny-bert-{num_labels}"
    out.mkdir()
    (out / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    config = BertConfig(vocab_size=len(vocab), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=32, max_position_embeddings=128, num_labels=num_labels,
                        id2label=id2label or {i: f"LABEL_{i}" for i in range(num_labels)},
                        label2id={v: k for k, v in (id2label or {}).items()} or None)
    BertForSequenceClassification(config).eval().save_pretrained(out)
    BertTokenizer(str(out / "vocab.txt")).save_pretrained(out)
    return out


NLI_LABELS = {0: "entailment", 1: "neutral", 2: "contradiction"}


@neural
def test_cross_encoder_scorer_on_tiny_random_nli_model(tmp_path):
    from evidencechain.features.neural import CrossEncoderScorer

    path = _tiny_bert(tmp_path, 3, NLI_LABELS)
    model = CrossEncoderScorer(str(path), batch_size=2, max_length=64)
    premises, hyps = list(ITEMS), ["The answer to question What is the capital of France? is Paris."] * 3
    ent = model.entailment(premises, hyps)
    con = model.contradiction(premises, hyps)
    assert ent.shape == (3,) and ((ent > 0) & (ent < 1)).all()
    assert np.allclose(ent + con + model.probabilities(premises, hyps)[:, 1], 1.0)
    again = CrossEncoderScorer(str(path)).entailment(premises, hyps)
    assert np.allclose(ent, again, atol=1e-6)  # weights loaded, not re-initialised


@neural
def test_nli_checker_and_reranker_through_the_provenance_pipeline(tmp_path):
    nli = _tiny_bert(tmp_path, 3, NLI_LABELS)
    reranker = _tiny_bert(tmp_path, 1)
    checker = prov.NLICrossEncoderChecker(str(nli), batch_size=4)
    relevance = prov.CrossEncoderRelevance(str(reranker))
    assert relevance.temperature == prov.LOGIT_TEMPERATURE
    examples = [_example(rid="a"), _example(answer="Berlin", rid="b", label=1)]
    scores = relevance.score(examples)
    assert [s.shape for s in scores] == [(3,), (3,)]
    grid = prov.run_grid(examples, [relevance, prov.BM25Relevance()], [prov.TopK(2), prov.TopP(0.9)],
                         [checker], ["max", "weighted"])
    names = [c["name"] for c in grid.configs]
    assert prov.config_name("cross-encoder", "top_p=0.9", "weighted", "nli-cross-encoder") in names
    for values in grid.factuality.values():
        assert ((values > 0) & (values < 1)).all()
    batch = prov.PairBatch(examples, np.array([0, 1]), np.array([2, 2]))
    direct = checker.support(batch)
    expected = checker.model.entailment([ITEMS[2]] * 2, batch.claims())
    assert np.allclose(direct, expected)
    assert batch.claims()[1] == "The answer to question What is the capital of France? is Berlin."
    # a reranker with NLI labels gives the log-odds of its last class
    assert prov.CrossEncoderRelevance(str(nli)).score(examples[:1])[0].shape == (3,)


@neural
def test_non_nli_model_is_refused_as_checker(tmp_path):
    path = _tiny_bert(tmp_path, 2)
    with pytest.raises(NeuralUnavailable, match="no label among"):
        prov.NLICrossEncoderChecker(str(path))


# -- absent models ----------------------------------------------------------------------------------


def test_absent_models_raise_neural_unavailable(tmp_path):
    missing = str(tmp_path / "no-such-model")
    with pytest.raises(NeuralUnavailable, match="no-such-model"):
        prov.NLICrossEncoderChecker(missing)
    with pytest.raises(NeuralUnavailable):
        prov.CrossEncoderRelevance(missing)
    with pytest.raises(NeuralUnavailable):
        prov.EmbeddingRelevance(missing)
    empty = tmp_path / "empty-dir"
    empty.mkdir()
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    with pytest.raises(NeuralUnavailable, match="cannot load a cross-encoder"):
        prov.NLICrossEncoderChecker(str(empty))


def test_absent_models_are_reported_by_the_experiment(tmp_path):
    import json

    import pandas as pd

    from evidencechain.config import config_from_dict
    from evidencechain.runner import run

    fixture = Path(__file__).parent / "fixtures" / "halueval"
    config = config_from_dict({
        "name": "absent", "output_dir": str(tmp_path / "out"), "cache_dir": "",
        "corpora": {"halueval": {"format": "halueval", "path": str(fixture), "subsets": ["qa"]}},
        "evaluations": [{"fit": "halueval", "test": ["halueval"], "per_subset": True}],
        "features": {"pipeline": "blank"},
        "detectors": {"names": ["Lexical"], "primary": "Lexical", "response_methods": ["Provenance"],
                      "params": {"Provenance": {
                          "relevance": ["bm25", "minilm", "cross-encoder"], "checkers": ["nli-cross-encoder", "nli-rules"],
                          "embedding_model": str(tmp_path / "no-minilm"),
                          "reranker_model": str(tmp_path / "no-reranker"), "nli_model": str(tmp_path / "no-nli")}}},
    }, "<absent models>")
    out = run(config, progress=False)
    comps = pd.read_csv(out / "provenance_components.csv").set_index("component")
    for name, where in (("minilm", "no-minilm"), ("cross-encoder", "no-reranker"),
                        ("nli-cross-encoder", "no-nli")):
        assert comps.loc[name, "status"] == "absent"
        assert where in comps.loc[name, "detail"]
    assert comps.loc["Provenance (ours, best on calibration)", "status"] == "present"
    assert comps.loc["Provenance (ours, best on calibration)", "detail"].startswith("Provenance[bm25|")
    assert "response-level labels only" in json.loads((out / "run.json").read_text())["skipped_metrics"]["word"]
    grid = pd.read_csv(out / "provenance_grid.csv", keep_default_na=False, na_values=[""])
    present = grid[grid["status"] == "present"]
    assert set(present["relevance"]) == {"bm25"} and set(present["checker"]) == {"nli-rules"}
    assert grid[grid["relevance"] == "minilm"]["status"].str.contains("no-minilm").all()
    assert grid[grid["roc_auc"].isna()]["status"].str.startswith("absent").all()
    metrics = pd.read_csv(out / "metrics.csv")
    assert "Provenance (ours, best on calibration)" in set(metrics["method"])  # built from what is present


# -- settings ----------------------------------------------------------------------------------------


def test_settings_defaults_and_a_valid_table():
    assert prov.ProvenanceSettings.from_params(None) == prov.ProvenanceSettings()
    s = prov.ProvenanceSettings.from_params({"relevance": ["bm25"], "top_k": 3, "top_p": 1,
                                             "checkers": ["nli-rules"], "temperatures": {"bm25": 0.02}})
    assert s.relevance == ["bm25"] and s.top_k == 3 and s.top_p == 1 and s.temperatures == {"bm25": 0.02}
    # a 'metadata' checker group only matters when the evidencechain checker runs
    assert prov.ProvenanceSettings.from_params({"checkers": ["nli-rules"], "checker_groups": ["metadata"]})
    with pytest.raises(ValueError, match=r"^\[detectors.params.Provenance\]: expected a table"):
        prov.ProvenanceSettings.from_params(["bm25"])


def test_settings_unknown_keys_and_names_suggest_the_closest():
    from evidencechain.errors import ConfigError

    with pytest.raises(ConfigError, match=r"\[detectors.params.Provenance\] top-k: unknown key "
                                          r"\(did you mean 'top_k'\?\)"):
        prov.ProvenanceSettings.from_params({"top-k": 3})
    with pytest.raises(ValueError, match=r"Provenance\] relevance: unknown name 'bm-25' \(did you mean 'bm25'"):
        prov.ProvenanceSettings.from_params({"relevance": ["bm-25"]})
    with pytest.raises(ConfigError, match=r"checkers: unknown name 'nli_rules' \(did you mean 'nli-rules'"):
        prov.ProvenanceSettings.from_params({"checkers": ["nli_rules"]})
    with pytest.raises(ConfigError, match=r"aggregations: unknown name 'mean'"):
        prov.ProvenanceSettings.from_params({"aggregations": ["mean"]})
    with pytest.raises(ConfigError, match=r"temperatures: unknown relevance scorer 'tf-idf' \(did you mean 'tfidf'"):
        prov.ProvenanceSettings.from_params({"temperatures": {"tf-idf": 0.1}})
    with pytest.raises(ConfigError, match=r"checker_model: 'EvidenceChain_lr' .*did you mean 'EvidenceChain_LR'"):
        prov.ProvenanceSettings.from_params({"checker_model": "EvidenceChain_lr"})
    with pytest.raises(ConfigError, match=r"embedding_subsets: unknown name 'summary'"):
        prov.ProvenanceSettings.from_params({"embedding_subsets": ["summary"]})


@pytest.mark.parametrize("params, message", [
    ({"top_k": 0}, r"top_k: must be >= 1"),
    ({"top_k": 2.5}, r"top_k: expected an integer"),
    ({"top_k": True}, r"top_k: expected an integer"),
    ({"top_p": 0}, r"top_p: must be in \(0, 1\]"),
    ({"top_p": 1.5}, r"top_p: must be in \(0, 1\]"),
    ({"top_p": "0.9"}, r"top_p: expected a finite number"),
    ({"temperatures": {"bm25": 0}}, r"temperatures.bm25: must be > 0"),
    ({"temperatures": {"bm25": -1.0}}, r"temperatures.bm25: must be > 0"),
    ({"temperatures": 0.05}, r"temperatures: expected a table"),
    ({"batch_size": 0}, r"batch_size: must be >= 1"),
    ({"relevance": "bm25"}, r"relevance: expected a list of names"),
    ({"relevance": ["bm25", "bm25"]}, r"relevance: 'bm25' is listed twice"),
    ({"checker_groups": ["metadata"]}, r"checker_groups: .* a \(source, claim\) pair lacks"),
    ({"nli_model": 3}, r"nli_model: expected a string"),
])
def test_settings_reject_wrong_types_and_ranges(params, message):
    from evidencechain.errors import ConfigError

    with pytest.raises(ConfigError, match=r"^\[detectors.params.Provenance\] " + message):
        prov.ProvenanceSettings.from_params(params)
