"""The one experiment runner: any corpora, fit on X, calibrate on X or Y, score Y once.

    config = load_config("experiments/audit.toml")
    run(config)        # -> results/audit/ (metrics.csv, units.csv, run.json, ...)

An evaluation expands into units, one per scored corpus (and subset, with `per_subset`):
supervised detectors are fitted on the fit corpus's train split (or, leaving one subset
out, on every other subset), thresholds are chosen on a calibration split, and the test
split is scored once. Every unit adds rows to `metrics.csv`; the first unit also writes the
detailed tables the report reads (sentences, tokens, per-level metrics, ablation, ...).
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from .config import EvaluationSpec, ExperimentConfig
from .data.load import SplitCorpus, load_split_corpus
from .detectors import DETECTORS, choose_threshold, feature_families
from .detectors import provenance as prov
from .detectors.response_methods import Part, ProvenanceFamily, length_scores
from .errors import InputError
from .evaluate import level_frames, span_table, span_type_table, unit_claim_tables
from .experiment import write_details
from .features import FeatureExtractor, FeatureTables, configure
from .features.checker import checker_absent_reason
from .io import check_cache_dir, check_output_dir, stable_hash, staged_directory, write_csv
from .metrics import METRIC_COLUMNS, binary_metrics
from .model import EvidenceChain
from .records import Corpus
from .runinfo import Stopwatch
from .shift import feature_shift
from .text.parse import ParseCache
from .wordlevel import mean_run_words

log = logging.getLogger(__name__)

FLOOR = "Flag everything (floor)"
UNIT_COLUMNS = ["unit", "fit", "calibrated_on", "test", "subset"]
GRID_COLUMNS = [*UNIT_COLUMNS, "relevance", "selection", "aggregation", "checker", "status", "mean_selected",
                *METRIC_COLUMNS, "calibration_roc_auc", "method"]
LONG_COLUMNS = [*UNIT_COLUMNS, "level", "method", "family", "aggregation", *METRIC_COLUMNS,
                "balanced_accuracy", "flagged_share", "flagged_share_calibration", "calibration_roc_auc",
                "span_rule", "span_words", "span_words_calibration", "span_words_gold", "span_words_gold_calibration"]


@dataclass
class Unit:
    """One fit / calibrate / score step."""

    spec: EvaluationSpec
    fit: str
    test: str
    subset: str
    calibration: str
    fit_ids: list[str]
    calibration_ids: list[str]
    test_ids: list[str]

    @property
    def label(self) -> str:
        held = f"[-{self.subset}]" if self.spec.leave_subset_out else ""
        scored = f"{self.test}[{self.subset}]" if self.subset else self.test
        return f"{self.fit}{held} -> {scored}"

    @property
    def cross(self) -> bool:
        """Fit answers come from another corpus or another subset than the scored ones."""
        return self.fit != self.test or self.spec.leave_subset_out

    def row(self) -> dict:
        return {"unit": self.label, "fit": self.fit, "calibrated_on": self.calibration,
                "test": self.test, "subset": self.subset}


def plan_units(config: ExperimentConfig, corpora: dict[str, SplitCorpus]) -> list[Unit]:
    """Every unit of every evaluation; empty parts are errors naming the unit."""
    units = []
    for spec in config.evaluations:
        fit = corpora[spec.fit]
        for name in spec.test:
            test = corpora[name]
            for subset in (_subset_order(test, config.corpora[name].subsets) if spec.per_subset else [None]):
                own = spec.per_subset and spec.fit == name
                if spec.leave_subset_out:
                    fit_ids = fit.ids(exclude_subset=subset)
                else:
                    fit_ids = fit.ids(spec.fit_split, subset=subset if own else None)
                cal = fit if spec.calibrate == "fit" else test
                cal_subset = subset if (own or spec.calibrate == "test") else None
                unit = Unit(spec, spec.fit, name, subset or "", cal.name, fit_ids,
                            cal.ids("calibration", subset=cal_subset), test.ids("test", subset=subset))
                for part, ids in (("fit", unit.fit_ids), ("calibration", unit.calibration_ids),
                                  ("test", unit.test_ids)):
                    if not ids:
                        raise InputError(f"{config.path}: evaluation {unit.label}: the {part} split is empty "
                                         f"(corpus splits: {fit.name} {fit.counts()}, {test.name} {test.counts()})")
                seen = (set(unit.fit_ids) if unit.fit == name else set()) | \
                    (set(unit.calibration_ids) if unit.calibration == name else set())
                if seen & set(unit.test_ids):
                    raise InputError(f"evaluation {unit.label}: test answers overlap the fit or calibration answers")
                units.append(unit)
    return units


def _subset_order(corpus: SplitCorpus, configured: list[str]) -> list[str]:
    """The corpus's subsets in the order the config names them (others after, sorted)."""
    present = corpus.corpus.subsets
    return [s for s in configured if s in present] + [s for s in present if s not in configured]


def slice_tables(tables: FeatureTables, ids: list[str]) -> FeatureTables:
    """The rows of `ids` (in table order) of every frame of `tables`."""
    keep = set(ids)
    out = {}
    for name, value in vars(tables).items():
        if isinstance(value, pd.DataFrame) and "response_id" in value.columns:
            value = value[value["response_id"].isin(keep)].reset_index(drop=True)
        out[name] = value
    return type(tables)(**out)


class TableStore:
    """Feature tables computed once per corpus; TF-IDF columns follow the fitted vocabulary."""

    def __init__(self, config: ExperimentConfig, cache: ParseCache | None, progress: bool, watch: Stopwatch):
        self.features = configure(config.features, feature_families(config.detectors.names, config.detectors.params))
        self.cache, self.progress, self.watch = cache, progress, watch
        self.extractors: dict[tuple[str, int], FeatureExtractor] = {}
        self.base: dict[str, tuple[FeatureExtractor, FeatureTables]] = {}

    def family_report(self) -> dict[str, dict]:
        """Per feature family: whether it ran (or why not) and its seconds over every extractor."""
        plan: dict[str, str] = {}
        seconds: dict[str, float] = {}
        for extractor in self.extractors.values():
            for family, state in extractor.family_plan().items():
                plan.setdefault(family, state)
            for family, value in extractor.family_seconds.items():
                seconds[family] = seconds.get(family, 0.0) + value
        return {f: {"state": state, "seconds": round(seconds.get(f, 0.0), 3)} for f, state in plan.items()}

    def extractor(self, corpus: SplitCorpus, ids: list[str]) -> FeatureExtractor:
        key = (corpus.name, stable_hash("\n".join(ids)))
        if key not in self.extractors:
            part = corpus.corpus.subset(response_ids=set(ids), name=f"{corpus.name}:fit")
            with self.watch("features"):
                self.extractors[key] = FeatureExtractor(self.features, cache=self.cache).fit(part, self.progress)
        return self.extractors[key]

    def tables(self, corpus: SplitCorpus, ids: list[str], extractor: FeatureExtractor) -> FeatureTables:
        if corpus.name not in self.base:
            with self.watch("parse"):
                extractor.preparse(corpus.corpus, progress=self.progress)
            with self.watch("features"):
                self.base[corpus.name] = (extractor, extractor.transform(
                    corpus.corpus, self.progress, with_tokens=corpus.corpus.span_labels))
        made_by, tables = self.base[corpus.name]
        with self.watch("features"):
            part = slice_tables(tables, ids)
            if made_by is not extractor:
                extractor.refit_columns(part)
        return part


def detector_params(config: ExperimentConfig, unit: Unit) -> dict:
    """Per-detector parameters; cross-corpus units drop the metadata group (see config)."""
    params = {k: dict(v) for k, v in config.detectors.params.items() if k in config.detectors.names}
    for name in config.detectors.names:
        if "groups" not in DETECTORS[name].param_names():
            continue
        p = params.setdefault(name, {})
        groups = tuple(p.get("groups") or DETECTORS[name].default_params()["groups"])
        if config.features.embedding_model and "neural" not in groups:
            groups += ("neural",)
        if checker_absent_reason(config.features.checker) is None and "checker" not in groups:
            groups += ("checker",)
        if unit.cross and not config.evaluation.cross_corpus_metadata:
            groups = tuple(g for g in groups if g != "metadata")
        p["groups"] = groups
    return params


def unit_detectors(config: ExperimentConfig, fit: Corpus) -> tuple[tuple[str, ...], str, list[str]]:
    """(detectors, primary, reasons): detectors fitted on word labels are skipped, with the
    reason, when the fit corpus has response-level labels only."""
    names = tuple(n for n in config.detectors.names if fit.span_labels or not DETECTORS[n].tags()["needs_tokens"])
    dropped = [f"{n}: not fitted, {fit.name} has no word labels" for n in config.detectors.names
               if n not in names]
    if any(DETECTORS[n].tags()["needs_tiers"] for n in names) and not _has_tiers(fit):
        dropped += [f"{n}: not fitted, {fit.name} has no NO-INFO sentence labels" for n in names
                    if DETECTORS[n].tags()["needs_tiers"]]
        names = tuple(n for n in names if not DETECTORS[n].tags()["needs_tiers"])
    absent = checker_absent_reason(config.features.checker)
    if absent:
        dropped += [f"{n}: not scored, the learned checker is {absent}" for n in names if DETECTORS[n].tags()["needs_checker"]]
        names = tuple(n for n in names if not DETECTORS[n].tags()["needs_checker"])
    primary = config.detectors.primary
    if primary not in names:
        supervised = [n for n in names if DETECTORS[n].tags()["supervised"]]
        primary = (supervised or list(names))[-1]
        dropped.append(f"primary detector for this unit: {primary}")
    return names, primary, dropped


def _check_fit_classes(config: ExperimentConfig, corpora: dict, units: list) -> None:
    """Stop before any feature extraction when supervised detectors would be fitted on answers of
    one class only (every answer supported, or every one hallucinated without word labels)."""
    supervised = [n for n in config.detectors.names if DETECTORS[n].tags()["supervised"]]
    for unit in units if supervised else ():
        fit = corpora[unit.fit].corpus
        ids = set(unit.fit_ids)
        labels = {r.hallucinated for r in fit.responses if r.id in ids}
        if labels == {False} or (labels == {True} and not fit.span_labels):
            kind = "supported" if labels == {False} else "hallucinated (and there are no word labels)"
            unsupervised = [n for n in DETECTORS if not DETECTORS[n].tags()["supervised"]]
            raise InputError(f"training corpus {unit.fit!r} ({config.path}): every one of its {len(ids)} training "
                             f"answers is {kind}, so the supervised detectors ({', '.join(supervised)}) cannot "
                             f"be fitted; add answers of the other kind, or list only unsupervised detectors "
                             f"({', '.join(unsupervised)}) in [detectors] names")


def _has_tiers(corpus: Corpus) -> bool:
    """Whether some answer's sentence gold marks a NO-INFO sentence (the audit corpus does)."""
    return any(getattr(g, "tier", "verifiable") == "no_info"
               for r in corpus.responses for g in (r.sentence_meta or ()))


def balanced_accuracy(y, scores, threshold: float, predicted=None) -> float:
    """Balanced accuracy of scores >= threshold, or of the given decisions (`predicted`)."""
    y = np.asarray(y).astype(bool)
    pred = np.asarray(scores, dtype=float) >= threshold if predicted is None else np.asarray(predicted).astype(bool)
    if y.all() or not y.any():
        return float("nan")
    return float(0.5 * (pred[y].mean() + (~pred[~y]).mean()))


def _flagged(scores, threshold: float) -> float:
    s = np.asarray(scores, dtype=float)
    return float((s >= threshold).mean()) if len(s) else float("nan")


def _flagged_share(frame: pd.DataFrame, name: str, threshold: float) -> float:
    """Share of `frame` flagged by `name`: its decisions (words after the span rule) when present."""
    if f"pred_{name}" in frame and len(frame):
        return float(frame[f"pred_{name}"].mean())
    return _flagged(frame[f"risk_{name}"], threshold)


def unit_metrics(unit: Unit, model: EvidenceChain, calibration, scored, test_corpus,
                 skipped: dict[str, str] | None = None) -> list[dict]:
    """Long-format rows: every level with labels on both the calibration and test side
    (none for the `skipped` levels: their sentence labels are only the answer's label repeated)."""
    rows = []
    if "word" in model.thresholds[model.primary] and len(scored.tokens):
        span = span_table(scored, test_corpus, list(model.detector_names))
        lengths = {"span_words_gold": mean_run_words(scored.tokens, scored.tokens["label"] > 0),
                   "span_words_gold_calibration": mean_run_words(calibration.tokens, calibration.tokens["label"] > 0)}
        for r in span.to_dict("records"):
            name = r["method"]
            rows.append({**unit.row(), "level": "span", "family": _family(model, name), "aggregation": "",
                         **{k: v for k, v in r.items() if k in ("method", "precision", "recall", "f1")},
                         "threshold": model.thresholds[name]["word"], "n": r["gold_chars"],
                         "span_rule": _span_rule(model, name), **lengths,
                         "span_words": mean_run_words(scored.tokens, scored.tokens[f"pred_{name}"] > 0),
                         "span_words_calibration": mean_run_words(calibration.tokens,
                                                                  calibration.tokens[f"pred_{name}"] > 0)})
    cal_frames, test_frames = level_frames(calibration), level_frames(scored)
    for level, frame in test_frames.items():
        cal = cal_frames.get(level)
        if cal is None or level in (skipped or {}):
            continue
        for name in model.detector_names:
            cut = model.thresholds[name].get(level)
            if cut is None:
                continue
            col = f"risk_{name}"
            m = binary_metrics(frame["label"], frame[col], cut, frame.get(f"pred_{name}"))
            cal_m = binary_metrics(cal["label"], cal[col], cut, cal.get(f"pred_{name}"))
            rows.append({**unit.row(), "level": level, "method": name,
                         "family": _family(model, name),
                         "aggregation": model.aggregation_of(name) if level == "response" else "",
                         **m, "balanced_accuracy": balanced_accuracy(frame["label"], frame[col], cut,
                                                                     frame.get(f"pred_{name}")),
                         "flagged_share": _flagged_share(frame, name, cut),
                         "flagged_share_calibration": _flagged_share(cal, name, cut),
                         "calibration_roc_auc": cal_m["roc_auc"]})
        if level in ("response", "word"):
            ones = np.ones(len(frame))
            rows.append({**unit.row(), "level": level, "method": FLOOR, "family": "floor", "aggregation": "",
                         **binary_metrics(frame["label"], ones, 1.0),
                         "balanced_accuracy": 0.5, "flagged_share": 1.0, "flagged_share_calibration": 1.0,
                         "calibration_roc_auc": float("nan")})
    return rows


def _span_rule(model: EvidenceChain, name: str) -> str:
    rule = model.span_rules.get(name, {})
    return f"gap {rule.get('gap', 0)}" + (", drop stop-word-only spans" if rule.get("drop_function_only") else "")


def _family(model: EvidenceChain, name: str) -> str:
    return "supervised" if model.detectors[name].tags()["supervised"] else "unsupervised"


def response_method_rows(unit: Unit, result, labels_cal: pd.Series, labels_test: pd.Series) -> list[dict]:
    """Long rows of response-level families (Provenance, Length), thresholds from calibration."""
    rows = []
    for method, (cal, test) in result.scores.items():
        cut = choose_threshold(labels_cal.to_numpy(), cal.to_numpy(), unit.spec.threshold_metric)
        rows.append({**unit.row(), "level": "response", "method": method, "family": result.families[method],
                     "aggregation": "", **binary_metrics(labels_test, test, cut),
                     "balanced_accuracy": balanced_accuracy(labels_test, test, cut),
                     "flagged_share": _flagged(test, cut), "flagged_share_calibration": _flagged(cal, cut),
                     "calibration_roc_auc": binary_metrics(labels_cal, cal, cut)["roc_auc"]})
    return rows


def grid_rows(unit: Unit, result, labels_cal: pd.Series, labels_test: pd.Series) -> list[dict]:
    """Every Provenance configuration's test metrics at its calibration threshold."""
    rows = []
    for r in result.grid:
        row = {**unit.row(), **{k: v for k, v in r.items() if k != "_scores"}}
        if "_scores" in r:
            cal, test = r["_scores"]
            cut = choose_threshold(labels_cal.to_numpy(), cal.to_numpy(), unit.spec.threshold_metric)
            row.update(binary_metrics(labels_test, test, cut))
        rows.append(row)
    return rows


def skipped_levels(unit: Unit, corpora: dict[str, SplitCorpus]) -> dict[str, str]:
    """Levels without metrics in a unit, each with its reason."""
    test, cal = corpora[unit.test].corpus, corpora[unit.calibration].corpus
    if not test.span_labels:
        reason = f"{unit.test} has response-level labels only"
    elif not cal.span_labels:
        reason = (f"thresholds come from {unit.calibration}, which has response-level labels only: "
                  "no word or sentence threshold")
    else:
        return {}
    return {"sentence": reason, "word": reason, "span": reason}


def run(config: ExperimentConfig, out_dir: str | Path | None = None, progress: bool = True) -> Path:
    """Run every evaluation of `config`; write all results under `out_dir` (default: config)."""
    out = Path(out_dir or config.output_dir)
    inputs = (config.path, *config.input_paths, config.cache_dir)
    check_output_dir(out, inputs)
    if config.cache_dir:
        check_cache_dir(config.cache_dir, f"cache_dir in {config.path}")
    watch = Stopwatch()
    started = time.time()
    cache = ParseCache(Path(config.cache_dir) / "parse.sqlite") if config.cache_dir else None
    with watch("load"):
        corpora = {name: load_split_corpus(spec, name, config.seed) for name, spec in config.corpora.items()}
        for c in corpora.values():
            if not c.corpus.labelled:
                raise InputError(f"corpus {c.name!r} has no gold labels: nothing to evaluate "
                                 "(score unlabelled answers with `evidencechain detect`)")
        units = plan_units(config, corpora)
        _check_fit_classes(config, corpora, units)
    store = TableStore(config, cache, progress, watch)
    family = _provenance_family(config, cache, progress)
    fitted: dict[tuple, dict] = {}
    long_rows, unit_rows, shifts, grid, comps, scores, span_types, details = [], [], [], [], [], [], [], None
    claim_tables: dict[str, list[pd.DataFrame]] = {}
    for k, unit in enumerate(tqdm(units, desc="evaluations", disable=not progress or len(units) < 2, unit="unit")):
        log.info("unit %s", unit.label)
        extractor = store.extractor(corpora[unit.fit], unit.fit_ids)
        train = store.tables(corpora[unit.fit], unit.fit_ids, extractor)
        calibration = store.tables(corpora[unit.calibration], unit.calibration_ids, extractor)
        test = store.tables(corpora[unit.test], unit.test_ids, extractor)
        params = detector_params(config, unit)
        names, primary, dropped = unit_detectors(config, corpora[unit.fit].corpus)
        params = {k: v for k, v in params.items() if k in names}
        model = EvidenceChain(names, primary, store.features,
                              config.seed, config.detectors.response_aggregation, params, cache,
                              threshold_metric=unit.spec.threshold_metric)
        model.extractor = extractor
        skipped = skipped_levels(unit, corpora)
        with watch("fit"):
            key = (id(extractor), repr(sorted(params.items())))
            if key not in fitted:
                fitted[key] = model.fit_detectors(train, corpus=unit.fit).detectors
            model.detectors = fitted[key]
            model.calibrate(calibration, span_labels="word" not in skipped)
        with watch("score"):
            scored = model.score_tables(test)  # the test split is scored exactly once
            cal_scored = model._score_tables(calibration, with_predictions=True)
        test_corpus = corpora[unit.test].corpus.subset(response_ids=set(unit.test_ids))
        with watch("evaluate"):
            long_rows += unit_metrics(unit, model, cal_scored, scored, test_corpus, skipped)
            if "word" in model.thresholds[model.primary] and len(scored.tokens):
                span_types += [{**unit.row(), **r} for r in
                               span_type_table(scored, test_corpus, list(model.detector_names)).to_dict("records")]
            for name, frame in unit_claim_tables(unit.row(), scored, test_corpus, list(model.detector_names)).items():
                claim_tables.setdefault(name, []).append(frame)
        labels_cal = cal_scored.responses.set_index("response_id")["label"]
        labels_test = scored.responses.set_index("response_id")["label"]
        results = []
        with watch("response methods"):
            if "Length" in config.detectors.response_methods and unit.spec.response_methods:
                results.append(length_scores(Part(None, calibration, labels_cal), Part(None, test, labels_test)))
            if family is not None and unit.spec.response_methods:
                parts = [Part(corpora[c].corpus.subset(response_ids=set(ids)), t, lab) for c, ids, t, lab in (
                    (unit.fit, unit.fit_ids, train, None), (unit.calibration, unit.calibration_ids, calibration,
                                                            labels_cal), (unit.test, unit.test_ids, test, labels_test))]
                results.append(family.score(unit.subset, *parts, extractor.vectorizer))
        for res in results:
            long_rows += response_method_rows(unit, res, labels_cal, labels_test)
            grid += grid_rows(unit, res, labels_cal, labels_test)
            comps += [{**unit.row(), **c} for c in res.components]
        scores.append(_response_scores(unit, scored, model, results, labels_test))
        shifts += [{**unit.row(), **r} for r in feature_shift(train.sentences, test.sentences, model)]
        unit_rows.append({**unit.row(), "fit_answers": len(unit.fit_ids),
                          "calibration_answers": len(unit.calibration_ids), "test_answers": len(unit.test_ids),
                          "metadata_features": any("metadata" in getattr(d, "groups", ())
                                                   for d in model.detectors.values()),
                          "skipped": "; ".join([f"{lv}: {why}" for lv, why in skipped.items()] + dropped)})
        if k == 0:
            details = (unit, model, train, calibration, test, scored)
    long = pd.DataFrame(long_rows, columns=LONG_COLUMNS)
    watch.families = store.family_report()
    with staged_directory(out, inputs=inputs, command="evidencechain run") as stage:
        write_csv(long, stage / "metrics.csv")
        write_csv(pd.DataFrame(unit_rows), stage / "units.csv")
        write_csv(pd.DataFrame(shifts, columns=[*UNIT_COLUMNS, "feature", "kind", "detail", "share"]),
                  stage / "feature_shift.csv")
        write_csv(pd.concat(scores, ignore_index=True), stage / "response_scores.csv")
        if span_types:
            write_csv(pd.DataFrame(span_types), stage / "metrics_span_by_type.csv")
        for name, frames in claim_tables.items():
            write_csv(pd.concat(frames, ignore_index=True), stage / f"{name}.csv")
        if family is not None:
            write_csv(pd.DataFrame(grid).reindex(columns=GRID_COLUMNS), stage / "provenance_grid.csv")
            write_csv(pd.DataFrame(comps).drop_duplicates(ignore_index=True), stage / "provenance_components.csv")
        with watch("evaluate"):
            write_details(stage, config, corpora, units, details, long, watch, started, skipped_levels)
    _report_shift(shifts)
    if cache is not None:
        cache.close()
    return out


def _provenance_family(config: ExperimentConfig, cache, progress: bool) -> ProvenanceFamily | None:
    if "Provenance" not in config.detectors.response_methods:
        return None
    settings = prov.ProvenanceSettings.from_params(config.detectors.params.get("Provenance"))
    store = prov.EmbeddingStore(Path(config.cache_dir) / "embeddings.sqlite" if config.cache_dir else None)
    return ProvenanceFamily(settings, config.features, config.seed, config.detectors.params, cache, store, progress)


def _response_scores(unit: Unit, scored, model: EvidenceChain, results, labels: pd.Series) -> pd.DataFrame:
    """Test risk of every answer under every method (long format, for ROC curves)."""
    risks = {n: scored.responses.set_index("response_id")[f"risk_{n}"] for n in model.detector_names}
    for res in results:
        risks.update({m: test for m, (_, test) in res.scores.items()})
    frames = [pd.DataFrame({"unit": unit.label, "response_id": labels.index, "label": labels.to_numpy(),
                            "method": m, "risk": r.reindex(labels.index).to_numpy()}) for m, r in risks.items()]
    return pd.concat(frames, ignore_index=True)


def _report_shift(shifts: list[dict]) -> None:
    """One console line per unit whose scored features leave the fit's range (details: feature_shift.csv)."""
    by_unit: dict[str, list[str]] = {}
    for r in shifts:
        if r["share"] >= 0.01:
            by_unit.setdefault(r["unit"], []).append(f"{r['feature']} ({r['share']:.0%})")
    for unit, items in by_unit.items():
        log.warning("%s: %d feature(s) unseen or outside the fit's range for >=1%% of scored sentences: %s "
                    "(feature_shift.csv)", unit, len(items), ", ".join(items))
