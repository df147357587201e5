"""Source-level train / calibration / test partition."""
from __future__ import annotations

from collections import defaultdict

from ..errors import ConfigError, InputError
from ..io import stable_hash
from ..records import Corpus

SPLIT_NAMES = ("train", "calibration", "test")


def _largest_remainder(sizes: dict[str, int], total: int) -> dict[str, int]:
    n = sum(sizes.values())
    if n == 0:
        return {k: 0 for k in sizes}
    exact = {k: total * v / n for k, v in sizes.items()}
    alloc = {k: int(e) for k, e in exact.items()}
    order = sorted(sizes, key=lambda k: (-(exact[k] - alloc[k]), k))
    for k in order[: total - sum(alloc.values())]:
        alloc[k] += 1
    return alloc


def assign_splits(corpus: Corpus, calibration_fraction: float = 0.2, seed: int = 17,
                  train_from_calibration: float = 0.0) -> dict[str, str]:
    """Map every source_id to 'train', 'calibration' or 'test'.

    Test sources are those whose responses carry split == 'test', and sources whose responses
    carry split == 'calibration' (set by an adapter with a predefined threshold split) stay
    calibration, except round(train_from_calibration * n) of them (smallest seeded hash) that
    move to train. Further calibration sources are carved from the train sources: round(fraction * n_train) of them, allocated across task
    types in proportion to their size, and within a task type the sources with the smallest
    seeded hash of `source_id`. The rule depends only on the seed and the source ids.
    """
    if not 0.0 <= calibration_fraction < 1.0:
        raise ConfigError(f"calibration_fraction must be in [0, 1), got {calibration_fraction}")
    split_of: dict[str, set[str]] = defaultdict(set)
    for r in corpus.responses:
        split_of[r.source_id].add(r.split)
    mixed = sorted(s for s, v in split_of.items() if len(v) > 1)
    if mixed:
        raise InputError(f"{len(mixed)} source(s) have responses in more than one split "
                         f"(e.g. {mixed[0]!r}: {sorted(split_of[mixed[0]])}); splits must be by source_id")
    out = {s: next(iter(v)) for s, v in split_of.items()}
    if not 0.0 <= train_from_calibration < 1.0:
        raise ConfigError(f"train_from_calibration must be in [0, 1), got {train_from_calibration}")
    given = sorted((sid for sid, split in out.items() if split == "calibration"),
                   key=lambda sid: (stable_hash(f"{seed}:fit:{sid}"), sid))
    moved = set(given[: round(train_from_calibration * len(given))])
    by_task: dict[str, list[str]] = defaultdict(list)
    for sid, split in out.items():
        if split == "train":
            by_task[corpus.sources[sid].task_type].append(sid)
    n_train = sum(len(v) for v in by_task.values())
    quota = _largest_remainder({k: len(v) for k, v in by_task.items()},
                               round(calibration_fraction * n_train))
    for task, ids in by_task.items():
        ranked = sorted(ids, key=lambda sid: (stable_hash(f"{seed}:{sid}"), sid))
        for sid in ranked[: quota[task]]:
            out[sid] = "calibration"
    out.update({sid: "train" for sid in moved})
    return out


def split_corpus(corpus: Corpus, calibration_fraction: float = 0.2, seed: int = 17) -> dict[str, Corpus]:
    """The corpus cut into {'train', 'calibration', 'test'} sub-corpora by source_id."""
    assignment = assign_splits(corpus, calibration_fraction, seed)
    return {
        name: corpus.subset(source_ids={s for s, v in assignment.items() if v == name},
                            name=f"{corpus.name}:{name}")
        for name in SPLIT_NAMES
    }
