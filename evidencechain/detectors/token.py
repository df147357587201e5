"""EvidenceChain_Token: word-level detection learned at the word.

A gradient-boosted classifier over the token feature family (`features.tokens`): each word's
own evidence, its neighbours, its clause, and its sentence's features and risk. The sentence
risk comes from a logistic regression over the sentence evidence features (the same model as
EvidenceChain_LR without metadata), so the detector also gives sentence and response risks.
It needs word labels to fit: the runner skips it, with the reason, for fit corpora that have
response-level labels only.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingClassifier
from threadpoolctl import threadpool_limits

from ..features.tokens import token_features
from .base import FitDataError, as_tables
from .supervised import EvidenceChainLR

SENTENCE_GROUPS = ("lexical", "retrieval", "mismatch")


class EvidenceChainToken(EvidenceChainLR):
    name = "EvidenceChain_Token"
    __ec_tags__ = {"needs_tokens": True}

    def __init__(self, groups: tuple[str, ...] = SENTENCE_GROUPS, random_state: int = 17,
                 max_iter: int = 200, learning_rate: float = 0.1, max_leaf_nodes: int = 31,
                 min_samples_leaf: int = 20, normalize: str = "none"):
        super().__init__(groups, random_state, normalize)
        self.max_iter, self.learning_rate = max_iter, learning_rate
        self.max_leaf_nodes, self.min_samples_leaf = max_leaf_nodes, min_samples_leaf

    def fit(self, tables) -> EvidenceChainToken:
        tables = as_tables(tables)
        sentences, tokens = tables.sentences, tables.tokens
        super().fit(sentences)
        if not len(tokens) or "label" not in tokens or (tokens["label"] < 0).any():
            raise FitDataError(f"{self.name} needs word labels to fit; the training tables have none")
        words = tokens["is_punct"].to_numpy() == 0
        x = token_features(tokens, sentences, self.score_sentences(sentences))[words]
        y = tokens["label"].to_numpy()[words]
        if len(np.unique(y)) < 2:
            raise FitDataError(f"{self.name}: training words have a single class; cannot fit")
        model = HistGradientBoostingClassifier(
            max_iter=self.max_iter, learning_rate=self.learning_rate, max_leaf_nodes=self.max_leaf_nodes,
            min_samples_leaf=self.min_samples_leaf, class_weight="balanced", early_stopping=False,
            random_state=self.random_state)
        with threadpool_limits(1):  # OpenMP threads spin when the cores are shared; one is fast here
            model.fit(x.to_numpy(), y)
        self.token_model_, self.token_columns_ = model, list(x.columns)
        return self

    def score_tokens(self, tokens: pd.DataFrame, sentences: pd.DataFrame,
                     sentence_risk: np.ndarray) -> np.ndarray:
        self.check_fitted("token_model_")
        if not len(tokens):
            return np.zeros(0)
        x = token_features(tokens, sentences, sentence_risk)[self.token_columns_]
        with threadpool_limits(1):
            risk = self.token_model_.predict_proba(x.to_numpy())[:, 1]
        return np.where(tokens["is_punct"].to_numpy() > 0, 0.0, risk)
