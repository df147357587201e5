"""EvidenceChain detectors: supervised classifiers over the evidence-chain features."""
from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

from ..errors import ConfigError
from ..features.table import feature_columns
from ..text.parallel import workers
from .base import FitDataError, Method, as_tables

DEFAULT_GROUPS = ("lexical", "retrieval", "mismatch", "metadata")
NORMALIZE = ("none", "collection", "source")
"""`normalize` values: features as computed, or each numeric feature standardised within its
source collection (a benchmark domain or subset) or within its source document (every answer
written from one evidence text) among the rows fitted or scored together."""
COLLECTION = "source_collection"
NORMALIZE_KEY = {"collection": COLLECTION, "source": "source_id"}


def collection_standardised(sentences: pd.DataFrame, columns: list[str], key: str = COLLECTION) -> pd.DataFrame:
    """`columns` of `sentences` as z-scores within each group of rows sharing `key` (a source
    collection by default; no labels read): mean 0 and, where a group's column varies, standard
    deviation 1. A table without the `key` column is one group."""
    values = sentences[columns].astype(float)
    keys = sentences[key] if key in sentences.columns else pd.Series(0, index=sentences.index)
    groups = values.groupby(keys.to_numpy(), sort=False)
    spread = groups.transform("std").fillna(0.0)
    return (values - groups.transform("mean")) / spread.where(spread > 0, 1.0)


class _Supervised(Method):
    __ec_tags__ = {"supervised": True, "requires_fit": True}
    normalize = "none"
    """Class default: model files written before the parameter existed load as "none"."""
    param_choices = {"normalize": NORMALIZE}
    """Parameters with a fixed set of values (checked when a config is read)."""

    def __init__(self, groups: tuple[str, ...] = DEFAULT_GROUPS, random_state: int = 17, normalize: str = "none"):
        if normalize not in NORMALIZE:
            raise ConfigError(f"{self.name} normalize: expected one of {list(NORMALIZE)}, got {normalize!r}")
        self.groups = tuple(groups)
        self.random_state = random_state
        self.normalize = normalize

    @property
    def numeric(self) -> list[str]:
        """Numeric feature columns of `groups` (read by `shift.feature_shift`)."""
        return feature_columns(self.groups)[0]

    @property
    def categorical(self) -> list[str]:
        return feature_columns(self.groups)[1]

    @property
    def features(self) -> list[str]:
        """The feature columns of `groups` (those of the fit, `features_`, once fitted)."""
        fitted = getattr(self, "features_", None)
        return list(fitted) if fitted is not None else sum(feature_columns(self.groups), [])

    def _classifier(self):
        raise NotImplementedError

    def _encoder(self, numeric: list[str], categorical: list[str]) -> ColumnTransformer:
        raise NotImplementedError

    def _check_columns(self, sentences: pd.DataFrame) -> None:
        missing = [c for c in self.features if c not in sentences.columns]
        if missing:
            raise ValueError(f"{self.name}: the sentence table lacks feature column(s) {missing}; "
                             f"it was fitted on {self.features}")

    def _inputs(self, sentences: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
        """The feature columns the pipeline reads (numeric ones standardised per collection or per
        source document when asked)."""
        frame = sentences[columns]
        if self.normalize in NORMALIZE_KEY:
            numeric = [c for c in columns if c in set(feature_columns(self.groups)[0])]
            frame = frame.copy()
            frame[numeric] = collection_standardised(sentences, numeric, NORMALIZE_KEY[self.normalize])
        return frame

    def fit(self, tables) -> _Supervised:
        sentences = as_tables(tables).sentences
        numeric, categorical = feature_columns(self.groups)
        columns = numeric + categorical
        missing = [c for c in columns if c not in sentences.columns]
        if missing:
            raise ValueError(f"{self.name}: the sentence table lacks feature column(s) {missing}; "
                             f"groups {self.groups} need {columns}")
        y = sentences["label"].to_numpy()
        if len(np.unique(y)) < 2:
            raise FitDataError(f"{self.name}: training data has a single class; cannot fit")
        pipeline = Pipeline([("encode", self._encoder(numeric, categorical)), ("classify", self._classifier())])
        pipeline.fit(self._inputs(sentences, columns), y)
        self.pipeline_, self.features_ = pipeline, columns
        return self

    def score_sentences(self, sentences: pd.DataFrame) -> np.ndarray:
        self.check_fitted("pipeline_")
        self._check_columns(sentences)
        return self.pipeline_.predict_proba(self._inputs(sentences, self.features))[:, 1]


class EvidenceChainLR(_Supervised):
    """Logistic regression, balanced classes, standardised numeric and one-hot categorical features."""

    name = "EvidenceChain_LR"

    def _encoder(self, numeric: list[str], categorical: list[str]) -> ColumnTransformer:
        return ColumnTransformer([
            ("numeric", StandardScaler(), numeric),
            ("categorical", OneHotEncoder(handle_unknown="ignore"), categorical),
        ])

    def _classifier(self):
        return LogisticRegression(class_weight="balanced", max_iter=2000, C=1.0)


class EvidenceChainRF(_Supervised):
    """Random forest with balanced subsampling and bounded depth."""

    name = "EvidenceChain_RF"

    def __init__(self, groups: tuple[str, ...] = DEFAULT_GROUPS, random_state: int = 17,
                 n_estimators: int = 300, max_depth: int = 8, min_samples_leaf: int = 2,
                 n_jobs: int | None = None, normalize: str = "none"):
        super().__init__(groups, random_state, normalize)
        self.n_estimators, self.max_depth = n_estimators, max_depth
        self.min_samples_leaf, self.n_jobs = min_samples_leaf, n_jobs

    def _encoder(self, numeric: list[str], categorical: list[str]) -> ColumnTransformer:
        return ColumnTransformer([
            ("numeric", "passthrough", numeric),
            ("categorical", OneHotEncoder(handle_unknown="ignore"), categorical),
        ])

    def _classifier(self):
        return RandomForestClassifier(
            n_estimators=self.n_estimators, max_depth=self.max_depth,
            min_samples_leaf=self.min_samples_leaf, class_weight="balanced_subsample",
            random_state=self.random_state, n_jobs=self.n_jobs or workers())

    def fit(self, tables) -> EvidenceChainRF:
        """Trees are grown on every core (the same trees as on one); probabilities are then summed
        on one thread, in tree order, so scores do not depend on the machine."""
        super().fit(tables)
        self.pipeline_.named_steps["classify"].set_params(n_jobs=1)
        return self
