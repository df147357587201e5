"""`evidencechain checker train`: pairs from the recipe, training, and the model directory
with its card. The result is cached by an input hash (the pairs and every setting that
decides the weights), so a second call with the same inputs trains nothing."""
from __future__ import annotations

import hashlib
import json
import platform
import shutil
import time
from dataclasses import asdict
from pathlib import Path

from ..errors import ResultError
from ..io import atomic_write_text, open_text, staged_directory, write_csv
from .config import CheckerConfig
from .records import LABELS, Pair

CARD = "card.json"
MODEL_FILES_SKIPPED = ("checkpoint.pt",)


def pairs_hash(pairs: list[Pair]) -> str:
    digest = hashlib.sha256()
    for p in pairs:
        digest.update(json.dumps([p.premise, p.claim, p.label, p.spans, p.token_labels, p.group],
                                 ensure_ascii=False).encode())
        digest.update(b"\n")
    return digest.hexdigest()


def inputs_hash(config: CheckerConfig, train: list[Pair], validation: list[Pair]) -> str:
    text = f"{config.settings_json()}\n{pairs_hash(train)}\n{pairs_hash(validation)}"
    return hashlib.sha256(text.encode()).hexdigest()


def read_card(model_dir: str | Path) -> dict | None:
    path = Path(model_dir) / CARD
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise ResultError(f"{path}: damaged model card ({exc})") from None


def build_training_data(config: CheckerConfig) -> tuple[list[Pair], list[Pair]]:
    from .pairs import build_pairs, split_by_group

    pairs = build_pairs(config.data.recipe, config.seed, _paths(config))
    return split_by_group(pairs, config.data.validation_fraction, config.seed)


def _paths(config: CheckerConfig) -> dict:
    paths = config.data.paths()
    paths["halueval_subsets"] = list(config.data.halueval_subsets)
    paths["summedits_domains"] = list(config.data.summedits_domains)
    paths["max_premise_words"] = config.data.max_premise_words
    return paths


def write_pairs(path: str | Path, train: list[Pair], validation: list[Pair]) -> Path:
    """The training and validation pairs as JSON Lines (.gz / .xz compressed by suffix), one
    pair per line with its `split`: built here, trained on another machine (`train --pairs`)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".part" + "".join(path.suffixes[-1:]))  # the suffix picks the compression
    try:
        with open_text(tmp, "wt") as handle:
            for split, pairs in (("train", train), ("validation", validation)):
                for p in pairs:
                    handle.write(json.dumps({"split": split, **asdict(p)}, ensure_ascii=False) + "\n")
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def read_pairs(path: str | Path) -> tuple[list[Pair], list[Pair]]:
    path = Path(path)
    if not path.is_file():
        raise ResultError(f"{path}: no such pairs file (write one with `evidencechain checker pairs`)")
    out: dict[str, list[Pair]] = {"train": [], "validation": []}
    with open_text(path) as handle:
        for n, line in enumerate(handle, 1):
            try:
                row = json.loads(line)
                split = row.pop("split")
                row["spans"] = tuple(tuple(s) for s in row["spans"])
                out[split].append(Pair(**row))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
                raise ResultError(f"{path}:{n}: not a checker pair ({exc})") from None
    return out["train"], out["validation"]


def train_checker(config: CheckerConfig, out: str | Path | None = None, progress: bool = True,
                  force: bool = False, pairs_file: str | Path | None = None) -> tuple[Path, bool]:
    """(model directory, trained now?). Up to date when its card records the same input hash.
    `pairs_file`: train on pairs written by `write_pairs` (from the same config) instead of
    building them here."""
    from .records import describe
    from .train import train

    out = Path(out or config.output_dir)
    t0 = time.perf_counter()
    train_pairs, validation = read_pairs(pairs_file) if pairs_file else build_training_data(config)
    if not train_pairs or not validation:
        raise ResultError(f"checker data: {len(train_pairs)} training and {len(validation)} validation pairs; "
                          "the recipe yields too little data (check [data] paths and [data.recipe])")
    key = inputs_hash(config, train_pairs, validation)
    card = read_card(out)
    if card and card.get("inputs_hash") == key and not force:
        return out, False
    data_seconds = time.perf_counter() - t0
    work = Path(config.work_dir) / key[:16]
    work.mkdir(parents=True, exist_ok=True)
    metrics = train(train_pairs, validation, config.model, config.train, work, config.seed,
                    progress=progress, inputs_hash=key)
    mix = describe(train_pairs + validation)
    with staged_directory(out, inputs=(config.path,)) as stage:
        for item in sorted(work.iterdir()):
            if item.is_file() and item.name not in MODEL_FILES_SKIPPED:
                shutil.copy2(item, stage / item.name)
        write_csv(mix, stage / "data_mix.csv")
        card = _card(config, key, train_pairs, validation, metrics, data_seconds)
        atomic_write_text(stage / CARD, json.dumps(card, indent=2, sort_keys=True) + "\n")
        atomic_write_text(stage / "MODEL_CARD.md", model_card_markdown(card, mix))
    shutil.rmtree(work, ignore_errors=True)
    return out, True


def _counts(pairs: list[Pair]) -> dict:
    out: dict[str, dict[str, int]] = {}
    for p in pairs:
        row = out.setdefault(p.source, dict.fromkeys(LABELS, 0))
        row[p.label] += 1
    return out


def _card(config: CheckerConfig, key: str, train_pairs: list[Pair], validation: list[Pair],
          metrics: dict, data_seconds: float) -> dict:
    import torch

    from ..runinfo import code_commit

    return {
        "name": config.name, "inputs_hash": key, "seed": config.seed, "config": config.path,
        "recipe": config.data.recipe, "data": asdict(config.data), "model": asdict(config.model),
        "train": asdict(config.train),
        "pairs": {"train": len(train_pairs), "validation": len(validation),
                  "train_by_source": _counts(train_pairs), "validation_by_source": _counts(validation),
                  "train_hash": pairs_hash(train_pairs), "validation_hash": pairs_hash(validation)},
        "metrics": metrics, "data_seconds": round(data_seconds, 1), "commit": code_commit(),
        "software": {"torch": torch.__version__, "python": platform.python_version(),
                     "machine": platform.machine(), "processor": platform.processor() or "unknown"},
    }


def model_card_markdown(card: dict, mix) -> str:
    m = card["metrics"]
    lines = [f"# Support checker `{card['name']}`", "",
             "A MiniLM cross-encoder trained by `evidencechain checker train` "
             f"(config `{card['config']}`, seed {card['seed']}, input hash `{card['inputs_hash'][:16]}`).",
             "Verdicts: supported / conflict / baseless per (evidence window, claim sentence); a token head marks "
             "unsupported claim words.", "",
             "## Data", "",
             f"{card['pairs']['train']} training and {card['pairs']['validation']} validation pairs "
             "(validation split by document, never straddling).", "",
             "| source | label | pairs |", "|---|---|--:|"]
    for (source, label), n in mix.groupby(["source", "label"])["pairs"].sum().items():
        lines.append(f"| {source} | {label} | {n} |")
    lines += ["", "Kinds (perturbation types and real labels): "
              + ", ".join(f"{k} {n}" for k, n in mix.groupby("kind")["pairs"].sum().items()) + "."]
    lines += ["", "## Training", "",
              f"- device: {m.get('device')}; wall time {m.get('wall_seconds', 0) / 60:.1f} min; "
              f"{m.get('steps')} steps; {m.get('pairs_per_second', 0):.1f} pairs/s",
              f"- encoder `{card['model']['base']}`, max length {card['model']['max_length']}, "
              f"frozen layers {card['model']['freeze_layers']}; epochs {card['train']['epochs']}, "
              f"batch {card['train']['batch_size']}, lr {card['train']['lr']}",
              "", "## Validation (held-out documents of the training sources; in-distribution)", ""]
    for k, v in sorted(m.items()):
        if isinstance(v, int | float) and k not in ("wall_seconds", "steps", "pairs_per_second"):
            lines.append(f"- {k}: {v:.4f}" if isinstance(v, float) else f"- {k}: {v}")
    lines += ["", "Benchmark numbers (`make benchmarks`) are in the README and the manuscript; "
              "they are measured by the experiment runner, never on these pairs.", ""]
    return "\n".join(lines)
