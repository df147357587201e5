"""The one experiment runner: any corpora, fit on X, calibrate on X or Y, score Y once.

    config = load_config("experiments/audit.toml")
    run(config)        # -> results/audit/ (metrics.csv, units.csv, run.json, ...)

An evaluation expands into units (`plan`), one per scored corpus (and subset, with
`per_subset`): supervised detectors are fitted on the fit corpus's train split (or, leaving one
subset out, on every other subset), thresholds are chosen on a calibration split, and the test
split is scored once (`UnitRunner`). Every unit adds rows to `metrics.csv` (`evaluate`); the
first unit also writes the detailed tables the report reads (`experiment.write_details`).
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from tqdm.auto import tqdm

from .config import ExperimentConfig
from .data.load import SplitCorpus, load_split_corpus
from .detectors import feature_families, reads_training_claims
from .detectors import provenance as prov
from .detectors.response_methods import Part, ProvenanceFamily, length_scores
from .errors import InputError
from .evaluate import (
    GRID_COLUMNS,
    LONG_COLUMNS,
    grid_rows,
    response_method_rows,
    span_type_table,
    unit_claim_tables,
    unit_metrics,
)
from .experiment import RunDetails, UnitDetails, write_details
from .features import FeatureExtractor, FeatureTables, configure
from .io import check_cache_dir, check_output_dir, stable_hash, staged_directory, write_csv
from .model import EvidenceChain, ScoredTables
from .plan import (
    UNIT_COLUMNS,
    Unit,
    check_fit_classes,
    detector_params,
    plan_units,
    skipped_levels,
    unit_detectors,
)
from .runinfo import Stopwatch
from .shift import feature_shift
from .text.parse import ParseCache

log = logging.getLogger(__name__)


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
        self.claims_for: dict[str, set[str]] | None = None
        """Per corpus, the answers whose claim triplets are read (`claim_answers`; None: all)."""

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
            extractor = FeatureExtractor(self.features, cache=self.cache)
            if corpus.name in self.base:  # same pipeline and BM25 settings: its sources are indexed already
                extractor.index_memo = {ix.evidence: ix for ix in self.base[corpus.name][1].indices.values()}
            with self.watch("features"):
                self.extractors[key] = extractor.fit(part, self.progress)
        return self.extractors[key]

    def tables(self, corpus: SplitCorpus, ids: list[str], extractor: FeatureExtractor) -> FeatureTables:
        if corpus.name not in self.base:
            with self.watch("parse"):
                extractor.preparse(corpus.corpus, progress=self.progress)
            with self.watch("features"):
                self.base[corpus.name] = (extractor, extractor.transform(
                    corpus.corpus, self.progress, with_tokens=corpus.corpus.span_labels,
                    claims_for=None if self.claims_for is None else self.claims_for.get(corpus.name, set())))
        made_by, tables = self.base[corpus.name]
        with self.watch("features"):
            part = slice_tables(tables, ids)
            if made_by is not extractor:
                extractor.refit_columns(part)
        return part


@dataclass
class Collected:
    """The rows every unit adds to the run's CSVs."""

    long: list[dict] = field(default_factory=list)
    units: list[dict] = field(default_factory=list)
    shifts: list[dict] = field(default_factory=list)
    grid: list[dict] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)
    scores: list[pd.DataFrame] = field(default_factory=list)
    span_types: list[dict] = field(default_factory=list)
    claims: dict[str, list[pd.DataFrame]] = field(default_factory=dict)


class UnitRunner:
    """Fits, calibrates and scores one unit at a time; feature tables and fitted detectors are
    shared between the units that can share them."""

    def __init__(self, config: ExperimentConfig, corpora: dict[str, SplitCorpus], cache: ParseCache | None,
                 progress: bool, watch: Stopwatch):
        self.config, self.corpora, self.cache, self.watch = config, corpora, cache, watch
        self.store = TableStore(config, cache, progress, watch)
        self.family = _provenance_family(config, cache, progress)
        self.fitted: dict[tuple, dict] = {}

    def model(self, unit: Unit, extractor: FeatureExtractor, train: FeatureTables, calibration: FeatureTables,
              span_labels: bool) -> tuple[EvidenceChain, list[str], ScoredTables]:
        """The unit's calibrated model (detectors fitted once per extractor and parameters), the
        reasons for the detectors it leaves out, and the calibration tables it scored."""
        config = self.config
        names, primary, dropped = unit_detectors(config, self.corpora[unit.fit].corpus)
        params = {k: v for k, v in detector_params(config, unit).items() if k in names}
        settings = dict(detectors=names, primary=primary, features=self.store.features, random_state=config.seed,
                        response_aggregation=config.detectors.response_aggregation, detector_params=params,
                        cache=self.cache, threshold_metric=unit.spec.threshold_metric)
        with self.watch("fit"):
            key = (id(extractor), repr(sorted(params.items())))
            if key in self.fitted:
                model = EvidenceChain.from_parts(extractor, self.fitted[key], **settings)
            else:
                model = EvidenceChain.from_parts(extractor, **settings).fit_detectors(train, corpus=unit.fit)
                self.fitted[key] = model.detectors
            cal_scored = model.calibrate_scored(calibration, span_labels=span_labels)
            if unit.spec.stack:
                from types import SimpleNamespace

                from .detect.stack import stack
                stack(model, SimpleNamespace(tables=calibration), seed=config.seed, metric=unit.spec.threshold_metric)
                cal_scored = model.score_tables(calibration, evidence=False)
        return model, dropped, cal_scored

    def run(self, unit: Unit, out: Collected) -> UnitDetails:
        """Score `unit` and add its rows to `out`; what the detailed tables need of it."""
        corpora, watch = self.corpora, self.watch
        extractor = self.store.extractor(corpora[unit.fit], unit.fit_ids)
        train = self.store.tables(corpora[unit.fit], unit.fit_ids, extractor)
        calibration = self.store.tables(corpora[unit.calibration], unit.calibration_ids, extractor)
        test = self.store.tables(corpora[unit.test], unit.test_ids, extractor)
        skipped = skipped_levels(unit, corpora)
        model, dropped, cal_scored = self.model(unit, extractor, train, calibration,
                                                span_labels="word" not in skipped)
        with watch("score"):
            scored = model.score_tables(test)  # the test split is scored exactly once
        test_corpus = corpora[unit.test].corpus.subset(response_ids=set(unit.test_ids))
        names = list(model.detector_names)
        with watch("evaluate"):
            out.long += unit_metrics(unit, model, cal_scored, scored, test_corpus, skipped)
            if "word" in model.thresholds[model.primary] and len(scored.tokens):
                out.span_types += [{**unit.row(), **r} for r in
                                   span_type_table(scored, test_corpus, names).to_dict("records")]
            for name, frame in unit_claim_tables(unit.row(), scored, test_corpus, names).items():
                out.claims.setdefault(name, []).append(frame)
        labels_cal = cal_scored.responses.set_index("response_id")["label"]
        labels_test = scored.responses.set_index("response_id")["label"]
        with watch("response methods"):
            results = self.response_methods(unit, extractor, (train, calibration, test), labels_cal, labels_test)
        for res in results:
            out.long += response_method_rows(unit, res, labels_cal, labels_test)
            out.grid += grid_rows(unit, res, labels_cal, labels_test)
            out.components += [{**unit.row(), **c} for c in res.components]
        out.scores.append(_response_scores(unit, scored, model, results, labels_test))
        out.shifts += [{**unit.row(), **r} for r in feature_shift(train.sentences, test.sentences, model)]
        out.units.append({**unit.row(), "fit_answers": len(unit.fit_ids),
                          "calibration_answers": len(unit.calibration_ids), "test_answers": len(unit.test_ids),
                          "metadata_features": any("metadata" in getattr(d, "groups", ())
                                                   for d in model.detectors.values()),
                          "skipped": "; ".join([f"{lv}: {why}" for lv, why in skipped.items()] + dropped)})
        return UnitDetails(unit, model, train, calibration, test, scored)

    def response_methods(self, unit: Unit, extractor: FeatureExtractor, tables: tuple, labels_cal: pd.Series,
                         labels_test: pd.Series) -> list:
        """Scores of the response-level families (Length, Provenance) the unit asks for."""
        if not unit.spec.response_methods:
            return []
        train, calibration, test = tables
        results = []
        if "Length" in self.config.detectors.response_methods:
            results.append(length_scores(Part(None, calibration, labels_cal), Part(None, test, labels_test)))
        if self.family is not None:
            corpora = self.corpora
            parts = [Part(corpora[c].corpus.subset(response_ids=set(ids)), t, lab) for c, ids, t, lab in (
                (unit.fit, unit.fit_ids, train, None), (unit.calibration, unit.calibration_ids, calibration,
                                                        labels_cal), (unit.test, unit.test_ids, test, labels_test))]
            results.append(self.family.score(unit.subset, *parts, extractor.vectorizer))
        return results


def load_corpora(config: ExperimentConfig) -> dict[str, SplitCorpus]:
    """Every corpus of `config`, split; a corpus without gold labels is an error."""
    corpora = {name: load_split_corpus(spec, name, config.seed) for name, spec in config.corpora.items()}
    for c in corpora.values():
        if not c.corpus.labelled:
            raise InputError(f"corpus {c.name!r} has no gold labels: nothing to evaluate "
                             "(score unlabelled answers with `evidencechain detect`)")
    return corpora


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
        corpora = load_corpora(config)
        units = plan_units(config, corpora)
        check_fit_classes(config, corpora, units)
    runner = UnitRunner(config, corpora, cache, progress, watch)
    runner.store.claims_for = claim_answers(config, units)
    collected, first = Collected(), None
    for unit in tqdm(units, desc="evaluations", disable=not progress or len(units) < 2, unit="unit"):
        log.info("unit %s", unit.label)
        details = runner.run(unit, collected)
        first = first or details
    watch.families = runner.store.family_report()
    with staged_directory(out, inputs=inputs, command="evidencechain run") as stage:
        _write_rows(stage, collected, provenance=runner.family is not None)
        with watch("evaluate"):
            write_details(stage, RunDetails(config, corpora, units, first, watch, started))
    _report_shift(collected.shifts)
    if cache is not None:
        cache.close()
    return out


def claim_answers(config: ExperimentConfig, units: list[Unit]) -> dict[str, set[str]] | None:
    """Per corpus, the answers whose claim triplets some unit reads: those it calibrates on or
    scores; None (every answer) where a detector reads the claims of its training answers
    (`reads_training_claims`)."""
    if reads_training_claims(config.detectors.names):
        return None
    out: dict[str, set[str]] = {}
    for unit in units:
        out.setdefault(unit.calibration, set()).update(unit.calibration_ids)
        out.setdefault(unit.test, set()).update(unit.test_ids)
    return out


def _write_rows(stage: Path, rows: Collected, provenance: bool) -> None:
    """The CSVs every unit adds to: metrics.csv, units.csv, feature_shift.csv, response_scores.csv, ..."""
    write_csv(pd.DataFrame(rows.long, columns=LONG_COLUMNS), stage / "metrics.csv")
    write_csv(pd.DataFrame(rows.units), stage / "units.csv")
    write_csv(pd.DataFrame(rows.shifts, columns=[*UNIT_COLUMNS, "feature", "kind", "detail", "share"]),
              stage / "feature_shift.csv")
    write_csv(pd.concat(rows.scores, ignore_index=True), stage / "response_scores.csv")
    if rows.span_types:
        write_csv(pd.DataFrame(rows.span_types), stage / "metrics_span_by_type.csv")
    for name, frames in rows.claims.items():
        write_csv(pd.concat(frames, ignore_index=True), stage / f"{name}.csv")
    if provenance:
        write_csv(pd.DataFrame(rows.grid).reindex(columns=GRID_COLUMNS), stage / "provenance_grid.csv")
        write_csv(pd.DataFrame(rows.components).drop_duplicates(ignore_index=True),
                  stage / "provenance_components.csv")


def _provenance_family(config: ExperimentConfig, cache, progress: bool) -> ProvenanceFamily | None:
    if "Provenance" not in config.detectors.response_methods:
        return None
    settings = prov.ProvenanceSettings.from_params(config.detectors.params.get("Provenance"))
    store = prov.EmbeddingStore(Path(config.cache_dir) / "embeddings.sqlite" if config.cache_dir else None)
    return ProvenanceFamily(settings, config.features, config.seed, config.detectors.params, cache, store, progress)


def _response_scores(unit: Unit, scored, model: EvidenceChain, results, labels: pd.Series) -> pd.DataFrame:
    """Test risk of every answer under every method (long format, for ROC curves)."""
    risks = {n: scored.responses.set_index("response_id")[f"risk_{n}"] for n in model.reportable()}
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
