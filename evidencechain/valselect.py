"""Choosing a benchmark's design on its threshold split alone (its `val` cut), never its test split.

    python -m evidencechain.valselect CONFIG.toml --candidates CANDIDATES.toml

Every corpus whose format comes with predefined cuts (its loader takes `cuts`) is read with
its `val` cut only: the reader drops the `test` rows (`load_*(path, cuts=("val",))`), so no test
label or text reaches a feature, a fit or a score.
The `val` documents are then split in `folds` parts (stratified by summary label, grouped by
document; seed, seed + 1, ... for the `repeats`). For each part, that part plays the scored
`test` split and the other parts the `calibration` split; a corpus with `train_from_calibration`
(a second copy of the benchmark) moves that share of the other parts' documents to `train` (seeded, by document), so
its detectors are fitted on one share and calibrated on the rest, as in the full run. Each
evaluation of the config is then run exactly as `evidencechain run` runs it (`runner.UnitRunner`,
`plan.plan_units`): fit, thresholds on the calibration part, the held-out part scored once.

A candidate is the config with some keys replaced (`[[candidates]]` tables of the candidates file:
`name`, and `set`, a table merged into the config; the first candidate should set nothing: the
config as it is). Its score per (evaluation, detector): the mean, over repeats x folds, of the
held-out part's summary balanced accuracy at the calibrated threshold. The rule (`choose`): the
highest mean wins; a row within `tie` of the best loses to the one of an earlier candidate (then
of an earlier evaluation, then of an earlier detector in [detectors] names), so a change must beat
the current design by more than `tie` to be taken.
"""
from __future__ import annotations

import argparse
import copy
import inspect
import logging
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from .config import ExperimentConfig, config_from_dict, load_config
from .data.benchmarks import formats
from .data.load import SplitCorpus
from .data.splits import assign_splits
from .errors import ConfigError, InputError
from .io import check_cache_dir
from .plan import plan_units
from .runinfo import Stopwatch
from .runner import Collected, UnitRunner
from .schema import read_toml
from .text.parse import ParseCache

log = logging.getLogger(__name__)

VAL_CUT = "val"
KEYS = ["candidate", "evaluation", "method"]


def has_cuts(fmt: str) -> bool:
    """Whether the format's loader reads predefined val / test cuts (its `cuts` argument)."""
    loader = formats()[fmt].loader
    return loader is not None and "cuts" in inspect.signature(loader).parameters


def val_corpora(config: ExperimentConfig) -> dict[str, SplitCorpus]:
    """Every corpus of the config, those with cuts read with their `val` cut only (splits assigned
    later by `fold_corpora`); other corpora (fitted on, never scored here) split as a run splits them."""
    from .runner import load_corpora

    others = copy.deepcopy(config)
    others.corpora = {k: v for k, v in config.corpora.items() if not has_cuts(v.format)}
    out = load_corpora(others) if others.corpora else {}
    for name, spec in config.corpora.items():
        if has_cuts(spec.format):
            corpus = formats()[spec.format].loader(config.resolve(spec.path), cuts=(VAL_CUT,))
            corpus.name = name
            out[name] = SplitCorpus(name, corpus, {r.id: "calibration" for r in corpus.responses})
    return out


def scored_corpora(config: ExperimentConfig) -> list[str]:
    """The corpora the config scores; each must have predefined val / test cuts."""
    names = list(dict.fromkeys(n for e in config.evaluations for n in e.test))
    wrong = [n for n in names if not has_cuts(config.corpora[n].format)]
    if wrong:
        raise ConfigError(f"{config.path}: val-only selection scores corpora with predefined val / test cuts "
                          f"only; {', '.join(wrong)} {'has' if len(wrong) == 1 else 'have'} none")
    return names


def fold_parts(corpus: SplitCorpus, folds: int, seed: int) -> list[set[str]]:
    """The held-out documents (source ids) of each fold: stratified by label, grouped by document."""
    from sklearn.model_selection import StratifiedGroupKFold

    responses = corpus.corpus.responses
    y = np.array([int(r.hallucinated) for r in responses])
    groups = np.array([r.source_id for r in responses])
    split = StratifiedGroupKFold(n_splits=folds, shuffle=True, random_state=seed)
    return [set(groups[held]) for _, held in split.split(y, y, groups)]


def fold_corpora(corpora: dict[str, SplitCorpus], config: ExperimentConfig, held: set[str],
                 seed: int) -> dict[str, SplitCorpus]:
    """`corpora` with those of `val_corpora`'s cut split for one fold: `held` documents are the test
    part, the others calibration, of which a `train_from_calibration` share is moved to train."""
    out = dict(corpora)
    for name, spec in config.corpora.items():
        if not has_cuts(spec.format):
            continue
        corpus = corpora[name].corpus
        rest = corpus.subset(response_ids={r.id for r in corpus.responses if r.source_id not in held})
        moved = assign_splits(rest, 0.0, seed, spec.train_from_calibration) if spec.train_from_calibration else {}
        split = {r.id: "test" if r.source_id in held else
                 ("train" if moved.get(r.source_id) == "train" else "calibration") for r in corpus.responses}
        out[name] = SplitCorpus(name, corpus, split)
    return out


def score_config(config: ExperimentConfig, folds: int = 2, repeats: int = 5, progress: bool = False,
                 cache: ParseCache | None = None) -> pd.DataFrame:
    """Per repeat, fold, evaluation and detector: the held-out part's summary balanced accuracy and
    ROC-AUC (thresholds from the calibration part); see the module docstring."""
    scored = scored_corpora(config)
    corpora = val_corpora(config)
    runner = UnitRunner(config, corpora, cache, progress, Stopwatch())
    rows = []
    for repeat in range(repeats):
        seed = config.seed + repeat
        for k, held in enumerate(fold_parts(corpora[scored[0]], folds, seed)):
            runner.corpora = fold_corpora(corpora, config, held, seed)
            for unit in plan_units(config, runner.corpora):
                out = Collected()
                runner.run(unit, out)
                evaluation = f"{unit.fit} -> {unit.test}"
                rows += [{"evaluation": evaluation, "method": r["method"], "repeat": repeat, "fold": k,
                          "answers": len(unit.test_ids), "balanced_accuracy": r["balanced_accuracy"],
                          "roc_auc": r["roc_auc"], "threshold": r["threshold"]}
                         for r in out.long if r["level"] == "response" and r["family"] != "floor"]
    return pd.DataFrame(rows)


def read_candidates(path: str | Path) -> list[tuple[str, dict]]:
    """(name, replaced keys) of every `[[candidates]]` table of a candidates file."""
    raw = read_toml(path)
    items = raw.get("candidates")
    if not isinstance(items, list) or not items:
        raise ConfigError(f"{path}: expected [[candidates]] tables (name = ..., set = {{...}})")
    out = []
    for k, item in enumerate(items, 1):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or \
                not isinstance(item.get("set", {}), dict) or set(item) - {"name", "set"}:
            raise ConfigError(f"{path} [[candidates]] #{k}: expected name (a string) and set (a table) only")
        out.append((item["name"], item.get("set", {})))
    names = [n for n, _ in out]
    if len(set(names)) != len(names):
        raise ConfigError(f"{path} [[candidates]]: candidate names must be distinct, got {names}")
    return out


def _merge(base: dict, changes: dict) -> dict:
    out = dict(base)
    for key, value in changes.items():
        out[key] = _merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def candidate_config(path: str | Path, changes: dict, name: str) -> ExperimentConfig:
    """The config of `path` with `changes` merged in, validated like a file."""
    return config_from_dict(_merge(read_toml(path), changes), f"{path} (candidate {name!r})")


def summarize(rows: pd.DataFrame) -> pd.DataFrame:
    """Mean and sd over repeats x folds per candidate, evaluation and detector (input order kept)."""
    grouped = rows.groupby(KEYS, sort=False)
    table = grouped["balanced_accuracy"].agg(["mean", "std", "count"]).rename(
        columns={"mean": "balanced_accuracy", "std": "sd", "count": "scores"})
    table["roc_auc"] = grouped["roc_auc"].mean()
    return table.reset_index()


def choose(table: pd.DataFrame, tie: float) -> pd.Series:
    """The chosen row of `summarize`'s table (the rule in the module docstring)."""
    best = table["balanced_accuracy"].max()
    return table[table["balanced_accuracy"] >= best - tie - 1e-12].iloc[0]


def select(config_path: str | Path, candidates: list[tuple[str, dict]], folds: int = 2, repeats: int = 5,
           progress: bool = False) -> pd.DataFrame:
    """Every candidate's per-fold rows (`score_config`), in candidate order."""
    frames = []
    for name, changes in candidates:
        config = candidate_config(config_path, changes, name)
        cache = None
        if config.cache_dir:
            check_cache_dir(config.cache_dir, f"cache_dir in {config.path}")
            cache = ParseCache(Path(config.cache_dir) / "parse.sqlite")
        log.info("candidate %s", name)
        try:
            frame = score_config(config, folds, repeats, progress, cache)
        finally:
            if cache is not None:
                cache.close()
        frames.append(frame.assign(candidate=name))
    return pd.concat(frames, ignore_index=True)


def write_results(rows: pd.DataFrame, table: pd.DataFrame, out: Path, commit: str | None = None) -> None:
    """rows.csv, summary.csv and commit.txt (`commit`: the code's commit when the scoring began) in `out`."""
    from .io import atomic_write_text

    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "rows.csv", rows.to_csv(index=False))
    atomic_write_text(out / "summary.csv", table.to_csv(index=False))
    atomic_write_text(out / "commit.txt", f"{commit or 'unknown'}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evidencechain.valselect", description=__doc__.split("\n")[0])
    parser.add_argument("config", help="experiment TOML whose scored corpora have val / test cuts")
    parser.add_argument("--candidates", help="TOML file of [[candidates]] (default: the config as it is)")
    parser.add_argument("--only", action="append", metavar="NAME", help="score this candidate only (repeatable)")
    parser.add_argument("--folds", type=int, default=2, help="parts of val per repeat (default 2)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats, seeds seed..seed+repeats-1 (default 5)")
    parser.add_argument("--tie", type=float, default=0.005, help="margin a later candidate must beat (default 0.005)")
    parser.add_argument("--out", metavar="DIR", help="write rows.csv (every held-out part), summary.csv (the means, "
                        "the chosen row marked) and commit.txt into DIR (the README's val-select block reads them)")
    parser.add_argument("-q", "--quiet", action="store_true")
    args = parser.parse_args(argv)
    from .runinfo import code_commit

    commit = code_commit()
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO, format="%(message)s")
    try:
        if args.folds < 2 or args.repeats < 1:
            raise ConfigError("--folds must be at least 2 and --repeats at least 1")
        load_config(args.config)
        candidates = read_candidates(args.candidates) if args.candidates else [("as configured", {})]
        unknown = set(args.only or ()) - {n for n, _ in candidates}
        if unknown:
            raise ConfigError(f"--only: no candidate named {', '.join(sorted(unknown))}")
        candidates = [c for c in candidates if not args.only or c[0] in args.only]
        rows = select(args.config, candidates, args.folds, args.repeats, progress=not args.quiet)
    except (ConfigError, InputError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    table = summarize(rows)
    chosen = choose(table, args.tie)
    table["chosen"] = table.index == chosen.name
    if args.out:
        write_results(rows, table, Path(args.out), commit)
    with pd.option_context("display.width", 200, "display.max_rows", 500):
        print(table.round(4).to_string(index=False))
    print(f"chosen (highest mean val balanced accuracy; ties within {args.tie} to the earlier row): "
          f"{chosen['candidate']} / {chosen['evaluation']} / {chosen['method']}: "
          f"{chosen['balanced_accuracy']:.4f} (sd {chosen['sd']:.4f}, {int(chosen['scores'])} scores)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
