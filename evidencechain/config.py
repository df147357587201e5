"""Experiment configuration: one TOML file is the whole description of a run."""
from __future__ import annotations

import tomllib
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from .errors import ConfigError
from .features import FeatureConfig
from .model import ALL_DETECTORS




@dataclass
class DataConfig:
    format: str = "ragtruth"
    """'ragtruth' (response.jsonl + source_info.jsonl) or 'halueval'."""
    response_jsonl: str = "data/audit/response.jsonl"
    source_info_jsonl: str = "data/audit/source_info.jsonl"
    quality: list[str] = field(default_factory=lambda: ["good"])
    calibration_fraction: float = 0.2
    test_response_jsonl: str = ""
    """Optional second corpus to evaluate on (cross-corpus); its test rows, or all rows."""
    test_source_info_jsonl: str = ""
    halueval_dir: str = "../shared/data/halueval"
    halueval_subsets: list[str] = field(default_factory=lambda: ["qa", "dialogue", "summarization"])
    limit: int = 0
    """HaluEval: records per subset (0 = all)."""
    test_fraction: float = 0.3


@dataclass
class DetectorConfig:
    names: list[str] = field(default_factory=lambda: list(ALL_DETECTORS))
    primary: str = "EvidenceChain_RF"
    response_aggregation: str = "max"
    params: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass
class EvaluationConfig:
    ablation: bool = True
    ablation_detector: str = "EvidenceChain_RF"
    coverage_bins: list[float] = field(default_factory=lambda: [0.0, 0.2, 0.4, 0.6, 0.8, 1.0])


@dataclass
class ExperimentConfig:
    name: str = "audit"
    seed: int = 17
    output_dir: str = "results/audit"
    cache_dir: str = ".cache"
    data: DataConfig = field(default_factory=DataConfig)
    features: FeatureConfig = field(default_factory=FeatureConfig)
    detectors: DetectorConfig = field(default_factory=DetectorConfig)
    evaluation: EvaluationConfig = field(default_factory=EvaluationConfig)
    path: str = ""
    """The file this config was read from (resolves relative data paths)."""

    def resolve(self, value: str) -> Path:
        """A path from the config, relative to the current directory (the project root)."""
        return Path(value).expanduser()

    def to_dict(self) -> dict:
        return asdict(self)


def _build(cls, table: dict, where: str):
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: expected a table, got {type(table).__name__}")
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(table) - known)
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {unknown}; expected some of {sorted(known)}")
    return cls(**table)


def load_config(path: str | Path, overrides: dict[str, Any] | None = None) -> ExperimentConfig:
    """Read an experiment TOML file; unknown keys are errors that name the section."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise ConfigError(f"experiment config not found: {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    raw.update(overrides or {})
    sections = {"data": DataConfig, "features": FeatureConfig, "detectors": DetectorConfig,
                "evaluation": EvaluationConfig}
    built = {key: _build(cls, raw.pop(key, {}), f"{path} [{key}]") for key, cls in sections.items()}
    config = _build(ExperimentConfig, raw, str(path))
    for key, value in built.items():
        setattr(config, key, value)
    config.path = str(path)
    return config
