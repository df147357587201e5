"""A user's own answers to check, from JSON Lines (optionally gzip) or CSV, one a record.

Fields: `context` (a string, or a list of passage strings; in CSV a JSON list), optional
`question`, `answer` (a string, may be empty), optional `id` (default: the line number),
`label` (0/1/true/false; `hallucinated` is the same field under another name), `spans` ([{start, end, text?, type?}], character offsets into
`answer`, end exclusive; type "conflict", "baseless" or an official label type), `model`
and `temperature`. With a question or a passage list the source is QA ({question,
passages}), else Summary; records with the same (context, question) share one source.
The corpus is `labelled` only if every record has a label or spans, and has
`span_labels` only if every record has spans; without a label, any span means hallucinated.

`load_plain` reads a whole file; `read_records` (one `PlainRecord` at a time, None for a line
with a problem) and `parse_record` (one row) are the same rules for readers that stream.
"""
from __future__ import annotations

import csv
import gzip
import io
import json
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigError, InputError
from ..records import LABEL_TYPES, Corpus, Label, Response, Source
from .validation import (
    INVALID,
    MAX_EVIDENCE_CHARS,
    MAX_PROBLEMS,
    Collector,
    DataValidationError,
    answer_over_limit,
    check_values,
    decode_json,
    decode_line,
    evidence_over_limit,
    is_finite_number,
    short_repr,
)

SPAN_TYPES = {"conflict": "Evident Conflict", "baseless": "Evident Baseless Info",
              **{t.lower(): t for t in LABEL_TYPES}}
DEFAULT_SPAN_TYPE = "Evident Baseless Info"
LABEL_VALUES = {"0": 0, "1": 1, "false": 0, "true": 1}
CSV_CELL_LIMIT = MAX_EVIDENCE_CHARS
"""Longest CSV cell read (the csv module's default, 131,072, would refuse a long article)."""


JSONL_SUFFIXES = (".jsonl", ".ndjson", ".json")
CSV_SUFFIXES = (".csv",)
FORMATS_READ = ("JSON Lines (.jsonl, .ndjson, .json), CSV (.csv), either gzip-compressed (.gz); rename the "
                "file, or give detect --input-format jsonl or csv")


def plain_format(path: str | Path) -> str:
    """'jsonl' or 'csv' by the file's name; InputError for any other name (a .txt is not guessed)."""
    name = Path(path).name.lower().removesuffix(".gz")
    if name.endswith(CSV_SUFFIXES):
        return "csv"
    if name.endswith(JSONL_SUFFIXES):
        return "jsonl"
    suffix = Path(name).suffix or "(no extension)"
    raise InputError(f"{path}: unknown input format {suffix}; files read: {FORMATS_READ}")
LABEL_KEYS = ("label", "hallucinated")


def _open_bytes(path: Path):
    return gzip.open(path, "rb") if path.name.endswith(".gz") else open(path, "rb")


def read_jsonl(path: str | Path, out: Collector) -> Iterator[tuple[int, dict]]:
    """(line number, object) for each usable non-blank line of a JSONL file, gzip or not
    (as `ragtruth.iter_jsonl`); every other line is recorded in `out`."""
    try:
        with _open_bytes(Path(path)) as handle:
            for number, raw in enumerate(handle, start=1):
                row = decode_line(raw.removeprefix(b"\xef\xbb\xbf") if number == 1 else raw, number, out)
                if row is not None and check_values(row, number, out):
                    yield number, row
    except (OSError, EOFError, zlib.error) as exc:  # zlib.error: damaged gzip data
        out.add(0, "-", f"cannot read file: {getattr(exc, 'strerror', None) or exc}")


def read_csv(path: str | Path, out: Collector) -> Iterator[tuple[int, dict]]:
    """(first line of the record, row without empty cells) for each CSV record."""
    path = Path(path)
    limit = csv.field_size_limit(CSV_CELL_LIMIT)
    start = 1
    try:
        with _open_bytes(path) as raw:
            text = io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")
            reader = csv.DictReader(text)
            if not {"answer", "context"} <= set(reader.fieldnames or ()):
                out.add(1, "-", f"CSV header {reader.fieldnames or []} lacks 'answer' or 'context'")
                return
            start = 2
            for row in reader:
                number, start = start, reader.line_num + 1
                if None in row:
                    out.add(number, "-", f"malformed CSV: {len(row[None])} cell(s) beyond the header")
                    continue
                yield number, {k: v for k, v in row.items()
                               if v is not None and (v != "" or k in ("answer", "context"))}
    except csv.Error as exc:
        why = (f"a cell is longer than {CSV_CELL_LIMIT:,} characters (MAX_EVIDENCE_CHARS); shorten it"
               if "field limit" in str(exc) else f"malformed CSV: {exc}")
        out.add(start, "-", f"{why} (the rest of the file is not read)")
    except (OSError, EOFError, UnicodeDecodeError, zlib.error) as exc:
        out.add(0, "-", f"cannot read CSV: {exc}")
    finally:
        csv.field_size_limit(limit)


def _csv_row(row: dict, line: int, out: Collector) -> dict | None:
    """A CSV record with its JSON cells decoded (a context list, spans, a temperature)."""
    row = dict(row)
    context = row.get("context")
    if isinstance(context, str) and context.lstrip().startswith("["):
        row["context"] = decode_json(context, line, "context", out, lenient=True)
    if "spans" in row:
        row["spans"] = decode_json(row["spans"], line, "spans", out)
    if row.get("context") is INVALID or row.get("spans") is INVALID:
        return None
    try:
        row["temperature"] = float(row.get("temperature", 0.0))
    except ValueError:
        pass
    return row


def _label(value: Any, line: int, out: Collector, key: str = "label") -> int | None:
    if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)):
        return int(value)
    if isinstance(value, str) and value.strip().lower() in LABEL_VALUES:
        return LABEL_VALUES[value.strip().lower()]
    out.add(line, key, f"expected 0, 1, true or false, got {value!r}")
    return None


def _spans(value: Any, answer: str, line: int, out: Collector) -> tuple[Label, ...] | None:
    if not isinstance(value, list):
        out.add(line, "spans", f"expected a list of spans, got {type(value).__name__}")
        return None
    labels, before = [], len(out.problems)
    for i, span in enumerate(value):
        where = f"spans[{i}]"
        if not isinstance(span, dict):
            out.add(line, where, f"expected an object, got {type(span).__name__}")
            continue
        start, end = span.get("start"), span.get("end")
        if any(isinstance(v, bool) or not isinstance(v, int) for v in (start, end)):
            out.add(line, f"{where}.start/end", f"expected integers, got {start!r} and {end!r}")
            continue
        if not 0 <= start < end <= len(answer):
            out.add(line, f"{where}.start/end",
                    f"[{start}, {end}) is empty or outside the answer (length {len(answer)})")
            continue
        text = span.get("text", answer[start:end])
        if text != answer[start:end]:
            out.add(line, f"{where}.text", f"{text!r} does not match answer[{start}:{end}] = "
                                           f"{answer[start:end]!r}")
            continue
        kind = span.get("type", DEFAULT_SPAN_TYPE)
        if not isinstance(kind, str) or kind.strip().lower() not in SPAN_TYPES:
            out.add(line, f"{where}.type", f"expected 'conflict' or 'baseless', got {kind!r}")
            continue
        labels.append(Label(start, end, text, SPAN_TYPES[kind.strip().lower()]))
    if len(out.problems) > before:
        return None
    return tuple(sorted(labels, key=lambda x: (x.start, x.end)))


def _context(value: Any, line: int, out: Collector) -> str | list[str] | None:
    if not (isinstance(value, str) or (isinstance(value, list) and all(isinstance(p, str) for p in value))):
        out.add(line, "context", f"expected a string or a list of strings, got {type(value).__name__}")
    elif not "".join(value).strip():
        out.add(line, "context", "empty: no evidence to check the answer against")
    else:
        return value
    return None


def _check_types(row: dict, line: int, out: Collector) -> bool:
    before = len(out.problems)
    for key in (k for k in ("answer", "context") if k not in row):
        out.add(line, key, "missing")
    for key in ("answer", "question", "model"):
        if key in row and not isinstance(row[key], str):
            out.add(line, key, f"expected a string, got {type(row[key]).__name__}")
    if "id" in row and (isinstance(row["id"], bool) or not isinstance(row["id"], (str, int))):
        out.add(line, "id", f"expected a string or integer, got {type(row['id']).__name__}")
    temp = row.get("temperature", 0.0)
    if isinstance(temp, bool) or not isinstance(temp, (int, float)) or not is_finite_number(temp):
        out.add(line, "temperature", f"expected a finite number, got {short_repr(temp)}")
    return len(out.problems) == before


def _within_limits(row: dict, line: int, out: Collector) -> bool:
    """The answer within MAX_RESPONSE_CHARS and the context within MAX_EVIDENCE_CHARS."""
    before = len(out.problems)
    for field, why in (("answer", answer_over_limit(row["answer"])),
                       ("context", evidence_over_limit(row["context"]))):
        if why:
            out.add(line, field, why)
    return len(out.problems) == before


def _gold(row: dict, line: int, out: Collector, require_label: bool = False
          ) -> tuple[tuple[Label, ...], int | None] | None:
    """(spans, response label) of a record; a missing label follows the spans if any."""
    labels = _spans(row["spans"], row["answer"], line, out) if "spans" in row else ()
    keys = [k for k in LABEL_KEYS if k in row]
    if len(keys) > 1:
        out.add(line, "hallucinated", "give either 'label' or 'hallucinated', not both")
        return None
    key = keys[0] if keys else None
    label = _label(row[key], line, out, key) if key else None
    if labels is None or (key and label is None):
        return None
    if label == 0 and labels:
        out.add(line, key, f"{row[key]!r} (not hallucinated) contradicts {len(labels)} span(s)")
        return None
    if require_label and key is None and "spans" not in row:
        out.add(line, "hallucinated", "missing: every answer needs hallucinated (true or false) or spans")
        return None
    return labels, (int(bool(labels)) if label is None and "spans" in row else label)


def plain_source(sid: str, context: str | list[str], question: str | None, collection: str) -> Source:
    """The Source of a plain record: QA with a question or a passage list, else Summary."""
    if question is None and isinstance(context, str):
        return Source(sid, "Summary", collection, context, "Summarize the document.")
    return Source(sid, "QA", collection, {"question": question or "", "passages": context},
                  "Answer the question using the passages.")


@dataclass(frozen=True, slots=True)
class PlainRecord:
    """One valid record of a plain file (see the module docstring)."""

    line: int
    id: str
    """The record's `id`, else its line number."""
    has_id: bool
    context: str | list[str]
    question: str | None
    answer: str
    model: str
    temperature: float
    labels: tuple[Label, ...]
    label: int | None
    has_spans: bool

    def response(self, source_id: str, split: str = "test") -> Response:
        return Response(id=self.id, source_id=source_id, model=self.model, temperature=self.temperature,
                        labels=self.labels, split=split, quality="good", response=self.answer,
                        response_label=self.label)


def parse_record(row: dict, line: int, out: Collector, *, csv_cells: bool = False,
                 require_label: bool = False, check_limits: bool = True) -> PlainRecord | None:
    """The record on one line (`csv_cells`: a CSV row, its JSON cells still encoded), or None
    after recording its problems in `out`. `check_limits`: the answer within MAX_RESPONSE_CHARS
    and the context within MAX_EVIDENCE_CHARS."""
    row = {k: v for k, v in row.items() if v is not None or k in ("answer", "context")}
    if csv_cells:
        row = _csv_row(row, line, out)
    if row is None or not _check_types(row, line, out) or (check_limits and not _within_limits(row, line, out)):
        return None
    context, gold = _context(row["context"], line, out), _gold(row, line, out, require_label)
    if context is None or gold is None:
        return None
    return PlainRecord(line=line, id=str(row.get("id", line)), has_id="id" in row, context=context,
                       question=row.get("question") or None, answer=row["answer"],
                       model=row.get("model", "unknown"), temperature=float(row.get("temperature", 0.0)),
                       labels=gold[0], label=gold[1], has_spans="spans" in row)


def read_records(path: str | Path, out: Collector, input_format: str = "auto", *,
                 require_label: bool = False, check_limits: bool = True
                 ) -> Iterator[tuple[int, PlainRecord | None]]:
    """(line, record) for each record of a plain file, read one at a time; the record is None when
    its line has a problem (recorded in `out`, as are lines that are no record at all).
    `input_format`: "jsonl", "csv" or "auto" (by the file's name, `plain_format`)."""
    is_csv = (plain_format(path) if input_format == "auto" else input_format) == "csv"
    for line, row in read_csv(path, out) if is_csv else read_jsonl(path, out):
        yield line, parse_record(row, line, out, csv_cells=is_csv, require_label=require_label,
                                 check_limits=check_limits)


def load_plain(path: str | Path, name: str | None = None, split: str = "test",
               require_label: bool = False) -> Corpus:
    """Read a user's JSONL / CSV file of answers into a Corpus (see the module docstring).

    Every answer gets `split` ("test": to be scored; "train" or "calibration" to fit on it).
    With `require_label`, a record with neither a label nor spans is a problem (its line named).
    Raises `DataValidationError` naming file, line and field of every problem.
    """
    if split not in ("train", "calibration", "test"):
        raise ConfigError(f"split must be 'train', 'calibration' or 'test', got {split!r}")
    path = Path(path).expanduser()
    name = name or corpus_name(path)
    out = Collector(path)
    sources: dict[str, Source] = {}
    source_of: dict[tuple[str, str | None], str] = {}
    responses: list[Response] = []
    first_line: dict[str, int] = {}
    implicit: set[str] = set()
    every_label = every_span = True
    for line, record in read_records(path, out, plain_format(path), require_label=require_label):
        if record is None:
            continue
        if record.id in first_line:
            out.add(line, "id", _duplicate(record.id, line, first_line[record.id], record.has_id,
                                           record.id in implicit))
            continue
        first_line[record.id] = line
        if not record.has_id:
            implicit.add(record.id)
        every_span &= record.has_spans
        every_label &= record.label is not None
        key = (json.dumps(record.context), record.question)
        if key not in source_of:
            source_of[key] = f"src-{line}"
            sources[source_of[key]] = plain_source(source_of[key], record.context, record.question, name)
        responses.append(record.response(source_of[key], split))
    if not responses and not out.problems:
        out.add(0, "-", "no records found")
    if out.problems:
        raise DataValidationError(out.problems[:MAX_PROBLEMS], total=len(out.problems))
    return Corpus(name=name, sources=sources, responses=responses, filtered={},
                  span_labels=every_span, labelled=every_label)


def _duplicate(rid: str, line: int, first: int, given: bool, first_implicit: bool) -> str:
    """The message for an id used twice, saying where a line-number default comes in."""
    if not given:
        return (f"duplicate id {rid!r}: this record has no 'id', so its id is its line number, which "
                f"line {first} already uses; give every record an explicit 'id'")
    if first_implicit:
        return (f"duplicate id {rid!r}: line {first} has no 'id' and takes its line number {rid} as id; "
                f"give every record an explicit 'id'")
    return f"duplicate id {rid!r} (first on line {first}); ids must be unique"


def corpus_name(path: Path) -> str:
    """A plain file's corpus name: its name without .gz and the format's suffix."""
    name = path.name.removesuffix(".gz")
    for suffix in (".jsonl", ".json", ".ndjson", ".csv"):
        name = name.removesuffix(suffix)
    return name
