"""`evidencechain data check`: validate RAGTruth-format files and describe what they hold.

The check uses the loader's own readers and filters, so a file pair that passes here loads
with `load_ragtruth` and can be scored: the readers refuse text that cannot be written as
UTF-8, nesting deeper than MAX_JSON_DEPTH and answers or evidence beyond MAX_RESPONSE_CHARS /
MAX_EVIDENCE_CHARS. The statistics describe exactly the corpus the loader would return,
including the empty answers it keeps (each gets the verdict "nothing to check").
Unlike the loader it never raises on bad rows: every problem is listed in the report and
the statistics cover the rows that did validate.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..records import LABEL_TYPES, SPLITS, TASK_TYPES, Response, Source, is_empty_answer
from .ragtruth import MAX_PROBLEMS, DataValidationError, Problem, filter_rows, read_responses, read_sources

SHOWN_IDS = 10
"""Ids of empty answers named in the report (all are counted)."""


@dataclass(slots=True)
class CheckReport:
    """Outcome of `check_files`: `ok` is False when any row failed validation."""

    ok: bool
    text: str
    problems: list[Problem] = field(default_factory=list)
    counts: dict[str, Any] = field(default_factory=dict)


def _ordered(counter: Counter, order: Iterable[str] = ()) -> dict[str, int]:
    """Counts with the known values first (in `order`), then the rest by name."""
    order = list(order)
    known = [k for k in order if counter.get(k)]
    rest = sorted(k for k in counter if k not in order)
    return {k: counter[k] for k in known + rest}


def collect_counts(sources: dict[str, Source], responses: list[Response],
                   filtered: dict[str, int]) -> dict[str, Any]:
    """Statistics of a (validated, filtered) set of sources and responses."""
    task_of = {sid: s.task_type for sid, s in sources.items()}
    labels = [lab for r in responses for lab in r.labels]
    return {
        "sources": len(sources),
        "sources_by_task": _ordered(Counter(s.task_type for s in sources.values()), TASK_TYPES),
        "sources_by_origin": {
            task: _ordered(Counter(s.source for s in sources.values() if s.task_type == task))
            for task in _ordered(Counter(s.task_type for s in sources.values()), TASK_TYPES)},
        "responses": len(responses),
        "responses_by_split": _ordered(Counter(r.split for r in responses), SPLITS),
        "responses_by_task": _ordered(Counter(task_of.get(r.source_id, "?") for r in responses),
                                      TASK_TYPES),
        "responses_by_model": _ordered(Counter(r.model for r in responses)),
        "empty_responses": sum(is_empty_answer(r.response) for r in responses),
        "empty_response_ids": [r.id for r in responses if is_empty_answer(r.response)][:SHOWN_IDS],
        "hallucinated": sum(r.hallucinated for r in responses),
        "hallucinated_by_task": _ordered(Counter(task_of.get(r.source_id, "?")
                                                 for r in responses if r.hallucinated),
                                         TASK_TYPES),
        "labels": len(labels),
        "labels_by_type": _ordered(Counter(lab.label_type for lab in labels), LABEL_TYPES),
        "labels_implicit_true": sum(bool(lab.implicit_true) for lab in labels),
        "labels_due_to_null": sum(bool(lab.due_to_null) for lab in labels),
        "filtered": dict(filtered),
    }


def _table(rows: dict[str, Any], indent: str = "  ") -> list[str]:
    if not rows:
        return [f"{indent}(none)"]
    width = max(len(str(k)) for k in rows)
    return [f"{indent}{str(k).ljust(width)}  {v}" for k, v in rows.items()]


def _empty_line(n: int, ids: list[str]) -> str:
    line = f"  empty answers (kept, nothing to check): {n}"
    if not n:
        return line
    more = ", ..." if n > len(ids) else ""
    return f"{line} (id {', '.join(repr(i) for i in ids)}{more})"


def _why(reason: str) -> str:
    if reason.startswith("quality="):
        return f"responses with {reason}"
    return reason


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def render_report(response_jsonl: str | Path, source_info_jsonl: str | Path,
                  counts: dict[str, Any], problems: list[Problem],
                  max_problems: int = MAX_PROBLEMS) -> str:
    lines = [
        "RAGTruth-format check",
        f"  responses: {response_jsonl}",
        f"  sources:   {source_info_jsonl}",
    ]
    if problems:
        lines.append(f"  (statistics cover only the {counts['rows_valid']} valid response row(s) "
                     f"and {counts['sources_valid']} valid source row(s))")
    lines += ["", (f"Sources: {counts['sources']} with kept responses "
                   f"({counts['sources_valid']} valid rows read)")]
    width = max((len(t) for t in counts["sources_by_origin"]), default=0)
    origin = {f"{task.ljust(width)}  {src}": n for task, by_src in counts["sources_by_origin"].items()
              for src, n in by_src.items()}
    lines += _table(origin)
    lines += ["", (f"Responses: {counts['responses']} kept of {counts['rows_valid']} "
                   "valid rows read")]
    for title, key in (("by split", "responses_by_split"), ("by task type", "responses_by_task"),
                       ("by model", "responses_by_model")):
        lines.append(f"  {title}:")
        lines += _table(counts[key], indent="    ")
    lines.append(_empty_line(counts["empty_responses"], counts["empty_response_ids"]))
    n, h = counts["responses"], counts["hallucinated"]
    lines += ["", f"Hallucinated responses: {h} of {n} ({_pct(h, n)})"]
    lines += _table(counts["hallucinated_by_task"])
    lines += ["", (f"Labels: {counts['labels']} "
                   f"(implicit_true: {counts['labels_implicit_true']}, "
                   f"due_to_null: {counts['labels_due_to_null']})")]
    lines += _table(counts["labels_by_type"])
    lines += ["", f"Filtered out (kept qualities: {counts['kept_qualities']}):"]
    lines += _table({_why(k): v for k, v in counts["filtered"].items()})
    lines.append("")
    if not problems:
        lines += ["Problems: none", "", "OK"]
        return "\n".join(lines) + "\n"
    shown = problems[:max_problems]
    lines.append(f"Problems: {len(problems)}"
                 + (f" (first {len(shown)} shown)" if len(shown) < len(problems) else ""))
    lines += [f"  {p}" for p in shown]
    if len(problems) > len(shown):
        lines.append(f"  ... and {len(problems) - len(shown)} more")
    lines += ["", f"FAILED: {len(problems)} problem(s)"]
    return "\n".join(lines) + "\n"


def check_files(response_jsonl: str | Path, source_info_jsonl: str | Path, *,
                quality: Iterable[str] | None = ("good",),
                max_problems: int = MAX_PROBLEMS) -> CheckReport:
    """Validate a `response.jsonl` / `source_info.jsonl` pair and report its statistics.

    Every problem is kept in `CheckReport.problems`; the text shows the first
    `max_problems` and counts the rest. Filtering is the loader's (`quality`, default
    ("good",); None keeps every row), and what it removed is counted and explained.
    """
    sources, problems = read_sources(source_info_jsonl)
    responses, more = read_responses(response_jsonl, sources)
    problems = problems + more
    n_sources, n_rows = len(sources), len(responses)
    sources, responses, filtered = filter_rows(sources, responses, quality)
    counts = collect_counts(sources, responses, filtered)
    kept = "all" if quality is None else ", ".join(
        [quality] if isinstance(quality, str) else list(quality))
    counts.update(rows_valid=n_rows, sources_valid=n_sources, problems=len(problems),
                  kept_qualities=kept)
    text = render_report(response_jsonl, source_info_jsonl, counts, problems, max_problems)
    return CheckReport(ok=not problems, text=text, problems=problems, counts=counts)


def check_plain(path: str | Path) -> CheckReport:
    """`check_files` for a plain JSONL/CSV file: the plain loader's checks, and its counts."""
    from .plain import load_plain

    try:
        corpus = load_plain(path)
    except DataValidationError as exc:
        return CheckReport(False, f"{path}: {exc}", list(exc.problems), {})
    counts = {"answers": len(corpus.responses), "sources": len(corpus.sources),
              "labelled": corpus.labelled, "span_labels": corpus.span_labels,
              "hallucinated": sum(r.hallucinated for r in corpus.responses) if corpus.labelled else None,
              "empty_answers_kept": corpus.empty_answers, "removed": corpus.filtered}
    lines = [f"{path}: OK"] + [f"  {k}: {v}" for k, v in counts.items()]
    return CheckReport(True, "\n".join(lines), [], counts)
