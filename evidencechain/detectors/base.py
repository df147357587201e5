"""The method contract shared by every detector, shaped like a scikit-learn estimator.

- Parameters are the arguments of `__init__`, stored under their own names and nothing else
  done there; `get_params` / `set_params` / `repr` read them by introspection (as
  `sklearn.base.BaseEstimator`), `clone` builds an unfitted copy from them.
- One `fit(tables)`: a `FeatureTables` (or, for methods that read sentences only, a sentence
  table). State learned by `fit` (or `calibrate`) lives in attributes ending in `_`, absent
  before; scoring an unfitted method that needs fitting raises `NotFittedError`.
- What a method needs is said by its tags (`tags()`, from the `__ec_tags__` of its classes):
  the model and the runner read them instead of asking each class.
"""
from __future__ import annotations

import inspect

import numpy as np
import pandas as pd

from ..errors import InputError
from ..features import FeatureTables
from ..wordlevel import token_risk

DEFAULT_TAGS = {
    "supervised": False,      # learns from labels: fitted on the train split, given the model's random_state
    "requires_fit": False,    # scoring before `fit` raises NotFittedError
    "needs_tokens": False,    # fitted on word labels (tables.tokens); skipped, with the reason, without them
    "needs_checker": False,   # reads the learned checker's columns; skipped, with the reason, without it
    "needs_claims": False,    # reads the claim-triplet columns (features.claims)
    "needs_tiers": False,     # fitted on gold NO-INFO sentence tiers; skipped, with the reason, without them
    "level": "sentence",      # 'response': scores whole answers only (score_responses(tables)); each
                              # sentence takes its answer's risk
    "feature_params": (),     # parameters the model fills from its FeatureConfig fields of that name
}


class FitDataError(InputError):
    """The training tables cannot fit a detector (one class only, no word labels, no tiers)."""


class NotFittedError(RuntimeError):
    """A method that learns from data was asked to score before `fit`."""


def as_tables(data: FeatureTables | pd.DataFrame) -> FeatureTables:
    """`data` as FeatureTables: a sentence table alone stands for tables without tokens."""
    if isinstance(data, FeatureTables):
        return data
    if isinstance(data, pd.DataFrame):
        return FeatureTables(data, pd.DataFrame())
    raise TypeError(f"expected FeatureTables or a sentence DataFrame, got {type(data).__name__}")


class Method:
    """Scores sentences and tokens (or whole answers) for hallucination risk in [0, 1].

    `fit(tables)` learns from the training tables (methods without fitted parameters learn
    nothing); `score_sentences` gives one risk per sentence row; `score_responses` answer
    risks when the method pools its own evidence; `score_tokens` maps sentence risk onto the
    tokens of a token table (see `evidencechain.wordlevel`).
    """

    name: str = "Method"
    __ec_tags__: dict = {}

    # -- parameters ------------------------------------------------------------------------
    @classmethod
    def param_names(cls) -> list[str]:
        """The parameters of `__init__`, in signature order."""
        if cls.__init__ is object.__init__:
            return []
        signature = inspect.signature(cls.__init__)
        for p in signature.parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise TypeError(f"{cls.__name__}.__init__ takes *{p.name}: a method's parameters are named")
        return [p for p in signature.parameters if p != "self"]

    @classmethod
    def default_params(cls) -> dict:
        """Each parameter's default value."""
        names = cls.param_names()
        signature = inspect.signature(cls.__init__).parameters if names else {}
        return {k: signature[k].default for k in names}

    def get_params(self, deep: bool = True) -> dict:
        """Parameter name -> value; with `deep`, also `param__sub` of parameters that have params."""
        out = {}
        for key in self.param_names():
            value = getattr(self, key)
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                out.update({f"{key}__{k}": v for k, v in value.get_params().items()})
            out[key] = value
        return out

    def set_params(self, **params) -> Method:
        """Set parameters (and `param__sub` of nested ones); an unknown name is a ValueError."""
        from ..errors import ConfigError

        valid = self.param_names()
        nested: dict[str, dict] = {}
        for key, value in params.items():
            head, _, sub = key.partition("__")
            if head not in valid:
                raise ConfigError(f"{type(self).__name__}: unknown parameter {head!r}; parameters: {valid}")
            if sub:
                nested.setdefault(head, {})[sub] = value
            else:
                setattr(self, head, value)
        for head, sub in nested.items():
            getattr(self, head).set_params(**sub)
        return self

    @classmethod
    def tags(cls) -> dict:
        """What the method needs and gives (`DEFAULT_TAGS`, overridden by its classes' `__ec_tags__`)."""
        out = dict(DEFAULT_TAGS)
        for klass in reversed(cls.__mro__):
            out.update(vars(klass).get("__ec_tags__", {}))
        return out

    def fitted_attributes(self) -> list[str]:
        """Names of the state learned by `fit` / `calibrate` (attributes ending in '_')."""
        return sorted(k for k in vars(self) if k.endswith("_") and not k.startswith("_"))

    def check_fitted(self, *attributes: str) -> None:
        """Raise `NotFittedError` unless every named fitted attribute is set."""
        if any(getattr(self, a, None) is None for a in attributes):
            raise NotFittedError(f"{self.name} is not fitted; call fit() first "
                                 f"(or load a fitted model)")

    # -- learning and scoring ----------------------------------------------------------------
    def fit(self, tables: FeatureTables | pd.DataFrame) -> Method:
        return self

    def calibrate(self, tables: FeatureTables | pd.DataFrame, labels: pd.Series) -> Method:
        """Choices made on calibration answers (labels indexed by response_id); none by default."""
        return self

    def score_sentences(self, sentences: pd.DataFrame) -> np.ndarray:
        raise NotImplementedError

    def score_responses(self, tables: FeatureTables | pd.DataFrame) -> pd.Series | None:
        """Response risk by response_id when the method pools its own evidence; None: the
        model pools sentence risks (max, mean, noisy-or)."""
        return None

    def pooling(self) -> str | None:
        """How `score_responses` pools, for reports; None when sentence risks are pooled."""
        return None

    def sentence_columns(self, sentences: pd.DataFrame) -> dict[str, np.ndarray]:
        """Extra per-sentence outputs shown in scored tables (e.g. a sentence's tier)."""
        return {}

    def score_tokens(self, tokens: pd.DataFrame, sentences: pd.DataFrame,
                     sentence_risk: np.ndarray) -> np.ndarray:
        return token_risk(tokens, sentences, sentence_risk)

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.get_params(deep=False).items())
        return f"{type(self).__name__}({shown})"


def clone(method: Method) -> Method:
    """An unfitted copy of `method` with the same parameters."""
    return type(method)(**method.get_params(deep=False))
