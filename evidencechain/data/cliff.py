"""CLIFF news summaries with human-marked erroneous words, as a span-labelled corpus.

One source per article (`cliff-{origin}-{id}`, task "Summary", source "CLIFF-{origin}"),
one response per summary (`cliff-{origin}-{id}-{model_name}`, model = model_name,
subset = origin). `cut` val -> "calibration" (thresholds only), test -> "test".

`annotated_span` lists the erroneous word strings, not offsets. Each is located in the
summary left to right: first an exact match, then a case-insensitive match that ignores
whitespace (the annotations write "( 656 ft)" where a summary has "(656 ft)"); matches
that begin or end inside a word are tried only after whole-word ones; of several
occurrences the first one not overlapping an already located span is taken. Strings that
cannot be located are counted in `Corpus.filtered` (UNLOCATED). Every summary whose
`error_type` is not "correct" has `response_label = 1`, located spans or not.

Label types: the annotations do not say which string has which error type, so a
summary's spans are "Evident Conflict" when every listed type is intrinsic (contradicts
the article), otherwise "Evident Baseless Info" (extrinsic, or a mixed list); the full
error-type list is kept in each label's `meta`.
"""
from __future__ import annotations

import ast
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path

from ..errors import ConfigError
from ..records import Corpus, Label, Response, Source
from .benchmarks import Benchmark, Format, register, register_format, spec_path
from .plain import read_jsonl
from .validation import MAX_PROBLEMS, Collector, DataValidationError

FILE_NAME = "cliff.jsonl.gz"
CUTS = {"val": "calibration", "test": "test"}
UNLOCATED = "annotated spans not located in the summary"
FIELDS = ("origin", "id", "doc", "summ", "model_name", "cut", "error_type", "annotated_span")


def cliff_file(path: str | Path) -> Path:
    """`path` itself, or cliff.jsonl.gz inside the directory `path`."""
    path = Path(path).expanduser()
    return path / FILE_NAME if path.is_dir() else path


def _string_list(text: str, field: str, line: int, out: Collector) -> list[str] | None:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        value = None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        out.add(line, field, f"expected a Python-style list of strings, got {text[:80]!r}")
        return None
    return value


def _parse(row: dict, line: int, out: Collector) -> tuple[list[str], list[str]] | None:
    """(error types, annotated strings) of a valid row; None after recording its problems."""
    before = len(out.problems)
    for key in FIELDS:
        if key not in row:
            out.add(line, key, "missing")
        elif not isinstance(row[key], str):
            out.add(line, key, f"expected a string, got {type(row[key]).__name__}")
    if len(out.problems) > before:
        return None
    if row["cut"] not in CUTS:
        out.add(line, "cut", f"expected 'val' or 'test', got {row['cut']!r}")
    errors: list[str] | None = []
    if row["error_type"].strip() != "correct":
        errors = _string_list(row["error_type"], "error_type", line, out)
        if errors is not None and (not errors or any(
                not e.startswith(("extrinsic", "intrinsic")) for e in errors)):
            out.add(line, "error_type", "expected 'correct' or a non-empty list of "
                                        f"extrinsic-*/intrinsic-* types, got {row['error_type']!r}")
    spans = _string_list(row["annotated_span"], "annotated_span", line, out) \
        if row["annotated_span"].strip() else []
    if errors == [] and spans:
        out.add(line, "annotated_span", f"{len(spans)} span(s) on a summary marked 'correct'")
    if len(out.problems) > before:
        return None
    return errors or [], spans or []


def _guarded(pattern: str, text: str) -> str:
    head = r"(?<!\w)" if re.match(r"\w", text) else ""
    tail = r"(?!\w)" if re.search(r"\w$", text) else ""
    return head + pattern + tail


def _patterns(text: str) -> list[re.Pattern]:
    if not text.strip():
        return []
    exact = re.escape(text.strip())
    loose = r"\s*".join(re.escape(ch) for ch in text if not ch.isspace())
    return ([re.compile(_guarded(exact, text.strip())), re.compile(_guarded(loose, text.strip()), re.I)]
            + [re.compile(exact), re.compile(loose, re.I)])


def locate(summary: str, strings: Iterable[str]) -> tuple[list[tuple[int, int]], int]:
    """Character spans of `strings` in `summary` (rule in the module docstring), in the
    order given, and the number of strings that could not be located."""
    taken: list[tuple[int, int]] = []
    missing = 0
    for text in strings:
        found = next((m.span() for p in _patterns(text) for m in p.finditer(summary)
                      if not any(m.start() < e and s < m.end() for s, e in taken)), None)
        if found is None:
            missing += 1
        else:
            taken.append(found)
    return taken, missing


def label_type(errors: list[str]) -> str:
    return "Evident Conflict" if all(e.startswith("intrinsic") for e in errors) else "Evident Baseless Info"


def load_cliff(path: str | Path, cuts: Iterable[str] = ("val", "test")) -> Corpus:
    """Read cliff.jsonl.gz (a file, or the directory holding it) into a span-labelled Corpus.

    Rows of a cut not in `cuts` are dropped and counted; malformed rows raise one
    DataValidationError naming file, line and field.
    """
    cuts = tuple(cuts)
    if not cuts or any(c not in CUTS for c in cuts):
        raise ConfigError(f"cuts must be a non-empty subset of {list(CUTS)}, got {list(cuts)}")
    file = cliff_file(path)
    if not file.is_file():
        raise FileNotFoundError(f"CLIFF data not found: {file}")
    out = Collector(file)
    rows: list[tuple[int, dict, list[str], list[str]]] = []
    first: dict[str, int] = {}
    doc_line: dict[tuple[str, str], tuple[int, str]] = {}
    for line, row in read_jsonl(file, out):
        parsed = _parse(row, line, out)
        if parsed is None:
            continue
        rid = f"cliff-{row['origin']}-{row['id']}-{row['model_name']}"
        if rid in first:
            out.add(line, "id", f"duplicate summary {rid!r} (first on line {first[rid]})")
            continue
        first[rid] = line
        seen = doc_line.setdefault((row["origin"], row["id"]), (line, row["doc"]))
        if seen[1] != row["doc"]:
            out.add(line, "doc", f"differs from the article of the same id on line {seen[0]}")
            continue
        rows.append((line, row, *parsed))
    if out.problems:
        raise DataValidationError(out.problems[:MAX_PROBLEMS], total=len(out.problems))
    return _corpus(rows, cuts)


def _corpus(rows: list[tuple[int, dict, list[str], list[str]]], cuts: tuple[str, ...]) -> Corpus:
    filtered: Counter = Counter()
    kept = []
    for item in rows:
        if item[1]["cut"] in cuts:
            kept.append(item)
        else:
            filtered[f"cut={item[1]['cut']} not loaded"] += 1
    cuts_of: dict[tuple[str, str], set[str]] = defaultdict(set)
    for _, row, _, _ in kept:
        cuts_of[row["origin"], row["id"]].add(row["cut"])
    sources: dict[str, Source] = {}
    responses: list[Response] = []
    for line, row, errors, strings in kept:
        key = (row["origin"], row["id"])
        sid = f"cliff-{row['origin']}-{row['id']}" + (f"-{row['cut']}" if len(cuts_of[key]) > 1 else "")
        if sid not in sources:
            sources[sid] = Source(sid, "Summary", f"CLIFF-{row['origin']}", row["doc"],
                                  "Summarize the article.", extra={"cliff_line": line})
        summary = row["summ"]
        spans, missing = locate(summary, strings)
        if missing:
            filtered[UNLOCATED] += missing
        meta = ", ".join(errors)
        labels = tuple(sorted((Label(s, e, summary[s:e], label_type(errors), meta) for s, e in spans),
                              key=lambda x: (x.start, x.end)))
        responses.append(Response(
            id=f"cliff-{row['origin']}-{row['id']}-{row['model_name']}", source_id=sid,
            model=row["model_name"], temperature=0.0, labels=labels, split=CUTS[row["cut"]],
            quality="good", response=summary, response_label=int(bool(errors)),
            extra={"error_type": errors, "annotated_span": strings}, subset=row["origin"]))
    name = "cliff" if set(cuts) == set(CUTS) else "cliff-" + "+".join(cuts)
    return Corpus(name=name, sources=sources, responses=responses,
                  filtered=dict(sorted(filtered.items())), span_labels=True)


def read(spec, name: str, seed: int) -> Corpus:
    """A `[corpora.NAME] format = "cliff"` table: `path` the file."""
    return load_cliff(spec_path(spec))


register_format(Format("cliff", read, loader=load_cliff))
register(Benchmark("cliff", "cliff", "CLIFF test", section="summaries"))
