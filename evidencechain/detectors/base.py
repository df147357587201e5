"""The detector interface shared by every method."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import InputError
from ..wordlevel import token_risk


class FitDataError(InputError):
    """The training tables cannot fit a detector (one class only, no word labels, no tiers)."""


class Detector:
    """Scores sentences and tokens for hallucination risk in [0, 1].

    `fit` takes a sentence feature table (unsupervised detectors learn nothing);
    `score_sentences` returns one risk per row; `score_tokens` maps sentence risk onto
    the tokens of a token table (see `evidencechain.wordlevel`).
    """

    name: str = "Detector"
    supervised: bool = False
    needs_tokens: bool = False
    """True for detectors fitted on word labels: `fit(sentences, tokens)`."""
    needs_checker: bool = False
    """True for detectors that read the learned checker's columns (skipped, with the reason, without it)."""
    needs_claims: bool = False
    """True for detectors that read the claim-triplet columns (`features.claims`)."""
    needs_tiers: bool = False
    """True for detectors fitted on gold NO-INFO sentence tiers (skipped, with the reason, without them)."""

    def fit(self, sentences: pd.DataFrame) -> Detector:
        return self

    def score_sentences(self, sentences: pd.DataFrame) -> np.ndarray:
        raise NotImplementedError

    def calibrate(self, sentences: pd.DataFrame, labels: pd.Series) -> Detector:
        """Choices made on calibration answers (labels indexed by response_id); none by default."""
        return self

    def score_responses(self, sentences: pd.DataFrame) -> pd.Series | None:
        """Response risk by response_id when the detector pools its own evidence; None: the
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
        return f"{type(self).__name__}()"
