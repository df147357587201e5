"""The checker's training config (`experiments/checker.toml`), validated up front like
experiment configs: unknown keys, types and ranges are errors naming the file and key."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError, did_you_mean
from ..schema import build_section, read_toml
from .settings import RECIPE_SOURCES, DataSettings, ModelSettings, TrainSettings


@dataclass
class CheckerConfig:
    name: str = "checker"
    seed: int = 17
    output_dir: str = "results/checker"
    """The model directory: weights, tokenizer, checker.json, card.json, MODEL_CARD.md."""
    work_dir: str = ".cache/checker-train"
    """Checkpoints of unfinished trainings (resumable), one folder per input hash."""
    data: DataSettings = field(default_factory=DataSettings)
    model: ModelSettings = field(default_factory=ModelSettings)
    train: TrainSettings = field(default_factory=TrainSettings)
    path: str = field(default="", metadata={"derived": True})

    def settings_json(self) -> str:
        """What decides the weights besides the pairs (the inputs hash covers it)."""
        keep = {"seed": self.seed, "model": asdict(self.model), "train": asdict(self.train),
                "validation_fraction": self.data.validation_fraction}
        keep["train"].pop("checkpoint_every")
        return json.dumps(keep, sort_keys=True)


SECTIONS = {"data": DataSettings, "model": ModelSettings, "train": TrainSettings}
POSITIVE = {"model": ("max_length",), "train": ("epochs", "batch_size", "lr", "threads", "checkpoint_every"),
            "data": ("max_premise_words",)}


def _check(config: CheckerConfig, where: str) -> None:
    for section, keys in POSITIVE.items():
        for key in keys:
            value = getattr(getattr(config, section), key)
            if value <= 0:
                raise ConfigError(f"{where} [{section}] {key}: must be positive, got {value!r}")
    recipe = config.data.recipe
    for name, count in recipe.items():
        if name not in RECIPE_SOURCES:
            raise ConfigError(f"{where} [data.recipe] {name}: unknown source{did_you_mean(name, RECIPE_SOURCES)}; "
                              f"known: {list(RECIPE_SOURCES)}")
        if not isinstance(count, int) or isinstance(count, bool) or count < -1:
            raise ConfigError(f"{where} [data.recipe] {name}: expected a count (-1 = all, 0 = none), got {count!r}")
    if not any(recipe.values()):
        raise ConfigError(f"{where} [data.recipe]: every source is 0; name at least one")
    if recipe.get("summedits") and not config.data.summedits_domains:
        raise ConfigError(f"{where} [data] summedits_domains: the summedits source needs its training domains "
                          "(leave-one-domain-out: never the domain it is scored on)")
    if not 0 < config.data.validation_fraction < 0.5:
        raise ConfigError(f"{where} [data] validation_fraction: expected a value in (0, 0.5), "
                          f"got {config.data.validation_fraction!r}")
    if not 0 <= config.model.freeze_layers <= 24:
        raise ConfigError(f"{where} [model] freeze_layers: expected 0..24, got {config.model.freeze_layers!r}")
    if config.train.device not in ("auto", "cpu", "cuda"):
        raise ConfigError(f"{where} [train] device: expected auto, cpu or cuda, got {config.train.device!r}")


def checker_config_from_dict(raw: dict[str, Any], where: str = "<checker config>") -> CheckerConfig:
    raw = dict(raw)
    built = {}
    for key, cls in SECTIONS.items():
        table = raw.pop(key, {})
        if key == "data" and isinstance(table, dict):
            table = dict(table)
            recipe = table.pop("recipe", None)
            built[key] = build_section(cls, table, f"{where} [{key}]")
            if recipe is not None:
                if not isinstance(recipe, dict):
                    raise ConfigError(f"{where} [data.recipe]: expected a table of source = count")
                built[key].recipe = dict(recipe)
        else:
            built[key] = build_section(cls, table, f"{where} [{key}]")
    config = build_section(CheckerConfig, raw, where)
    for key, value in built.items():
        setattr(config, key, value)
    config.path = where
    _check(config, where)
    return config


def load_checker_config(path: str | Path) -> CheckerConfig:
    return checker_config_from_dict(read_toml(path, "checker config"), str(path))
