"""HaluEval (QA, dialogue, summarization) as a response-level corpus.

Each HaluEval record becomes one source and two responses over the same evidence:

| subset        | evidence    | query              | right (label 0)  | hallucinated (label 1)  |
|---------------|-------------|--------------------|------------------|-------------------------|
| qa            | knowledge   | question           | right_answer     | hallucinated_answer     |
| dialogue      | knowledge   | dialogue_history   | right_response   | hallucinated_response   |
| summarization | document    | (none)             | right_summary    | hallucinated_summary    |

HaluEval labels whole responses only, so responses carry `response_label` and no spans
(`labels=()`), and the corpus has `span_labels=False`: reports skip word and span metrics.

Split (seeded, source level, per subset): records are grouped by their evidence text (so
two records that share a knowledge passage never straddle train and test); the groups
are ranked by a seeded hash and the first round(test_fraction * groups) are test, the
rest train. `assign_splits` later carves the calibration subset out of train (default
20% of train sources), so the defaults give about 56% train / 14% calibration / 30% test.

Files are read in place, gzip-compressed JSON Lines (`{subset}_data.jsonl.gz`, as stored
under `../shared/data/halueval/`); the upstream uncompressed names (`{subset}_data.json`,
`{subset}_data.jsonl`) are accepted too.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..io import stable_hash
from ..records import Corpus, Response, Source
from .benchmarks import Benchmark, Format, register, register_format, spec_path
from .plain import read_jsonl
from .validation import Collector, DataValidationError, Problem

SUBSETS = ("qa", "dialogue", "summarization")


class _Spec:
    def __init__(self, task_type: str, source: str, evidence: str, query: str | None,
                 right: str, hallucinated: str, prompt: str):
        self.task_type, self.source = task_type, source
        self.evidence, self.query = evidence, query
        self.right, self.hallucinated = right, hallucinated
        self.prompt = prompt

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(f for f in (self.evidence, self.query, self.right, self.hallucinated) if f)


SPECS: dict[str, _Spec] = {
    "qa": _Spec("QA", "HaluEval-QA", "knowledge", "question", "right_answer", "hallucinated_answer",
                "Answer the question using the knowledge."),
    "dialogue": _Spec("Dialogue", "HaluEval-Dialogue", "knowledge", "dialogue_history",
                      "right_response", "hallucinated_response",
                      "Continue the dialogue as the assistant using the knowledge."),
    "summarization": _Spec("Summary", "HaluEval-Summarization", "document", None, "right_summary",
                           "hallucinated_summary", "Summarize the document."),
}
MODEL_NAME = "halueval"
"""Generator label of every response. The right and hallucinated answers come from
different processes, so a per-label name would leak the gold label into the metadata."""
FILE_NAMES = ("{}_data.jsonl.gz", "{}_data.jsonl", "{}_data.json")
SPLIT_RULE = ("per subset, records grouped by evidence text; groups ranked by "
              "blake2b('{seed}:{subset}:{evidence}'); the first round(test_fraction * groups) "
              "are test, the rest train; calibration is carved from train by assign_splits")


def halueval_file(path: str | Path, subset: str) -> Path:
    """The data file of `subset` under directory `path` (gzip JSONL preferred)."""
    base = Path(path).expanduser()
    for pattern in FILE_NAMES:
        candidate = base / pattern.format(subset)
        if candidate.is_file():
            return candidate
    tried = ", ".join(pattern.format(subset) for pattern in FILE_NAMES)
    raise FileNotFoundError(f"HaluEval {subset!r}: none of {tried} found in {base}")


def halueval_available(path: str | Path, subsets: Iterable[str] = SUBSETS) -> bool:
    try:
        for s in subsets:
            halueval_file(path, s)
    except FileNotFoundError:
        return False
    return True


def read_records(path: Path, subset: str) -> tuple[list[tuple[int, dict[str, str]]], Counter]:
    """Valid records as (line number, row); malformed lines raise one DataValidationError
    naming every file:line:field; records with an empty answer or identical answers are
    dropped and counted."""
    spec = SPECS[subset]
    out = Collector(path)
    problems = out.problems
    records: list[tuple[int, dict[str, str]]] = []
    dropped: Counter = Counter()
    for number, row in read_jsonl(path, out):
        bad = False
        for key in spec.fields:
            if key not in row:
                problems.append(Problem(str(path), number, key, "missing"))
                bad = True
            elif not isinstance(row[key], str):
                problems.append(Problem(str(path), number, key,
                                        f"expected a string, got {type(row[key]).__name__}"))
                bad = True
        if bad:
            continue
        if not row[spec.evidence].strip():
            dropped[f"{subset}: empty {spec.evidence}"] += 1
            continue
        if not row[spec.right].strip() or not row[spec.hallucinated].strip():
            dropped[f"{subset}: empty answer"] += 1
            continue
        if row[spec.right].strip() == row[spec.hallucinated].strip():
            dropped[f"{subset}: identical right and hallucinated answers"] += 1
            continue
        records.append((number, row))
    if problems:
        raise DataValidationError(problems)
    return records, dropped


def _sample(records: list[tuple[int, dict]], limit: int, seed: int, subset: str) -> list[tuple[int, dict]]:
    """`limit` records chosen by a seeded hash of their line number, kept in file order."""
    if not limit or limit >= len(records):
        return records
    ranked = sorted(records, key=lambda r: (stable_hash(f"{seed}:{subset}:line{r[0]}"), r[0]))
    keep = {n for n, _ in ranked[:limit]}
    return [r for r in records if r[0] in keep]


def _test_groups(evidences: list[str], seed: int, subset: str, test_fraction: float) -> set[str]:
    groups = sorted(set(evidences), key=lambda e: (stable_hash(f"{seed}:{subset}:{e}"), e))
    return set(groups[: round(test_fraction * len(groups))])


def load_halueval_corpus(path: str | Path, subsets: Iterable[str] = SUBSETS, limit: int = 0,
                         seed: int = 17, test_fraction: float = 0.3) -> Corpus:
    """Read HaluEval subsets from directory `path` into one response-level Corpus.

    Source ids are `halueval-{subset}-{line:05d}` (line number in the file), response ids
    add `-right` or `-hallucinated`. `limit` > 0 keeps a seeded sample of that many
    records per subset (for quick runs). See the module docstring for the split rule.
    """
    if not 0.0 < test_fraction < 1.0:
        raise ConfigError(f"test_fraction must be in (0, 1), got {test_fraction}")
    subsets = tuple(subsets)
    unknown = [s for s in subsets if s not in SPECS]
    if unknown:
        raise ConfigError(f"unknown HaluEval subset(s) {unknown}; known: {list(SPECS)}")
    if limit < 0:
        raise ConfigError(f"limit must be >= 0, got {limit}")
    sources: dict[str, Source] = {}
    responses: list[Response] = []
    filtered: Counter = Counter()
    for subset in subsets:
        spec = SPECS[subset]
        file = halueval_file(path, subset)
        records, dropped = read_records(file, subset)
        filtered.update(dropped)
        chosen = _sample(records, limit, seed, subset)
        if len(chosen) < len(records):
            filtered[f"{subset}: not sampled (limit={limit})"] += len(records) - len(chosen)
        test = _test_groups([row[spec.evidence] for _, row in chosen], seed, subset, test_fraction)
        for number, row in chosen:
            sid = f"halueval-{subset}-{number:05d}"
            info: dict[str, Any] = {spec.evidence: row[spec.evidence]}
            if spec.query:
                info[spec.query] = row[spec.query]
            sources[sid] = Source(sid, spec.task_type, spec.source, info, spec.prompt,
                                  extra={"halueval_subset": subset, "halueval_line": number})
            split = "test" if row[spec.evidence] in test else "train"
            for kind, key, label in (("right", spec.right, 0), ("hallucinated", spec.hallucinated, 1)):
                responses.append(Response(
                    id=f"{sid}-{kind}", source_id=sid, model=MODEL_NAME, temperature=0.0,
                    labels=(), split=split, quality="good", response=row[key].strip(),
                    response_label=label, subset=subset))
    name = "halueval" if len(subsets) == len(SPECS) else "halueval-" + "+".join(subsets)
    return Corpus(name=name, sources=sources, responses=responses,
                  filtered=dict(sorted(filtered.items())), span_labels=False)


def subset_of(source: Source) -> str:
    """The HaluEval subset a source came from."""
    return str(source.extra.get("halueval_subset", ""))


def read(spec, name: str, seed: int) -> Corpus:
    """A `[corpora.NAME] format = "halueval"` table: `path` the directory, `subsets` the tasks."""
    return load_halueval_corpus(spec_path(spec), subsets=spec.subsets or SUBSETS, limit=spec.limit,
                                seed=seed, test_fraction=spec.test_fraction)


register_format(Format("halueval", read, subsets=SUBSETS, loader=load_halueval_corpus))
register(Benchmark("halueval", "halueval", "HaluEval", section="subsets"))
