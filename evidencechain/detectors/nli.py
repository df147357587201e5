"""The learned checker alone as a detector (needs `[features] checker`, see `make checker`)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..wordlevel import sentence_risk_per_token
from .base import Method


class EvidenceChainNLI(Method):
    """Sentence risk = 1 - P(supported) of the sentence's best window. A word's risk is the
    token head's probability that it is unsupported, capped by its sentence's risk (a word
    of a supported sentence stays low); words without a token score take the sentence risk
    times `floor`."""

    name = "EvidenceChain_NLI"
    __ec_tags__ = {"needs_checker": True}

    def __init__(self, floor: float = 0.05):
        self.floor = floor

    def score_sentences(self, sentences: pd.DataFrame) -> np.ndarray:
        return 1.0 - sentences["nli_support"].to_numpy(dtype=float)

    def score_tokens(self, tokens: pd.DataFrame, sentences: pd.DataFrame, sentence_risk: np.ndarray) -> np.ndarray:
        per_token = sentence_risk_per_token(tokens, sentences, sentence_risk)
        if "nli_token" not in tokens:
            return per_token * self.floor
        own = tokens["nli_token"].to_numpy(dtype=float)
        punct = tokens["is_punct"].to_numpy() > 0
        return np.where(punct, 0.0, np.minimum(per_token, np.maximum(own, self.floor * per_token)))
