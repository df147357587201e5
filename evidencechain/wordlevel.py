"""Word-level risk: sentence risk spread over the tokens that carry unsupported content.

own evidence = 1.0 for a number or entity absent from the source, 0.8 for any other
content word absent from the source, 0 for supported words, stop words and punctuation.
token evidence = max(own, CONTEXT * mean own evidence of the previous and next token in
the same sentence): an unsupported clause is annotated as a whole, function words included,
so a word between two unsupported words inherits part of their evidence.
token risk = sentence risk * (FLOOR + (1 - FLOOR) * token evidence): a supported function
word in a risky sentence stays low, while FLOOR keeps the sentence ranking among tokens
with no evidence of their own. CONTEXT was chosen on a development corpus (seed 18), not
on the reported test split.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

FLOOR = 0.05
NOVEL_WEIGHT = 0.8
CONTEXT = 0.7


def token_evidence(tokens: pd.DataFrame) -> np.ndarray:
    own = NOVEL_WEIGHT * tokens["novelty"].to_numpy(dtype=float)
    mismatch = (tokens["number_absent"].to_numpy() > 0) | (tokens["entity_absent"].to_numpy() > 0)
    punct = tokens["is_punct"].to_numpy() > 0
    own = np.where(punct, 0.0, np.where(mismatch, 1.0, own))
    series = pd.Series(own, index=tokens.index)
    groups = series.groupby([tokens["response_id"], tokens["sentence_index"]], sort=False)
    context = pd.concat([groups.shift(1), groups.shift(-1)], axis=1).mean(axis=1).fillna(0.0)
    return np.where(punct, 0.0, np.maximum(own, CONTEXT * context.to_numpy()))


def sentence_risk_per_token(tokens: pd.DataFrame, sentences: pd.DataFrame,
                            sentence_risk: np.ndarray) -> np.ndarray:
    """The risk of each token's sentence (0 for tokens outside any sentence)."""
    key = pd.MultiIndex.from_frame(sentences[["response_id", "sentence_index"]])
    lookup = pd.Series(np.asarray(sentence_risk, dtype=float), index=key)
    tok_key = pd.MultiIndex.from_frame(tokens[["response_id", "sentence_index"]])
    return lookup.reindex(tok_key).fillna(0.0).to_numpy()


def token_risk(tokens: pd.DataFrame, sentences: pd.DataFrame, sentence_risk: np.ndarray) -> np.ndarray:
    per_token = sentence_risk_per_token(tokens, sentences, sentence_risk)
    return per_token * (FLOOR + (1.0 - FLOOR) * token_evidence(tokens))
