"""Methods that score whole answers, beside the sentence detectors: the Provenance grid
(seeds 000/001) and a length-only diagnostic. Each gives calibration and test risks per
answer; the runner chooses thresholds on calibration like for every other detector."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..metrics import binary_metrics
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
    """The Provenance grid (relevance x selection x aggregation x fact checker) per unit: every
    configuration of the Provenance method (`provenance.ProvenanceMethod`) at once, the best
    on calibration reported as BEST_PROVENANCE."""

    def __init__(self, settings: prov.ProvenanceSettings, features, seed: int, params: dict,
                 cache=None, store: prov.EmbeddingStore | None = None, progress: bool = False):
        self.settings, self.features, self.seed, self.params = settings, features, seed, params
        self.cache, self.progress = cache, progress
        self.parts = prov.Components(settings, (features.bm25_k1, features.bm25_b, features.bm25_delta),
                                     features.tfidf_ngram_max, cache, store, progress)

    def _sentence_model(self, train_tables):
        s = self.settings
        params = {**self.params.get(s.checker_model, {}), "groups": tuple(s.checker_groups)}
        return make_detector(s.checker_model, self.seed, **params).fit(train_tables.sentences)

    def score(self, subset: str, train: Part, calibration: Part, test: Part, vectorizer) -> FamilyResult:
        out = FamilyResult()
        s, f = self.settings, self.features
        examples = {}
        for side, part in (("train", train), ("calibration", calibration), ("test", test)):
            examples[side] = prov.examples_from_tables(part.corpus, part.tables, pipeline=f.pipeline,
                                                       cache=self.cache)
        scorers = self.parts.scorers(subset, out.components, tfidf_texts=[
            x for ex in examples["train"] for x in (ex.relevance_query, *ex.items)])
        checkers = self.parts.checkers(subset, out.components, lambda: self._sentence_model(train.tables))
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
