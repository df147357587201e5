"""The feature-family protocol: what every group of feature columns declares and does.

A family adds columns to the sentence table (and the token table) of a corpus. It declares
its `name` (run.json `feature_families`), the `columns` and `token_columns` it adds in that
order, the detector feature `groups` it provides (numeric and categorical columns a supervised
detector can be configured with), and what it `needs` to run (a parse, a dependency parser,
trained checker weights, the `neural` extra, ...). `fit` learns from the training corpus
(most families learn nothing), `add` writes the columns, `state` says whether the family runs
under an extractor ('runs') or why not. The registry (`features.families`) orders them:
families run, and their columns appear, in registry order.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import pandas as pd

from ..records import Corpus
from ..text.parse import ParseCache, ParsedText

RUNS = "runs"


@dataclass
class FamilyContext:
    """What a family reads while the tables are built: the corpus, its parses and evidence
    indices, the extractor (its config and fitted state) and a scratch space shared by
    families that build on each other (the answer views of the sentence family, the full
    triplet table of the claims family)."""

    corpus: Corpus | None
    parsed: list[ParsedText]
    indices: dict
    """Source id -> its `features.evidence.EvidenceIndex`."""
    extractor: object
    cache: ParseCache | None = None
    progress: bool = False
    with_tokens: bool = True
    scratch: dict = field(default_factory=dict)
    claims_for: frozenset[str] | None = None
    """Response ids whose claim triplets some consumer reads (None: every answer's); the claim
    families leave the other answers' columns at their empty values (no triplet)."""

    @property
    def config(self):
        return self.extractor.config

    @property
    def parsed_by_id(self) -> dict[str, ParsedText]:
        return {r.id: d for r, d in zip(self.corpus.responses, self.parsed)}


@dataclass
class WorkTables:
    """The tables while families fill them: `tokens` is None when no token table is built."""

    sentences: pd.DataFrame
    tokens: pd.DataFrame | None
    claims: pd.DataFrame | None = None


class FeatureFamily:
    """One family of feature columns (subclass and register in `features.families`)."""

    name: str = ""
    columns: tuple[str, ...] = ()
    """Sentence-table columns added, in order."""
    token_columns: tuple[str, ...] = ()
    """Token-table columns added, in order (only when a token table is built)."""
    groups: dict[str, tuple[str, ...]] = {}
    """Detector feature groups this family provides: group -> its numeric columns."""
    categorical: dict[str, tuple[str, ...]] = {}
    """Detector feature groups this family provides: group -> its categorical columns."""
    needs: tuple[str, ...] = ()
    """What the family requires to run, in words (for reports and the README)."""
    core: bool = False
    """Core families run for every table (their columns are part of every sentence table)."""
    learned: bool = False
    """True when `fit` learns from the training corpus (its columns depend on the fit)."""

    def state(self, extractor) -> str:
        """'runs' when `add` runs under this extractor, else why not."""
        return RUNS if self.core or self.switched_on(extractor.config) else \
            "not needed: no configured detector reads it"

    def switched_on(self, config) -> bool:
        """Whether the feature config asks for this family (`[features] families`; built-in
        families have their own switches)."""
        return self.name in getattr(config, "families", ())

    def switch_on(self, config):
        """The feature config with this family asked for (a configured detector needs it)."""
        if self.core or self.switched_on(config):
            return config
        return replace(config, families=(*config.families, self.name))

    def fit(self, extractor, context: FamilyContext) -> None:
        """Learn from the training corpus (or load a model); nothing by default."""

    def restore(self, extractor) -> None:
        """Reload what a saved extractor does not hold (neural models); nothing by default."""

    def add(self, tables: WorkTables, context: FamilyContext) -> None:
        raise NotImplementedError(f"feature family {self.name!r} defines no add()")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


def switched(config, **flags):
    """`config` with the given flags set (the same object when they already are)."""
    if all(getattr(config, k) == v for k, v in flags.items()):
        return config
    return replace(config, **flags)
