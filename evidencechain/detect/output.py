"""Where `detect` writes: JSONL records, the terminal view, and output files that are safe.

Output files (`--out FILE`, `--html FILE`): an existing file is never replaced unless `--force`
is given, an input file never (not even with `--force`), and a directory or a symbolic link
never; the file is written beside its final path under a hidden temporary name, line by line
as answers are scored, and renamed into place only when every answer is written, so an
interrupted or failed run leaves no partial file and the earlier file intact.
"""
from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from ..errors import OutputError
from ..io import _umask
from .results import DetectionResult


def check_output_file(path: str | Path, force: bool = False, inputs: Iterable[str | Path | None] = (),
                      what: str = "output") -> Path:
    """Raise OutputError unless `path` may receive a new file; return its absolute path."""
    final = Path(os.path.abspath(Path(path).expanduser()))
    if final.is_symlink():
        raise OutputError(f"{what} {path} is a symbolic link; give a plain file path")
    if final.is_dir():
        raise OutputError(f"{what} {path} is a directory; give a file path (e.g. {Path(path) / 'results.jsonl'})")
    for item in inputs:
        if item in (None, "", "-"):
            continue
        source = Path(item).expanduser()
        if final == Path(os.path.abspath(source)).resolve() or (final.exists() and source.exists()
                                                                and os.path.samefile(final, source)):
            raise OutputError(f"refusing to write {what} to {path}: it is an input of this command")
    if final.exists() and not force:
        raise OutputError(f"{what} {path} exists; choose another path, or pass --force to replace it")
    parent = final.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"{what} {path} is not writable: {parent} is read-only")
    return final


class OutputFile:
    """A text file written incrementally under a temporary name and renamed into place on `commit`."""

    def __init__(self, path: str | Path, force: bool = False, inputs: Iterable = (), what: str = "output"):
        self.inputs, self.force, self.what = tuple(inputs), force, what
        self.path = check_output_file(path, force, self.inputs, what)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, self.tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".partial")
        self.handle = os.fdopen(fd, "w", encoding="utf-8", newline="\n")

    def write(self, text: str) -> None:
        self.handle.write(text)

    def flush(self) -> None:
        self.handle.flush()

    def commit(self) -> Path:
        self.handle.close()
        check_output_file(self.path, self.force, self.inputs, self.what)  # nothing appeared meanwhile
        os.chmod(self.tmp, 0o666 & ~_umask())
        os.replace(self.tmp, self.path)
        return self.path

    def discard(self) -> None:
        """Remove the temporary file if it was not committed (a no-op after `commit`)."""
        if not self.handle.closed:
            self.handle.close()
        if os.path.exists(self.tmp):
            os.unlink(self.tmp)


def jsonl_line(result: DetectionResult) -> str:
    return json.dumps(result.to_dict(), ensure_ascii=False) + "\n"


# -- terminal view ------------------------------------------------------------------------------

RESET = "\033[0m"
STYLE = {"hallucinated": "\033[1;31m", "supported": "\033[1;32m", "nothing to check": "\033[2m",
         "unsupported": "\033[31m", "high": "\033[1;97;41m", "low": "\033[30;43m", "dim": "\033[2m"}


def use_colour(choice: str, stream) -> bool:
    """--color always/never, or auto: a terminal, unless NO_COLOR is set (FORCE_COLOR forces it)."""
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return bool(getattr(stream, "isatty", lambda: False)())


def _paint(text: str, style: str, colour: bool) -> str:
    return f"{STYLE[style]}{text}{RESET}" if colour else text


def highlighted(answer: str, result: DetectionResult, colour: bool) -> str:
    """The answer with its spans marked: coloured by confidence, or [[like this]] without colour."""
    out, at = [], 0
    for span in result.spans:
        if span.start < at:
            continue
        out.append(answer[at:span.start])
        piece = answer[span.start:span.end]
        style = "high" if span.confidence >= 0.5 and span.level == "word" else "low"
        out.append(_paint(piece, style, colour) if colour else f"[[{piece}]]")
        at = span.end
    out.append(answer[at:])
    return "".join(out)


def pretty(result: DetectionResult, colour: bool = False, width: int = 100) -> str:
    """A few readable lines per answer for the terminal (`--format pretty`)."""
    head = (f"── {result.id}  " + _paint(result.verdict.upper(), result.verdict, colour)
            + f"  risk {result.risk:.2f} (threshold {result.threshold:.2f}, {result.detector})")
    lines = [head]
    if result.question:
        lines.append(f"   Q: {_clip(result.question, width)}")
    answer = highlighted(result.answer, result, colour).replace("\r\n", "\n")
    lines += ["   A: " + line for line in answer.split("\n")]
    for s in result.sentences:
        if s.evidence is None:
            where = _paint("no evidence", "dim", colour)
        else:
            e = s.evidence
            place = f"passage {e.passage + 1}" if e.passage is not None else f"chunk {e.chunk + 1}"
            where = f"{place} [{e.start}:{e.end}] score {e.score:.2f}: \"{_clip(e.text, 60)}\""
        verdict = _paint(f"{s.verdict:<11}", "unsupported" if s.verdict == "unsupported" else "dim", colour)
        lines.append(f"   [{s.index + 1}] {verdict} {s.risk:.2f}  {where}")
    for span in result.spans:
        kind = f", {span.type}" if span.type else ""
        if span.error_class:
            kind += f": {span.error_class}; evidence: {_clip(span.evidence_words or '', 40)}"
        lines.append(f"   span [{span.start}:{span.end}] \"{_clip(span.text, 60)}\" confidence "
                     f"{span.confidence:.2f} ({span.level}{kind})")
    if result.note:
        lines.append(f"   note: {result.note}")
    return "\n".join(lines) + "\n\n"


def _clip(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1] + "…"


def summary_line(counts: dict[str, int], detector: str, model: str, seconds: float) -> str:
    n = sum(counts.values())
    parts = ", ".join(f"{counts.get(v, 0)} {v}" for v in ("hallucinated", "supported", "nothing to check"))
    return f"evidencechain: {n} answer(s) checked in {seconds:.1f} s: {parts} (detector {detector}, model {model})"
