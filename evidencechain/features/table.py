"""Sentence and token feature tables for a corpus, each sentence against its own source.

`FeatureExtractor` runs the registered feature families (`features.families`) in order: each
adds its columns to the tables, fits on the training corpus where it learns something, and
says in `family_plan` whether it runs or why not.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import pandas as pd

from ..records import Corpus
from ..text.chunks import build_evidence
from ..text.parse import ParseCache, ParsedText, parse_texts
from .evidence import EvidenceIndex, build_indices
from .families import FAMILIES, feature_columns, feature_groups, group_columns
from .family import RUNS, FamilyContext, WorkTables
from .metadata import metadata_columns

NUMERIC_FEATURES, CATEGORICAL_FEATURES = group_columns()
"""Columns of each feature group of the built-in families (`feature_columns` reads the live registry)."""
FEATURE_GROUPS = feature_groups()
"""The feature groups of the built-in families (`families.feature_groups()` reads the live registry)."""
STATUS_SCORED = "scored"
STATUS_EMPTY = "empty: nothing to check"
"""Status of an answer without sentences: kept with risk 0 and prediction 0 (it asserts nothing)."""
SENTENCE_COLUMNS = tuple(c for f in FAMILIES.values() if f.core and not f.learned for c in f.columns)
"""Columns of the sentence table before TF-IDF, response and neural features are added."""
RESPONSE_COLUMNS = ("response_id", "source_id", "task_type", "model", "temperature",
                    "source_collection", "label", "sentences", "status")

__all__ = ["CATEGORICAL_FEATURES", "FEATURE_GROUPS", "NUMERIC_FEATURES", "SENTENCE_COLUMNS", "FeatureConfig",
           "FeatureExtractor", "FeatureTables", "feature_columns", "response_table"]


@dataclass
class FeatureTables:
    sentences: pd.DataFrame
    tokens: pd.DataFrame
    indices: dict[str, EvidenceIndex] = field(repr=False, default_factory=dict)
    parsed: dict[str, ParsedText] = field(repr=False, default_factory=dict)
    responses: pd.DataFrame | None = None
    """One row per answer of the corpus (RESPONSE_COLUMNS), sentences or not; None when
    the tables were assembled without a corpus (then derived from the sentence rows)."""
    claims: pd.DataFrame | None = None
    """One row per claim triplet (`features.claims.TRIPLET_COLUMNS`) when claims are extracted."""


@dataclass
class FeatureConfig:
    pipeline: str = "auto"
    bm25_k1: float = 1.5
    bm25_b: float = 0.75
    bm25_delta: float = 1.0
    tfidf_ngram_max: int = 2
    embedding_model: str | None = None
    """Local path or installed package of a sentence-transformers model; None skips it."""
    response_features: bool = False
    """Add the response-level columns of `features.response` (group 'response')."""
    checker: str | None = None
    """Model directory of a trained checker (`make checker`: results/checker); None skips it. A
    configured but missing or unloadable checker is skipped too, and run.json says why."""
    checker_windows: int = 2
    checker_quantize: str = "none"
    """none | int8 (dynamic quantization of the checker's linear layers, CPU) | onnx (fp32 on ONNX
    Runtime, CPU; exported once and cached, needs onnxruntime)."""
    claims: bool = False
    """Extract claim triplets and check them against the source (`features.claims`); switched on
    automatically when a configured detector needs them (RefChecker)."""
    claims_checker: bool = False
    """Check the triplets with the learned checker too (needs `checker`); switched on
    automatically when a configured detector needs it (RefChecker_NLI)."""
    semantic: bool = False
    """Add the semantic error classes (`features.semantic`: polarity, antonyms, swapped roles,
    quantities, recombined values, modality; group 'semantic'); switched on automatically when
    a configured detector's groups include 'semantic'."""
    families: tuple[str, ...] = ()
    """Further registered feature families to run (`features.families.register`), by name;
    a family that a configured detector's groups read is added automatically."""

    def __post_init__(self):
        self.families = (self.families,) if isinstance(self.families, str) else tuple(self.families)


class FeatureExtractor:
    """Computes the feature tables; `fit` learns the TF-IDF vocabulary from training text only."""

    checker = None
    checker_status = "absent: not configured"

    def __init__(self, config: FeatureConfig | None = None, cache: ParseCache | None = None):
        self.config = config or FeatureConfig()
        self.cache = cache
        self.vectorizer = None
        self.embedder = None
        self.checker = None
        self.checker_status = "absent: not configured"
        self.family_seconds: dict[str, float] = {}
        """Seconds spent in each feature family by `transform` (run.json `feature_families`)."""

    def family_plan(self) -> dict[str, str]:
        """Every registered feature family and whether `transform` runs it ('runs') or why not."""
        return {name: family.state(self) for name, family in FAMILIES.items()}

    def __getstate__(self):
        state = self.__dict__.copy()
        state["cache"] = None
        state.pop("index_memo", None)
        return state

    def _bm25_params(self) -> dict:
        c = self.config
        return {"k1": c.bm25_k1, "b": c.bm25_b, "delta": c.bm25_delta}

    def _indices(self, corpus: Corpus, progress: bool) -> dict[str, EvidenceIndex]:
        memo = self.__dict__.setdefault("index_memo", {})  # sources indexed by fit, preparse, transform
        return build_indices(list(corpus.sources.values()), pipeline=self.config.pipeline,
                             cache=self.cache, bm25_params=self._bm25_params(), progress=progress, memo=memo)

    def _parse_together(self, corpus: Corpus, progress: bool) -> None:
        """Parse the evidence of sources not indexed yet, their queries and the answers in one
        batch (one pass over the cores, not three): `_indices` and the answers' parse then find
        them in the cache."""
        memo = self.__dict__.get("index_memo", {})
        todo = [e for e in dict.fromkeys(build_evidence(s) for s in corpus.sources.values()) if e not in memo]
        parse_texts([e.text for e in todo] + [e.query or "" for e in todo] + [r.response for r in corpus.responses],
                    pipeline=self.config.pipeline, cache=self.cache, progress=progress, desc="parse texts")

    def fit(self, corpus: Corpus, progress: bool = True) -> FeatureExtractor:
        """Fit every family on the training corpus (the TF-IDF vocabulary; neural models load)."""
        context = FamilyContext(corpus, [], self._indices(corpus, progress), self, self.cache, progress)
        for family in FAMILIES.values():
            family.fit(self, context)
        return self

    def load_neural(self) -> None:
        """Load the embedder and the learned checker from the directories the config names (a
        saved model holds their names, not the models)."""
        for family in FAMILIES.values():
            family.restore(self)

    def preparse(self, corpus: Corpus, progress: bool = True) -> None:
        """Parse every text of the corpus into the cache (so `transform` only computes features)."""
        self._indices(corpus, progress)
        parse_texts([r.response for r in corpus.responses], pipeline=self.config.pipeline,
                    cache=self.cache, progress=progress, desc="parse responses")

    def transform(self, corpus: Corpus, progress: bool = True, with_tokens: bool = True,
                  claims_for: set[str] | None = None) -> FeatureTables:
        """The feature tables of `corpus`; `claims_for`: the answers whose claim triplets are read
        (`FamilyContext.claims_for`; None: all)."""
        if self.vectorizer is None:
            raise RuntimeError("FeatureExtractor.fit must be called before transform")
        self._parse_together(corpus, progress)
        indices = self._indices(corpus, progress)
        parsed = parse_texts([r.response for r in corpus.responses], pipeline=self.config.pipeline,
                             cache=self.cache, progress=progress, desc="parse responses")
        context = FamilyContext(corpus, parsed, indices, self, self.cache, progress, with_tokens,
                                claims_for=None if claims_for is None else frozenset(claims_for))
        work = WorkTables(pd.DataFrame(), None)
        seconds = self.__dict__.setdefault("family_seconds", {})
        for name, family in FAMILIES.items():
            if family.state(self) == RUNS:
                t0 = time.perf_counter()
                family.add(work, context)
                seconds[name] = seconds.get(name, 0.0) + time.perf_counter() - t0
        tokens = work.tokens if work.tokens is not None else pd.DataFrame()
        return FeatureTables(work.sentences, tokens, indices, context.parsed_by_id,
                             response_table(corpus, work.sentences), work.claims)

    def refit_columns(self, tables: FeatureTables) -> None:
        """Recompute, in place, the columns of the families that learn from the training corpus
        (TF-IDF) with this extractor's fit: for tables another extractor built."""
        context = FamilyContext(None, [], tables.indices, self, self.cache)
        work = WorkTables(tables.sentences, None)
        for family in FAMILIES.values():
            if family.learned and family.state(self) == RUNS:
                family.add(work, context)


def response_table(corpus: Corpus, sentences: pd.DataFrame) -> pd.DataFrame:
    """One row per answer of `corpus`, in corpus order, with its sentence count and status."""
    counts = sentences["response_id"].value_counts() if len(sentences) else pd.Series(dtype=int)
    rows = []
    for r in corpus.responses:
        n = int(counts.get(r.id, 0))
        meta = metadata_columns(r, corpus.source_of(r))
        rows.append({"response_id": r.id, "source_id": r.source_id, "task_type": meta["task_type"],
                     "model": r.model, "temperature": meta["temperature"],
                     "source_collection": meta["source_collection"], "label": int(r.hallucinated),
                     "sentences": n, "status": STATUS_SCORED if n else STATUS_EMPTY})
    return pd.DataFrame(rows, columns=list(RESPONSE_COLUMNS))
