"""The detailed outputs of a run's first unit (the tables the report reads) and run.json."""
from __future__ import annotations

import json
import platform
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .attribution import attribution_accuracy
from .config import ExperimentConfig
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
from .features import FeatureTables
from .io import atomic_write_text, sha256_file, write_csv
from .metrics import METRIC_COLUMNS, binary_metrics
from .model import EvidenceChain, ScoredTables
from .plan import Unit, detector_params, skipped_levels
from .runinfo import Stopwatch, code_commit, versions
from .text.nlp import load_pipeline
from .text.parallel import map_forked
from .version import __version__

ABLATIONS = {
    "All evidence-chain features": ("lexical", "retrieval", "mismatch", "metadata"),
    "No lexical coverage": ("retrieval", "mismatch", "metadata"),
    "No retrieval scores": ("lexical", "mismatch", "metadata"),
    "No mismatch rules": ("lexical", "retrieval", "metadata"),
    "Only lexical coverage": ("coverage_only",),
}
SEMANTIC_VARIANT = "All + semantic error classes"
MAIN_SIGNAL = {
    "Lexical": "Token novelty and source coverage",
    "BM25": "Per-source BM25+ evidence match blended with coverage",
    "TFIDF": "TF-IDF cosine (vocabulary from training text)",
    "NLI_Rules": "Number/entity mismatch plus coverage",
    "EvidenceChain_LR": "Logistic regression over evidence-chain features",
    "EvidenceChain_RF": "Random forest over evidence-chain features",
    "EvidenceChain_Token": "Gradient boosting over word features (own evidence, neighbours, clause, sentence)",
    "EvidenceChain_NLI": "The learned checker's verdict of the best evidence window",
    "RefChecker": "Claim triplets checked by rules (Entailment / Neutral / Contradiction), pooled by a rule",
    "RAGHalu": "Two tiers: NO-INFO sentences never flagged; logistic regression on verifiable ones",
}
def components(config: ExperimentConfig, model: EvidenceChain) -> dict:
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
        "checker": model.extractor.checker_status if model.extractor else "absent: not configured",
    }


def input_files(config: ExperimentConfig) -> dict[str, str]:
    """sha256 of every input file (the files of a corpus directory, for directory inputs)."""
    out = {}
    for path in config.input_paths:
        files = sorted(p for p in path.iterdir() if p.is_file()) if path.is_dir() else [path]
        out.update({str(p): sha256_file(p) for p in files if p.is_file()})
    return out


def ablation_table(model: EvidenceChain, params: dict, train, calibration, test, span_labels: bool,
                   name: str) -> pd.DataFrame:
    """Refit the ablation detector on feature subsets; evaluate each at sentence and word level.
    With the semantic family computed (`[features] semantic = true`), one more variant adds it.
    Variants are independent: they run on every core (`map_forked`), rows in variant order."""
    variants = dict(ABLATIONS)
    if model.features.semantic:
        variants[SEMANTIC_VARIANT] = (*ABLATIONS["All evidence-chain features"], "semantic")

    def refit(variant: str) -> list[dict]:
        sub = EvidenceChain.from_parts(model.extractor, detectors=(name,), primary=name, features=model.features,
                                       random_state=model.random_state,
                                       response_aggregation=model.response_aggregation,
                                       detector_params={name: {**params.get(name, {}), "groups": variants[variant]}},
                                       threshold_metric=model.threshold_metric)
        fitted = model.detectors.get(name)
        if fitted is not None and _same_detector(fitted, sub.new_detector(name)):
            sub.detectors = {name: fitted}  # the variant is the model's own detector, fitted on `train`
            sub.calibrate(calibration, span_labels)
        else:
            sub.fit_tables(train, calibration, span_labels=span_labels)
        scored = sub.score_tables(test)
        rows = []
        for level, frame in level_frames(scored).items():
            if level in sub.thresholds[name]:
                m = binary_metrics(frame["label"], frame[f"risk_{name}"], sub.thresholds[name][level],
                                   frame.get(f"pred_{name}"))
                rows.append({"variant": variant, "detector": name, "level": level, **m})
        return rows

    rows = [row for part in map_forked(refit, list(variants)) for row in part]
    return pd.DataFrame(rows, columns=["variant", "detector", "level", *METRIC_COLUMNS])


def _same_detector(fitted, fresh) -> bool:
    """Whether `fresh` (unfitted) would be fitted to `fitted`: same class, same parameters."""
    if type(fitted) is not type(fresh):
        return False
    a, b = fitted.get_params(deep=False), fresh.get_params(deep=False)
    return a.keys() == b.keys() and all(repr(a[k]) == repr(b[k]) for k in a)


@dataclass
class UnitDetails:
    """One scored unit: its model, feature tables and scored test tables."""

    unit: Unit
    model: EvidenceChain
    train: FeatureTables
    calibration: FeatureTables
    test: FeatureTables
    scored: ScoredTables


@dataclass
class RunDetails:
    """What the detailed outputs are written from: the run and its first unit."""

    config: ExperimentConfig
    corpora: dict
    units: list[Unit]
    first: UnitDetails
    watch: Stopwatch
    started: float
    """time.time() at the start of the run."""


def write_details(stage: Path, details: RunDetails) -> None:
    """Per-level metrics, scored tables, model, dataset tables and run.json of the first unit."""
    config, corpora, units, watch = details.config, details.corpora, details.units, details.watch
    first = details.first
    unit, model, train, calibration, test, scored = (first.unit, first.model, first.train, first.calibration,
                                                     first.test, first.scored)
    names = list(model.detector_names)
    skipped = skipped_levels(unit, corpora)
    span_labels = "word" not in skipped
    test_corpus = corpora[unit.test].corpus.subset(response_ids=set(unit.test_ids), name=f"{unit.test}:test")
    results = detection_metrics(scored, names, model.thresholds)
    for level in skipped:
        results.pop(f"metrics_{level}", None)
    by_task = results["metrics_by_task"]
    results["metrics_by_task"] = by_task[~by_task["level"].isin(list(skipped))].reset_index(drop=True)
    if span_labels and len(scored.tokens):
        results["metrics_span"] = span_table(scored, test_corpus, names)
        results["coverage_bins"] = coverage_bins(scored, config.evaluation.coverage_bins)
    if (scored.sentences["gold_chunk"] >= 0).any():
        results["attribution"] = attribution_accuracy(scored.sentences)
    if config.evaluation.ablation:
        results["ablation"] = ablation_table(model, detector_params(config, unit), train, calibration, test,
                                             span_labels, config.evaluation.ablation_detector)
    parts = {"train": (unit.fit, _counted(model, train)),
             "calibration": (unit.calibration, _counted(model, calibration)),
             "test": (unit.test, scored)}
    described = [corpora[unit.test].corpus]
    results.update(dataset_tables(parts, described))
    results["thresholds"] = thresholds_table(model.thresholds, model.span_rules)
    results["runtime"] = pd.DataFrame([{
        "method": n,
        "training": f"train split of {unit.fit}" if DETECTORS[n].tags()["supervised"] else "none",
        "main_signal": MAIN_SIGNAL.get(n, ""),
        "runtime_class": runtime_class(model.timings.get(n, 0.0) + watch.seconds.get("features", 0.0)),
    } for n in names])
    for name, frame in results.items():
        write_csv(ensure_numeric(frame), stage / f"{name}.csv")
    write_csv(scored.sentences, stage / "sentences.csv")
    write_csv(scored.responses, stage / "responses.csv")
    if len(scored.tokens):
        write_csv(scored.tokens, stage / "tokens.csv")
    model.save(stage / "model")
    run = {
        "name": config.name,
        "seed": config.seed,
        "config": config.to_dict(),
        "evidencechain_version": __version__,
        "commit": code_commit(),
        "python": platform.python_version(),
        "packages": versions(),
        "inputs": input_files(config),
        "components": components(config, model),
        "corpora": {name: {"responses": len(c.corpus.responses), "sources": len(c.corpus.sources),
                           "filtered": c.corpus.filtered, "span_labels": c.corpus.span_labels,
                           "empty_answers_kept": c.corpus.empty_answers,
                           "subsets": [s for s in c.corpus.subsets if s], "splits": c.counts()}
                    for name, c in corpora.items()},
        "units": [{**u.row(), "fit_answers": len(u.fit_ids), "calibration_answers": len(u.calibration_ids),
                   "test_answers": len(u.test_ids), "threshold_metric": u.spec.threshold_metric,
                   "skipped_levels": skipped_levels(u, corpora)} for u in units],
        "details_unit": unit.label,
        "test_corpus": unit.test,
        "skipped_metrics": skipped,
        "thresholds": model.thresholds,
        "feature_shift": _shift_summary(stage),
        "stage_seconds": {k: round(v, 3) for k, v in watch.seconds.items()},
        "feature_families": watch.families,
        "method_seconds": {k: round(v, 3) for k, v in model.timings.items()},
        "wall_seconds": round(time.time() - details.started, 3),
        "outputs": sorted([p.name for p in stage.iterdir() if p.is_file()] + ["run.json"]),
    }
    atomic_write_text(stage / "run.json", json.dumps(run, indent=2, sort_keys=True, default=str) + "\n")


def _counted(model: EvidenceChain, tables: FeatureTables) -> ScoredTables:
    """What `dataset_tables` counts of a split (its rows and labels; no risks needed)."""
    if tables.responses is not None:
        return ScoredTables(tables.sentences, tables.tokens, tables.responses, tables)
    return model.risk_tables(tables)


def _shift_summary(stage: Path) -> dict[str, list[str]]:
    """Per unit, the features whose scored values fall outside what the fit saw."""
    frame = pd.read_csv(stage / "feature_shift.csv", keep_default_na=False, na_values=[""])
    out: dict[str, list[str]] = {}
    for row in frame[frame["share"] > 0].itertuples(index=False):
        out.setdefault(row.unit, []).append(f"{row.kind} {row.feature}: {row.detail} "
                                            f"(share {row.share:.3f})")
    return out
