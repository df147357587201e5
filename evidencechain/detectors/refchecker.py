"""RefChecker-style detection: claim triplets checked one by one (Entailment / Neutral /
Contradiction), then pooled by one of the paper's rules.

Sentence risk = the rule over the sentence's own triplets; response risk = the rule over every
triplet of the answer (`score_responses`), not a pooling of sentence risks. With `rule="auto"`
the rule is the one with the best response ROC-AUC on calibration (`calibrate`). Word level:
a word inside an element of a Neutral or Contradiction triplet takes its sentence's risk, any
other word `floor` times it (stated in the README: word spans come from triplet elements).

`RefChecker_NLI` is the same system with the learned checker as the triplet checker (the
`*_checker` columns of `features.claims`); it is scored only when the checker is present.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..features.claims import CHECKER_COUNT_COLUMNS
from ..features.triplets import COUNT_COLUMNS, RULES, aggregate
from ..metrics import binary_metrics
from ..wordlevel import sentence_risk_per_token
from .base import Method, as_tables


def _rule_scores(counts: pd.DataFrame, rule: str, columns=COUNT_COLUMNS) -> np.ndarray:
    """The rule (`features.triplets.aggregate`) on each row of verdict counts."""
    rows = counts[list(columns)].set_axis(list(COUNT_COLUMNS), axis=1).to_dict("records")
    return np.array([aggregate(r, rule) for r in rows], dtype=float)


class RefChecker(Method):
    name = "RefChecker"
    __ec_tags__ = {"needs_claims": True}
    rules = RULES
    count_columns = COUNT_COLUMNS
    token_column = "triplet_verdict"

    def __init__(self, rule: str = "auto", floor: float = 0.05):
        if rule not in (*RULES, "auto"):
            raise ValueError(f"rule must be one of {(*RULES, 'auto')}, got {rule!r}")
        self.rule, self.floor = rule, floor

    @property
    def chosen(self) -> str:
        """The pooling rule in use: the one chosen on calibration (`chosen_`) for 'auto'."""
        if self.rule != "auto":
            return self.rule
        return getattr(self, "chosen_", "strict")

    def calibrate(self, tables, labels: pd.Series) -> RefChecker:
        """Pick the pooling rule with the best response ROC-AUC on calibration answers."""
        if self.rule != "auto":
            return self
        sentences = as_tables(tables).sentences
        best, best_auc = RULES[0], -1.0
        for rule in RULES:
            risk = self._responses(sentences, rule).reindex(labels.index).fillna(0.0)
            auc = binary_metrics(labels.to_numpy(), risk.to_numpy(), 0.5)["roc_auc"]
            if not np.isnan(auc) and auc > best_auc + 1e-12:
                best, best_auc = rule, auc
        self.chosen_ = best
        return self

    def score_sentences(self, sentences: pd.DataFrame) -> np.ndarray:
        return _rule_scores(sentences, self.chosen, self.count_columns)

    def _responses(self, sentences: pd.DataFrame, rule: str) -> pd.Series:
        totals = sentences.groupby("response_id", sort=False)[list(self.count_columns)].sum()
        return pd.Series(_rule_scores(totals, rule, self.count_columns), index=totals.index)

    def score_responses(self, tables) -> pd.Series:
        """Response risk: the rule over all triplets of each answer (indexed by response_id)."""
        return self._responses(as_tables(tables).sentences, self.chosen)

    def score_tokens(self, tokens: pd.DataFrame, sentences: pd.DataFrame, sentence_risk: np.ndarray) -> np.ndarray:
        per_token = sentence_risk_per_token(tokens, sentences, sentence_risk)
        inside = tokens[self.token_column].to_numpy() > 0 if self.token_column in tokens else \
            np.zeros(len(tokens), dtype=bool)
        punct = tokens["is_punct"].to_numpy() > 0
        return np.where(punct, 0.0, np.where(inside, per_token, self.floor * per_token))

    def pooling(self) -> str:
        return f"{self.name} {self.chosen} rule over the answer's triplets"


class RefCheckerNLI(RefChecker):
    name = "RefChecker_NLI"
    __ec_tags__ = {"needs_checker": True}
    count_columns = CHECKER_COUNT_COLUMNS
    token_column = "triplet_verdict_checker"
