"""What `detect` and `Detector.predict_batch` read: plain records, plain files, stdin, RAGTruth pairs.

Plain records and files go through the same source rule as `evidencechain.data.plain` (so a
record scores the same whether it comes from `predict`, `predict_batch` or `detect`). Every
problem names file:line:field (or records[i]: field) and nothing is dropped: a file with a bad
record is refused as a whole, before anything is written.
"""
from __future__ import annotations

import dataclasses
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..data.plain import load_plain, plain_format, plain_source
from ..data.validation import DataValidationError, check_answer_text, evidence_over_limit
from ..errors import ConfigError, InputError
from ..records import Corpus, Response

STDIN = "-"
CONTEXT_ALIASES = ("passages", "contexts", "documents", "evidence", "source", "reference")
RECORD_KEYS = ("context", "question", "answer", "id")


def _check_record(record: Mapping, where: str) -> tuple[str | list[str], str | None, str]:
    if not isinstance(record, Mapping):
        raise InputError(f"{where}: expected a dict with 'context', 'answer' and optional 'question', "
                         f"'id'; got {type(record).__name__}")
    if "context" not in record:
        alias = next((k for k in CONTEXT_ALIASES if k in record), None)
        hint = f" (this record has {alias!r}: pass it as 'context')" if alias else ""
        raise InputError(f"{where}: field 'context': missing{hint}")
    context, question, answer = record["context"], record.get("question"), record.get("answer")
    if isinstance(context, tuple):
        context = list(context)
    if not (isinstance(context, str) or (isinstance(context, list) and all(isinstance(p, str) for p in context))):
        raise InputError(f"{where}: field 'context': expected a string or a list of strings, "
                         f"got {type(context).__name__}")
    if not "".join(context).strip():
        raise InputError(f"{where}: field 'context': empty: no evidence to check the answer against")
    if evidence_over_limit(context):
        raise InputError(f"{where}: field 'context': {evidence_over_limit(context)}")
    if not isinstance(answer, str):
        raise InputError(f"{where}: field 'answer': expected a string, got "
                         f"{'nothing' if answer is None else type(answer).__name__}")
    check_answer_text(answer, f"{where}: field 'answer'")
    if question is not None and not isinstance(question, str):
        raise InputError(f"{where}: field 'question': expected a string, got {type(question).__name__}")
    rid = record.get("id")
    if rid is not None and (isinstance(rid, bool) or not isinstance(rid, (str, int))):
        raise InputError(f"{where}: field 'id': expected a string or integer, got {type(rid).__name__}")
    return context, question or None, answer


class RecordsTypeError(ConfigError, TypeError):
    """`predict_batch` was given something other than an iterable of record dicts."""


def records_to_corpus(records: Iterable[Mapping], name: str = "records") -> tuple[Corpus, list[str]]:
    """A Corpus of plain records ({context, question?, answer, id?}) and the id of each record."""
    if records is None or isinstance(records, (str, bytes, Mapping)) or not isinstance(records, Iterable):
        hint = " (one record: pass [record], or use predict)" if isinstance(records, Mapping) else ""
        raise RecordsTypeError(f"records must be a list (or other iterable) of dicts with 'context', "
                               f"'answer' and optional 'question', 'id'; got {type(records).__name__}{hint}")
    sources, source_of, responses, ids = {}, {}, [], []
    for k, record in enumerate(records):
        context, question, answer = _check_record(record, f"records[{k}]")
        key = (json.dumps(context), question)
        if key not in source_of:
            source_of[key] = f"src-{k + 1}"
            sources[source_of[key]] = plain_source(source_of[key], context, question, name)
        responses.append(Response(str(k), source_of[key], "unknown", 0.0, (), "test", "good", answer))
        ids.append(str(record.get("id", k)))
    return Corpus(name, sources, responses, {}, span_labels=True, labelled=False), ids


def _peek(path: Path) -> tuple[int, dict] | None:
    """The first JSON object of a JSONL file and its line number (None if none can be read)."""
    try:
        with open(path, "rb") as handle:
            for number, raw in enumerate(handle, start=1):
                if raw.strip():
                    row = json.loads(raw.decode("utf-8-sig"))
                    return (number, row) if isinstance(row, dict) else None
    except (OSError, ValueError, RecursionError):  # the loader reports what is wrong with the line
        return None
    return None


def check_jsonl_fields(path: Path, shown: str) -> None:
    """Refuse, with what to do, a JSONL file that is RAGTruth or names its context otherwise."""
    first = _peek(path) if not path.name.removesuffix(".gz").endswith(".csv") and not path.name.endswith(".gz") \
        else None
    if first is None or "context" in first[1]:
        return
    line, row = first
    if {"response", "source_id"} <= set(row):
        raise InputError(f"{shown}:{line}: a RAGTruth response file (it has 'response' and 'source_id'); "
                         f"score it with --response-jsonl {shown} --source-info-jsonl SOURCE_INFO.jsonl")
    alias = next((k for k in CONTEXT_ALIASES if k in row), None)
    if alias:
        raise InputError(f"{shown}:{line}: field 'context': missing (this file has {alias!r}: name that "
                         f"field 'context', a string or a list of passages)")


def read_plain(path: str | Path, input_format: str = "auto") -> Corpus:
    """A plain JSONL/CSV file (or '-' for stdin) as a Corpus, validated as a whole."""
    if str(path) == STDIN:
        return _read_stdin(input_format)
    path = Path(path).expanduser()
    if not path.exists():
        raise InputError(f"{path}: no such file")
    if path.is_dir():
        raise InputError(f"{path}: is a directory; give a JSONL or CSV file (or RAGTruth files with "
                         f"--response-jsonl and --source-info-jsonl)")
    if input_format == "auto":
        input_format = plain_format(path)
    if input_format != plain_format_or_none(path):
        return _via_copy(path, input_format, str(path))
    check_jsonl_fields(path, str(path))
    return _detect_ready(load_plain(path))


def plain_format_or_none(path: Path) -> str | None:
    try:
        return plain_format(path)
    except InputError:
        return None


def _via_copy(source, input_format: str, shown: str) -> Corpus:
    """Load a file under the suffix its format needs (stdin, or a file named otherwise);
    problems name `shown`, not the temporary copy."""
    suffix = ".csv" if input_format == "csv" else ".jsonl"
    fd, tmp = tempfile.mkstemp(prefix="evidencechain-input-", suffix=suffix)
    try:
        with os.fdopen(fd, "wb") as handle:
            if isinstance(source, Path):
                with open(source, "rb") as src:
                    shutil.copyfileobj(src, handle)
            else:
                shutil.copyfileobj(source, handle)
        if input_format != "csv":
            check_jsonl_fields(Path(tmp), shown)
        corpus = load_plain(tmp, name=Path(shown).stem if shown != "<stdin>" else "stdin")
    except DataValidationError as exc:
        problems = [dataclasses.replace(p, file=shown) for p in exc.problems]
        raise DataValidationError(problems, total=exc.total) from None
    except InputError as exc:
        if tmp not in str(exc):
            raise
        raise InputError(str(exc).replace(tmp, shown)) from None
    finally:
        os.unlink(tmp)
    return _detect_ready(corpus)


def _read_stdin(input_format: str) -> Corpus:
    if sys.stdin is None or sys.stdin.isatty():
        raise InputError("detect -: standard input is a terminal; pipe answers in "
                         "(e.g. `cat my.jsonl | evidencechain detect -`)")
    return _via_copy(sys.stdin.buffer, "csv" if input_format == "csv" else "jsonl", "<stdin>")


def read_ragtruth(response_jsonl: str | Path, source_info_jsonl: str | Path) -> Corpus:
    from ..data.ragtruth import load_ragtruth

    return _detect_ready(load_ragtruth(response_jsonl, source_info_jsonl, quality=None))


def _detect_ready(corpus: Corpus) -> Corpus:
    """Scoring needs the token table of every answer, labelled or not."""
    corpus.span_labels = True
    return corpus


def check_input_format(value: str) -> str:
    if value not in ("auto", "jsonl", "csv"):
        raise ConfigError(f"--input-format must be auto, jsonl or csv, got {value!r}")
    return value
