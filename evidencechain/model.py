"""EvidenceChain: features + detectors + calibrated thresholds, as one fitted object.

    model = EvidenceChain().fit(train_corpus, calibration_corpus)
    scored = model.score(test_corpus)            # sentence / token / response tables
    result = model.predict(answer_text, source)  # a DetectionResult: verdict, sentences, spans
    model = EvidenceChain.from_parts(extractor, fitted_detectors, ...).calibrate(calibration_tables)
    model.save("model/"); EvidenceChain.load("model/")
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .aggregate import AGGREGATIONS, response_risk
from .attribution import attach_chunks
from .detectors import (
    DEFAULT_DETECTORS,
    DETECTORS,
    FitDataError,
    Method,
    choose_threshold,
    feature_families,
    make_detector,
    reads_training_claims,
)
from .errors import ConfigError, ModelError, did_you_mean
from .features import FeatureConfig, FeatureExtractor, FeatureTables, configure, feature_columns
from .features.table import STATUS_SCORED
from .io import atomic_write_bytes, atomic_write_text
from .metrics import binary_metrics
from .model_checks import (
    ALL_DETECTORS,
    check_predict_args,
    check_settings,
    detector_names,
)
from .modelfile import (
    MODEL_FILE,
    checksums,
    dump_model,
    load_model,
    read_meta,
    verify_files,
)
from .records import Corpus, Response, Source
from .results import DetectionResult, results_from_scored
from .stacking import STACKED
from .text.parse import ParseCache
from .version import __version__
from .wordlevel import choose_span_rule, refine_word_mask, sentence_rows

LEVELS = ("sentence", "word", "response")
FEATURE_SCHEMA = 2
"""Version of the features and of the methods' saved state (2: fitted attributes end in '_');
a model saved with another schema is refused with a 'refit the model' message."""


@dataclass
class ScoredTables:
    """Feature tables with `risk_<detector>` and `pred_<detector>` columns added."""

    sentences: pd.DataFrame
    tokens: pd.DataFrame
    responses: pd.DataFrame
    features: FeatureTables = field(repr=False)


class EvidenceChain:
    """Fits every configured detector on one feature extraction and calibrates thresholds."""

    def __init__(self, detectors: tuple[str, ...] = DEFAULT_DETECTORS, primary: str = "EvidenceChain_RF",
                 features: FeatureConfig | None = None, random_state: int = 17,
                 response_aggregation: str = "max", detector_params: dict | None = None,
                 cache: ParseCache | None = None, threshold_metric: str = "f1"):
        self.detector_names = detector_names(detectors)
        check_settings(self.detector_names, primary, features, random_state, response_aggregation,
                        detector_params, threshold_metric)
        self.primary = primary
        self.features = configure(features or FeatureConfig(),
                                  feature_families(self.detector_names, detector_params))
        self.random_state = random_state
        self.response_aggregation = response_aggregation
        """max | mean | noisy_or, or 'auto': per detector, the best calibration ROC-AUC."""
        self.threshold_metric = threshold_metric
        self.aggregations: dict[str, str] = {}
        self.detector_params = detector_params or {}
        self.cache = cache
        self.extractor: FeatureExtractor | None = None
        self.detectors: dict[str, Method] = {}
        self.thresholds: dict[str, dict[str, float]] = {}
        self.span_rules: dict[str, dict] = {}
        """Per detector, the span rule (`wordlevel.refine_word_mask`) chosen on calibration words."""
        self.timings: dict[str, float] = {}
        """Seconds each detector spent fitting and scoring (not part of any CSV)."""
        self.stacker = None
        """A `stacking.Stacker` fitted by `calibrate` (reported as the detector 'Stacked'), or None."""

    @classmethod
    def from_parts(cls, extractor: FeatureExtractor, fitted: dict[str, Method] | None = None,
                   **settings) -> EvidenceChain:
        """A model on an already fitted feature extractor, with detectors already fitted on its
        tables (`fitted`: then `calibrate` is next) or none (then `fit_detectors` or `fit_tables`).

        `settings` are the constructor's parameters; the names of `fitted` must be its
        `detectors` (default: the names of `fitted`, in order)."""
        if fitted is not None:
            settings.setdefault("detectors", tuple(fitted))
        model = cls(**settings)
        if not isinstance(extractor, FeatureExtractor):
            raise ConfigError(f"extractor must be a fitted FeatureExtractor, got {type(extractor).__name__}")
        model.extractor = extractor
        if fitted is not None:
            if tuple(fitted) != model.detector_names:
                raise ConfigError(f"fitted detectors {tuple(fitted)} do not match the detector names "
                                  f"{model.detector_names}")
            model.detectors = dict(fitted)
        return model

    # -- fitting -------------------------------------------------------------------------
    def fit(self, train: Corpus, calibration: Corpus, progress: bool = True) -> EvidenceChain:
        self.fit_corpora(train, calibration, progress)
        return self

    def fit_extractor(self, train: Corpus, progress: bool = True) -> FeatureExtractor:
        """A feature extractor of this model's features fitted on `train` (what `fit` starts with)."""
        return FeatureExtractor(self.features, cache=self.cache).fit(train, progress)

    def fit_corpora(self, train: Corpus, calibration: Corpus, progress: bool = True,
                    extractor: FeatureExtractor | None = None,
                    calibration_tables: Callable[[], FeatureTables] | None = None) -> FeatureTables:
        """`fit`, returning the calibration corpus's feature tables (`transform(calibration)`:
        `score_tables` of them scores it without computing its features again). `extractor`:
        one `fit_extractor(train)` made already, and `calibration_tables`: what gives its
        `transform(calibration)` once the training tables are made (both made meanwhile elsewhere).
        The training answers' claim triplets are extracted only where a detector reads them
        (`reads_training_claims`)."""
        self.extractor = extractor or self.fit_extractor(train, progress)
        needs_tokens = any(DETECTORS[n].tags()["needs_tokens"] for n in self.detector_names)
        claims = None if reads_training_claims(self.detector_names) else set()
        tr = self.extractor.transform(train, progress, with_tokens=needs_tokens and train.span_labels,
                                      claims_for=claims)
        ca = calibration_tables() if calibration_tables is not None else \
            self.extractor.transform(calibration, progress, with_tokens=calibration.span_labels)
        self.fit_detectors(tr, corpus=train.name).calibrate(ca, calibration.span_labels)
        return ca

    def fit_tables(self, train: FeatureTables, calibration: FeatureTables,
                   span_labels: bool = True) -> EvidenceChain:
        """Fit detectors on training sentences; choose thresholds on calibration only."""
        return self.fit_detectors(train).calibrate(calibration, span_labels)

    def fit_detectors(self, train: FeatureTables, corpus: str | None = None) -> EvidenceChain:
        """Fit every detector on the training sentences (thresholds are left unset).

        Training data a detector cannot fit on (one class only, no word labels) is an InputError
        naming the training corpus and what to do."""
        self.detectors = {}
        self.timings = {}
        for name in self.detector_names:
            t0 = time.perf_counter()
            det = self.new_detector(name)
            try:
                self.detectors[name] = det.fit(train)
            except FitDataError as exc:
                unsupervised = [n for n in ALL_DETECTORS if not DETECTORS[n].tags()["supervised"]]
                where = f"training corpus {corpus!r}" if corpus else "the training data"
                raise FitDataError(f"{where}: {exc} ({len(train.sentences)} sentences); give a training "
                                   f"corpus with both supported and hallucinated answers (labels or spans), "
                                   f"or choose only unsupervised detectors ({', '.join(unsupervised)})") from None
            self.timings[name] = time.perf_counter() - t0
        return self

    def new_detector(self, name: str) -> Method:
        """The unfitted detector `name` as `fit_detectors` makes it (its parameters, and the
        feature settings it takes from this model's features)."""
        given = self.detector_params.get(name, {})
        shared = {k: getattr(self.features, k) for k in DETECTORS[name].tags()["feature_params"] if k not in given}
        return make_detector(name, self.random_state, **shared, **given)

    def calibrate(self, calibration: FeatureTables, span_labels: bool = True) -> EvidenceChain:
        """Aggregations ('auto') and one threshold per detector and level, from calibration only."""
        self.calibrate_scored(calibration, span_labels)
        return self

    def calibrate_scored(self, calibration: FeatureTables, span_labels: bool = True) -> ScoredTables:
        """`calibrate`, returning the calibration tables scored with the thresholds chosen: what
        `score_tables(calibration, evidence=False)` gives, without scoring them again."""
        self.thresholds = {}
        self.span_rules = {}
        self.stacker = None
        labels = (calibration.responses.set_index("response_id")["label"] if calibration.responses is not None
                  else calibration.sentences.groupby("response_id", sort=False)["response_label"].first())
        for det in self.detectors.values():
            det.calibrate(calibration, labels)
        self.aggregations = self._choose_aggregations(calibration)
        scored = self.risk_tables(calibration)
        for name in self.detector_names:
            levels = {
                "sentence": choose_threshold(scored.sentences["label"], scored.sentences[f"risk_{name}"],
                                             self.threshold_metric),
                "response": choose_threshold(scored.responses["label"], scored.responses[f"risk_{name}"],
                                             self.threshold_metric),
            }
            if span_labels and len(scored.tokens):
                words = scored.tokens[scored.tokens["is_punct"] == 0]
                levels["word"] = choose_threshold(words["label"], words[f"risk_{name}"], self.threshold_metric)
                self.span_rules[name] = choose_span_rule(scored.tokens, scored.tokens[f"risk_{name}"].to_numpy(),
                                                         levels["word"])
            self.thresholds[name] = levels
        has_sentences = scored.responses["sentences"].to_numpy() > 0
        rows = None
        for name in self.detector_names:
            rows = self._add_predictions(name, scored.sentences, scored.tokens, scored.responses, has_sentences, rows)
        return scored

    def aggregation_of(self, name: str) -> str:
        """The sentence-to-response aggregation a detector uses (chosen on calibration for 'auto')."""
        own = self.detectors[name].pooling() if name in self.detectors else None
        if own:
            return own
        return getattr(self, "aggregations", {}).get(name, self.response_aggregation)

    def _choose_aggregations(self, calibration: FeatureTables) -> dict[str, str]:
        if self.response_aggregation != "auto":
            return {n: self.response_aggregation for n in self.detector_names}
        sentences = calibration.sentences
        labels = (calibration.responses.set_index("response_id")["label"] if calibration.responses is not None
                  else sentences.groupby("response_id", sort=False)["response_label"].first())
        chosen = {}
        for name, det in self.detectors.items():
            if det.tags()["level"] == "response":
                continue
            risk = det.score_sentences(sentences)
            best, best_auc = AGGREGATIONS[0], -1.0
            for how in AGGREGATIONS:
                agg = response_risk(sentences, risk, how).reindex(labels.index).fillna(0.0)
                auc = binary_metrics(labels.to_numpy(), agg.to_numpy(), 0.5)["roc_auc"]
                if not np.isnan(auc) and auc > best_auc + 1e-12:
                    best, best_auc = how, auc
            chosen[name] = best
        return chosen

    # -- scoring -------------------------------------------------------------------------
    def transform(self, corpus: Corpus, progress: bool = True) -> FeatureTables:
        self._require_fitted()
        return self.extractor.transform(corpus, progress, with_tokens=corpus.span_labels)

    def score(self, corpus: Corpus, progress: bool = True) -> ScoredTables:
        return self.score_tables(self.transform(corpus, progress), corpus)

    def score_tables(self, tables: FeatureTables, corpus: Corpus | None = None,
                     evidence: bool = True) -> ScoredTables:
        """Every detector's risk and decision (`risk_<name>`, `pred_<name>`) at each level; with
        `evidence`, each sentence's evidence chunk too (`attribution.attach_chunks`)."""
        self._require_fitted()
        scored = self._score_tables(tables, with_predictions=True)
        if evidence:
            chunks = attach_chunks(scored.sentences, tables.indices)
            scored.sentences = pd.concat([scored.sentences, chunks], axis=1)
        return scored

    def risk_tables(self, tables: FeatureTables) -> ScoredTables:
        """Every detector's risk (`risk_<name>`) at each level, without decisions: what
        calibration and dataset summaries need (usable before thresholds are chosen)."""
        return self._score_tables(tables, with_predictions=False)

    def _score_tables(self, tables: FeatureTables, with_predictions: bool) -> ScoredTables:
        sentences = tables.sentences.copy()
        tokens = tables.tokens.copy()
        responses = tables.responses.copy() if tables.responses is not None else _response_frame(sentences)
        has_sentences = responses["sentences"].to_numpy() > 0
        rows = None  # the token rows of each sentence, for the span rules (`wordlevel.sentence_rows`)
        for name, det in self.detectors.items():
            t0 = time.perf_counter()
            own = det.score_responses(tables) if len(sentences) else None
            if not len(sentences):
                risk = np.zeros(0)
            elif det.tags()["level"] == "response":  # each sentence takes its answer's risk
                risk = own.reindex(sentences["response_id"]).to_numpy(dtype=float)
            else:
                risk = det.score_sentences(sentences)
            sentences[f"risk_{name}"] = risk
            for column, values in (det.sentence_columns(sentences) if len(sentences) else {}).items():
                sentences[column] = values
            responses[f"risk_{name}"] = self._response_risks(name, sentences, risk, own, responses,
                                                             has_sentences)
            if len(tokens):
                tokens[f"risk_{name}"] = det.score_tokens(tokens, sentences, risk)
            if with_predictions:
                rows = self._add_predictions(name, sentences, tokens, responses, has_sentences, rows)
            self.timings[name] = self.timings.get(name, 0.0) + time.perf_counter() - t0
        if getattr(self, "stacker", None) is not None:
            self.stacker.add_columns(sentences, tokens, responses,
                                     self.thresholds[STACKED] if with_predictions else None)
        return ScoredTables(sentences, tokens, responses, tables)

    def _add_predictions(self, name: str, sentences: pd.DataFrame, tokens: pd.DataFrame, responses: pd.DataFrame,
                         has_sentences: np.ndarray, rows: list | None) -> list | None:
        """`pred_<name>` at each level from `risk_<name>`, the thresholds and the span rule; the
        token rows of each sentence (`wordlevel.sentence_rows`) once a span rule needed them."""
        cut = self.thresholds[name]
        sentences[f"pred_{name}"] = (sentences[f"risk_{name}"].to_numpy() >= cut["sentence"]).astype(np.int8)
        responses[f"pred_{name}"] = ((responses[f"risk_{name}"] >= cut["response"]) & has_sentences).astype(np.int8)
        if len(tokens) and "word" in cut:
            rule = self.span_rules.get(name, {"gap": 0, "drop_function_only": False})
            if rows is None and (rule["gap"] or rule["drop_function_only"]):
                rows = sentence_rows(tokens)
            tokens[f"pred_{name}"] = refine_word_mask(tokens, tokens[f"risk_{name}"].to_numpy() >= cut["word"],
                                                      **rule, rows_by_sentence=rows).astype(np.int8)
        return rows

    def _response_risks(self, name: str, sentences: pd.DataFrame, risk: np.ndarray, own: pd.Series | None,
                        responses: pd.DataFrame, has_sentences: np.ndarray) -> np.ndarray:
        """The method's own risk of each response row (`own`), else its aggregated sentence risk;
        0 for an answer without sentences."""
        if not len(sentences):
            return np.zeros(len(responses))
        agg = (own if own is not None else response_risk(sentences, risk, self.aggregation_of(name))
               ).reindex(responses["response_id"])
        return np.where(has_sentences, agg.to_numpy(dtype=float), 0.0)

    def predict(self, response: str, source: Source, model: str = "unknown",
                temperature: float = 0.0, detector: str | None = None) -> DetectionResult:
        """Score one answer against its source: the `DetectionResult` that `Detector.predict`
        returns (verdict, per-sentence risk with evidence, spans; see `results`).

        An empty (or whitespace-only) answer has nothing to check: no sentences, risk 0, verdict
        'nothing to check'.
        """
        self._require_fitted()
        name = self.detector_for(detector)
        check_predict_args(response, source, model, temperature)
        corpus = Corpus("predict", {source.source_id: source},
                        [Response("0", source.source_id, model, temperature, (), "test", "good", response)])
        scored = self.score(corpus, progress=False)
        return results_from_scored(self, name, corpus, scored)[0]

    def detector_for(self, detector: str | None) -> str:
        """The fitted detector a prediction reports: `detector`, or the primary one when None."""
        name = self.primary if detector is None else detector
        fitted = self.reportable()
        if not isinstance(name, str) or name not in fitted:
            raise ConfigError(f"detector {name!r} is not fitted in this model"
                              f"{did_you_mean(name, fitted)}; fitted detectors: {fitted}")
        return name

    def reportable(self) -> tuple[str, ...]:
        """The detectors a result can report: the fitted ones, and 'Stacked' with a stacker."""
        return (*self.detectors, *((STACKED,) if getattr(self, "stacker", None) is not None else ()))

    # -- persistence ---------------------------------------------------------------------
    def describe(self) -> dict:
        return {
            "evidencechain_version": __version__,
            "feature_schema": FEATURE_SCHEMA,
            "detectors": {n: {"class": type(d).__name__, "repr": repr(d), "params": _jsonable(d.get_params()),
                              "tags": _jsonable(d.tags()), "features": getattr(d, "features", None)}
                          for n, d in self.detectors.items()},
            "primary": self.primary,
            "thresholds": self.thresholds,
            "threshold_rule": f"max {self.threshold_metric} on the calibration subset; positive when risk >= threshold",
            "response_aggregation": self.response_aggregation,
            "aggregations": self.aggregations,
            "threshold_metric": self.threshold_metric,
            "feature_config": asdict(self.features),
            "random_state": self.random_state,
        } | ({"stacker": self.stacker.describe()} if getattr(self, "stacker", None) is not None else {})

    def save(self, path: str | Path) -> Path:
        """Write model.skops (no pickle: see `modelfile`) and model.json (description and the
        sha256 of every file)."""
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path / MODEL_FILE, dump_model(self))
        meta = self.describe() | {"format": "skops", "files": checksums(path)}
        atomic_write_text(path / "model.json", json.dumps(meta, indent=2, sort_keys=True) + "\n")
        return path

    @classmethod
    def load(cls, path: str | Path, cache: ParseCache | None = None) -> EvidenceChain:
        """Load a saved model after checking model.json's sha256 sums and feature schema.

        Nothing in the files is executed: model.skops is read with a fixed list of trusted types
        (`modelfile.trusted_types`); an old pickled model (model.pkl) is refused.
        """
        path = Path(path)
        meta = read_meta(path)
        verify_files(path, meta)
        if meta.get("feature_schema") != FEATURE_SCHEMA:
            raise IncompatibleModelError(
                f"{path}: model was fitted with feature schema {meta.get('feature_schema')}, "
                f"this version computes schema {FEATURE_SCHEMA}; refit the model")
        model = load_model(path / MODEL_FILE)
        if not isinstance(model, EvidenceChain):
            raise ModelError(f"{path / MODEL_FILE} holds a {type(model).__name__}, not an EvidenceChain model")
        for name, det in model.detectors.items():
            saved = meta.get("detectors", {}).get(name, {}).get("features")
            if saved is not None:
                current = sum(feature_columns(det.groups), [])
                if saved != current:
                    raise IncompatibleModelError(f"{path}: detector {name} was fitted on features {saved}, "
                                                 f"but its groups now give {current}; refit the model")
        model.cache = cache
        if model.extractor is not None:
            model.extractor.cache = cache
            model.extractor.load_neural()
            needing = [n for n, d in model.detectors.items() if d.tags()["needs_checker"]]
            if needing and model.extractor.checker is None:
                raise ModelError(f"{path}: detector(s) {', '.join(needing)} need the learned checker "
                                 f"{model.features.checker} ({model.extractor.checker_status})")
        return model

    def __getstate__(self):
        state = self.__dict__.copy()
        state["cache"] = None
        return state

    def _require_fitted(self) -> None:
        if self.extractor is None or not self.detectors:
            raise RuntimeError("EvidenceChain is not fitted; call fit() or EvidenceChain.load()")


class IncompatibleModelError(ModelError, ValueError):
    """The saved model was fitted with features this version does not compute."""


def _jsonable(value):
    """Parameters and tags as JSON values (tuples as lists, other objects by their repr)."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.generic):
        return value.item()
    return repr(value)


def _response_frame(sentences: pd.DataFrame) -> pd.DataFrame:
    first = sentences.groupby("response_id", sort=False).agg(
        source_id=("source_id", "first"), task_type=("task_type", "first"),
        model=("model", "first"), temperature=("temperature", "first"),
        source_collection=("source_collection", "first"), label=("response_label", "first"),
        sentences=("sentence_index", "size"))
    return first.reset_index().assign(status=STATUS_SCORED)
