"""Streaming `detect` (`--out-dir`): a large log read in partitions, one output file per partition.

Reading: `PlainLog` (JSONL, JSONL.gz or CSV of {context, question, answer, id}) and `RagtruthLog`
(response.jsonl + source_info.jsonl) are read twice, line by line, never as a whole: `scan`
validates every record with the rules of the in-memory readers (`data.plain`, `data.ragtruth`;
every problem as file:line: field, nothing written when there is one) and cuts the answers into
partitions of N; `partitions` reads them again and yields the partitions still to score. Sources
of RAGTruth answers are read per partition through `SourceIndex` (source_id -> byte offset of its
line in source_info.jsonl). Held in memory: one partition, the index, 8 bytes per answer id.

Writing: `PartitionStore` owns the output directory (the rules of `io.check_output_dir`: absent,
empty or written by evidencechain; its `.evidencechain-output` marker lists every name it may
write). Each partition file is written under a hidden temporary name, fsynced and renamed into
place, then recorded in `manifest.json` with its sha256. A partition is finished when its file
exists and the manifest records it with a matching hash; a rerun scores only the others.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import sys
import tempfile
import time
from array import array
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from ..data.plain import corpus_name, plain_format, plain_source, read_records
from ..data.ragtruth import iter_jsonl, parse_response, parse_source
from ..data.validation import MAX_PROBLEMS, Collector, DataValidationError, check_values, decode_line
from ..errors import InputError, OutputError
from ..io import (
    MARKER,
    check_output_dir,
    command_line,
    current_umask,
    owner_tag,
    sha256_file,
    stale_staged_name,
)
from ..records import Corpus

MANIFEST = "manifest.json"
_BOM = b"\xef\xbb\xbf"


@dataclasses.dataclass
class Partition:
    """Answers [index * size, (index + 1) * size) of the log, with the sources they need."""

    index: int
    first_line: int
    last_line: int
    corpus: Corpus


class _Problems:
    """The first MAX_PROBLEMS problems of a file and how many there were (constant memory)."""

    def __init__(self):
        self.kept, self.total = [], 0

    def take(self, out: Collector) -> None:
        self.total += len(out.problems)
        self.kept += out.problems[:MAX_PROBLEMS - len(self.kept)]
        out.problems.clear()

    def raise_any(self) -> None:
        if self.total:
            raise DataValidationError(self.kept, total=self.total)


def _id_hash(rid: str) -> int:
    return int.from_bytes(hashlib.blake2b(rid.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "big")


def _file_identity(path: Path) -> dict:
    stat = path.stat()
    return {"path": str(path.resolve()), "size": stat.st_size, "mtime": stat.st_mtime}


class _Log:
    """What both log kinds share: the validating scan and the partition reader."""

    kind = ""
    name = ""
    files: tuple[Path, ...] = ()

    def _records(self, problems: _Problems) -> Iterator[tuple[int, str, object]]:
        """(line, answer id, payload) of each valid answer; problems go to `problems`."""
        raise NotImplementedError

    def _corpus(self, payloads: list) -> Corpus:
        raise NotImplementedError

    def identity(self) -> dict:
        return {"kind": self.kind, "files": [_file_identity(p) for p in self.files]}

    def scan(self, size: int) -> list[dict]:
        """Validate the whole log; the partitions of `size` answers, each with its line range."""
        problems, hashes, parts = _Problems(), array("Q"), []
        for line, rid, _ in self._records(problems):
            if len(hashes) % size == 0:
                parts.append({"index": len(parts), "first_line": line, "last_line": line, "answers": 0})
            parts[-1]["last_line"] = line
            parts[-1]["answers"] += 1
            hashes.append(_id_hash(rid))
        self._check_duplicates(hashes, problems)
        if not hashes and not problems.total:
            out = Collector(self.files[0])
            out.add(0, "-", "no records found")
            problems.take(out)
        problems.raise_any()
        return parts

    def _check_duplicates(self, hashes: array, problems: _Problems) -> None:
        import numpy as np

        values = np.sort(np.frombuffer(hashes, dtype=np.uint64)) if len(hashes) else np.zeros(0, np.uint64)
        repeated = set(values[1:][values[1:] == values[:-1]].tolist())
        if not repeated:
            return
        out, first = Collector(self.files[0]), {}
        for line, rid, _ in self._records(_Problems()):  # again, only for the lines to name
            if _id_hash(rid) in repeated:
                if rid in first:
                    out.add(line, "id", f"duplicate id {rid!r} (first on line {first[rid]})")
                else:
                    first[rid] = line
        problems.take(out)

    def partitions(self, parts: list[dict], todo: set[int]) -> Iterator[Partition]:
        """The partitions in `todo`, in order, read again from the log."""
        problems, payloads, lines, count, index = _Problems(), [], [], 0, 0
        last = max(todo, default=-1)
        records = self._records(problems)
        for line, _, payload in records:
            if index > last:
                records.close()
                break
            part = parts[index]
            if index in todo:
                payloads.append(payload)
                lines.append(line)
            count += 1
            if count == part["answers"]:
                if index in todo:
                    if (lines[0], lines[-1]) != (part["first_line"], part["last_line"]):
                        raise InputError(f"{self.files[0]}: changed while it was being read "
                                         f"(partition {index}); run the command again")
                    yield Partition(index, lines[0], lines[-1], self._corpus(payloads))
                payloads, lines, count, index = [], [], 0, index + 1
        if problems.total or index <= last:
            raise InputError(f"{self.files[0]}: changed while it was being read; run the command again")

    def close(self) -> None:
        pass


class PlainLog(_Log):
    """A plain JSONL (optionally .gz) or CSV file of answers, as `data.plain.load_plain` reads it."""

    kind = "plain"

    def __init__(self, path: str | Path, input_format: str = "auto"):
        from .inputs import check_jsonl_fields

        self.path = Path(path).expanduser()
        if not self.path.exists():
            raise InputError(f"{self.path}: no such file")
        if self.path.is_dir():
            raise InputError(f"{self.path}: is a directory; give a JSONL or CSV file")
        if input_format == "auto":
            input_format = plain_format(self.path)
        self.input_format = input_format
        if input_format != "csv":
            check_jsonl_fields(self.path, str(self.path))
        self.name, self.files = corpus_name(self.path), (self.path,)

    def _records(self, problems):
        out = Collector(self.path)
        for line, record in read_records(self.path, out, self.input_format):
            if record is not None:
                problems.take(out)
                yield line, record.id, record
            problems.take(out)
        problems.take(out)

    def _corpus(self, records):
        """Records with the same (context, question) share one source, as in `load_plain`."""
        sources, source_of, responses = {}, {}, []
        for record in records:
            key = (json.dumps(record.context), record.question)
            if key not in source_of:
                source_of[key] = f"src-{record.line}"
                sources[source_of[key]] = plain_source(source_of[key], record.context, record.question,
                                                       self.name)
            responses.append(record.response(source_of[key]))
        return Corpus(self.name, sources, responses, {}, span_labels=True, labelled=False)


class SourceIndex:
    """source_id -> (byte offset, line) of its row in a source_info.jsonl; rows read on demand."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.offsets: dict[str, tuple[int, int]] = {}
        self._handle = None

    def build(self, problems: _Problems) -> SourceIndex:
        out, offset = Collector(self.path), 0
        try:
            with open(self.path, "rb") as handle:
                for number, raw in enumerate(handle, start=1):
                    start, offset = offset, offset + len(raw)
                    row = decode_line(raw.removeprefix(_BOM) if number == 1 else raw, number, out)
                    source = parse_source(row, number, out) if row is not None and check_values(
                        row, number, out) else None
                    if source is not None and source.source_id in self.offsets:
                        out.add(number, "source_id", f"duplicate source_id {source.source_id!r} "
                                                     f"(first on line {self.offsets[source.source_id][1]})")
                    elif source is not None:
                        self.offsets[source.source_id] = (start, number)
                    problems.take(out)
        except OSError as exc:
            out.add(0, "-", f"cannot read file: {exc.strerror or exc}")
        problems.take(out)
        return self

    def load(self, source_id: str):
        if self._handle is None:
            self._handle = open(self.path, "rb")
        offset, number = self.offsets[source_id]
        self._handle.seek(offset)
        raw = self._handle.readline()
        out = Collector(self.path)
        row = decode_line(raw.removeprefix(_BOM) if number == 1 else raw, number, out)
        source = parse_source(row, number, out) if row is not None else None
        if source is None or source.source_id != source_id:
            raise InputError(f"{self.path}:{number}: changed while it was being read; run the command again")
        return source

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


class RagtruthLog(_Log):
    """RAGTruth-format response.jsonl + source_info.jsonl, as `data.ragtruth.load_ragtruth` reads
    them (every quality kept, as `detect` does)."""

    kind = "ragtruth"

    def __init__(self, response_jsonl: str | Path, source_info_jsonl: str | Path):
        self.responses, self.index = Path(response_jsonl), SourceIndex(source_info_jsonl)
        self.name = self.responses.resolve().parent.name
        self.files = (self.responses, self.index.path)
        self._indexed = False

    def scan(self, size: int) -> list[dict]:
        problems = _Problems()
        self.index.build(problems)
        self._indexed = True
        parts = []
        try:
            parts = super().scan(size)
        except DataValidationError as exc:  # after the source_info problems, as load_ragtruth lists them
            problems.kept += exc.problems[:MAX_PROBLEMS - len(problems.kept)]
            problems.total += exc.total
        problems.raise_any()
        return parts

    def _records(self, problems):
        out = Collector(self.responses)
        for line, row in iter_jsonl(self.responses, out):
            response = parse_response(row, line, out)
            if response is not None and response.source_id not in self.index.offsets:
                out.add(line, "source_id", f"unknown source_id {response.source_id!r} "
                                           "(no valid row with this id in the source_info file)")
            elif response is not None:
                problems.take(out)
                yield line, response.id, response
            problems.take(out)
        problems.take(out)

    def _corpus(self, payloads):
        sources = {sid: self.index.load(sid) for sid in dict.fromkeys(r.source_id for r in payloads)}
        return Corpus(self.name, sources, payloads, {}, span_labels=True, labelled=False)

    def close(self) -> None:
        self.index.close()


# -- the output directory --------------------------------------------------------------------------

def part_name(index: int, fmt: str) -> str:
    return f"part-{index:06d}.{fmt}"


class PartitionStore:
    """The partition files and manifest of one output directory (see the module docstring)."""

    def __init__(self, out_dir: str | Path, run: dict, parts: list[dict], inputs=(), force: bool = False):
        self.dir = check_output_dir(out_dir, inputs)
        self.dir.mkdir(parents=True, exist_ok=True)
        self._lock()
        try:
            self._open(out_dir, run, parts, force)
        except BaseException:
            self.close()
            raise

    def _open(self, out_dir, run: dict, parts: list[dict], force: bool) -> None:
        self.run, self.parts = run, parts
        self.names = [part_name(p["index"], run["format"]) for p in parts]
        old = self._read_manifest()
        if old is not None and old.get("run") != run:
            if not force:
                raise OutputError(f"output directory {out_dir} holds the partitions of another run ("
                                  f"{_difference(old.get('run') or {}, run)}); rerun with the same "
                                  f"input, model and options to resume, or pass --force to start over")
            self._remove(old)
            old = None
        self._write_marker()
        self._clean_stale()
        self.done: dict[int, dict] = {}
        for entry in (old or {}).get("partitions", []):
            path = self.dir / entry.get("file", "")
            if entry.get("file") in self.names and path.is_file() and sha256_file(path) == entry.get("sha256"):
                self.done[entry["index"]] = entry
            elif entry.get("file") in self.names and path.is_file():
                print(f"evidencechain: {path} changed since it was written (its sha256 is not the one "
                      f"in {MANIFEST}); scoring that partition again replaces it", file=sys.stderr,
                      flush=True)
        self._write_manifest()

    def todo(self) -> set[int]:
        return {p["index"] for p in self.parts} - set(self.done)

    def commit(self, output) -> dict:
        """Write a scored partition (`engines.PartitionOutput`) durably, then record it in the manifest."""
        name = part_name(output.index, self.run["format"])
        _durable_write(self.dir, name, output.data)
        self.done[output.index] = {
            "index": output.index, "file": name, "first_line": output.first_line,
            "last_line": output.last_line, "answers": output.answers,
            "counts": dict(sorted(output.counts.items())), "sha256": hashlib.sha256(output.data).hexdigest(),
            "seconds": round(output.seconds, 3)}
        self._write_manifest()
        return self.done[output.index]

    def counts(self) -> dict[str, int]:
        return dict(sum((Counter(e["counts"]) for e in self.done.values()), Counter()))

    def close(self) -> None:
        if getattr(self, "_lock_fd", None) is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    # -- internals
    def _lock(self) -> None:
        import fcntl

        self._lock_fd = os.open(self.dir, os.O_RDONLY)
        try:
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.close()
            raise OutputError(f"output directory {self.dir} is being written by another evidencechain "
                              f"run; wait for it to finish") from None

    def _read_manifest(self) -> dict | None:
        try:
            meta = json.loads((self.dir / MANIFEST).read_text("utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, RecursionError) as exc:
            raise OutputError(f"{self.dir / MANIFEST} is damaged ({exc}); delete the directory to start "
                              f"over") from None
        return meta if isinstance(meta, dict) else None

    def _write_manifest(self) -> None:
        done = [self.done[k] for k in sorted(self.done)]
        meta = {"written_by": "evidencechain detect", "run": self.run,
                "answers": sum(p["answers"] for p in self.parts), "partitions_total": len(self.parts),
                "partitions_done": len(done), "complete": len(done) == len(self.parts),
                "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "partitions": done}
        _durable_write(self.dir, MANIFEST, (json.dumps(meta, indent=1, ensure_ascii=False) + "\n").encode())

    def _write_marker(self) -> None:
        meta = {"written_by": "evidencechain", "command": command_line(),
                "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "files": [MANIFEST, *self.names]}
        _durable_write(self.dir, MARKER, (json.dumps(meta, indent=1) + "\n").encode())

    def _remove(self, old: dict) -> None:
        """--force over another run: remove only the files that run's manifest recorded, and only
        while they hold what it wrote (an edited file stops the command, named)."""
        names = [str(e.get("file", "")) for e in old.get("partitions", [])]
        owned = {n: e.get("sha256") for n, e in zip(names, old.get("partitions", []))
                 if n.startswith("part-") and "/" not in n}
        changed = [n for n, digest in owned.items()
                   if (self.dir / n).is_file() and sha256_file(self.dir / n) != digest]
        if changed:
            more = f" (and {len(changed) - 1} more)" if len(changed) > 1 else ""
            raise OutputError(f"{self.dir / changed[0]} changed since evidencechain wrote it{more}; --force "
                              f"would delete it: move it away first")
        for name in owned:
            (self.dir / name).unlink(missing_ok=True)
        (self.dir / MANIFEST).unlink(missing_ok=True)

    def _clean_stale(self) -> None:
        """Temporary files of interrupted runs (whose process has ended) are removed."""
        for path in self.dir.iterdir():
            if path.is_file() and stale_staged_name(path.name) in (MANIFEST, MARKER, *self.names):
                path.unlink(missing_ok=True)


def _difference(old: dict, new: dict) -> str:
    for key in ("files", "kind", "model", "detector", "format", "partition_size", "input_format"):
        if old.get(key) != new.get(key):
            return f"{key} was {json.dumps(old.get(key))[:160]}, now {json.dumps(new.get(key))[:160]}"
    return "written by another version"


def _durable_write(directory: Path, name: str, data: bytes) -> None:
    """Write `directory/name` under a temporary name, fsync it, rename it into place, fsync the directory."""
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{name}.partial-{owner_tag()}-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~current_umask())
        os.replace(tmp, directory / name)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    dir_fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
