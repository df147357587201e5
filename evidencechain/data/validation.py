"""The validation kit every loader uses: problems named by file, line and field, collected and
raised together as one `DataValidationError`, and the checks and limits shared by all formats.

A loader makes one `Collector` per file, passes it to the readers and checks below (each records
what is wrong and returns None or False), and raises `DataValidationError(out.problems)` at the
end when anything was recorded.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError

MAX_PROBLEMS = 50
"""Most problems shown in one error (the total is always said)."""
MAX_RESPONSE_CHARS = 200_000
"""Longest answer accepted (about 50 pages; a longer 'answer' is a damaged row): the limit keeps
the parse of any one answer to about a minute on 2 cores."""
MAX_EVIDENCE_CHARS = 2_000_000
"""Most characters of text in one source's `source_info` (long evidence is parsed in pieces)."""
MAX_JSON_DEPTH = 100
"""Deepest nesting of objects and lists in a row, the row itself included (RAGTruth: 4)."""
TOO_DEEP = f"nested too deeply (more than {MAX_JSON_DEPTH} levels of lists and objects)"


@dataclass(frozen=True, slots=True)
class Problem:
    file: str
    line: int
    """1-based line number; 0 for a problem with the file as a whole."""
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: field '{self.field}': {self.message}"

    def advice(self) -> str:
        """What to do about it, in a few words ('' when the message already says)."""
        return next((hint for start, hint in ADVICE if self.message.startswith(start)), "")


ADVICE = (
    ("missing", "add the field"),
    ("malformed JSON", "make the line one JSON object ({...}, double-quoted keys and strings)"),
    ("expected", "give a value of the expected type"),
    ("unknown value", "use one of the values listed"),
    ("unknown source_id", "add that source to the source file, or fix the id"),
    ("duplicate", "give every record its own id"),
    ("empty", "give the evidence the answer was generated from"),
    ("no records found", "the file is empty: one record a line"),
    ("cannot read", "check the path and that the file is readable (and not damaged, if gzip)"),
    ("nested too deeply", "flatten the record"),
)
"""Message prefixes (as the loaders write them) and the fix shown after the problem."""


class DataValidationError(InputError):
    """One or more rows of an input file are malformed; `problems` lists them all."""

    def __init__(self, problems: list[Problem], total: int | None = None):
        self.problems = problems
        self.total = total if total is not None else len(problems)
        shown = "\n".join(f"  {p}" for p in problems[:MAX_PROBLEMS])
        more = self.total - min(len(problems), MAX_PROBLEMS)
        tail = f"\n  ... and {more} more" if more > 0 else ""
        super().__init__(f"{self.total} problem(s) in input data:\n{shown}{tail}")


class Collector:
    """The problems found in one file, in the order they were found."""

    def __init__(self, path: str | Path):
        self.file = str(path)
        self.problems: list[Problem] = []

    def add(self, line: int, field: str, message: str) -> None:
        self.problems.append(Problem(self.file, line, field, message))


# -- values ------------------------------------------------------------------------------------

def type_name(value: Any) -> str:
    """The JSON-minded name of a value's type ('null' for None)."""
    return "null" if value is None else type(value).__name__


def is_finite_number(value: int | float) -> bool:
    """True for an int or float that is a finite float (a huge JSON integer overflows one)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def short_repr(value: Any, limit: int = 60) -> str:
    """repr(value), cut to `limit` characters (a huge JSON integer has thousands of digits)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit - 3]}... ({len(text)} characters)"


def expect(row: dict, key: str, types: tuple[type, ...], line: int, out: Collector,
           prefix: str = "") -> bool:
    """True when `row[key]` exists and has one of `types` (a bool is no int); else recorded."""
    name = f"{prefix}{key}"
    if key not in row:
        out.add(line, name, "missing")
        return False
    value = row[key]
    if isinstance(value, bool) and bool not in types:
        out.add(line, name, f"expected {'/'.join(t.__name__ for t in types)}, got bool")
        return False
    if not isinstance(value, types):
        out.add(line, name, f"expected {'/'.join(t.__name__ for t in types)}, "
                            f"got {type_name(value)}")
        return False
    return True


# -- limits ------------------------------------------------------------------------------------

def evidence_over_limit(value: Any) -> str | None:
    """Why `value` (evidence: a string, a list or a record) is over MAX_EVIDENCE_CHARS, or None."""
    chars = _text_chars(value)
    if chars <= MAX_EVIDENCE_CHARS:
        return None
    return f"{chars:,} characters of evidence; the limit is {MAX_EVIDENCE_CHARS:,} (MAX_EVIDENCE_CHARS)"


def answer_over_limit(text: str) -> str | None:
    """Why an answer is over MAX_RESPONSE_CHARS, or None."""
    if len(text) <= MAX_RESPONSE_CHARS:
        return None
    return f"{len(text):,} characters; answers are limited to {MAX_RESPONSE_CHARS:,} (MAX_RESPONSE_CHARS)"


def check_answer_text(text: str, where: str) -> None:
    """An answer given in code (API, detect records) is scorable: within MAX_RESPONSE_CHARS and
    writable as UTF-8; otherwise an InputError naming `where` and the field."""
    if answer_over_limit(text):
        raise InputError(f"{where}: {answer_over_limit(text)}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(f"{where}: text cannot be encoded as UTF-8: lone surrogate "
                         f"{text[exc.start]!r} at character {exc.start}") from None


def _text_chars(value: Any) -> int:
    """Characters of text in a JSON value (its strings, at any depth)."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict):
        return sum(len(str(k)) + _text_chars(v) for k, v in value.items())
    if isinstance(value, list):
        return sum(_text_chars(v) for v in value)
    return 0


# -- lines of JSON -----------------------------------------------------------------------------

INVALID = object()
"""What `decode_json` returns for text that is not JSON (its problem recorded)."""


def decode_json(text: str, line: int, field: str, out: Collector, lenient: bool = False) -> Any:
    """`text` decoded as JSON, or INVALID with the problem recorded in `out` (line and field).
    `lenient`: text that is merely not JSON is returned as it is (nesting too deep is still refused)."""
    try:
        return json.loads(text)
    except RecursionError:
        out.add(line, field, TOO_DEEP)
        return INVALID
    except json.JSONDecodeError as exc:
        if lenient:
            return text
        out.add(line, field, f"malformed JSON: {exc.msg} (column {exc.colno})")
        return INVALID
    except ValueError as exc:
        if lenient:
            return text
        out.add(line, field, f"malformed JSON: {exc}")
        return INVALID


def decode_line(raw: bytes, number: int, out: Collector) -> dict | None:
    """The JSON object on one line, or None (blank, or a problem recorded in `out`)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        out.add(number, "-", f"not valid UTF-8 (byte {exc.start + 1})")
        return None
    if not text.strip():
        return None
    row = decode_json(text, number, "-", out)
    if row is INVALID:
        return None
    if not isinstance(row, dict):
        out.add(number, "-", f"expected a JSON object, got {type_name(row)}")
        return None
    return row


def check_values(row: dict, line: int, out: Collector) -> bool:
    """Report text that cannot be written as UTF-8 (lone surrogates such as "\\ud800") and
    nesting deeper than MAX_JSON_DEPTH, with the field of each; True when there is none."""
    before = len(out.problems)
    stack = [(_printable(k), v, 2) for k, v in reversed(row.items())]
    while stack:
        field, value, depth = stack.pop()
        if isinstance(value, str):
            _check_encodable(value, field, line, out)
        elif isinstance(value, (dict, list)) and depth > MAX_JSON_DEPTH:
            out.add(line, field, TOO_DEEP)
        elif isinstance(value, dict):
            for key in value:
                _check_encodable(key, f"{field} (a key)", line, out)
            stack += [(f"{field}.{_printable(k)}", v, depth + 1) for k, v in reversed(value.items())]
        elif isinstance(value, list):
            stack += [(f"{field}[{i}]", value[i], depth + 1) for i in reversed(range(len(value)))]
    return len(out.problems) == before


def _printable(key: str) -> str:
    return key.encode("utf-8", "backslashreplace").decode("utf-8")


def _check_encodable(text: str, field: str, line: int, out: Collector) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        out.add(line, field, f"text cannot be encoded as UTF-8: lone surrogate "
                             f"{text[exc.start]!r} at character {exc.start}")
