"""Read, validate and write RAGTruth-format `response.jsonl` / `source_info.jsonl` files.

Every problem is collected with its file, line and field and raised together as one
`DataValidationError`; rows removed by filters are counted in `Corpus.filtered`.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

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
from .validation import (
    MAX_PROBLEMS,
    MAX_RESPONSE_CHARS,
    Collector,
    DataValidationError,
    Problem,
    check_values,
    decode_line,
    evidence_over_limit,
    expect,
    is_finite_number,
    short_repr,
    type_name,
)


def iter_jsonl(path: Path, out: Collector) -> Iterator[tuple[int, dict]]:
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


def _numbered_lines(path: Path, out: Collector) -> Iterator[tuple[int, bytes]]:
    try:
        with open(path, "rb") as handle:
            yield from enumerate(handle, start=1)
    except OSError as exc:
        out.add(0, "-", f"cannot read file: {exc.strerror or exc}")


def parse_source(row: dict, line: int, out: Collector) -> Source | None:
    """The Source of one source_info row; None after recording its problems in `out`."""
    before = len(out.problems)
    expect(row, "source_id", (str,), line, out)
    if expect(row, "task_type", (str,), line, out) and row["task_type"] not in TASK_TYPES:
        out.add(line, "task_type", f"unknown value {row['task_type']!r}; expected one of {TASK_TYPES}")
    expect(row, "source", (str,), line, out)
    expect(row, "prompt", (str,), line, out)
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


def _check_source_info(task: Any, info: Any, line: int, out: Collector) -> None:
    if task == "Summary":
        if not isinstance(info, str):
            out.add(line, "source_info", f"Summary evidence must be a string, got {type_name(info)}")
    elif task == "QA":
        if not isinstance(info, dict):
            out.add(line, "source_info", f"QA evidence must be an object, got {type_name(info)}")
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
                f"Data2txt evidence must be an object, got {type_name(info)}")


def _parse_labels(value: Any, text: str | None, line: int, out: Collector) -> tuple[Label, ...] | None:
    if not isinstance(value, list):
        out.add(line, "labels", f"expected list, got {type_name(value)}")
        return None
    labels = []
    ok = True
    for i, lab in enumerate(value):
        prefix = f"labels[{i}]."
        if not isinstance(lab, dict):
            out.add(line, f"labels[{i}]", f"expected object, got {type_name(lab)}")
            ok = False
            continue
        good = all([
            expect(lab, "start", (int,), line, out, prefix),
            expect(lab, "end", (int,), line, out, prefix),
            expect(lab, "text", (str,), line, out, prefix),
            expect(lab, "label_type", (str,), line, out, prefix),
        ])
        if lab.get("meta") is not None and not isinstance(lab["meta"], str):
            out.add(line, prefix + "meta", f"expected str, got {type_name(lab['meta'])}")
            good = False
        for flag in ("due_to_null", "implicit_true"):
            if lab.get(flag) is not None and not isinstance(lab[flag], bool):
                out.add(line, prefix + flag, f"expected bool, got {type_name(lab[flag])}")
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


def _parse_sentence_meta(value: Any, text: str, line: int, out: Collector) -> tuple[SentenceGold, ...] | None:
    if not isinstance(value, list):
        out.add(line, "sentence_meta", f"expected list, got {type_name(value)}")
        return None
    gold = []
    for i, item in enumerate(value):
        prefix = f"sentence_meta[{i}]."
        if not isinstance(item, dict):
            out.add(line, f"sentence_meta[{i}]", f"expected object, got {type_name(item)}")
            return None
        if not (expect(item, "start", (int,), line, out, prefix)
                and expect(item, "end", (int,), line, out, prefix)
                and expect(item, "supported", (bool,), line, out, prefix)):
            return None
        chunk = item.get("chunk_index")
        if chunk is not None and (isinstance(chunk, bool) or not isinstance(chunk, int)):
            out.add(line, prefix + "chunk_index", f"expected int or null, got {type_name(chunk)}")
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


def parse_response(row: dict, line: int, out: Collector) -> Response | None:
    """The Response of one response row; None after recording its problems in `out`."""
    before = len(out.problems)
    expect(row, "id", (str,), line, out)
    expect(row, "source_id", (str,), line, out)
    expect(row, "model", (str,), line, out)
    if expect(row, "temperature", (int, float), line, out) and not is_finite_number(row["temperature"]):
        out.add(line, "temperature", f"expected a finite number, got {short_repr(row['temperature'])}")
    if expect(row, "split", (str,), line, out) and row["split"] not in SPLITS:
        out.add(line, "split", f"unknown value {row['split']!r}; expected one of {SPLITS}")
    if expect(row, "quality", (str,), line, out) and row["quality"] not in QUALITIES:
        out.add(line, "quality", f"unknown value {row['quality']!r}; expected one of {QUALITIES}")
    has_text = expect(row, "response", (str,), line, out)
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
    out = Collector(path)
    sources: dict[str, Source] = {}
    first_line: dict[str, int] = {}
    for line, row in iter_jsonl(path, out):
        src = parse_source(row, line, out)
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
    out = Collector(path)
    responses: list[Response] = []
    first_line: dict[str, int] = {}
    for line, row in iter_jsonl(path, out):
        resp = parse_response(row, line, out)
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
