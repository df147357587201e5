"""SummEdits (8 domains) as a response-level corpus with the paper's threshold protocol.

Each sample (a seed summary or an edit of it) is one response over its document:
`response_label = 1 - label` (label 1 = consistent; an int or a string "0"/"1"), no spans
(`span_labels=False`), `subset` = domain. The upstream `split` is kept as the paper uses it:
`evaluation` -> "calibration" (thresholds are chosen there), `test` -> "test"; nothing is
train, so a detector fit on SummEdits must be fit on other domains or corpora.

Source ids (splits are by source): one source per document and split,
`summedits-{domain}-d{n:02d}` with n the document's order of first appearance in the
domain file; a document that occurs in both splits (none does in the 8 stored files)
becomes two sources, suffixed `-evaluation` and `-test`, so each sample keeps its
upstream split. Response ids are `summedits-{domain}-{id}`. Every response has the same
generator label and temperature, so metadata features carry nothing about the label;
`edit_types` and `original_summary` are kept in `Response.extra`.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..records import Corpus, Response, Source
from .benchmarks import Benchmark, Format, register, register_format, spec_path
from .plain import read_jsonl
from .validation import MAX_PROBLEMS, Collector, DataValidationError

DOMAINS = ("ectsum", "news", "podcast", "qmsumm", "sales_call", "sales_email", "samsum", "scitldr")
SPLITS = {"evaluation": "calibration", "test": "test"}
MODEL_NAME = "summedits"
PROMPT = "Summarize the document."
FILE_NAMES = ("{}.jsonl.gz", "{}.jsonl")


def summedits_file(directory: str | Path, domain: str) -> Path:
    """The data file of `domain` under `directory` (gzip JSONL preferred)."""
    base = Path(directory).expanduser()
    for pattern in FILE_NAMES:
        candidate = base / pattern.format(domain)
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"SummEdits {domain!r}: no {domain}.jsonl.gz or {domain}.jsonl in {base}")


def summedits_available(directory: str | Path, domains: Iterable[str] = DOMAINS) -> bool:
    base = Path(directory).expanduser()
    return all(any((base / p.format(d)).is_file() for p in FILE_NAMES) for d in domains)


def _label(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value in (0, 1):
        return value
    if isinstance(value, str) and value.strip() in ("0", "1"):
        return int(value.strip())
    return None


def _check(row: dict, line: int, out: Collector) -> bool:
    before = len(out.problems)
    for key in ("id", "doc", "summary", "split", "label"):
        if key not in row:
            out.add(line, key, "missing")
    for key in ("id", "doc", "summary", "original_summary"):
        if key in row and not isinstance(row[key], str):
            out.add(line, key, f"expected a string, got {type(row[key]).__name__}")
    if "split" in row and row["split"] not in SPLITS:
        out.add(line, "split", f"expected 'evaluation' or 'test', got {row['split']!r}")
    if "label" in row and _label(row["label"]) is None:
        out.add(line, "label", f"expected 0 or 1 (int or string), got {row['label']!r}")
    edits = row.get("edit_types", [])
    if not (isinstance(edits, str) or (isinstance(edits, list) and all(isinstance(e, str) for e in edits))):
        out.add(line, "edit_types", f"expected a string or a list of strings, got {edits!r}")
    return len(out.problems) == before


def read_domain(path: Path, domain: str, limit: int = 0) -> tuple[list[tuple[int, dict]], Counter]:
    """Valid samples of one domain file as (line, row); malformed rows raise one
    DataValidationError; empty documents or summaries and samples over `limit` (per split)
    are dropped and counted."""
    out = Collector(path)
    rows: list[tuple[int, dict]] = []
    dropped: Counter = Counter()
    kept: Counter = Counter()
    first_line: dict[str, int] = {}
    for line, row in read_jsonl(path, out):
        if not _check(row, line, out):
            continue
        if row["id"] in first_line:
            out.add(line, "id", f"duplicate id {row['id']!r} (first on line {first_line[row['id']]})")
            continue
        first_line[row["id"]] = line
        if not row["doc"].strip():
            dropped[f"{domain}: empty document"] += 1
        elif not row["summary"].strip():
            dropped[f"{domain}: empty summary"] += 1
        elif limit and kept[row["split"]] >= limit:
            dropped[f"{domain}: over limit (limit={limit} per split)"] += 1
        else:
            kept[row["split"]] += 1
            rows.append((line, row))
    if out.problems:
        raise DataValidationError(out.problems[:MAX_PROBLEMS], total=len(out.problems))
    return rows, dropped


def _source_ids(rows: list[tuple[int, dict]], domain: str) -> dict[tuple[str, str], str]:
    """(document, upstream split) -> source id, by the rule in the module docstring."""
    order: dict[str, int] = {}
    splits: dict[str, set[str]] = defaultdict(set)
    for _, row in rows:
        order.setdefault(row["doc"], len(order))
        splits[row["doc"]].add(row["split"])
    out = {}
    for doc, n in order.items():
        for split in splits[doc]:
            suffix = f"-{split}" if len(splits[doc]) > 1 else ""
            out[doc, split] = f"summedits-{domain}-d{n:02d}{suffix}"
    return out


def load_summedits(directory: str | Path, domains: Iterable[str] | None = None, limit: int = 0) -> Corpus:
    """Read SummEdits domain files from `directory` into one response-level Corpus.

    `domains` defaults to all of `DOMAINS`; `limit` > 0 keeps the first `limit` samples of
    each split of each domain (file order), counting the rest in `Corpus.filtered`.
    """
    domains = tuple(DOMAINS if domains is None else domains)
    unknown = [d for d in domains if d not in DOMAINS]
    if unknown:
        raise ConfigError(f"unknown SummEdits domain(s) {unknown}; known: {list(DOMAINS)}")
    if limit < 0:
        raise ConfigError(f"limit must be >= 0, got {limit}")
    sources: dict[str, Source] = {}
    responses: list[Response] = []
    filtered: Counter = Counter()
    for domain in domains:
        rows, dropped = read_domain(summedits_file(directory, domain), domain, limit)
        filtered.update(dropped)
        ids = _source_ids(rows, domain)
        for line, row in rows:
            sid = ids[row["doc"], row["split"]]
            if sid not in sources:
                sources[sid] = Source(sid, "Summary", f"SummEdits-{domain}", row["doc"], PROMPT,
                                      extra={"summedits_domain": domain, "summedits_line": line})
            extra = {"edit_types": row.get("edit_types", []),
                     "original_summary": row.get("original_summary", "")}
            responses.append(Response(
                id=f"summedits-{domain}-{row['id']}", source_id=sid, model=MODEL_NAME,
                temperature=0.0, labels=(), split=SPLITS[row["split"]], quality="good",
                response=row["summary"], response_label=1 - _label(row["label"]),
                extra=extra, subset=domain))
    name = "summedits" if domains == DOMAINS else "summedits-" + "+".join(domains)
    return Corpus(name=name, sources=sources, responses=responses,
                  filtered=dict(sorted(filtered.items())), span_labels=False)


def read(spec, name: str, seed: int) -> Corpus:
    """A `[corpora.NAME] format = "summedits"` table: `path` the directory, `subsets` the domains."""
    return load_summedits(spec_path(spec), domains=spec.subsets or None, limit=spec.limit)


register_format(Format("summedits", read, subsets=DOMAINS, loader=load_summedits))
register(Benchmark("summedits", "summedits", "SummEdits", section="domains"))
