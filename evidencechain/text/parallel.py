"""Parse on every core: texts are cut into ordered chunks, parsed by this process and forked
workers (which share its loaded pipeline) and returned in order, so the output is the same as on
one core (the chunks, and so the batches the pipeline sees, do not depend on the workers).
`map_forked` does the same for a few large independent tasks (the ablation's refits), and
`fork_later` starts one task in a forked worker while this process goes on with other work.

`workers()` is `EVIDENCECHAIN_WORKERS` when set, else the number of usable cores (at most 8).
Work runs in this process when there is one worker, too little to share, no `fork` on the
platform, or this process is itself a daemon (a Dask or pool worker cannot have children).
"""
from __future__ import annotations

import multiprocessing as mp
import os
import signal
import threading
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from multiprocessing.connection import wait

from tqdm.auto import tqdm

MIN_CHARS_PER_WORKER = 10_000
"""Less text than this per worker is parsed in this process (forking would cost more)."""
CHUNK = 64
CHUNK_CHARS = 10_000
"""A chunk holds at most `CHUNK` texts and, past its first text, at most this many characters."""


_LIMITS: list[int] = []


def workers() -> int:
    configured = os.environ.get("EVIDENCECHAIN_WORKERS", "").strip()
    if configured:
        try:
            n = max(1, int(configured))
        except ValueError:
            from ..errors import ConfigError
            raise ConfigError(f"EVIDENCECHAIN_WORKERS must be a whole number, got {configured!r}") from None
    else:
        usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        n = max(1, min(8, usable))
    return min(n, *_LIMITS) if _LIMITS else n


@contextmanager
def at_most(n: int):
    """A context in which `workers()` is at most `n` (at least 1): e.g. while a `fork_later`
    worker keeps a core busy. Outputs do not depend on the number of workers."""
    _LIMITS.append(max(1, n))
    try:
        yield
    finally:
        _LIMITS.pop()


_FORKED = False
"""True in a child forked by `map_chunks` (which forks no further)."""


def _can_fork() -> bool:
    return "fork" in mp.get_all_start_methods() and not mp.current_process().daemon and not _FORKED


_TASK: Callable | None = None


def chunked(texts: Sequence, sizes: Sequence[int] | None = None) -> list[list]:
    """Consecutive chunks of `texts` (see `CHUNK`, `CHUNK_CHARS`); `sizes`: each item's size in
    characters when the items are not the texts themselves."""
    chunks: list[list] = []
    size = 0
    for text, n in zip(texts, map(len, texts) if sizes is None else sizes):
        if not chunks or len(chunks[-1]) >= CHUNK or size + n > CHUNK_CHARS:
            chunks.append([])
            size = 0
        chunks[-1].append(text)
        size += n
    return chunks


def map_chunks(task: Callable[[list], list], items: Sequence, *, progress: bool = False,
               desc: str = "parse", unit: str = "text", sizes: Sequence[int] | None = None) -> Iterator:
    """`task(chunk)` over ordered chunks of the texts `items`, results flattened in input order.
    Items other than texts give their sizes in characters of text to work on (`sizes`).

    `task` may be any callable (a closure too): forked workers inherit it. With n workers, n - 1
    are forked and this process is the n-th (`_Team`): it takes chunks from the end while the
    forked ones take them from the start, so no core waits on another's share."""
    sizes = [len(t) for t in items] if sizes is None else list(sizes)
    chunks = chunked(items, sizes)
    n = min(workers(), len(chunks), sum(sizes) // MIN_CHARS_PER_WORKER)
    bar = tqdm(total=len(items), desc=desc, disable=not progress, unit=unit, leave=False)
    try:
        if n <= 1 or not _can_fork():
            for chunk in chunks:
                yield from task(chunk)
                bar.update(len(chunk))
            return
        done = _Team(task, chunks, n - 1).run(lambda k: bar.update(len(chunks[k])))
        bar.update(len(items) - bar.n)  # the forked workers' chunks
        for k in range(len(chunks)):
            yield from done.pop(k)
    finally:
        bar.close()


class _Team:
    """This process and `forked` forked children share `chunks`: a child claims the first chunk
    not taken, this process the last, under one lock, until they meet. Each child sends
    (index, result) back on its own pipe, read by a thread here while this process works."""

    def __init__(self, task: Callable[[list], list], chunks: list[list], forked: int):
        ctx = mp.get_context("fork")
        self.task, self.chunks, self.forked = task, chunks, forked
        self.bounds = ctx.RawArray("q", [0, len(chunks)])  # [next from the start, end of the untaken]
        self.lock = ctx.Lock()
        self.done: dict[int, list] = {}
        self.failure: BaseException | None = None

    def _claim(self, first: bool) -> int | None:
        with self.lock:
            lo, hi = self.bounds
            if lo >= hi:
                return None
            if first:
                self.bounds[0] = lo + 1
                return lo
            self.bounds[1] = hi - 1
            return hi - 1

    def _child(self, conn) -> None:
        global _FORKED
        _FORKED = True
        status = 0
        try:
            while (k := self._claim(first=True)) is not None:
                conn.send((k, list(self.task(self.chunks[k]))))
        except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent
            status = 1
            try:
                conn.send((-1, exc))
            except Exception:  # an exception that does not pickle: its text
                conn.send((-1, RuntimeError("".join(traceback.format_exception(exc)))))
        finally:
            conn.close()
            os._exit(status)

    def _read(self, conns: list) -> None:
        """Results from every child's pipe as they come, until each is closed."""
        open_ = list(conns)
        while open_:
            for conn in wait(open_):
                try:
                    k, value = conn.recv()
                except EOFError:
                    open_.remove(conn)
                    conn.close()
                    continue
                except Exception as exc:  # a result that does not unpickle: the next still may
                    k, value = -1, exc
                if k < 0:
                    self.failure = self.failure or value
                else:
                    self.done[k] = value

    def run(self, finished: Callable[[int], None]) -> dict[int, list]:
        ctx = mp.get_context("fork")
        conns, pids = [], []
        thread = None
        try:
            for _ in range(self.forked):
                reader, writer = ctx.Pipe(duplex=False)
                pid = os.fork()
                if pid == 0:
                    reader.close()
                    self._child(writer)
                writer.close()
                conns.append(reader)
                pids.append(pid)
            thread = threading.Thread(target=self._read, args=(conns,), daemon=True)
            thread.start()
            with at_most(1):  # a task that maps chunks itself does so here, as in the children
                while (k := self._claim(first=False)) is not None:
                    self.done[k] = list(self.task(self.chunks[k]))
                    finished(k)
        except BaseException:
            for pid in pids:
                with suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGTERM)
            raise
        finally:
            if thread is not None:
                thread.join()
            else:
                for conn in conns:
                    conn.close()
            statuses = [os.waitpid(pid, 0)[1] for pid in pids]
        if self.failure is not None:
            raise self.failure
        if any(statuses) or len(self.done) != len(self.chunks):
            raise RuntimeError(f"a forked worker ended (status {max(statuses)}) before its chunks were done")
        return self.done


def one_openmp_thread():
    """A context with OpenMP limited to one thread. In a forked worker the parent's OpenMP pool
    is not fork-safe; in `detect` and the default model's build the gradient-boosted word model's
    OpenMP threads spin on a busy machine (measured on 2 shared cores: 68 s to fit with 2 threads,
    1.7 s with 1), and batches of answers are too small to gain from more."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="openmp")


def one_blas_thread():
    """A context with the BLAS library limited to one thread: spaCy's models multiply through numpy's
    BLAS (`nlp.load_model`) and the parse runs one process per core, so a second thread per process
    only competes, and outputs do not depend on the machine's cores."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="blas")


def _limited(task: Callable, *args):
    with one_openmp_thread():
        return task(*args)


def _run_one(item):
    return _limited(_TASK, item)


def map_forked(task: Callable, items: Sequence) -> list:
    """`[task(item) for item in items]`, the items shared among forked workers (one item each at a
    time, results in input order); in this process when there is one worker or one item, or no fork.
    `task` may be a closure; its results must pickle."""
    global _TASK
    n = min(workers(), len(items))
    if n <= 1 or not _can_fork():
        return [task(item) for item in items]
    _TASK = task
    try:
        with mp.get_context("fork").Pool(n) as pool:
            return pool.map(_run_one, list(items), chunksize=1)
    finally:
        _TASK = None


class Later:
    """The result of `fork_later`'s task: `get()` waits for it (or, without a worker, runs it)."""

    def __init__(self, task: Callable) -> None:
        self.task, self.pool, self.pending = task, None, None

    @property
    def forked(self) -> bool:
        """Whether the task runs in a forked worker (else `get()` runs it here)."""
        return self.pending is not None

    def get(self):
        if self.pending is None:
            return self.task()
        try:
            return self.pending.get()
        finally:
            self.close()

    def close(self) -> None:
        """Stop the worker (a result not fetched is dropped)."""
        if self.pool is not None:
            self.pool.terminate()
            self.pool = None


_LATER: Callable | None = None


def _run_later():
    return _limited(_LATER)


def fork_later(task: Callable) -> Later:
    """Start `task()` in a forked worker (it sees this process as it is now, nothing done after);
    with one worker or no fork it runs at `get()`, in this process. Its result must pickle."""
    global _LATER
    later = Later(task)
    if workers() > 1 and _can_fork():
        _LATER = task
        try:
            later.pool = mp.get_context("fork").Pool(1)  # the worker is forked here, holding `task`
        finally:
            _LATER = None
        later.pending = later.pool.apply_async(_run_later)
    return later
