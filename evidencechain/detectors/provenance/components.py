"""The relevance scorers and fact checkers a `ProvenanceSettings` names, each built once.

Absent optional models (no weights configured, not installed, not in the subsets that run
them) are recorded as components with their reason and left out, never replaced by another
component. Used by the Provenance method (`method.ProvenanceMethod`) and the runner's grid
(`detectors.response_methods.ProvenanceFamily`).
"""
from __future__ import annotations

from ...torch_support import NeuralUnavailable
from .checkers import LearnedChecker, NLICrossEncoderChecker, evidencechain_checker, nli_rules_checker
from .relevance import (
    LOGIT_TEMPERATURE,
    SIMILARITY_TEMPERATURE,
    BM25Relevance,
    CrossEncoderRelevance,
    EmbeddingRelevance,
    LearnedCheckerRelevance,
    TfidfRelevance,
)
from .settings import ProvenanceSettings
from .store import EmbeddingStore


def record(out: list[dict], name: str, kind: str, subset: str, status: str, detail: str) -> None:
    out.append({"component": name, "kind": kind, "subset": subset or "all", "status": status, "detail": detail})


class Components:
    """Builds the components of `settings`; neural models are loaded once per instance."""

    def __init__(self, settings: ProvenanceSettings, bm25: tuple[float, float, float] = (1.5, 0.75, 1.0),
                 tfidf_ngram_max: int = 2, cache=None, store: EmbeddingStore | None = None,
                 progress: bool = False):
        self.settings, self.bm25, self.tfidf_ngram_max = settings, bm25, tfidf_ngram_max
        self.cache, self.store, self.progress = cache, store or EmbeddingStore(None), progress
        self.loaded: dict = {}

    def load(self, key: str, make):
        if key not in self.loaded:
            try:
                self.loaded[key] = make()
            except NeuralUnavailable as exc:
                self.loaded[key] = exc
        return self.loaded[key]

    def temperature(self, name: str) -> float:
        default = LOGIT_TEMPERATURE if name == "cross-encoder" else SIMILARITY_TEMPERATURE
        return float(self.settings.temperatures.get(name, default))

    def scorers(self, subset: str, out: list[dict], tfidf_texts=None, tfidf_vectorizer=None) -> list:
        """The relevance scorers; TF-IDF is fitted on `tfidf_texts` or uses a fitted vectorizer."""
        s = self.settings
        scorers = []
        for name in s.relevance:
            t = self.temperature(name)
            if name == "bm25":
                scorer = BM25Relevance(*self.bm25, temperature=t)
            elif name == "tfidf":
                scorer = TfidfRelevance(self.tfidf_ngram_max, temperature=t)
                if tfidf_vectorizer is None:
                    scorer.fit(tfidf_texts or [])
                else:
                    scorer.vectorizer = tfidf_vectorizer
            elif name == "minilm" and subset and subset not in s.embedding_subsets:
                record(out, name, "relevance", subset, "skipped",
                       f"not in embedding_subsets {s.embedding_subsets} (CPU cost); add the subset to run it")
                continue
            elif name == "minilm":
                scorer = self.load("minilm", lambda t=t: EmbeddingRelevance(
                    s.embedding_model, store=self.store, temperature=t))
            elif name == "learned-checker" and subset and subset not in s.learned_checker_subsets:
                record(out, name, "relevance", subset, "skipped", self.checker_skip())
                continue
            elif name == "learned-checker":
                scorer = self.load("learned-checker relevance", lambda t=t: LearnedCheckerRelevance(
                    s.learned_checker, temperature=t, cache=self.cache))
            elif not s.reranker_model:
                record(out, name, "relevance", subset, "absent",
                       "not configured: no reranker weights are installed here "
                       "(set reranker_model to a local directory)")
                continue
            else:
                scorer = self.load("cross-encoder", lambda t=t: CrossEncoderRelevance(
                    s.reranker_model, temperature=t, batch_size=s.batch_size))
            if isinstance(scorer, Exception):
                record(out, name, "relevance", subset, "absent", str(scorer))
                continue
            record(out, name, "relevance", subset, "present", scorer.describe())
            scorers.append(scorer)
        return scorers

    def checker_skip(self) -> str:
        return (f"not in learned_checker_subsets {self.settings.learned_checker_subsets} (CPU cost); "
                "add the subset to run it")

    def checkers(self, subset: str, out: list[dict], sentence_model) -> list:
        """The fact checkers; `sentence_model()` gives the fitted model behind 'evidencechain'."""
        s = self.settings
        checkers = []
        for name in s.checkers:
            if name == "evidencechain":
                checker = evidencechain_checker(sentence_model())
            elif name == "nli-rules":
                checker = nli_rules_checker()
            elif name == "learned-checker" and subset and subset not in s.learned_checker_subsets:
                record(out, name, "fact checker", subset, "skipped", self.checker_skip())
                continue
            elif name == "learned-checker":
                checker = self.load(name, lambda: LearnedChecker(s.learned_checker, self.cache, self.progress))
            elif not s.nli_model:
                record(out, name, "fact checker", subset, "absent",
                       "not configured: no NLI weights are installed here (set nli_model to a local directory)")
                continue
            else:
                checker = self.load(name, lambda: NLICrossEncoderChecker(s.nli_model, s.batch_size))
            if isinstance(checker, Exception):
                record(out, name, "fact checker", subset, "absent", str(checker))
                continue
            record(out, name, "fact checker", subset, "present", checker.describe())
            checkers.append(checker)
        return checkers
