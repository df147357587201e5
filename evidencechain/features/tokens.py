"""Token feature family: a word's own evidence, its context, its clause and its sentence.

One row per token of a token table (`features.table`), numeric only:
- own: novel in the source, number / entity absent, stop word, punctuation, own evidence;
- window: the mean novelty and mismatch of the 1, 2 and 3 tokens on each side (same sentence);
- clause (tokens between punctuation marks inside a sentence): share of novel content words,
  length, and the length of the run of novel-or-function words the token sits in;
- position: relative position in the sentence, sentence length;
- sentence: the sentence's evidence features and the sentence risk given by the caller.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..wordlevel import sentence_risk_per_token, token_evidence

SENTENCE_COLUMNS = ("coverage", "best_chunk_overlap", "novel_count", "bm25_max", "tfidf_max",
                    "numeric_mismatch", "entity_mismatch", "n_tokens")
CHECKER_SENTENCE_COLUMNS = ("nli_support", "nli_conflict", "nli_baseless")
"""With the learned checker present: its token score (and that of the neighbours) and its
sentence verdict join the features."""
WINDOWS = (1, 2, 3)


def _segments(keys: np.ndarray) -> np.ndarray:
    """A running id that changes whenever `keys` changes from one row to the next."""
    change = np.r_[True, keys[1:] != keys[:-1]] if len(keys) else np.zeros(0, bool)
    return np.cumsum(change)


def _window_mean(groups, k: int) -> np.ndarray:
    shifted = [groups.shift(d) for d in range(-k, k + 1) if d != 0]
    return pd.concat(shifted, axis=1).mean(axis=1).fillna(0.0).to_numpy()


def token_features(tokens: pd.DataFrame, sentences: pd.DataFrame, sentence_risk: np.ndarray) -> pd.DataFrame:
    """The feature matrix of `tokens` (same row order)."""
    novel = tokens["novelty"].to_numpy(dtype=float)
    mismatch = ((tokens["number_absent"].to_numpy() > 0) | (tokens["entity_absent"].to_numpy() > 0)).astype(float)
    punct = tokens["is_punct"].to_numpy() > 0
    stop = tokens["is_stop"].to_numpy() > 0
    sentence = _segments(tokens["response_id"].astype(str).to_numpy() + "\x00"
                         + tokens["sentence_index"].astype(str).to_numpy())
    out = {"novelty": novel, "mismatch": mismatch, "number_absent": tokens["number_absent"].to_numpy(float),
           "entity_absent": tokens["entity_absent"].to_numpy(float), "is_stop": stop.astype(float),
           "is_punct": punct.astype(float), "own_evidence": token_evidence(tokens)}
    for name, values in (("novelty", novel), ("mismatch", mismatch)):
        groups = pd.Series(values, index=tokens.index).groupby(sentence, sort=False)
        for k in WINDOWS:
            out[f"{name}_window{k}"] = _window_mean(groups, k)
    clause = _segments(sentence * 2 + np.cumsum(punct))  # a new clause after every punctuation mark
    content = (~punct & ~stop).astype(float)
    frame = pd.DataFrame({"clause": clause, "novel": novel * content, "content": content})
    by_clause = frame.groupby("clause", sort=False)
    out["clause_novel_share"] = (by_clause["novel"].transform("sum")
                                 / by_clause["content"].transform("sum").replace(0, np.nan)).fillna(0).to_numpy()
    out["clause_length"] = by_clause["clause"].transform("size").to_numpy(float)
    run = _segments(np.where(~punct & ((novel > 0) | stop), clause, -1 - np.arange(len(clause))))
    frame["run"] = run
    out["novel_run"] = frame.groupby("run", sort=False)["novel"].transform("sum").to_numpy()
    position = pd.Series(np.ones(len(tokens)), index=tokens.index).groupby(sentence, sort=False)
    length = position.transform("size").to_numpy(float)
    out["position"] = (position.cumcount().to_numpy() / np.maximum(length - 1, 1))
    out["sentence_length"] = length
    key = pd.MultiIndex.from_frame(sentences[["response_id", "sentence_index"]])
    tok_key = pd.MultiIndex.from_frame(tokens[["response_id", "sentence_index"]])
    for col in SENTENCE_COLUMNS:
        out[f"sentence_{col}"] = pd.Series(sentences[col].to_numpy(float), index=key).reindex(tok_key) \
            .fillna(0.0).to_numpy()
    out["sentence_risk"] = sentence_risk_per_token(tokens, sentences, sentence_risk)
    if "semantic_conflict" in tokens and "semantic_conflict" in sentences:
        out["semantic_conflict"] = tokens["semantic_conflict"].to_numpy(float)
        out["sentence_semantic_conflict"] = pd.Series(sentences["semantic_conflict"].to_numpy(float), index=key) \
            .reindex(tok_key).fillna(0.0).to_numpy()
    if "nli_token" in tokens and "nli_support" in sentences:
        out["nli_token"] = tokens["nli_token"].to_numpy(float)
        groups = pd.Series(out["nli_token"], index=tokens.index).groupby(sentence, sort=False)
        out["nli_token_window1"] = _window_mean(groups, 1)
        for col in CHECKER_SENTENCE_COLUMNS:
            out[f"sentence_{col}"] = pd.Series(sentences[col].to_numpy(float), index=key).reindex(tok_key) \
                .fillna(0.0).to_numpy()
    return pd.DataFrame(out, index=tokens.index)
