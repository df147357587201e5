"""Methods that score whole answers, beside the sentence detectors: the Provenance grid
(seeds 000/001) and a length-only diagnostic. Each gives calibration and test risks per
answer; the runner chooses thresholds on calibration like for every other detector."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..metrics import binary_metrics
from ..torch_support import NeuralUnavailable
from . import make_detector
from . import provenance as prov

BEST_PROVENANCE = "Provenance (ours, best on calibration)"
LENGTH = "Length only (diagnostic)"


@dataclass
class Part:
    """One side of a unit: its corpus slice, feature tables and gold labels per answer."""

    corpus: object
    tables: object
    labels: pd.Series


@dataclass
class FamilyResult:
    scores: dict[str, tuple[pd.Series, pd.Series]] = field(default_factory=dict)
    """method -> (calibration risk, test risk), indexed by response id."""
    families: dict[str, str] = field(default_factory=dict)
    grid: list[dict] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)


def length_scores(calibration: Part, test: Part) -> FamilyResult:
    """Number of words of an answer: how much a length artefact alone separates the labels."""
    out = FamilyResult()
    series = []
    for part in (calibration, test):
        words = part.tables.sentences.groupby("response_id", sort=False)["n_tokens"].sum()
        series.append(words.reindex(part.labels.index).fillna(0).astype(float))
    out.scores[LENGTH] = (series[0], series[1])
    out.families[LENGTH] = "diagnostic"
    return out


class ProvenanceFamily:
    """The Provenance grid (relevance x selection x aggregation x fact checker) per unit."""

    def __init__(self, settings: prov.ProvenanceSettings, features, seed: int, params: dict,
                 cache=None, store: prov.EmbeddingStore | None = None, progress: bool = False):
        self.settings, self.features, self.seed, self.params = settings, features, seed, params
        self.cache, self.store, self.progress = cache, store or prov.EmbeddingStore(None), progress
        self.loaded: dict = {}

    def _component(self, out: FamilyResult, name: str, kind: str, subset: str, status: str, detail: str):
        out.components.append({"component": name, "kind": kind, "subset": subset or "all",
                               "status": status, "detail": detail})

    def _load(self, key: str, make):
        if key not in self.loaded:
            try:
                self.loaded[key] = make()
            except NeuralUnavailable as exc:
                self.loaded[key] = exc
        return self.loaded[key]

    def _scorers(self, subset: str, train_examples, out: FamilyResult) -> list:
        s, f = self.settings, self.features
        scorers = []
        for name in s.relevance:
            t = float(s.temperatures.get(name, prov.LOGIT_TEMPERATURE if name == "cross-encoder"
                                         else prov.SIMILARITY_TEMPERATURE))
            if name == "bm25":
                scorer = prov.BM25Relevance(f.bm25_k1, f.bm25_b, f.bm25_delta, temperature=t)
            elif name == "tfidf":
                scorer = prov.TfidfRelevance(f.tfidf_ngram_max, temperature=t).fit(
                    [x for ex in train_examples for x in (ex.relevance_query, *ex.items)])
            elif name == "minilm" and subset and subset not in s.embedding_subsets:
                self._component(out, name, "relevance", subset, "skipped",
                                f"not in embedding_subsets {s.embedding_subsets} (CPU cost); add the subset to run it")
                continue
            elif name == "minilm":
                scorer = self._load("minilm", lambda t=t: prov.EmbeddingRelevance(
                    s.embedding_model, store=self.store, temperature=t))
            elif name == "learned-checker" and subset and subset not in s.learned_checker_subsets:
                self._component(out, name, "relevance", subset, "skipped", self._checker_skip())
                continue
            elif name == "learned-checker":
                scorer = self._load("learned-checker relevance", lambda t=t: prov.LearnedCheckerRelevance(
                    s.learned_checker, temperature=t, cache=self.cache))
            elif not s.reranker_model:
                self._component(out, name, "relevance", subset, "absent",
                                "not configured: no reranker weights are installed here "
                                "(set reranker_model to a local directory)")
                continue
            else:
                scorer = self._load("cross-encoder", lambda t=t: prov.CrossEncoderRelevance(
                    s.reranker_model, temperature=t, batch_size=s.batch_size))
            if isinstance(scorer, Exception):
                self._component(out, name, "relevance", subset, "absent", str(scorer))
                continue
            self._component(out, name, "relevance", subset, "present", scorer.describe())
            scorers.append(scorer)
        return scorers

    def _checker_skip(self) -> str:
        return (f"not in learned_checker_subsets {self.settings.learned_checker_subsets} (CPU cost); "
                "add the subset to run it")

    def _checkers(self, subset: str, train_tables, out: FamilyResult) -> list:
        s = self.settings
        checkers = []
        for name in s.checkers:
            if name == "evidencechain":
                params = {**self.params.get(s.checker_model, {}), "groups": tuple(s.checker_groups)}
                det = make_detector(s.checker_model, self.seed, **params).fit(train_tables.sentences)
                checker = prov.evidencechain_checker(det)
            elif name == "nli-rules":
                checker = prov.nli_rules_checker()
            elif name == "learned-checker" and subset and subset not in s.learned_checker_subsets:
                self._component(out, name, "fact checker", subset, "skipped", self._checker_skip())
                continue
            elif name == "learned-checker":
                checker = self._load(name, lambda: prov.LearnedChecker(s.learned_checker, self.cache, self.progress))
            elif not s.nli_model:
                self._component(out, name, "fact checker", subset, "absent",
                                "not configured: no NLI weights are installed here (set nli_model to a local directory)")
                continue
            else:
                checker = self._load(name, lambda: prov.NLICrossEncoderChecker(s.nli_model, s.batch_size))
            if isinstance(checker, Exception):
                self._component(out, name, "fact checker", subset, "absent", str(checker))
                continue
            self._component(out, name, "fact checker", subset, "present", checker.describe())
            checkers.append(checker)
        return checkers

    def score(self, subset: str, train: Part, calibration: Part, test: Part, vectorizer) -> FamilyResult:
        out = FamilyResult()
        s, f = self.settings, self.features
        examples = {}
        for side, part in (("train", train), ("calibration", calibration), ("test", test)):
            examples[side] = prov.examples_from_tables(part.corpus, part.tables, pipeline=f.pipeline,
                                                       cache=self.cache)
        scorers = self._scorers(subset, examples["train"], out)
        checkers = self._checkers(subset, train.tables, out)
        featurizer = prov.PairFeaturizer(vectorizer, f.bm25_k1, f.bm25_b, f.bm25_delta)
        grid = prov.run_grid(examples["calibration"] + examples["test"], scorers,
                             [prov.TopK(s.top_k), prov.TopP(s.top_p)], checkers, s.aggregations,
                             featurizer=featurizer, progress=self.progress)
        n_cal = len(examples["calibration"])
        cal_ids = [e.response_id for e in examples["calibration"]]
        test_ids = [e.response_id for e in examples["test"]]
        by_name = {c["name"]: c for c in grid.configs}
        absent = {(c["kind"], c["component"]): f"{c['status']}: {c['detail']}" for c in out.components
                  if c["status"] != "present"}
        best, best_auc = None, -1.0
        for rel in s.relevance:
            for sel in (f"top_k={s.top_k}", f"top_p={s.top_p:g}"):
                for how in s.aggregations:
                    for chk in s.checkers:
                        name = prov.config_name(rel, sel, how, chk)
                        row = {"relevance": rel, "selection": sel, "aggregation": how, "checker": chk,
                               "method": name}
                        if name not in by_name:
                            reason = absent.get(("relevance", rel)) or absent.get(("fact checker", chk))
                            out.grid.append({**row, "status": reason or "absent", "mean_selected": np.nan})
                            continue
                        factuality = grid.factuality[name]
                        risk = np.where(np.isnan(factuality), 1.0, 1.0 - factuality)
                        cal = pd.Series(risk[:n_cal], index=cal_ids).reindex(calibration.labels.index)
                        tst = pd.Series(risk[n_cal:], index=test_ids).reindex(test.labels.index)
                        auc = binary_metrics(calibration.labels.to_numpy(), cal.to_numpy(), 0.5)["roc_auc"]
                        out.grid.append({**row, "status": "present", "mean_selected": by_name[name]["mean_selected"],
                                         "calibration_roc_auc": auc, "_scores": (cal, tst)})
                        if not np.isnan(auc) and auc > best_auc + 1e-12:
                            best, best_auc = name, auc
        if best is not None:
            row = next(r for r in out.grid if r["method"] == best)
            out.scores[BEST_PROVENANCE] = row["_scores"]
            out.families[BEST_PROVENANCE] = "provenance"
            out.components.append({"component": BEST_PROVENANCE, "kind": "chosen configuration",
                                   "subset": subset or "all", "status": "present", "detail": best})
        return out
