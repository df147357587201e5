"""EvidenceChain detectors: supervised classifiers over the evidence-chain features."""
from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

from ..features.table import feature_columns
from ..text.parallel import workers
from .base import Detector, FitDataError

DEFAULT_GROUPS = ("lexical", "retrieval", "mismatch", "metadata")


class _Supervised(Detector):
    supervised = True
    default_groups = DEFAULT_GROUPS

    def __init__(self, groups: tuple[str, ...] = DEFAULT_GROUPS, random_state: int = 17):
        self.groups = tuple(groups)
        self.random_state = random_state
        self.numeric, self.categorical = feature_columns(self.groups)
        self.pipeline: Pipeline | None = None

    @property
    def features(self) -> list[str]:
        return self.numeric + self.categorical

    def _classifier(self):
        raise NotImplementedError

    def _encoder(self) -> ColumnTransformer:
        raise NotImplementedError

    def _check_columns(self, sentences: pd.DataFrame) -> None:
        missing = [c for c in self.features if c not in sentences.columns]
        if missing:
            raise ValueError(f"{self.name}: the sentence table lacks feature column(s) {missing}; "
                             f"it was fitted on {self.features}")

    def fit(self, sentences: pd.DataFrame) -> _Supervised:
        self._check_columns(sentences)
        y = sentences["label"].to_numpy()
        if len(np.unique(y)) < 2:
            raise FitDataError(f"{self.name}: training data has a single class; cannot fit")
        self.pipeline = Pipeline([("encode", self._encoder()), ("classify", self._classifier())])
        self.pipeline.fit(sentences[self.features], y)
        return self

    def score_sentences(self, sentences: pd.DataFrame) -> np.ndarray:
        if self.pipeline is None:
            raise RuntimeError(f"{self.name} is not fitted")
        self._check_columns(sentences)
        return self.pipeline.predict_proba(sentences[self.features])[:, 1]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(groups={self.groups}, random_state={self.random_state})"


class EvidenceChainLR(_Supervised):
    """Logistic regression, balanced classes, standardised numeric and one-hot categorical features."""

    name = "EvidenceChain_LR"

    def _encoder(self) -> ColumnTransformer:
        return ColumnTransformer([
            ("numeric", StandardScaler(), self.numeric),
            ("categorical", OneHotEncoder(handle_unknown="ignore"), self.categorical),
        ])

    def _classifier(self):
        return LogisticRegression(class_weight="balanced", max_iter=2000, C=1.0)


class EvidenceChainRF(_Supervised):
    """Random forest with balanced subsampling and bounded depth."""

    name = "EvidenceChain_RF"

    def __init__(self, groups: tuple[str, ...] = DEFAULT_GROUPS, random_state: int = 17,
                 n_estimators: int = 300, max_depth: int = 8, min_samples_leaf: int = 2,
                 n_jobs: int | None = None):
        super().__init__(groups, random_state)
        self.n_estimators, self.max_depth = n_estimators, max_depth
        self.min_samples_leaf, self.n_jobs = min_samples_leaf, n_jobs

    def _encoder(self) -> ColumnTransformer:
        return ColumnTransformer([
            ("numeric", "passthrough", self.numeric),
            ("categorical", OneHotEncoder(handle_unknown="ignore"), self.categorical),
        ])

    def _classifier(self):
        return RandomForestClassifier(
            n_estimators=self.n_estimators, max_depth=self.max_depth,
            min_samples_leaf=self.min_samples_leaf, class_weight="balanced_subsample",
            random_state=self.random_state, n_jobs=self.n_jobs or workers())

    def fit(self, sentences: pd.DataFrame) -> EvidenceChainRF:
        """Trees are grown on every core (the same trees as on one); probabilities are then summed
        on one thread, in tree order, so scores do not depend on the machine."""
        super().fit(sentences)
        self.pipeline.named_steps["classify"].set_params(n_jobs=1)
        return self
