"""The token feature family and EvidenceChain_Token (word-level detection learned at the word)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evidencechain.config import config_from_dict
from evidencechain.data.ragtruth import load_ragtruth
from evidencechain.data.splits import split_corpus
from evidencechain.detectors import make_detector
from evidencechain.features import FeatureConfig, FeatureExtractor
from evidencechain.features.tokens import token_features
from evidencechain.runner import run

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def tables(audit_corpus):
    out = audit_corpus
    parts = split_corpus(load_ragtruth(out / "response.jsonl", out / "source_info.jsonl"), 0.2, 17)
    extractor = FeatureExtractor(FeatureConfig(pipeline="blank")).fit(parts["train"], progress=False)
    return {name: extractor.transform(part, progress=False) for name, part in parts.items()}


def _hand_made():
    """Two sentences: 'a X Y .' and 'b c .' with X and Y novel, ids in one response."""
    tokens = pd.DataFrame({
        "response_id": "r", "source_id": "s", "sentence_index": [0, 0, 0, 0, 1, 1, 1],
        "is_punct": [0, 0, 0, 1, 0, 0, 1], "is_stop": [1, 0, 0, 0, 1, 0, 0],
        "novelty": [0, 1, 1, 0, 0, 0, 0], "number_absent": [0, 0, 1, 0, 0, 0, 0],
        "entity_absent": 0, "label": [0, 1, 1, 0, 0, 0, 0]})
    sentences = pd.DataFrame({"response_id": "r", "sentence_index": [0, 1], "coverage": [0.0, 1.0],
                              "best_chunk_overlap": [0.0, 1.0], "novel_count": [2, 0], "bm25_max": 0.0,
                              "tfidf_max": 0.0, "numeric_mismatch": [1, 0], "entity_mismatch": 0,
                              "n_tokens": [3, 2]})
    return tokens, sentences


def test_token_features_stay_inside_their_sentence():
    tokens, sentences = _hand_made()
    x = token_features(tokens, sentences, np.array([0.9, 0.1]))
    assert not x.isna().any().any()
    assert x.loc[4, "novelty_window1"] == 0.0          # 'b': its left neighbour '.' ends sentence 0
    assert x.loc[0, "novelty_window1"] == 1.0          # 'a': only 'X' on its right
    assert x.loc[1, "novel_run"] == 2 and x.loc[0, "novel_run"] == 2   # 'a X Y': function word joins the run
    assert x.loc[1, "clause_novel_share"] == 1.0 and x.loc[5, "clause_novel_share"] == 0.0
    assert x["sentence_risk"].tolist() == [0.9] * 4 + [0.1] * 3
    assert x.loc[2, "mismatch"] == 1.0 and x["position"].between(0, 1).all()


def test_token_detector_learns_words_and_is_deterministic(tables):
    train, test = tables["train"], tables["test"]
    risks = []
    for _ in range(2):
        det = make_detector("EvidenceChain_Token", 17, max_iter=50).fit(train)
        sentence = det.score_sentences(test.sentences)
        risks.append(det.score_tokens(test.tokens, test.sentences, sentence))
    assert np.array_equal(risks[0], risks[1])
    risk = risks[0]
    assert risk.min() >= 0 and risk.max() <= 1
    assert (risk[test.tokens["is_punct"].to_numpy() > 0] == 0).all()
    words = test.tokens["is_punct"].to_numpy() == 0
    labels = test.tokens["label"].to_numpy()[words]
    assert risk[words][labels == 1].mean() > risk[words][labels == 0].mean() + 0.3


def test_token_detector_needs_word_labels(tables):
    with pytest.raises(ValueError, match="needs word labels"):
        make_detector("EvidenceChain_Token").fit(tables["train"].sentences)


def test_runner_skips_it_with_the_reason_for_response_only_fit_corpora(tmp_path):
    ragtruth = FIXTURES / "ragtruth" / "valid"
    config = config_from_dict({
        "name": "token-skip", "output_dir": str(tmp_path / "out"), "cache_dir": "",
        "corpora": {"halueval": {"format": "halueval", "path": str(FIXTURES / "halueval"), "subsets": ["qa"]},
                    "mine": {"format": "ragtruth", "response_jsonl": str(ragtruth / "response.jsonl"),
                             "source_info_jsonl": str(ragtruth / "source_info.jsonl"), "quality": [],
                             "test_only": True}},
        "evaluations": [{"fit": "halueval", "test": ["mine"]}],
        "features": {"pipeline": "blank"},
        "detectors": {"names": ["Lexical", "EvidenceChain_Token"], "primary": "EvidenceChain_Token"},
    }, "token-skip.toml")
    out = run(config, progress=False)
    units = pd.read_csv(out / "units.csv")
    assert "EvidenceChain_Token: not fitted, halueval has no word labels" in units["skipped"].iloc[0]
    assert set(pd.read_csv(out / "metrics.csv")["method"]) >= {"Lexical"}
    assert "EvidenceChain_Token" not in set(pd.read_csv(out / "metrics.csv")["method"])


def test_a_model_calibrated_on_response_labels_says_why_it_gives_no_spans():
    from evidencechain.data.halueval import load_halueval_corpus
    from evidencechain.model import EvidenceChain
    from evidencechain.records import Source

    corpus = load_halueval_corpus(FIXTURES / "halueval", subsets=["qa"])
    parts = split_corpus(corpus, 0.3, 17)
    model = EvidenceChain(("Lexical", "EvidenceChain_LR"), "EvidenceChain_LR",
                          FeatureConfig(pipeline="blank")).fit(parts["train"], parts["calibration"], progress=False)
    assert "word" not in model.thresholds["EvidenceChain_LR"]
    source = Source("s", "QA", "MARCO", {"question": "When?", "passages": "It opened in 1987."}, "Answer.")
    result = model.predict("It opened in 1991.", source)
    assert "no word-level threshold" in result.note
    assert all(span.level == "sentence" for span in result.spans)  # none passed a word threshold


def _words(flags, stop, punct=None, sentence=None):
    n = len(flags)
    return pd.DataFrame({"response_id": "r", "sentence_index": sentence or [0] * n, "token_index": range(n),
                         "is_punct": punct or [0] * n, "is_stop": stop,
                         "label": flags}), np.array(flags, dtype=bool)


def test_span_rule_bridges_function_words_inside_a_sentence_only():
    from evidencechain.wordlevel import refine_word_mask
    #        X  of  the  Y  ,  Z  in  big  W   ('big' is a content word: not bridged)
    tokens, _ = _words([0] * 9, stop=[0, 1, 1, 0, 0, 0, 1, 0, 0], punct=[0, 0, 0, 0, 1, 0, 0, 0, 0])
    mask = np.array([1, 0, 0, 1, 0, 1, 0, 0, 1], dtype=bool)
    assert refine_word_mask(tokens, mask, 0, False).tolist() == mask.tolist()
    assert refine_word_mask(tokens, mask, 1, False).astype(int).tolist() == [1, 0, 0, 1, 0, 1, 0, 0, 1]
    assert refine_word_mask(tokens, mask, 2, False).astype(int).tolist() == [1, 1, 1, 1, 0, 1, 0, 0, 1]
    split = tokens.assign(sentence_index=[0, 0, 0, 0, 0, 1, 1, 1, 1])
    two = np.array([1, 0, 0, 0, 0, 0, 0, 0, 1], dtype=bool)
    assert refine_word_mask(split, two, 3, False).tolist() == two.tolist()   # never across sentences


def test_span_rule_drops_runs_of_stop_words_only_and_never_flags_punctuation():
    from evidencechain.wordlevel import mean_run_words, refine_word_mask
    tokens, _ = _words([0] * 6, stop=[1, 1, 0, 0, 1, 0], punct=[0, 0, 0, 1, 0, 0])
    mask = np.array([1, 1, 0, 1, 0, 1], dtype=bool)
    assert refine_word_mask(tokens, mask, 0, True).astype(int).tolist() == [0, 0, 0, 0, 0, 1]
    assert refine_word_mask(tokens, mask, 0, False).astype(int).tolist() == [1, 1, 0, 0, 0, 1]
    assert mean_run_words(tokens, np.array([1, 1, 0, 0, 0, 1], dtype=bool)) == 1.5
    assert np.isnan(mean_run_words(tokens, np.zeros(6, dtype=bool)))


def test_span_rule_is_chosen_on_calibration_words():
    from evidencechain.wordlevel import choose_span_rule
    # gold: the whole clause 'X of the Y'; the risk flags X and Y only
    tokens, _ = _words([1, 1, 1, 1, 0, 0], stop=[0, 1, 1, 0, 1, 0])
    risk = np.array([0.9, 0.1, 0.1, 0.9, 0.1, 0.1])
    assert choose_span_rule(tokens, risk, 0.5) == {"gap": 2, "drop_function_only": False}
    tokens["label"] = [1, 0, 0, 1, 0, 0]
    assert choose_span_rule(tokens, risk, 0.5) == {"gap": 0, "drop_function_only": False}


def test_balanced_accuracy_follows_the_decisions_given():
    from evidencechain.metrics import balanced_accuracy
    y, risk = np.array([1, 1, 0, 0]), np.array([0.9, 0.1, 0.1, 0.1])
    assert balanced_accuracy(y, risk, 0.5) == 0.75
    assert balanced_accuracy(y, risk, 0.5, np.array([1, 1, 0, 0])) == 1.0   # e.g. a bridged word


def _span_rule_by_loop(tokens, mask, gap, drop_function_only):
    """The span rule as the per-sentence loop it was before it was vectorised (the reference)."""
    from evidencechain.wordlevel import sentence_rows
    mask = mask.copy()
    punct = tokens["is_punct"].to_numpy() > 0
    function = (tokens["is_stop"].to_numpy() > 0) | punct
    for rows in sentence_rows(tokens):
        flagged = rows[mask[rows]]
        if not len(flagged):
            continue
        pos = {r: k for k, r in enumerate(rows)}
        if gap:
            for a, b in zip(flagged[:-1], flagged[1:]):
                between = rows[pos[a] + 1:pos[b]]
                words = between[~punct[between]]
                if len(words) <= gap and function[between].all():
                    mask[words] = True
        if drop_function_only:
            run = []
            for r in [*rows, None]:
                if r is not None and (mask[r] or (punct[r] and run)):
                    run.append(r)
                    continue
                words = [x for x in run if mask[x] and not punct[x]]
                if words and function[words].all():
                    mask[words] = False
                run = []
    mask[punct] = False
    return mask


def test_the_vectorised_span_rule_equals_the_per_sentence_loop():
    from evidencechain.wordlevel import refine_word_mask
    rng = np.random.default_rng(17)
    for _ in range(400):
        n = int(rng.integers(1, 40))
        sentence = np.sort(rng.integers(0, 4, n)).tolist()
        tokens, _ = _words([0] * n, stop=rng.integers(0, 2, n).tolist(),
                           punct=(rng.random(n) < 0.2).astype(int).tolist(), sentence=sentence)
        tokens = tokens.assign(response_id=np.where(np.arange(n) < n // 2, "r", "q"))
        tokens = tokens.sample(frac=1.0, random_state=int(rng.integers(1 << 30))).reset_index(drop=True)
        mask = rng.random(n) < 0.4
        for gap in (0, 1, 2, 3):
            for drop in (False, True):
                assert refine_word_mask(tokens, mask, gap, drop).tolist() == \
                    _span_rule_by_loop(tokens, mask, gap, drop).tolist(), (gap, drop)
