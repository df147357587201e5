"""RAGHalu-style two tiers: tier 1 marks each answer sentence VERIFIABLE or NO-INFO (greetings,
offers of help, questions back, refusals and hedges with no factual content); tier 2 scores
only VERIFIABLE sentences for support. A NO-INFO sentence is never flagged (risk 0).

Tier 1 is `features.tiers.TierClassifier`, fitted on training sentences with a gold tier
(`no_info_gold`, from the audit corpus's `sentence_meta`); tier 2 is the logistic regression of
EvidenceChain_LR fitted on the VERIFIABLE training sentences only. The runner skips this
detector, with the reason, when the fit corpus has no NO-INFO labels.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .base import FitDataError, as_tables
from .supervised import EvidenceChainLR
from .token import SENTENCE_GROUPS

NO_INFO_COLUMN = "no_info_gold"


_LAST_TIERS: dict[int, tuple] = {}
"""The tier model of the last detector scored and its last few tables' answers."""
_KEEP_TABLES = 3


class RAGHalu(EvidenceChainLR):
    name = "RAGHalu"
    __ec_tags__ = {"needs_tiers": True}

    def __init__(self, groups: tuple[str, ...] = SENTENCE_GROUPS, random_state: int = 17,
                 tier_threshold: float = 0.5, tier_C: float = 1.0, normalize: str = "none"):
        super().__init__(groups, random_state, normalize)
        self.tier_threshold, self.tier_C = tier_threshold, tier_C

    def fit(self, tables) -> RAGHalu:
        from ..features.tiers import TierClassifier

        sentences = as_tables(tables).sentences
        gold = sentences[NO_INFO_COLUMN].to_numpy() if NO_INFO_COLUMN in sentences else np.full(len(sentences), -1)
        if not (gold == 1).any() or not (gold == 0).any():
            raise FitDataError(f"{self.name} needs sentences labelled NO-INFO and VERIFIABLE to fit tier 1")
        known = gold >= 0
        texts = sentences["text"].astype(str).to_numpy()
        tier_model = TierClassifier(random_state=self.random_state, C=self.tier_C).fit(
            list(texts[known]), ["no_info" if g else "verifiable" for g in gold[known]])
        super().fit(sentences[gold != 1].reset_index(drop=True))
        self.tier_model_ = tier_model
        return self

    def no_info_probability(self, sentences: pd.DataFrame) -> np.ndarray:
        """P(NO-INFO) per sentence; the last few tables' answers are kept, as scoring asks twice
        (`score_sentences`, then `sentence_columns`) and a run scores its calibration table twice."""
        self.check_fitted("tier_model_")
        if not len(sentences):
            return np.zeros(0)
        texts = tuple(sentences["text"].astype(str))
        kept = _LAST_TIERS.get(id(self))
        if kept is None or kept[0] is not self.tier_model_:
            _LAST_TIERS.clear()
            kept = _LAST_TIERS[id(self)] = (self.tier_model_, [])
        for seen, probability in kept[1]:
            if seen == texts:
                return probability
        probability = self.tier_model_.predict_proba(list(texts))[:, 1]
        kept[1][:] = [*kept[1][-(_KEEP_TABLES - 1):], (texts, probability)]
        return probability

    def score_sentences(self, sentences: pd.DataFrame) -> np.ndarray:
        risk = super().score_sentences(sentences)
        return np.where(self.no_info_probability(sentences) >= self.tier_threshold, 0.0, risk)

    def sentence_columns(self, sentences: pd.DataFrame) -> dict[str, np.ndarray]:
        """The tier of every sentence, shown in scored tables and `detect` output."""
        no_info = self.no_info_probability(sentences) >= self.tier_threshold
        return {"tier": np.where(no_info, "NO-INFO", "VERIFIABLE")}
