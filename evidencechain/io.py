"""Safe file output: atomic writes, staged output directories that never replace a user's files.

An output directory is replaced only when it is absent, empty, or was written by evidencechain
(it holds a `.evidencechain-output` marker listing what it wrote and the sha256 of every file)
and none of its files was edited since; everything else is refused with an `OutputError`
naming the files before any work starts.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable
from contextlib import contextmanager, suppress
from pathlib import Path

import pandas as pd

from .errors import OutputError

MARKER = ".evidencechain-output"
"""Marker file of a directory evidencechain wrote: JSON with command, time and file names."""
REPORT_MANIFEST = ".evidencechain-report.json"
"""Manifest of the files `report` wrote into a shared directory (name -> sha256 list)."""

_STAGED = re.compile(r"^\.(?P<name>.+)\.(?:partial|old)-(?P<pid>\d+)-(?P<start>\d+)(?:-[^-]*)?$")


def current_umask() -> int:
    """The process umask now (read from /proc where possible: setting it is not thread-safe)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except OSError:
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write_bytes(path: str | Path, data: bytes) -> Path:
    """Write `data` to a temporary file beside `path`, then rename it into place."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o666 & ~current_umask())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def open_text(path: str | Path, mode: str = "rt"):
    """A text file, gzip- or xz-compressed by its suffix (.gz, .xz), opened as UTF-8."""
    path = Path(path)
    if path.suffix == ".gz":
        import gzip
        return gzip.open(path, mode, encoding="utf-8")
    if path.suffix == ".xz":
        import lzma
        return lzma.open(path, mode, encoding="utf-8")
    return open(path, mode.replace("t", ""), encoding="utf-8")


def atomic_write_text(path: str | Path, text: str) -> Path:
    return atomic_write_bytes(path, text.encode("utf-8"))


def write_csv(frame: pd.DataFrame, path: str | Path, float_format: str = "%.6f") -> Path:
    """Write a CSV deterministically: fixed float format, no index, '\\n' line endings."""
    text = frame.to_csv(index=False, float_format=float_format, lineterminator="\n")
    return atomic_write_text(path, text)


def sha256_file(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def stable_hash(text: str) -> int:
    """A process-independent 64-bit hash (Python's hash() is salted per process)."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


# -- which paths may be replaced ---------------------------------------------------------------

def check_output_dir(path: str | Path, inputs: Iterable[str | Path | None] = ()) -> Path:
    """Raise OutputError unless `path` may be (re)placed by a new output directory.

    Allowed: an absent path, an empty directory, or a directory evidencechain wrote. Refused:
    a file, a link, a directory holding other files, an unwritable one, the current, home or
    root directory, and any directory that holds one of `inputs` (or a parent of one).
    Returns the absolute path.
    """
    final = Path(os.path.abspath(path))
    _refuse_protected(path, final, inputs)
    if final.is_symlink():
        raise OutputError(f"output {path} is a symbolic link; give the directory it points to")
    if final.exists():
        _check_existing(path, final)
    _check_writable(path, _nearest_existing(final.parent))
    return final


def check_parent_is_directory(shown: str | Path, final: Path) -> None:
    """OutputError when the nearest existing parent of `final` is a file (`a.txt/out`)."""
    parent = _nearest_existing(final.parent)
    if not parent.is_dir():
        raise OutputError(f"cannot create {shown}: {parent} is a file, not a directory; "
                          f"choose a path under a directory")


def _refuse_protected(shown: str | Path, final: Path, inputs: Iterable[str | Path | None]) -> None:
    real = final.resolve()
    named = {Path.cwd().resolve(): "the current directory", _home(): "your home directory"}
    for place, what in named.items():
        if real == place or real in place.parents:
            relation = f"it is {what}" if real == place else f"it contains {what} ({place})"
            raise OutputError(f"refusing to write output to {shown}: {relation}")
    if real == Path(real.anchor):
        raise OutputError(f"refusing to write output to {shown}: it is the filesystem root")
    for item in inputs:
        if item is None or str(item) == "":
            continue
        source = Path(item).resolve()
        if real == source or real in source.parents:
            raise OutputError(f"refusing to write output to {shown}: it would replace the input {item}")


def _home() -> Path:
    try:
        return Path.home().resolve()
    except (KeyError, RuntimeError):
        return Path("/")


def _check_existing(shown: str | Path, final: Path) -> None:
    if not final.is_dir():
        raise OutputError(f"output {shown} is an existing file, not a directory; "
                          f"choose another output path")
    _check_writable(shown, final)
    foreign = foreign_entries(final)
    if foreign:
        listed = ", ".join(foreign[:3]) + (", ..." if len(foreign) > 3 else "")
        raise OutputError(f"output directory {shown} holds files evidencechain did not write "
                          f"({listed}); choose an empty or new directory, or remove them yourself")
    changed = changed_files(final)
    if changed:
        listed = ", ".join(changed[:3]) + (", ..." if len(changed) > 3 else "")
        raise OutputError(f"output directory {shown} holds files changed since evidencechain wrote them "
                          f"({listed}); they would be lost: choose another output directory, or move "
                          f"them away yourself")


def _check_writable(shown: str | Path, directory: Path) -> None:
    if not directory.is_dir():
        raise OutputError(f"output {shown} cannot be created: {directory} is a file, not a directory; "
                          f"choose a path under a directory")
    mode = directory.stat().st_mode
    if not os.access(directory, os.W_OK | os.X_OK) or not mode & 0o222:
        raise OutputError(f"output {shown} is not writable: {directory} is read-only")


def _nearest_existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def foreign_entries(directory: str | Path) -> list[str]:
    """Names in `directory` that evidencechain did not write (empty: safe to replace)."""
    directory = Path(directory)
    entries = sorted(p.name for p in directory.iterdir())
    if not entries:
        return []
    owned = _owned_names(directory)
    if owned is None:
        return entries
    return [name for name in entries if name not in owned and not _STAGED.match(name)
            and not _owned_subdir(directory / name)]


def _owned_names(directory: Path) -> set[str] | None:
    """Entries a marker or report manifest in `directory` lists; None when there is neither."""
    names: set[str] | None = None
    for manifest in (MARKER, REPORT_MANIFEST):
        try:
            meta = json.loads((directory / manifest).read_text("utf-8"))
            files = meta["files"]
        except (OSError, ValueError, KeyError, TypeError, RecursionError):
            continue
        names = (names or set()) | set(files) | {manifest}
    return names


def changed_files(directory: str | Path) -> list[str]:
    """Files (relative paths) whose sha256 differs from the one the marker recorded, or that are no
    longer regular files; empty for a marker without sha256 sums (written by an older version)."""
    directory = Path(directory)
    try:
        recorded = json.loads((directory / MARKER).read_text("utf-8")).get("sha256")
    except (OSError, ValueError, AttributeError, RecursionError):
        return []
    if not isinstance(recorded, dict):
        return []
    changed = []
    for name, digest in sorted(recorded.items()):
        file = directory / str(name)
        if Path(str(name)).is_absolute() or ".." in Path(str(name)).parts or not os.path.lexists(file):
            continue
        if file.is_symlink() or not file.is_file() or sha256_file(file) != digest:
            changed.append(str(name))
    return changed


def _file_sums(directory: Path) -> dict[str, str]:
    sums = {}
    for root, dirs, files in os.walk(directory):
        dirs.sort()
        for name in sorted(files):
            path = Path(root) / name
            if path.is_file() and not path.is_symlink() and path != directory / MARKER:
                sums[path.relative_to(directory).as_posix()] = sha256_file(path)
    return sums


def _owned_subdir(path: Path) -> bool:
    return path.is_dir() and not path.is_symlink() and _owned_names(path) is not None \
        and not foreign_entries(path)


# -- staging ----------------------------------------------------------------------------------

def _process_start(pid: int) -> str | None:
    """An identifier of the start of process `pid` (None: no such process)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[19]
    except FileNotFoundError:
        return None
    except (OSError, IndexError):
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except OSError:
        pass
    return "0"


def owner_tag() -> str:
    return f"{os.getpid()}-{_process_start(os.getpid()) or 0}"


def _is_stale(pid: int, start: str) -> bool:
    current = _process_start(pid)
    return current is None or (start != "0" and current != "0" and current != start)


def stale_staged_name(entry: str) -> str | None:
    """The name that `entry` (a `.NAME.partial-...` or `.NAME.old-...` file or directory) was
    staged for, when the process that made it has ended; else None."""
    match = _STAGED.match(entry)
    if match and _is_stale(int(match["pid"]), match["start"]):
        return match["name"]
    return None


def clean_stale_staging(parent: str | Path, name: str) -> list[Path]:
    """Remove `.NAME.partial-*` / `.NAME.old-*` directories whose creating process has ended."""
    removed = []
    try:
        candidates = list(Path(parent).iterdir())
    except OSError:
        return removed
    for path in candidates:
        match = _STAGED.match(path.name)
        if match and match["name"] == name and _is_stale(int(match["pid"]), match["start"]):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def make_stage(parent: str | Path, name: str) -> Path:
    """A fresh hidden staging directory `.NAME.partial-PID-START-XXXX` in `parent` (umask perms)."""
    parent = Path(parent)
    parent.mkdir(parents=True, exist_ok=True)
    clean_stale_staging(parent, name)
    try:
        stage = Path(tempfile.mkdtemp(dir=parent, prefix=f".{name}.partial-{owner_tag()}-"))
    except OSError as exc:
        raise OutputError(f"cannot create a staging directory in {parent}: {exc.strerror}") from exc
    os.chmod(stage, 0o777 & ~current_umask())
    return stage


def write_marker(directory: str | Path, command: str | None = None) -> Path:
    directory = Path(directory)
    files = sorted(p.name for p in directory.iterdir() if p.name != MARKER)
    meta = {"written_by": "evidencechain", "command": command or command_line(),
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "files": files, "sha256": _file_sums(directory)}
    return atomic_write_text(directory / MARKER, json.dumps(meta, indent=2) + "\n")


def command_line() -> str:
    program = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "python"
    if program in ("__main__.py", "cli.py"):
        program = "evidencechain"
    return " ".join([program, *sys.argv[1:]])


@contextmanager
def staged_directory(final: str | Path, inputs: Iterable[str | Path | None] = (),
                     command: str | None = None):
    """Yield a fresh staging directory; on success it replaces `final` in one rename.

    `final` is checked first (`check_output_dir`): only an absent, empty or evidencechain-written
    directory is replaced. If the block raises (or is interrupted), `final` is left exactly as it
    was and the staging directory is removed.
    """
    inputs = tuple(inputs)
    final = check_output_dir(final, inputs)
    stage = make_stage(final.parent, final.name)
    try:
        yield stage
        write_marker(stage, command)
        check_output_dir(final, inputs)
        _swap(stage, final)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise


def _swap(stage: Path, final: Path) -> None:
    old = None
    try:
        if os.path.lexists(final):
            old = final.parent / f".{final.name}.old-{owner_tag()}"
            os.replace(final, old)
        os.replace(stage, final)
    except OSError as exc:
        if old is not None and not os.path.lexists(final):
            with suppress(OSError):
                os.replace(old, final)
        raise OutputError(f"cannot move the new output into place at {final}: "
                          f"{exc.strerror or exc}") from exc
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


# -- files added to shared directories (report) ----------------------------------------------

class FileStage:
    """Stage files for shared directories (that also hold other files); commit moves them in.

    `stage.dir(final)` is where to write files meant for `final`; `stage.find(path)` is the staged
    copy of `path` if one was produced, else `path`; `stage.put(path, data)` stages one file
    outside those directories (written as is). `commit()` refuses, before moving anything, to
    overwrite a file that evidencechain did not write (or that changed since): a file is owned
    when its sha256 is in the directory's `.evidencechain-report.json` or equals the new content.
    Files the stage did not produce are never touched.
    """

    NAME = "evidencechain-report"

    def __init__(self, command: str | None = None):
        self.command = command
        self.stages: dict[Path, Path] = {}
        self.single: dict[Path, bytes] = {}

    def dir(self, final: str | Path) -> Path:
        final = Path(os.path.abspath(final))
        if final not in self.stages:
            if final.exists() and not final.is_dir():
                raise OutputError(f"output directory {final} is an existing file")
            _check_writable(final, _nearest_existing(final))
            self.stages[final] = make_stage(final, self.NAME)
        return self.stages[final]

    def find(self, path: str | Path) -> Path:
        path = Path(os.path.abspath(path))
        stage = self.stages.get(path.parent)
        if stage is not None and (stage / path.name).is_file():
            return stage / path.name
        return path

    def put(self, path: str | Path, data: bytes) -> None:
        self.single[Path(os.path.abspath(path))] = data

    def staged(self) -> dict[Path, Path]:
        """final path -> staged file, for every file produced in a staged directory."""
        return {final / p.name: p for final, stage in self.stages.items()
                for p in sorted(stage.iterdir()) if p.is_file()}

    def commit(self) -> list[Path]:
        moves = self.staged()
        for target, staged in moves.items():
            _check_owned(target, staged)
        try:
            for final in self.stages:
                _update_manifest(final, {t.name: s for t, s in moves.items() if t.parent == final},
                                 self.command)
            for target, staged in moves.items():
                os.replace(staged, target)
            for path, data in self.single.items():
                atomic_write_bytes(path, data)
        except OSError as exc:
            raise OutputError(f"cannot move the new outputs into place: {exc}") from exc
        self.discard()
        return [*moves, *self.single]

    def discard(self) -> None:
        for stage in self.stages.values():
            shutil.rmtree(stage, ignore_errors=True)
        self.stages.clear()


def _manifest(directory: Path) -> dict:
    try:
        meta = json.loads((directory / REPORT_MANIFEST).read_text("utf-8"))
        return meta if isinstance(meta.get("files"), dict) else {"files": {}}
    except (OSError, ValueError, AttributeError, RecursionError):
        return {"files": {}}


def _check_owned(target: Path, staged: Path) -> None:
    if not os.path.lexists(target):
        return
    if target.is_symlink() or not target.is_file():
        raise OutputError(f"{target} exists and is not a regular file; move it away first")
    current = sha256_file(target)
    if current in _manifest(target.parent)["files"].get(target.name, []) or current == sha256_file(staged):
        return
    raise OutputError(f"{target} exists and was not written by evidencechain (or was edited since; "
                      f"no matching record in {target.parent / REPORT_MANIFEST}); move it away or "
                      f"delete it, then run again")


def _update_manifest(directory: Path, produced: dict[str, Path], command: str | None) -> None:
    meta = _manifest(directory)
    files = meta["files"]
    for name, staged in produced.items():
        target = directory / name
        keep = [sha256_file(staged)]
        if target.is_file() and (old := sha256_file(target)) not in keep:
            keep.append(old)  # the old content stays owned until it has been replaced
        files[name] = keep
    meta.update(written_by="evidencechain", command=command or command_line(),
                time=time.strftime("%Y-%m-%dT%H:%M:%S%z"), files=dict(sorted(files.items())))
    atomic_write_text(directory / REPORT_MANIFEST, json.dumps(meta, indent=2) + "\n")


@contextmanager
def staged_files(command: str | None = None):
    """A FileStage committed when the block succeeds and discarded (nothing written) otherwise."""
    stage = FileStage(command)
    try:
        yield stage
        stage.commit()
    finally:
        stage.discard()


def check_cache_dir(path: str | Path, how: str = "--cache-dir") -> Path:
    """`path` as a cache directory: OutputError (one line) when it or a parent is a file."""
    path = Path(path).expanduser()
    near = _nearest_existing(path)
    if near.exists() and not near.is_dir():
        raise OutputError(f"cache directory {path} cannot be used: {near} is a file, not a directory; "
                          f"give {how} a directory (it is created when absent)")
    return path


def cache_dir() -> Path:
    """The user cache directory of evidencechain (created on demand, never the current directory):
    `$EVIDENCECHAIN_CACHE_DIR`, else `$XDG_CACHE_HOME/evidencechain`, else `~/.cache/evidencechain`."""
    for env, sub in (("EVIDENCECHAIN_CACHE_DIR", ""), ("XDG_CACHE_HOME", "evidencechain")):
        value = os.environ.get(env, "").strip()
        if value:
            return Path(value).expanduser() / sub if sub else Path(value).expanduser()
    return Path.home() / ".cache" / "evidencechain"
