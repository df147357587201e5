"""Read, validate and write RAGTruth-format `response.jsonl` / `source_info.jsonl` files.

Every problem is collected with its file, line and field and raised together as one
`DataValidationError`; rows removed by filters are counted in `Corpus.filtered`.
"""
from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..io import atomic_write_text
from ..records import (
    LABEL_TYPES,
    QUALITIES,
    SPLITS,
    TASK_TYPES,
    Corpus,
    Label,
    Response,
    SentenceGold,
    Source,
)

MAX_PROBLEMS = 50
MAX_RESPONSE_CHARS = 200_000


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
"""Longest answer accepted (about 50 pages; a longer 'answer' is a damaged row): the limit keeps
the parse of any one answer to about a minute on 2 cores."""
MAX_EVIDENCE_CHARS = 2_000_000
"""Most characters of text in one source's `source_info` (long evidence is parsed in pieces)."""
MAX_JSON_DEPTH = 100
"""Deepest nesting of objects and lists in a row, the row itself included (RAGTruth: 4)."""
_TOO_DEEP = f"nested too deeply (more than {MAX_JSON_DEPTH} levels of lists and objects)"


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


class _Collector:
    def __init__(self, path: Path):
        self.file = str(path)
        self.problems: list[Problem] = []

    def add(self, line: int, field: str, message: str) -> None:
        self.problems.append(Problem(self.file, line, field, message))


def _type_name(value: Any) -> str:
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


def _expect(row: dict, key: str, types: tuple[type, ...], line: int, out: _Collector,
            prefix: str = "") -> bool:
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
                            f"got {_type_name(value)}")
        return False
    return True


def iter_jsonl(path: Path, out: _Collector) -> Iterator[tuple[int, dict]]:
    """Yield (line number, object) for each usable non-blank line; record the others.

    Lines are split on '\n' only (a JSON string may hold other line separators), a UTF-8
    byte order mark on the first line is ignored, and a line that is not valid UTF-8, not
    JSON, nested too deeply or holding text that cannot be written back as UTF-8 is reported
    rather than aborting the whole file.
    """
    for number, raw in _numbered_lines(path, out):
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        row = decode_line(raw, number, out)
        if row is not None and check_values(row, number, out):
            yield number, row


def decode_line(raw: bytes, number: int, out: _Collector) -> dict | None:
    """The JSON object on one line, or None (blank, or a problem recorded in `out`)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        out.add(number, "-", f"not valid UTF-8 (byte {exc.start + 1})")
        return None
    if not text.strip():
        return None
    try:
        row = json.loads(text)
    except json.JSONDecodeError as exc:
        out.add(number, "-", f"malformed JSON: {exc.msg} (column {exc.colno})")
        return None
    except RecursionError:
        out.add(number, "-", _TOO_DEEP)
        return None
    except ValueError as exc:
        out.add(number, "-", f"malformed JSON: {exc}")
        return None
    if not isinstance(row, dict):
        out.add(number, "-", f"expected a JSON object, got {_type_name(row)}")
        return None
    return row


def check_values(row: dict, line: int, out: _Collector) -> bool:
    """Report text that cannot be written as UTF-8 (lone surrogates such as "\\ud800") and
    nesting deeper than MAX_JSON_DEPTH, with the field of each; True when there is none."""
    before = len(out.problems)
    stack = [(_printable(k), v, 2) for k, v in reversed(row.items())]
    while stack:
        field, value, depth = stack.pop()
        if isinstance(value, str):
            _check_encodable(value, field, line, out)
        elif isinstance(value, (dict, list)) and depth > MAX_JSON_DEPTH:
            out.add(line, field, _TOO_DEEP)
        elif isinstance(value, dict):
            for key in value:
                _check_encodable(key, f"{field} (a key)", line, out)
            stack += [(f"{field}.{_printable(k)}", v, depth + 1) for k, v in reversed(value.items())]
        elif isinstance(value, list):
            stack += [(f"{field}[{i}]", value[i], depth + 1) for i in reversed(range(len(value)))]
    return len(out.problems) == before


def _printable(key: str) -> str:
    return key.encode("utf-8", "backslashreplace").decode("utf-8")


def _check_encodable(text: str, field: str, line: int, out: _Collector) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        out.add(line, field, f"text cannot be encoded as UTF-8: lone surrogate "
                             f"{text[exc.start]!r} at character {exc.start}")


def _text_chars(value: Any) -> int:
    """Characters of text in a JSON value (its strings, at any depth)."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict):
        return sum(len(str(k)) + _text_chars(v) for k, v in value.items())
    if isinstance(value, list):
        return sum(_text_chars(v) for v in value)
    return 0


def _numbered_lines(path: Path, out: _Collector) -> Iterator[tuple[int, bytes]]:
    try:
        with open(path, "rb") as handle:
            yield from enumerate(handle, start=1)
    except OSError as exc:
        out.add(0, "-", f"cannot read file: {exc.strerror or exc}")


def _parse_source(row: dict, line: int, out: _Collector) -> Source | None:
    before = len(out.problems)
    _expect(row, "source_id", (str,), line, out)
    if _expect(row, "task_type", (str,), line, out) and row["task_type"] not in TASK_TYPES:
        out.add(line, "task_type", f"unknown value {row['task_type']!r}; expected one of {TASK_TYPES}")
    _expect(row, "source", (str,), line, out)
    _expect(row, "prompt", (str,), line, out)
    if "source_info" not in row:
        out.add(line, "source_info", "missing")
    else:
        _check_source_info(row.get("task_type"), row["source_info"], line, out)
        if evidence_over_limit(row["source_info"]):
            out.add(line, "source_info", evidence_over_limit(row["source_info"]))
    if len(out.problems) > before:
        return None
    extra = {k: v for k, v in row.items()
             if k not in ("source_id", "task_type", "source", "source_info", "prompt")}
    return Source(row["source_id"], row["task_type"], row["source"], row["source_info"],
                  row["prompt"], extra)


def _check_source_info(task: Any, info: Any, line: int, out: _Collector) -> None:
    if task == "Summary":
        if not isinstance(info, str):
            out.add(line, "source_info", f"Summary evidence must be a string, got {_type_name(info)}")
    elif task == "QA":
        if not isinstance(info, dict):
            out.add(line, "source_info", f"QA evidence must be an object, got {_type_name(info)}")
            return
        if not isinstance(info.get("question"), str):
            out.add(line, "source_info.question", "missing or not a string")
        passages = info.get("passages")
        ok = isinstance(passages, str) or (
            isinstance(passages, list) and all(isinstance(p, (str, dict)) for p in passages))
        if not ok:
            out.add(line, "source_info.passages", "missing, or not a string or list of passages")
    elif task == "Data2txt" and not isinstance(info, dict):
        out.add(line, "source_info",
                f"Data2txt evidence must be an object, got {_type_name(info)}")


def _parse_labels(value: Any, text: str | None, line: int, out: _Collector) -> tuple[Label, ...] | None:
    if not isinstance(value, list):
        out.add(line, "labels", f"expected list, got {_type_name(value)}")
        return None
    labels = []
    ok = True
    for i, lab in enumerate(value):
        prefix = f"labels[{i}]."
        if not isinstance(lab, dict):
            out.add(line, f"labels[{i}]", f"expected object, got {_type_name(lab)}")
            ok = False
            continue
        good = all([
            _expect(lab, "start", (int,), line, out, prefix),
            _expect(lab, "end", (int,), line, out, prefix),
            _expect(lab, "text", (str,), line, out, prefix),
            _expect(lab, "label_type", (str,), line, out, prefix),
        ])
        if lab.get("meta") is not None and not isinstance(lab["meta"], str):
            out.add(line, prefix + "meta", f"expected str, got {_type_name(lab['meta'])}")
            good = False
        for flag in ("due_to_null", "implicit_true"):
            if lab.get(flag) is not None and not isinstance(lab[flag], bool):
                out.add(line, prefix + flag, f"expected bool, got {_type_name(lab[flag])}")
                good = False
        if not good:
            ok = False
            continue
        if lab["label_type"] not in LABEL_TYPES:
            out.add(line, prefix + "label_type",
                    f"unknown value {lab['label_type']!r}; expected one of {LABEL_TYPES}")
            ok = False
        start, end = lab["start"], lab["end"]
        if start >= end:
            out.add(line, prefix + "start/end", f"empty or reversed span [{start}, {end})")
            ok = False
            continue
        if text is not None:
            if not (0 <= start and end <= len(text)):
                out.add(line, prefix + "start/end",
                        f"offsets [{start}, {end}) fall outside the response (length {len(text)})")
                ok = False
                continue
            if text[start:end] != lab["text"]:
                out.add(line, prefix + "text",
                        f"{lab['text']!r} does not match response[{start}:{end}] = {text[start:end]!r}")
                ok = False
                continue
        labels.append(Label(start, end, lab["text"], lab["label_type"], lab.get("meta", ""),
                            lab.get("due_to_null"), lab.get("implicit_true")))
    return tuple(sorted(labels, key=lambda x: (x.start, x.end))) if ok else None


def _parse_sentence_meta(value: Any, text: str, line: int, out: _Collector) -> tuple[SentenceGold, ...] | None:
    if not isinstance(value, list):
        out.add(line, "sentence_meta", f"expected list, got {_type_name(value)}")
        return None
    gold = []
    for i, item in enumerate(value):
        prefix = f"sentence_meta[{i}]."
        if not isinstance(item, dict):
            out.add(line, f"sentence_meta[{i}]", f"expected object, got {_type_name(item)}")
            return None
        if not (_expect(item, "start", (int,), line, out, prefix)
                and _expect(item, "end", (int,), line, out, prefix)
                and _expect(item, "supported", (bool,), line, out, prefix)):
            return None
        chunk = item.get("chunk_index")
        if chunk is not None and (isinstance(chunk, bool) or not isinstance(chunk, int)):
            out.add(line, prefix + "chunk_index", f"expected int or null, got {_type_name(chunk)}")
            return None
        if not 0 <= item["start"] < item["end"] <= len(text):
            out.add(line, prefix + "start/end", "offsets fall outside the response")
            return None
        tier = item.get("tier", "verifiable")
        if not isinstance(tier, str) or tier not in SentenceGold.TIERS:
            out.add(line, prefix + "tier", f"unknown value {short_repr(tier)}; expected one of "
                                           f"{SentenceGold.TIERS}")
            return None
        gold.append(SentenceGold(item["start"], item["end"], chunk, item["supported"], tier))
    return tuple(gold)


def _parse_response(row: dict, line: int, out: _Collector) -> Response | None:
    before = len(out.problems)
    _expect(row, "id", (str,), line, out)
    _expect(row, "source_id", (str,), line, out)
    _expect(row, "model", (str,), line, out)
    if _expect(row, "temperature", (int, float), line, out) and not is_finite_number(row["temperature"]):
        out.add(line, "temperature", f"expected a finite number, got {short_repr(row['temperature'])}")
    if _expect(row, "split", (str,), line, out) and row["split"] not in SPLITS:
        out.add(line, "split", f"unknown value {row['split']!r}; expected one of {SPLITS}")
    if _expect(row, "quality", (str,), line, out) and row["quality"] not in QUALITIES:
        out.add(line, "quality", f"unknown value {row['quality']!r}; expected one of {QUALITIES}")
    has_text = _expect(row, "response", (str,), line, out)
    if has_text and len(row["response"]) > MAX_RESPONSE_CHARS:
        out.add(line, "response", f"{len(row['response']):,} characters; answers are limited to "
                                  f"{MAX_RESPONSE_CHARS:,} (MAX_RESPONSE_CHARS)")
        has_text = False
    labels = None
    if "labels" not in row:
        out.add(line, "labels", "missing")
    else:
        labels = _parse_labels(row["labels"], row["response"] if has_text else None, line, out)
    sentence_meta = None
    if row.get("sentence_meta") is not None and has_text:
        sentence_meta = _parse_sentence_meta(row["sentence_meta"], row["response"], line, out)
    response_label = row.get("response_label")
    if response_label is not None and (isinstance(response_label, bool)
                                       or not isinstance(response_label, int)
                                       or response_label not in (0, 1)):
        out.add(line, "response_label", f"expected 0, 1 or null, got {response_label!r}")
    if len(out.problems) > before:
        return None
    known = {"id", "source_id", "model", "temperature", "labels", "split", "quality", "response",
             "sentence_meta", "response_label"}
    extra = {k: v for k, v in row.items() if k not in known}
    return Response(row["id"], row["source_id"], row["model"], float(row["temperature"]),
                    labels or (), row["split"], row["quality"], row["response"],
                    sentence_meta, response_label, extra)


def read_sources(path: str | Path) -> tuple[dict[str, Source], list[Problem]]:
    path = Path(path)
    out = _Collector(path)
    sources: dict[str, Source] = {}
    first_line: dict[str, int] = {}
    for line, row in iter_jsonl(path, out):
        src = _parse_source(row, line, out)
        if src is None:
            continue
        if src.source_id in sources:
            out.add(line, "source_id",
                    f"duplicate source_id {src.source_id!r} (first on line {first_line[src.source_id]})")
            continue
        sources[src.source_id] = src
        first_line[src.source_id] = line
    return sources, out.problems


def read_responses(path: str | Path, sources: dict[str, Source]) -> tuple[list[Response], list[Problem]]:
    path = Path(path)
    out = _Collector(path)
    responses: list[Response] = []
    first_line: dict[str, int] = {}
    for line, row in iter_jsonl(path, out):
        resp = _parse_response(row, line, out)
        if resp is None:
            continue
        if resp.id in first_line:
            out.add(line, "id", f"duplicate id {resp.id!r} (first on line {first_line[resp.id]})")
            continue
        first_line[resp.id] = line
        if resp.source_id not in sources:
            out.add(line, "source_id", f"unknown source_id {resp.source_id!r} "
                                       "(no valid row with this id in the source_info file)")
            continue
        responses.append(resp)
    return responses, out.problems


def filter_rows(sources: dict[str, Source], responses: list[Response],
                quality: Iterable[str] | None = ("good",),
                ) -> tuple[dict[str, Source], list[Response], dict[str, int]]:
    """Apply the loader's filters: (kept sources, kept responses, counts of removed rows).

    Responses whose `quality` is not in `quality` (None keeps all) are removed, counted as
    'quality=<value>'; sources left without responses are dropped and counted too.
    """
    filtered: Counter[str] = Counter()
    if quality is not None:
        allowed = {quality} if isinstance(quality, str) else set(quality)
        kept = []
        for r in responses:
            if r.quality in allowed:
                kept.append(r)
            else:
                filtered[f"quality={r.quality}"] += 1
        responses = kept
    used = {r.source_id for r in responses}
    unused = [s for s in sources if s not in used]
    if unused:
        filtered["sources without kept responses"] = len(unused)
    return ({k: v for k, v in sources.items() if k in used}, responses,
            dict(sorted(filtered.items())))


def load_ragtruth(response_jsonl: str | Path, source_info_jsonl: str | Path, *,
                  quality: Iterable[str] | None = ("good",), name: str | None = None) -> Corpus:
    """Load and validate a RAGTruth-format corpus.

    Raises `DataValidationError` listing every problem found. Responses whose `quality`
    is not in `quality` (None keeps all) are removed and counted in `Corpus.filtered`;
    sources left without responses are counted too.
    """
    sources, problems = read_sources(source_info_jsonl)
    responses, more = read_responses(response_jsonl, sources)
    problems += more
    if problems:
        raise DataValidationError(problems[:MAX_PROBLEMS], total=len(problems))
    sources, responses, filtered = filter_rows(sources, responses, quality)
    return Corpus(
        name=name or Path(response_jsonl).resolve().parent.name,
        sources=sources,
        responses=responses,
        filtered=filtered,
    )


def _jsonl(rows: Iterable[dict]) -> str:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def write_ragtruth(corpus: Corpus, out_dir: str | Path) -> tuple[Path, Path]:
    """Write `response.jsonl` and `source_info.jsonl` (atomically) in the official layout."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    resp_path, src_path = out_dir / "response.jsonl", out_dir / "source_info.jsonl"
    atomic_write_text(src_path, _jsonl(s.to_json() for s in corpus.sources.values()))
    atomic_write_text(resp_path, _jsonl(r.to_json() for r in corpus.responses))
    return resp_path, src_path
