"""Where `detect` writes: JSONL records, the terminal view, and output files that are safe.

Output files (`--out FILE`, `--html FILE`): an existing file is never replaced unless `--force`
is given, an input file never (not even with `--force`), and anything but a regular file (a
directory, a symbolic link, a device, a FIFO, a socket) never; the file is written beside its
final path under a hidden temporary name, line by line as answers are scored, and renamed into
place only when every answer is written, so an interrupted or failed run leaves no partial file
and the earlier file intact.
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path

from ..errors import OutputError
from ..io import check_parent_is_directory, current_umask
from ..results import DetectionResult


def check_output_file(path: str | Path, force: bool = False, inputs: Iterable[str | Path | None] = (),
                      what: str = "output") -> Path:
    """Raise OutputError unless `path` may receive a new file; return its absolute path."""
    final = Path(os.path.abspath(Path(path).expanduser()))
    if final.is_symlink():
        raise OutputError(f"{what} {path} is a symbolic link; give a plain file path")
    if final.is_dir():
        raise OutputError(f"{what} {path} is a directory; give a file path (e.g. {Path(path) / 'results.jsonl'})")
    if final.exists() and not final.is_file():
        raise OutputError(f"{what} {path} is not a regular file (a device, FIFO or socket); evidencechain "
                          f"replaces only regular files, even with --force: give a plain file path")
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
    check_parent_is_directory(f"{what} {path}", final)
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
        os.chmod(self.tmp, 0o666 & ~current_umask())
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


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def terminal_safe(text: str) -> str:
    """`text` with control characters (escape sequences, bidi overrides) written out as \\x1b or
    \\u202e, so nothing from an input reaches the terminal as a command; newlines and tabs stay."""
    text = text.replace("\r\n", "\n")
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def _paint(text: str, style: str, colour: bool) -> str:
    return f"{STYLE[style]}{text}{RESET}" if colour else text


def highlighted(answer: str, result: DetectionResult, colour: bool) -> str:
    """The answer with its spans marked: coloured by confidence, or [[like this]] without colour."""
    out, at = [], 0
    for span in result.spans:
        if span.start < at:
            continue
        out.append(terminal_safe(answer[at:span.start]))
        piece = terminal_safe(answer[span.start:span.end])
        style = "high" if span.confidence >= 0.5 and span.level == "word" or span.level == "rule" else "low"
        out.append(_paint(piece, style, colour) if colour else f"[[{piece}]]")
        at = span.end
    out.append(terminal_safe(answer[at:]))
    return "".join(out)


def pretty(result: DetectionResult, colour: bool = False, width: int = 100) -> str:
    """A few readable lines per answer for the terminal (`--format pretty`); sentences `[N]` and
    passages are numbered from 0, as in the JSON record (passage 0 is context[0])."""
    head = (f"── {terminal_safe(result.id)}  " + _paint(result.verdict.upper(), result.verdict, colour)
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
            place = f"passage {e.passage}" if e.passage is not None else f"chunk {e.chunk}"
            where = f"{place} [{e.start}:{e.end}] score {e.score:.2f}: \"{_clip(e.text, 60)}\""
        verdict = _paint(f"{s.verdict:<11}", "unsupported" if s.verdict == "unsupported" else "dim", colour)
        lines.append(f"   [{s.index}] {verdict} {s.risk:.2f}  {where}")
    for span in result.spans:
        kind = f", {span.type}" if span.type else ""
        if span.error_class:
            kind += f": {span.error_class}; evidence: {_clip(span.evidence_words or '', 40)}"
        lines.append(f"   span [{span.start}:{span.end}] \"{_clip(span.text, 60)}\" confidence "
                     f"{span.confidence:.2f} ({span.level}{kind})")
    if result.note:
        lines.append(f"   note: {terminal_safe(result.note)}")
    return "\n".join(lines) + "\n\n"


def _clip(text: str, width: int) -> str:
    text = " ".join(terminal_safe(text).split())
    return text if len(text) <= width else text[:width - 1] + "…"


def summary_line(counts: dict[str, int], detector: str, model: str, seconds: float) -> str:
    n = sum(counts.values())
    parts = ", ".join(f"{counts.get(v, 0)} {v}" for v in ("hallucinated", "supported", "nothing to check"))
    return f"evidencechain: {n} answer(s) checked in {seconds:.1f} s: {parts} (detector {detector}, model {model})"
