"""Engines of streaming `detect`: score partitions in this process (`local`) or on Dask (`dask`).

Both engines run `score_partition` on every partition to do, and the driver (this process)
writes each result as it arrives (`stream.PartitionStore.commit`), so the output and manifest are
the same whichever engine, worker count or completion order. Dask is imported only here, only for
`--engine dask`: a LocalCluster of N single-threaded worker processes, or an existing cluster
(`--scheduler ADDRESS`). The fitted model is broadcast to every worker once (`client.scatter`);
spaCy and the learned checker load once per worker process (module-level caches), and at most two
partitions per worker thread are in flight, so the driver holds a bounded number of partitions.
"""
from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import logging
import os
import resource
import signal
import socket
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import islice
from pathlib import Path

from ..errors import ConfigError, EvidenceChainError, MissingDependency
from .stream import Partition, PartitionStore

ENGINES = ("local", "dask")
SCALE_EXTRA = "pip install 'evidencechain[scale]'"
JSON_COLUMNS = "evidencechain.json_columns"
PARTITION_SIZE = 1000
IN_FLIGHT_PER_THREAD = 2
DASK_LOG_LENGTH = 16


@dataclasses.dataclass
class PartitionOutput:
    """A scored partition, encoded; with what the process that scored it had in memory."""

    index: int
    first_line: int
    last_line: int
    answers: int
    counts: dict[str, int]
    data: bytes
    seconds: float
    worker: str = ""
    rss_mb: float = 0.0
    peak_rss_mb: float = 0.0


def require_pyarrow():
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise MissingDependency(f"--format parquet needs pyarrow, which is not installed: {SCALE_EXTRA}") from None
    return pyarrow


def _scalar_columns(pa) -> dict:
    """Arrow types of the record's scalar fields, from `DetectionResult`'s annotations (so a new
    scalar field gets its own column); a nullable field is typed by its other member."""
    import typing

    from ..results import DetectionResult

    types = {str: pa.string(), float: pa.float64(), int: pa.int64(), bool: pa.bool_()}
    columns = {}
    for name, hint in typing.get_type_hints(DetectionResult).items():
        members = [t for t in (typing.get_args(hint) or (hint,)) if t is not type(None)]
        if len(members) == 1 and members[0] in types:
            columns[name] = types[members[0]]
    return columns


def parquet_table(records: list[dict]):
    """The records as an Arrow table: scalar fields as typed columns, nested ones (spans,
    sentences and anything a later version adds) as their JSON text, named in the schema's
    metadata (`read_parquet_records` decodes them)."""
    pa = require_pyarrow()
    scalar = _scalar_columns(pa)
    columns, nested = {}, []
    for key in records[0] if records else scalar:
        if key in scalar:
            columns[key] = pa.array([r.get(key) for r in records], type=scalar[key])
        else:
            nested.append(key)
            columns[key] = pa.array([json.dumps(r.get(key), ensure_ascii=False) for r in records], pa.string())
    return pa.table(columns, metadata={JSON_COLUMNS: json.dumps(nested)})


def read_parquet_records(path: str | Path) -> list[dict]:
    """The JSONL records of a Parquet partition file (its JSON columns decoded)."""
    table = require_pyarrow().parquet.read_table(path)
    nested = json.loads((table.schema.metadata or {}).get(JSON_COLUMNS.encode(), b"[]"))
    rows = table.to_pylist()
    for row in rows:
        for key in nested:
            row[key] = json.loads(row[key])
    return rows


def encode(records: list[dict], fmt: str) -> bytes:
    """A partition file's bytes: JSONL lines as `detect` writes them, or one Parquet table."""
    if fmt == "jsonl":
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode("utf-8")
    buffer = io.BytesIO()
    require_pyarrow().parquet.write_table(parquet_table(records), buffer)
    return buffer.getvalue()


def process_memory_mb() -> tuple[float, float]:
    """(resident, peak resident) memory of this process in MB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    try:
        with open("/proc/self/statm") as handle:
            rss = int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        rss = peak
    return rss, peak


def score_partition(detector, partition: Partition, fmt: str) -> PartitionOutput:
    """Score one partition and encode its file (runs in the driver or in a Dask worker)."""
    from threadpoolctl import threadpool_limits

    from ..text.parse import ParseCache

    t0 = time.perf_counter()
    model = detector.model
    model.cache = ParseCache(None)  # this partition's parses only: memory flat in the log's size
    if model.extractor is not None:
        model.extractor.cache = model.cache
    try:
        with threadpool_limits(limits=1):  # same arithmetic in every process, whatever its cores
            records = [r.to_dict() for r in detector.iter_corpus(partition.corpus)]
    finally:
        model.cache = None
        if model.extractor is not None:
            model.extractor.cache = None
    data = encode(records, fmt)
    rss, peak = process_memory_mb()
    return PartitionOutput(partition.index, partition.first_line, partition.last_line, len(records),
                           dict(Counter(r["verdict"] for r in records)), data, time.perf_counter() - t0,
                           f"{socket.gethostname()}:{os.getpid()}", rss, peak)


def import_distributed():
    """dask.distributed, or the one-line error saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise MissingDependency(f"--engine dask needs Dask, which is not installed: {SCALE_EXTRA}") from None
    return distributed


@dataclasses.dataclass
class StreamSummary:
    out_dir: Path
    partitions: int
    done_before: int
    answers: int
    scored: int
    seconds: float
    counts: dict[str, int]
    driver_peak_mb: float
    worker_peak_mb: dict[str, float]


def run_stream(log, detector, out_dir: str | Path, parts: list[dict], *, fmt: str = "jsonl",
               size: int = PARTITION_SIZE, engine: str = "local", workers: int | None = None,
               scheduler: str | None = None, inputs=(), force: bool = False, progress: bool = False,
               input_format: str = "auto",
               on_partition: Callable[[dict, PartitionOutput], None] | None = None) -> StreamSummary:
    """Score the partitions of a scanned `log` (`parts` from `log.scan(size)`) not yet in `out_dir`."""
    from tqdm.auto import tqdm

    from ..io import sha256_file

    if engine not in ENGINES:
        raise ConfigError(f"--engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    model_file = detector.path / "model.json" if detector.path is not None else None
    run = {**log.identity(), "input_format": input_format, "detector": detector.detector,
           "model": {"name": detector.name, "sha256": sha256_file(model_file) if model_file else None},
           "format": fmt, "partition_size": size}
    store = PartitionStore(out_dir, run, parts, inputs, force)
    t0 = time.perf_counter()
    try:
        todo = store.todo()
        done_before = len(parts) - len(todo)
        answers_todo = sum(p["answers"] for p in parts if p["index"] in todo)
        bar = tqdm(total=answers_todo, desc=f"detect ({engine})", unit="answer", disable=not progress,
                   file=sys.stderr, smoothing=0.1)

        def commit(output: PartitionOutput) -> None:
            entry = store.commit(output)
            bar.update(output.answers)
            if on_partition is not None:
                on_partition(entry, output)

        try:
            partitions = log.partitions(parts, todo)
            if not todo:
                workers_peak = {}
            elif engine == "local":
                workers_peak = _run_local(detector, partitions, fmt, commit)
            else:
                workers_peak = _run_dask(detector, partitions, fmt, commit, workers, scheduler)
        finally:
            bar.close()
        return StreamSummary(store.dir, len(parts), done_before, sum(p["answers"] for p in parts),
                             answers_todo, time.perf_counter() - t0, store.counts(), process_memory_mb()[1],
                             workers_peak)
    finally:
        store.close()
        log.close()


def _run_local(detector, partitions: Iterator[Partition], fmt: str, commit) -> dict[str, float]:
    for partition in partitions:
        commit(score_partition(detector, partition, fmt))
    return {"local": process_memory_mb()[1]}


@contextlib.contextmanager
def _workers_ignore_sigint():
    """Start worker processes with SIGINT ignored (they inherit it): Ctrl-C reaches the whole
    process group, and only the driver acts on it (it cancels the work, closes the cluster);
    otherwise every worker prints its own KeyboardInterrupt. A Ctrl-C during these seconds of
    start-up is ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _run_dask(detector, partitions: Iterator[Partition], fmt: str, commit, workers: int | None,
              scheduler: str | None) -> dict[str, float]:
    distributed = import_distributed()
    import dask

    run_id = uuid.uuid4().hex[:8]
    # the cluster's chatter only under -v: without it, a worker whose scheduler has just closed
    # (Ctrl-C, the end of a run) must not print a heartbeat traceback; task errors still reach us
    verbose = logging.getLogger().isEnabledFor(logging.INFO)
    worker_log_level = logging.ERROR if verbose else logging.CRITICAL
    if not verbose:
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
    with contextlib.ExitStack() as stack:
        # Dask keeps its last N task events per worker and in the scheduler for debugging, each with
        # its partition or result: at the default 1000 a worker would hold ~300 partitions
        stack.enter_context(dask.config.set({"distributed.admin.low-level-log-length": DASK_LOG_LENGTH}))
        try:
            if scheduler:
                client = stack.enter_context(distributed.Client(scheduler, timeout="30s"))
            else:
                with _workers_ignore_sigint():
                    cluster = stack.enter_context(distributed.LocalCluster(
                        n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                        dashboard_address=None, silence_logs=worker_log_level))
                client = stack.enter_context(distributed.Client(cluster))
            client.wait_for_workers(1, timeout=120)
        except OSError as exc:  # TimeoutError included
            where = f"the Dask scheduler at {scheduler}" if scheduler else "a local Dask cluster"
            raise ConfigError(f"--engine dask: cannot reach {where} ({exc or type(exc).__name__})") from exc
        model = client.scatter(detector, broadcast=True, hash=False)
        window = IN_FLIGHT_PER_THREAD * max(1, sum(client.nthreads().values()))
        pending = distributed.as_completed()

        def submit(partition: Partition) -> None:
            pending.add(client.submit(score_partition, model, partition, fmt, pure=False,
                                      key=f"evidencechain-partition-{partition.index}-{run_id}"))

        try:
            for partition in islice(partitions, window):
                submit(partition)
            for future in pending:
                output = future.result()
                future.release()
                commit(output)
                for partition in islice(partitions, 1):
                    submit(partition)
        except BaseException as exc:
            with contextlib.suppress(Exception):
                client.cancel(list(pending.futures), force=True)
            if isinstance(exc, distributed.KilledWorker):
                raise EvidenceChainError("a Dask worker died while scoring a partition (out of memory? -v "
                                         "shows the cluster's log); finished partitions are kept: run the "
                                         "same command again, perhaps with a smaller --partition-size") from exc
            raise
        return {f"worker {k + 1}": v[1] for k, (_, v) in
                enumerate(sorted(client.run(process_memory_mb).items()))}
