"""Benchmark of streaming `detect` on a large log: answers per second and memory, per engine.

    python -m evidencechain.bench_scale [--answers 100000] [--partition-size 1000] [--workers 1 2]

Generates a RAGTruth-format log of --answers answers with the audit generator (seed 17,
`--scale` = answers / 840 rounded up, cut to the count), then runs `detect --out-dir` on it with
the local engine and with a Dask LocalCluster of each --workers count, each run in its own
process (so its peak memory is its own), with the default model (built first if absent). Prints
answers per second, the peak resident memory of the driver and of each worker, and an estimate
of a 1,000,000-answer run's memory: the peak measured here plus the trend of resident memory over
the second half of the run (when it grows) times the answers not run, plus, for the driver, its
index of those answers (measured while scanning the log). An extrapolation, not a measurement.
Needs the `scale` extra (`make bench-scale` installs it).
"""
from __future__ import annotations

import argparse
import json
import math
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EXTRAPOLATE_TO = 1_000_000
AUDIT_ANSWERS_PER_SCALE = 840


def generate_log(out: Path, answers: int, seed: int = 17) -> dict:
    """The first `answers` answers of the audit corpus at the smallest scale that has them."""
    from .data.audit import generate_audit_corpus
    from .data.ragtruth import write_ragtruth
    from .records import Corpus

    t0 = time.perf_counter()
    scale = math.ceil(answers / AUDIT_ANSWERS_PER_SCALE)
    corpus = generate_audit_corpus(seed, scale)
    responses = corpus.responses[:answers]
    used = {r.source_id for r in responses}
    write_ragtruth(Corpus(corpus.name, {k: v for k, v in corpus.sources.items() if k in used}, responses), out)
    return {"answers": len(responses), "sources": len(used), "scale": scale,
            "seconds": time.perf_counter() - t0}


def run_one(log: Path, out: Path, engine: str, workers: int | None, size: int, model: str) -> dict:
    """One streaming run in this process: its timings and, after every partition, the memory of
    the driver and of the process that scored the partition."""
    from .detect.api import Detector
    from .detect.engines import process_memory_mb, run_stream
    from .detect.stream import RagtruthLog

    detector = Detector.load(model, parse_cache=False)
    t0 = time.perf_counter()
    before = process_memory_mb()[0]
    source = RagtruthLog(log / "response.jsonl", log / "source_info.jsonl")
    parts = source.scan(size)
    indexed = process_memory_mb()[0]
    scan_seconds = time.perf_counter() - t0
    series: list[dict] = []

    def record(entry, output) -> None:
        rss, peak = process_memory_mb()
        series.append({"answers": (series[-1]["answers"] if series else 0) + output.answers,
                       "partition_answers": output.answers, "driver_rss_mb": rss, "driver_peak_mb": peak,
                       "worker": output.worker, "worker_rss_mb": output.rss_mb,
                       "worker_peak_mb": output.peak_rss_mb})

    summary = run_stream(source, detector, out, parts, size=size, engine=engine, workers=workers,
                         on_partition=record)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {"engine": engine, "workers": workers or 1, "answers": summary.scored, "partition_size": size,
            "seconds": time.perf_counter() - t0, "scan_seconds": scan_seconds,
            "index_mb_per_answer": max(0.0, indexed - before) / max(1, summary.answers),
            "driver_peak_mb": process_memory_mb()[1], "driver_cpu_seconds": usage.ru_utime + usage.ru_stime,
            "worker_peak_mb": summary.worker_peak_mb, "series": series}


def trend(points: list[tuple[float, float]]) -> float:
    """Least-squares slope (MB per answer) of resident memory over answers in the second half of
    the run (the first partitions load spaCy and the model, and Dask fills its bounded logs);
    0 with fewer than three points."""
    points = points[len(points) // 2:]
    if len(points) < 3:
        return 0.0
    mx, my = sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)
    var = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / var if var else 0.0


def worker_series(result: dict) -> dict[str, list[tuple[float, float, float]]]:
    """Per process that scored partitions: (answers it scored so far, resident MB, peak MB)."""
    out: dict[str, list[tuple[float, float, float]]] = {}
    for s in result["series"]:
        points = out.setdefault(s["worker"], [])
        points.append(((points[-1][0] if points else 0) + s["partition_answers"], s["worker_rss_mb"],
                       s["worker_peak_mb"]))
    return out


def extrapolate(result: dict) -> tuple[float, float, float]:
    """(driver MB, largest worker MB, worker trend in MB per 10,000 answers) of a run of
    EXTRAPOLATE_TO answers: the peak measured here plus the trend (when it grows) times the
    answers not run (each worker scoring its share), plus the driver's index of those answers."""
    more = max(0, EXTRAPOLATE_TO - result["answers"])
    driver_trend = max(0.0, trend([(s["answers"], s["driver_rss_mb"]) for s in result["series"]]))
    driver_mb = result["driver_peak_mb"] + more * (driver_trend + result["index_mb_per_answer"])
    workers = worker_series(result)
    share = EXTRAPOLATE_TO / max(1, len(workers))
    slopes = {w: trend([(x, rss) for x, rss, _ in pts]) for w, pts in workers.items()}
    worker_mb = max((pts[-1][2] + max(0.0, share - pts[-1][0]) * max(0.0, slopes[w])
                     for w, pts in workers.items()), default=0.0)
    return driver_mb, worker_mb, max(slopes.values(), default=0.0) * 10_000


def table(rows: list[dict], log: dict, model: str) -> str:
    one = next((r for r in rows if r["engine"] == "dask" and r["workers"] == 1), None)
    lines = [f"streaming detect of a generated audit log: {log['answers']:,} answers, {log['sources']:,} "
             f"sources (audit --scale {log['scale']}, generated in {log['seconds']:.0f} s); model {model}; "
             f"partitions of {rows[0]['partition_size'] if rows else '?'} answers", "",
             "| engine | workers | answers/s | vs 1 worker | wall s | driver CPU s | driver peak MB | "
             "worker peak MB | worker RSS trend, MB per 10k answers | 1M answers (extrapolated): driver MB "
             "| worker MB |", "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for r in rows:
        rate = r["answers"] / r["seconds"]
        ratio = f"{rate / (one['answers'] / one['seconds']):.2f}x" if one and r["engine"] == "dask" else ""
        peaks = ", ".join(f"{v:,.0f}" for v in r["worker_peak_mb"].values())
        driver_1m, worker_1m, growth = extrapolate(r)
        lines.append(f"| {r['engine']} | {r['workers']} | {rate:.1f} | {ratio} | {r['seconds']:.0f} | "
                     f"{r['driver_cpu_seconds']:.0f} | {r['driver_peak_mb']:,.0f} | "
                     f"{peaks if r['engine'] == 'dask' else '(the driver)'} | {growth:+.1f} | "
                     f"~{driver_1m:,.0f} | {'~' + format(worker_1m, ',.0f') if r['engine'] == 'dask' else ''} |")
    lines += ["", "1M answers: extrapolated, not measured (the peak here, plus the resident-memory trend over "
                  "the second half of the run when it grows, plus the driver's index of the log, times the answers "
                  "not run).",
              "targets (2 cores): driver under 1,000 MB whatever the log size; worker memory flat in the log "
              "size; 2 workers >= 1.6x the answers/s of 1 worker"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--answers", type=int, default=100_000, help="answers in the generated log (100000)")
    parser.add_argument("--partition-size", type=int, default=1000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="Dask worker counts (1 2)")
    parser.add_argument("--no-local", action="store_true", help="skip the local engine")
    parser.add_argument("--model", help="a fitted model directory (default: the default model)")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--json", help="also write the results to this JSON file")
    parser.add_argument("--single", nargs=4, help=argparse.SUPPRESS, metavar=("LOG", "OUT", "ENGINE", "WORKERS"))
    args = parser.parse_args(argv)
    if args.single:
        log, out, engine, workers = args.single
        result = run_one(Path(log), Path(out), engine, int(workers) or None, args.partition_size, args.model)
        print(json.dumps(result))
        return 0
    from .detect.engines import import_distributed

    import_distributed()
    model = args.model
    if not model:  # built now if absent, so that no timed run builds it; every run loads this directory
        from .detect.default import ensure_default_model
        model = str(ensure_default_model())
    configs = ([] if args.no_local else [("local", 0)]) + [("dask", w) for w in args.workers]
    rows = []
    with tempfile.TemporaryDirectory(prefix="evidencechain-bench-scale-") as tmp:
        log_info = generate_log(Path(tmp) / "log", args.answers, args.seed)
        print(f"generated {log_info['answers']:,} answers in {log_info['seconds']:.0f} s", file=sys.stderr)
        for engine, workers in configs:
            cmd = [sys.executable, "-m", "evidencechain.bench_scale", "--partition-size", str(args.partition_size),
                   "--single", str(Path(tmp) / "log"), str(Path(tmp) / f"out-{engine}-{workers}"), engine,
                   str(workers), "--model", model]
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode != 0:
                sys.stderr.write(done.stderr)
                return done.returncode
            rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
            r = rows[-1]
            print(f"{engine} {workers or ''}: {r['answers']:,} answers in {r['seconds']:.0f} s", file=sys.stderr)
    print(table(rows, log_info, args.model or f"default ({Path(model).name})"))
    if args.json:
        Path(args.json).write_text(json.dumps({"log": log_info, "runs": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
