"""EvidenceChain: features + detectors + calibrated thresholds, as one fitted object.

    model = EvidenceChain().fit(train_corpus, calibration_corpus)
    scored = model.score(test_corpus)            # sentence / token / response tables
    result = model.predict(answer_text, source)  # sentences with evidence, hallucinated spans
    model.save("model/"); EvidenceChain.load("model/")
"""
from __future__ import annotations

import json
import pickle
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from . import __version__
from .aggregate import response_risk
from .attribution import attach_chunks
from .data.records import Corpus, Response, Source
from .detectors import DETECTORS, Detector, make_detector, max_f1_threshold
from .features import FeatureConfig, FeatureExtractor, FeatureTables, feature_columns
from .io import atomic_write_bytes, atomic_write_text
from .text.parse import ParseCache
from .text.spans import tokens_to_spans

ALL_DETECTORS = tuple(DETECTORS)
LEVELS = ("sentence", "word", "response")
FEATURE_SCHEMA = 1


@dataclass
class ScoredTables:
    """Feature tables with `risk_<detector>` and `pred_<detector>` columns added."""

    sentences: pd.DataFrame
    tokens: pd.DataFrame
    responses: pd.DataFrame
    features: FeatureTables = field(repr=False)


@dataclass
class SentencePrediction:
    start: int
    end: int
    text: str
    risk: float
    hallucinated: bool
    evidence_chunk: str
    evidence_text: str
    evidence_score: float


@dataclass
class SpanPrediction:
    start: int
    end: int
    text: str
    score: float


@dataclass
class Prediction:
    detector: str
    risk: float
    hallucinated: bool
    sentences: list[SentencePrediction]
    spans: list[SpanPrediction]


class EvidenceChain:
    """Fits every configured detector on one feature extraction and calibrates thresholds."""

    def __init__(self, detectors: tuple[str, ...] = ALL_DETECTORS, primary: str = "EvidenceChain_RF",
                 features: FeatureConfig | None = None, random_state: int = 17,
                 response_aggregation: str = "max", detector_params: dict | None = None,
                 cache: ParseCache | None = None):
        if primary not in detectors:
            raise ValueError(f"primary detector {primary!r} is not among {detectors}")
        self.detector_names = tuple(detectors)
        self.primary = primary
        self.features = features or FeatureConfig()
        self.random_state = random_state
        self.response_aggregation = response_aggregation
        self.detector_params = detector_params or {}
        self.cache = cache
        self.extractor: FeatureExtractor | None = None
        self.detectors: dict[str, Detector] = {}
        self.thresholds: dict[str, dict[str, float]] = {}
        self.timings: dict[str, float] = {}
        """Seconds each detector spent fitting and scoring (not part of any CSV)."""

    # -- fitting -------------------------------------------------------------------------
    def fit(self, train: Corpus, calibration: Corpus, progress: bool = True) -> EvidenceChain:
        self.extractor = FeatureExtractor(self.features, cache=self.cache).fit(train, progress)
        tr = self.extractor.transform(train, progress, with_tokens=False)
        ca = self.extractor.transform(calibration, progress, with_tokens=calibration.span_labels)
        return self.fit_tables(tr, ca, span_labels=calibration.span_labels)

    def fit_tables(self, train: FeatureTables, calibration: FeatureTables,
                   span_labels: bool = True) -> EvidenceChain:
        """Fit detectors on training sentences; choose thresholds on calibration only."""
        self.detectors = {}
        self.timings = {}
        for name in self.detector_names:
            t0 = time.perf_counter()
            det = make_detector(name, self.random_state, **self.detector_params.get(name, {}))
            self.detectors[name] = det.fit(train.sentences)
            self.timings[name] = time.perf_counter() - t0
        self.thresholds = {}
        scored = self._score_tables(calibration, with_predictions=False)
        for name in self.detector_names:
            levels = {
                "sentence": max_f1_threshold(scored.sentences["label"], scored.sentences[f"risk_{name}"]),
                "response": max_f1_threshold(scored.responses["label"], scored.responses[f"risk_{name}"]),
            }
            if span_labels and len(scored.tokens):
                words = scored.tokens[scored.tokens["is_punct"] == 0]
                levels["word"] = max_f1_threshold(words["label"], words[f"risk_{name}"])
            self.thresholds[name] = levels
        return self

    # -- scoring -------------------------------------------------------------------------
    def transform(self, corpus: Corpus, progress: bool = True) -> FeatureTables:
        self._require_fitted()
        return self.extractor.transform(corpus, progress, with_tokens=corpus.span_labels)

    def score(self, corpus: Corpus, progress: bool = True) -> ScoredTables:
        return self.score_tables(self.transform(corpus, progress), corpus)

    def score_tables(self, tables: FeatureTables, corpus: Corpus | None = None) -> ScoredTables:
        self._require_fitted()
        scored = self._score_tables(tables, with_predictions=True)
        evidence = attach_chunks(scored.sentences, tables.indices)
        scored.sentences = pd.concat([scored.sentences, evidence], axis=1)
        return scored

    def _score_tables(self, tables: FeatureTables, with_predictions: bool) -> ScoredTables:
        sentences = tables.sentences.copy()
        tokens = tables.tokens.copy()
        responses = _response_frame(sentences)
        for name, det in self.detectors.items():
            t0 = time.perf_counter()
            risk = det.score_sentences(sentences)
            sentences[f"risk_{name}"] = risk
            responses[f"risk_{name}"] = response_risk(sentences, risk, self.response_aggregation) \
                .reindex(responses["response_id"]).to_numpy()
            if len(tokens):
                tokens[f"risk_{name}"] = det.score_tokens(tokens, sentences, risk)
            if with_predictions:
                cut = self.thresholds[name]
                sentences[f"pred_{name}"] = (risk >= cut["sentence"]).astype(np.int8)
                responses[f"pred_{name}"] = (responses[f"risk_{name}"] >= cut["response"]).astype(np.int8)
                if len(tokens) and "word" in cut:
                    tokens[f"pred_{name}"] = ((tokens[f"risk_{name}"] >= cut["word"])
                                              & (tokens["is_punct"] == 0)).astype(np.int8)
            self.timings[name] = self.timings.get(name, 0.0) + time.perf_counter() - t0
        return ScoredTables(sentences, tokens, responses, tables)

    def predict(self, response: str, source: Source, model: str = "unknown",
                temperature: float = 0.0, detector: str | None = None) -> Prediction:
        """Score one answer against its source: per-sentence risk with evidence, and spans."""
        name = detector or self.primary
        corpus = Corpus("predict", {source.source_id: source},
                        [Response("0", source.source_id, model, temperature, (), "test", "good", response)])
        scored = self.score(corpus, progress=False)
        s, t = scored.sentences, scored.tokens
        sentences = [
            SentencePrediction(int(r["start"]), int(r["end"]), r["text"], float(r[f"risk_{name}"]),
                               bool(r[f"pred_{name}"]), r["evidence_chunk"], r["evidence_text"],
                               float(r["evidence_score"]))
            for r in s.to_dict("records")
        ]
        spans = []
        if len(t) and f"pred_{name}" in t:
            doc = scored.features.parsed["0"]
            for a, b, score in tokens_to_spans(doc, t[f"pred_{name}"].to_numpy() > 0,
                                               t[f"risk_{name}"].to_numpy()):
                spans.append(SpanPrediction(a, b, response[a:b], score))
        risk = float(scored.responses[f"risk_{name}"].iloc[0]) if len(scored.responses) else 0.0
        return Prediction(name, risk, risk >= self.thresholds[name]["response"], sentences, spans)

    # -- persistence ---------------------------------------------------------------------
    def describe(self) -> dict:
        return {
            "evidencechain_version": __version__,
            "feature_schema": FEATURE_SCHEMA,
            "detectors": {n: {"class": type(d).__name__, "repr": repr(d),
                              "features": getattr(d, "features", None)}
                          for n, d in self.detectors.items()},
            "primary": self.primary,
            "thresholds": self.thresholds,
            "threshold_rule": "max F1 on the calibration subset; positive when risk >= threshold",
            "response_aggregation": self.response_aggregation,
            "feature_config": asdict(self.features),
            "random_state": self.random_state,
        }

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path / "model.pkl", pickle.dumps(self, protocol=5))
        atomic_write_text(path / "model.json", json.dumps(self.describe(), indent=2, sort_keys=True) + "\n")
        return path

    @classmethod
    def load(cls, path: str | Path, cache: ParseCache | None = None) -> EvidenceChain:
        """Load a saved model (a trusted pickle) and check its feature schema."""
        path = Path(path)
        if not (path / "model.pkl").exists():
            raise FileNotFoundError(f"no fitted model at {path} (expected {path / 'model.pkl'})")
        meta = json.loads((path / "model.json").read_text())
        if meta.get("feature_schema") != FEATURE_SCHEMA:
            raise ValueError(f"{path}: model was fitted with feature schema {meta.get('feature_schema')}, "
                             f"this version computes schema {FEATURE_SCHEMA}; refit the model")
        with open(path / "model.pkl", "rb") as handle:
            model = pickle.load(handle)
        for name, det in model.detectors.items():
            saved = meta["detectors"][name]["features"]
            if saved is not None:
                current = sum(feature_columns(det.groups), [])
                if saved != current:
                    raise ValueError(f"{path}: detector {name} was fitted on features {saved}, "
                                     f"but its groups now give {current}; refit the model")
        model.cache = cache
        if model.extractor is not None:
            model.extractor.cache = cache
        return model

    def __getstate__(self):
        state = self.__dict__.copy()
        state["cache"] = None
        return state

    def _require_fitted(self) -> None:
        if self.extractor is None or not self.detectors:
            raise RuntimeError("EvidenceChain is not fitted; call fit() or EvidenceChain.load()")


def _response_frame(sentences: pd.DataFrame) -> pd.DataFrame:
    first = sentences.groupby("response_id", sort=False).agg(
        source_id=("source_id", "first"), task_type=("task_type", "first"),
        model=("model", "first"), temperature=("temperature", "first"),
        source_collection=("source_collection", "first"), label=("response_label", "first"),
        sentences=("sentence_index", "size"))
    return first.reset_index()
