"""Experiment configuration: one TOML file is the whole description of a run.

A run names its corpora (`[corpora.NAME]`, one adapter each) and its evaluations
(`[[evaluations]]`: fit on one corpus, calibrate on it or on the scored corpus, score
others once). Every key is checked up front against the typed schema below: its type,
range and allowed names, with a did-you-mean for unknown names; each error names the
file and the key.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .aggregate import AGGREGATIONS
from .checker.settings import QUANTIZATIONS
from .data.benchmarks import formats
from .data.load import CorpusConfig
from .errors import ConfigError, did_you_mean
from .features import FeatureConfig
from .features.families import FAMILIES, feature_groups
from .schema import build_section, choice, read_toml, type_ok, value_range

RESPONSE_METHODS = ("Provenance", "Length")
THRESHOLD_METRICS = ("f1", "balanced_accuracy")
CALIBRATE_ON = ("fit", "test")


@dataclass
class EvaluationSpec:
    """One `[[evaluations]]` entry: fit on `fit`, calibrate, score each of `test` once."""

    fit: str = ""
    test: list[str] = field(default_factory=list)
    calibrate: str = field(default="fit", metadata=choice(*CALIBRATE_ON))
    """'fit': thresholds from the fit corpus's calibration split; 'test': from the scored
    corpus's own calibration split (benchmarks with a predefined threshold split)."""
    per_subset: bool = False
    """Calibrate and score each subset (task, domain) separately."""
    leave_subset_out: bool = False
    """With fit == test and per_subset: fit on every other subset (leave-one-domain-out)."""
    threshold_metric: str = field(default="f1", metadata=choice(*THRESHOLD_METRICS))
    fit_split: str = field(default="train", metadata=choice("train", "test"))
    """The fit corpus's split that fits the detectors ('test' for corpora without a train
    split, when they are fitted on and scored elsewhere)."""
    response_methods: bool = True
    """Also score [detectors] response_methods (Provenance, Length) in this evaluation."""
    stack: bool = False
    """Also fit `calibrate`'s stacker (`detect.stack`) on the calibration split over the calibrated
    detectors, its threshold by `threshold_metric` on out-of-fold probabilities; reported as the
    detector 'Stacked' (its words those of [detectors] primary)."""


@dataclass
class DetectorConfig:
    names: list[str] = field(default_factory=list)
    primary: str = "EvidenceChain_RF"
    response_aggregation: str = field(default="max", metadata=choice(*AGGREGATIONS, "auto"))
    """'auto': per detector, the aggregation with the best calibration ROC-AUC."""
    response_methods: list[str] = field(default_factory=list)
    """Response-level families scored beside the detectors: Provenance, Length (diagnostic)."""
    params: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass
class EvaluationConfig:
    ablation: bool = False
    ablation_detector: str = "EvidenceChain_RF"
    coverage_bins: list[float] = field(default_factory=lambda: [0.0, 0.2, 0.4, 0.6, 0.8, 1.0])
    cross_corpus_metadata: bool = False
    """Keep the metadata feature group (generator, temperature, collection) when the fit and
    scored corpora differ. Off by default: those are properties of a corpus, not of an
    answer's support, and they extrapolate silently."""


@dataclass
class ExperimentConfig:
    name: str = "experiment"
    seed: int = field(default=17, metadata=value_range(0, 2**32 - 1))
    output_dir: str = "results/experiment"
    cache_dir: str = ".cache"
    corpora: dict[str, CorpusConfig] = field(default_factory=dict)
    evaluations: list[EvaluationSpec] = field(default_factory=list)
    features: FeatureConfig = field(default_factory=FeatureConfig)
    detectors: DetectorConfig = field(default_factory=DetectorConfig)
    evaluation: EvaluationConfig = field(default_factory=EvaluationConfig)
    path: str = field(default="", metadata={"derived": True})
    """The file this config was read from."""

    def resolve(self, value: str) -> Path:
        """A path from the config, relative to the current directory (the project root)."""
        return Path(value).expanduser()

    def to_dict(self) -> dict:
        return asdict(self)

    @property
    def input_paths(self) -> list[Path]:
        """Every file or directory the corpora read (outputs may never replace them)."""
        out = []
        for c in self.corpora.values():
            out += [self.resolve(p) for p in (c.response_jsonl, c.source_info_jsonl, c.path) if p]
        return out


# -- validation -----------------------------------------------------------------------------

def _check_detector_params(params: dict, where: str) -> None:
    from .detectors import DETECTORS

    for name, table in params.items():
        if name in RESPONSE_METHODS:
            if name == "Provenance":
                from .detectors.provenance import ProvenanceSettings
                try:
                    ProvenanceSettings.from_params(table)
                except ConfigError as exc:
                    raise ConfigError(f"{where.split(' [')[0]} {exc}") from None
            continue
        if name not in DETECTORS:
            raise ConfigError(f"{where}.{name}: unknown detector{did_you_mean(name, [*DETECTORS, *RESPONSE_METHODS])}")
        if not isinstance(table, dict):
            raise ConfigError(f"{where}.{name}: expected a table")
        accepted = {k: v for k, v in DETECTORS[name].default_params().items() if k != "random_state"}
        for key, value in table.items():
            if key not in accepted:
                raise ConfigError(f"{where}.{name} {key}: unknown parameter{did_you_mean(key, accepted)}; "
                                  f"expected some of {sorted(accepted)}")
            default = accepted[key]
            if key == "groups":
                known = feature_groups()
                if not (isinstance(value, list) and all(g in known or g == "coverage_only" for g in value)):
                    raise ConfigError(f"{where}.{name} groups: expected a list of {list(known)}, "
                                      f"got {value!r}")
            elif key in getattr(DETECTORS[name], "param_choices", {}):
                choices = DETECTORS[name].param_choices[key]
                if value not in choices:
                    raise ConfigError(f"{where}.{name} {key}: expected one of {list(choices)}, got {value!r}")
            elif isinstance(default, bool | int | float) and not type_ok(value, type(default)):
                raise ConfigError(f"{where}.{name} {key}: expected {type(default).__name__}, "
                                  f"got {type(value).__name__} {value!r}")
            elif isinstance(default, int | float) and not isinstance(default, bool) and value <= 0:
                raise ConfigError(f"{where}.{name} {key}: must be positive, got {value!r}")


FEATURE_RANGES = {"bm25_k1": (0.0, None), "bm25_b": (0.0, 1.0), "bm25_delta": (0.0, None),
                  "tfidf_ngram_max": (1, 5)}


def _check_features(features: FeatureConfig, where: str) -> None:
    for name in features.families:
        if not isinstance(name, str) or name not in FAMILIES:
            raise ConfigError(f"{where} families: unknown feature family {name!r}{did_you_mean(name, FAMILIES)}")
    if features.checker_quantize not in QUANTIZATIONS:
        raise ConfigError(f"{where} checker_quantize: expected one of {list(QUANTIZATIONS)}, "
                          f"got {features.checker_quantize!r}")
    if features.checker_windows < 1:
        raise ConfigError(f"{where} checker_windows: must be positive, got {features.checker_windows!r}")
    for key, (lo, hi) in FEATURE_RANGES.items():
        value = getattr(features, key)
        if not lo <= value or (hi is not None and value > hi) or (key == "bm25_k1" and value == 0):
            bound = f"[{lo}, {hi}]" if hi is not None else f"> {lo}" if key == "bm25_k1" else f">= {lo}"
            raise ConfigError(f"{where} {key}: {value!r} is out of range (expected {bound})")


def _check_references(config: ExperimentConfig, where: str) -> None:
    from .detectors import DETECTORS

    d = config.detectors
    for name in d.names:
        if name not in DETECTORS:
            raise ConfigError(f"{where} [detectors] names: unknown detector {name!r}"
                              f"{did_you_mean(name, DETECTORS)}; known: {sorted(DETECTORS)}")
    if not d.names:
        raise ConfigError(f"{where} [detectors] names: name at least one detector")
    if d.primary not in d.names:
        raise ConfigError(f"{where} [detectors] primary: {d.primary!r} is not among names {d.names}")
    for name in d.response_methods:
        if name not in RESPONSE_METHODS:
            raise ConfigError(f"{where} [detectors] response_methods: unknown {name!r}"
                              f"{did_you_mean(name, RESPONSE_METHODS)}; known: {list(RESPONSE_METHODS)}")
    _check_detector_params(d.params, f"{where} [detectors.params")
    _check_features(config.features, f"{where} [features]")
    if config.evaluation.ablation and config.evaluation.ablation_detector not in d.names:
        raise ConfigError(f"{where} [evaluation] ablation_detector: {config.evaluation.ablation_detector!r} "
                          f"is not among [detectors] names")
    bins = config.evaluation.coverage_bins
    if len(bins) < 2 or any(b <= a for a, b in zip(bins, bins[1:])) or bins[0] < 0 or bins[-1] > 1:
        raise ConfigError(f"{where} [evaluation] coverage_bins: expected increasing edges in [0, 1], got {bins}")
    for name, c in config.corpora.items():
        sec = f"{where} [corpora.{name}]"
        if c.format == "ragtruth" and not (c.response_jsonl and c.source_info_jsonl):
            raise ConfigError(f"{sec}: format 'ragtruth' needs response_jsonl and source_info_jsonl")
        if c.format == "planted" and bool(c.response_jsonl) != bool(c.source_info_jsonl):
            raise ConfigError(f"{sec}: format 'planted' merges a RAGTruth-format corpus only when both "
                              f"response_jsonl and source_info_jsonl are given")
        if formats()[c.format].needs_path and not c.path:
            raise ConfigError(f"{sec} path: format {c.format!r} needs a path")
        allowed = _subsets_of(c.format)
        for subset in c.subsets:
            if subset not in allowed:
                raise ConfigError(f"{sec} subsets: {subset!r} is not a subset of format {c.format!r}"
                                  f"{did_you_mean(subset, allowed)}; known: {list(allowed)}")
    if not config.evaluations:
        raise ConfigError(f"{where}: no [[evaluations]]; name at least one (fit = ..., test = [...])")
    for k, e in enumerate(config.evaluations, 1):
        sec = f"{where} [[evaluations]] #{k}"
        for name in [e.fit, *e.test]:
            if name not in config.corpora:
                raise ConfigError(f"{sec}: corpus {name!r} is not defined{did_you_mean(name, config.corpora)}; "
                                  f"defined: {sorted(config.corpora)}")
        if not e.test:
            raise ConfigError(f"{sec} test: name at least one corpus to score")
        if e.leave_subset_out and not (e.per_subset and e.test == [e.fit] and e.calibrate == "test"):
            raise ConfigError(f"{sec} leave_subset_out: needs per_subset = true, test = [fit] and "
                              "calibrate = 'test' (thresholds from the held-out subset's calibration split)")
        if e.fit_split == "test" and e.fit in e.test and not e.leave_subset_out:
            raise ConfigError(f"{sec} fit_split: fitting on the test split of {e.fit!r} and scoring that "
                              "same split would leak; score other corpora, or use leave_subset_out")
        used = [e.fit] + (e.test if e.calibrate == "test" else [])
        for name in used:
            if config.corpora[name].test_only:
                raise ConfigError(f"{sec}: corpus {name!r} is test_only: nothing may be fitted or "
                                  "calibrated on it")


def _subsets_of(fmt: str) -> tuple[str, ...]:
    return formats()[fmt].subsets


def _build_corpora(raw: Any, where: str) -> dict[str, CorpusConfig]:
    if not isinstance(raw, dict):
        raise ConfigError(f"{where} [corpora]: expected tables [corpora.NAME]")
    return {name: build_section(CorpusConfig, table, f"{where} [corpora.{name}]") for name, table in raw.items()}


def _build_evaluations(raw: Any, where: str) -> list[EvaluationSpec]:
    if not isinstance(raw, list):
        raise ConfigError(f"{where} evaluations: expected an array of tables [[evaluations]]")
    out = []
    for k, table in enumerate(raw, 1):
        if isinstance(table, dict) and isinstance(table.get("test"), str):
            table = {**table, "test": [table["test"]]}
        out.append(build_section(EvaluationSpec, table, f"{where} [[evaluations]] #{k}"))
    return out


SECTIONS = {"features": FeatureConfig, "detectors": DetectorConfig, "evaluation": EvaluationConfig}


def config_from_dict(raw: dict, where: str = "<config>") -> ExperimentConfig:
    raw = dict(raw)
    section = raw.get("detectors")
    if isinstance(section, dict) and isinstance(section.get("names"), list) and not section["names"]:
        raise ConfigError(f"{where} [detectors] names: empty; name at least one detector, or leave "
                          f"the key out for the default detectors")
    corpora = _build_corpora(raw.pop("corpora", {}), where)
    evaluations = _build_evaluations(raw.pop("evaluations", []), where)
    built = {key: build_section(cls, raw.pop(key, {}), f"{where} [{key}]") for key, cls in SECTIONS.items()}
    config = build_section(ExperimentConfig, raw, where)
    config.corpora, config.evaluations = corpora, evaluations
    for key, value in built.items():
        setattr(config, key, value)
    if not config.detectors.names:
        from .detectors import DEFAULT_DETECTORS
        config.detectors.names = list(DEFAULT_DETECTORS)
    config.path = where
    _check_references(config, where)
    return config


def load_config(path: str | Path) -> ExperimentConfig:
    """Read and validate an experiment TOML file (every error names the file and key)."""
    return config_from_dict(read_toml(path), str(path))


def revalidate(config: ExperimentConfig) -> ExperimentConfig:
    """Check a config changed in code (CLI overrides, tests) exactly as a file would be."""
    raw = asdict(config)
    raw.pop("path")
    raw["features"] = {k: v for k, v in raw["features"].items() if v is not None}
    return config_from_dict(raw, config.path or "<config>")


def apply_overrides(config: ExperimentConfig, *, response_jsonl: str | None = None,
                    source_info_jsonl: str | None = None, test_response_jsonl: str | None = None,
                    test_source_info_jsonl: str | None = None, seed: int | None = None,
                    limit: int | None = None, checker: str | None = None) -> ExperimentConfig:
    """Command-line overrides, validated like the file: RAGTruth files replace the first
    evaluation's fit corpus; test files become a test-only corpus scored by every evaluation;
    `checker` replaces `[features] checker` (absent, its rows are skipped as with the key)."""
    for a, b, what in ((response_jsonl, source_info_jsonl, ""), (test_response_jsonl, test_source_info_jsonl,
                                                                   "test-")):
        if bool(a) != bool(b):
            raise ConfigError(f"--{what}response-jsonl and --{what}source-info-jsonl go together")
    first = config.evaluations[0]
    if response_jsonl:
        config.corpora[first.fit] = CorpusConfig(format="ragtruth", response_jsonl=response_jsonl,
                                                 source_info_jsonl=source_info_jsonl,
                                                 quality=config.corpora[first.fit].quality)
    if test_response_jsonl:
        config.corpora["test"] = CorpusConfig(format="ragtruth", response_jsonl=test_response_jsonl,
                                              source_info_jsonl=test_source_info_jsonl,
                                              quality=config.corpora[first.fit].quality,
                                              test_only=True)
        for e in config.evaluations:
            e.test, e.per_subset, e.leave_subset_out, e.calibrate = ["test"], False, False, "fit"
    if seed is not None:
        config.seed = seed
    if limit is not None:
        for c in config.corpora.values():
            c.limit = limit
    if checker is not None:
        config.features.checker = checker
    return revalidate(config)
