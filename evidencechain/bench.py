"""Benchmark: the single source of the README's performance figures.

    python -m evidencechain.bench [--scales 1 10]        # make bench
    python -m evidencechain.bench time LABEL [--fresh-clone] -- COMMAND...   # make timings
    python -m evidencechain.bench readme                 # re-render the README block only

`measure` (the default) runs the audit experiment per corpus scale in its own process (so peak
memory is its own) with a cold parse cache, then times cold scoring (a fitted model, an empty
parse cache), warm scoring (the same texts again), `detect` of 10 answers with a cached default
model, the default model's build and the learned checker's pairs/s. `time` records the wall time
of a command (`make test` in a fresh clone, a benchmark's make target, ...). Every figure is written with the
commit and the machine to `paper/measured/performance.json`, and the README's Performance block is
rendered from that file (`report.performance`).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .io import atomic_write_text
from .report.performance import MEASURED, STAGES, load_measured, machine, render_readme
from .runinfo import code_commit

AUDIT_ROW = "audit-x{scale}"


def bench_one(config_path: str, corpus_dir: Path, work: Path) -> dict:
    from .config import apply_overrides, load_config
    from .data.ragtruth import load_ragtruth
    from .data.splits import split_corpus
    from .model import EvidenceChain
    from .runner import run as run_experiment
    from .text.parse import ParseCache

    config = load_config(config_path)
    config.cache_dir = str(work / "cache")
    config = apply_overrides(config, response_jsonl=str(corpus_dir / "response.jsonl"),
                             source_info_jsonl=str(corpus_dir / "source_info.jsonl"))
    fit = config.corpora[config.evaluations[0].fit]
    t0 = time.perf_counter()
    out = run_experiment(config, work / "run", progress=False)
    wall = time.perf_counter() - t0
    run = json.loads((out / "run.json").read_text())
    corpus = load_ragtruth(corpus_dir / "response.jsonl", corpus_dir / "source_info.jsonl")
    test = split_corpus(corpus, fit.calibration_fraction, config.seed)["test"]
    cache = ParseCache(None)  # cold: nothing parsed yet in this cache
    model = EvidenceChain.load(out / "model", cache=cache)
    t1 = time.perf_counter()
    model.score(test, progress=False)
    cold = time.perf_counter() - t1
    t2 = time.perf_counter()
    model.score(test, progress=False)
    warm = time.perf_counter() - t2
    return {
        "responses": run["corpora"][config.evaluations[0].fit]["responses"],
        "stages": run["stage_seconds"],
        "families": {k: v["seconds"] for k, v in run.get("feature_families", {}).items()
                     if v.get("state") == "runs"},
        "experiment_seconds": round(wall, 2),
        "test_responses": len(test.responses),
        "cold_responses_per_s": round(len(test.responses) / cold, 1),
        "score_responses_per_s": round(len(test.responses) / warm, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }


def detect_timings(seed: int, work: Path, n: int = 10) -> dict:
    """Wall time of building the default model (a fresh cache) and of `evidencechain detect` on
    `n` answers once it is cached, each in a new process as a user would run them."""
    from .data.audit import generate_audit_corpus
    from .text.chunks import build_evidence

    corpus = generate_audit_corpus(seed, 1)
    lines = []
    for r in corpus.responses[:n]:
        ev = build_evidence(corpus.source_of(r))
        lines.append(json.dumps({"id": r.id, "context": ev.text, "question": ev.query or "", "answer": r.response}))
    answers = work / "answers.jsonl"
    answers.write_text("\n".join(lines) + "\n", encoding="utf-8")
    env = {**os.environ, "EVIDENCECHAIN_CACHE_DIR": str(work / "user-cache")}
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "from evidencechain.detect.default import ensure_default_model; "
                    "ensure_default_model(quiet=True)"], env=env, check=True)
    build = time.perf_counter() - t0
    cmd = [sys.executable, "-m", "evidencechain", "detect", str(answers), "--format", "jsonl", "-q",
           "--out", str(work / "out.jsonl"), "--force"]
    subprocess.run(cmd, env=env, check=True)  # the first detect also fills the parse cache's files
    t1 = time.perf_counter()
    subprocess.run(cmd, env=env, check=True)
    return {"default_model_build_seconds": round(build, 1), "detect_answers": n,
            "detect_seconds": round(time.perf_counter() - t1, 2)}


def throughput_pairs(corpus_dir: Path, n: int = 256) -> tuple[list[str], list[str]]:
    """(premises, claims): the first `n` audit answer sentences against their best source windows."""
    from .data.ragtruth import load_ragtruth
    from .text.chunks import build_evidence
    from .text.windows import candidate_windows, split_sentences

    corpus = load_ragtruth(corpus_dir / "response.jsonl", corpus_dir / "source_info.jsonl")
    premises, claims = [], []
    for r in corpus.responses:
        evidence = split_sentences(build_evidence(corpus.source_of(r)).text)
        for sentence in split_sentences(r.response):
            premises.append(candidate_windows(evidence, sentence, 1, 110)[0])
            claims.append(sentence)
        if len(claims) >= n:
            break
    return premises[:n], claims[:n]


def checker_throughput(model_dir: str | Path, corpus_dir: Path, n: int = 256) -> list[tuple[str, float]]:
    """Sentence-window pairs per second of the trained checker (fp32, int8 and ONNX Runtime on CPU;
    the GPU when present), on audit answer sentences against their best source windows."""
    from .checker.infer import CheckerScorer, throughput

    premises, claims = throughput_pairs(corpus_dir, n)
    rows = []
    for device, quantize in (("cpu", "none"), ("cpu", "int8"), ("cpu", "onnx"), ("cuda", "none")):
        try:
            scorer = CheckerScorer.load(model_dir, device=device, quantize=quantize)
        except Exception as exc:  # a device or quantization this machine lacks: say so
            rows.append((f"{device} {quantize}: unavailable ({str(exc).splitlines()[0][:80]})", float("nan")))
            continue
        rows.append((f"{device} {'fp32' if quantize == 'none' else quantize}", throughput(scorer, premises, claims)))
    return rows


def stamp() -> dict:
    return {"commit": code_commit() or "unknown", "measured_at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "machine": machine()}


def save(measured: Path, key: str, value: dict, readme: Path | None) -> None:
    data = load_measured(measured)
    data[key] = value
    measured.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(measured, json.dumps(data, indent=2, sort_keys=True) + "\n")
    print(f"wrote {measured}")
    write_readme(readme, data)


def write_readme(readme: Path | None, data: dict) -> None:
    if readme is None:
        return
    text = render_readme(readme.read_text("utf-8"), data) if readme.is_file() else None
    if text is None:
        print(f"{readme}: no Performance markers, not rewritten")
    elif text != readme.read_text("utf-8"):
        atomic_write_text(readme, text)
        print(f"{readme}: Performance block rewritten")


def measure(args) -> int:
    from .data.audit import write_audit_corpus
    from .features.checker import checker_absent_reason

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for scale in args.scales:
            corpus_dir = Path(tmp) / f"audit-x{scale}"
            t0 = time.perf_counter()
            write_audit_corpus(corpus_dir, seed=args.seed, scale=scale)
            generate = time.perf_counter() - t0
            done = subprocess.run([sys.executable, "-m", "evidencechain.bench", "single", "--config", args.config,
                                   str(corpus_dir)], capture_output=True, text=True)
            if done.returncode != 0:
                sys.stderr.write(done.stderr)
                return done.returncode
            result = json.loads(done.stdout.strip().splitlines()[-1])
            result.update(corpus=AUDIT_ROW.format(scale=scale), scale=scale, generate_seconds=round(generate, 1))
            rows.append(result)
            print(_row_line(result, header=len(rows) == 1), flush=True)
        detect = {} if args.skip_detect else detect_timings(args.seed, Path(tmp))
    for key, value in detect.items():
        print(f"{key}: {value}")
    checker: list = []
    absent = checker_absent_reason(args.checker)
    if absent:
        print(f"checker throughput: skipped, the checker is {absent}")
    else:
        with tempfile.TemporaryDirectory() as tmp:
            write_audit_corpus(Path(tmp), seed=args.seed)
            checker = [{"label": label, "pairs_per_s": round(rate, 1) if rate == rate else None}
                       for label, rate in checker_throughput(args.checker, Path(tmp))]
        for c in checker:
            print(f"checker {c['label']:<52}{c['pairs_per_s'] or '':>8} pairs/s")
    save(Path(args.measured), "bench", {**stamp(), "config": args.config, "rows": rows, **detect,
                                        "checker": checker, "checker_absent": absent or ""},
         Path(args.readme) if args.readme else None)
    return 0


def _row_line(r: dict, header: bool) -> str:
    head = (f"{'corpus':<10}{'responses':>10}{'generate':>10}" + "".join(f"{s:>10}" for s in STAGES)
            + f"{'cold resp/s':>13}{'total s':>10}{'score resp/s':>14}{'peak MB':>10}")
    line = (f"{r['corpus']:<10}{r['responses']:>10}{r['generate_seconds']:>10.1f}"
            + "".join(f"{r['stages'].get(s, 0.0):>10.1f}" for s in STAGES)
            + f"{r['cold_responses_per_s']:>13.0f}{r['experiment_seconds']:>10.1f}"
            f"{r['score_responses_per_s']:>14.0f}{r['peak_rss_mb']:>10.0f}")
    families = ", ".join(f"{k} {v:.1f} s" for k, v in sorted(r["families"].items(), key=lambda kv: -kv[1]))
    return (head + "\n" if header else "") + line + f"\n  feature families: {families}"


def _head(repo: Path, dirty: bool) -> str:
    """The repository's HEAD (12 hex digits; '-dirty' when asked and the tree has changes)."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True).stdout.strip()

    head = git("rev-parse", "--short=12", "HEAD")
    if not head:
        return code_commit() or "unknown"
    return head + ("-dirty" if dirty and git("status", "--porcelain", "--untracked-files=no") else "")


class LoadSampler:
    """The machine's 1-minute load average, read every `every` seconds while a timed command runs:
    a wall time taken while other work ran is slower than the machine can do."""

    def __init__(self, every: float = 15.0):
        import threading

        self.every, self.samples, self.done = every, [], threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while True:
            self.samples.append(os.getloadavg()[0])
            if self.done.wait(self.every):
                return

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.done.set()
        if self.thread.is_alive():
            self.thread.join()

    def mean(self) -> float | None:
        return round(sum(self.samples) / len(self.samples), 2) if self.samples else None


def _children_cpu() -> float:
    """CPU seconds (user + system) of this process's finished children and theirs: unlike wall
    time, it hardly moves when other work shares the cores."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _bring_back(source: Path, target: Path) -> None:
    """Copy what a fresh clone built (e.g. a trained checker) into this checkout, never over a file here."""
    if not source.exists():
        print(f"{source}: not built in the clone, nothing kept", file=sys.stderr)
    elif target.exists():
        print(f"{target}: exists here, the clone's copy is not kept", file=sys.stderr)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        (shutil.copytree if source.is_dir() else shutil.copy2)(source, target)
        print(f"kept {target} from the clone")


def time_command(args) -> int:
    """Wall time of a command (in a fresh clone of this repository with --fresh-clone)."""
    command = list(args.timed)
    if not command:
        print("error: give the command to time after --", file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="evidencechain-timing-") if args.fresh_clone else None
    cwd = Path.cwd()
    commit = _head(cwd, dirty=not work)  # what is timed: a fresh clone holds this commit, not later edits
    loads = LoadSampler()
    try:
        if work:
            subprocess.run(["git", "clone", "-q", str(cwd), f"{work}/repo"], check=True)
            shared = cwd.parent / "shared"
            if shared.exists() and not (Path(work) / "shared").exists():
                os.symlink(shared, Path(work) / "shared")  # ../shared/data, as beside the checkout
            for path in args.carry:
                source, target = cwd / path, Path(work) / "repo" / path
                if source.is_dir():
                    shutil.copytree(source, target)
                elif source.is_file():
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(source, target)
                else:
                    print(f"{path}: absent here, not carried into the clone", file=sys.stderr)
        t0, cpu0 = time.perf_counter(), _children_cpu()
        loads.start()
        done = subprocess.run(command, cwd=f"{work}/repo" if work else None)
        seconds, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
        for path in args.keep if work else []:
            _bring_back(Path(work) / "repo" / path, cwd / path)
    finally:
        loads.stop()
        if work:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{args.label}: {seconds / 60:.1f} min (exit {done.returncode})")
    if done.returncode != 0:
        return done.returncode
    save(Path(args.measured), f"time:{args.label}", {**stamp(), "commit": commit, "seconds": round(seconds, 1),
                                                     "fresh_clone": bool(args.fresh_clone), "carried": args.carry,
                                                     "mean_load": loads.mean(), "cpu_seconds": round(cpu, 1)},
         Path(args.readme) if args.readme else None)
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--measured", default=MEASURED, help=f"the measurements file ({MEASURED})")
    common.add_argument("--readme", default="README.md",
                        help="README whose Performance block is rendered from the measurements ('' for none)")
    parser = argparse.ArgumentParser(prog="python -m evidencechain.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command")
    m = sub.add_parser("measure", parents=[common],
                       help="time the audit experiment, scoring, detect and the checker (default)")
    m.add_argument("--config", default="experiments/audit.toml")
    m.add_argument("--scales", type=int, nargs="+", default=[1, 10])
    m.add_argument("--seed", type=int, default=17)
    m.add_argument("--checker", default="results/checker",
                   help="trained checker to time (skipped, with the reason, when absent)")
    m.add_argument("--skip-detect", action="store_true", help="do not time detect and the default model build")
    t = sub.add_parser("time", parents=[common], help="record the wall time of a command, e.g. `make test`")
    t.add_argument("label")
    t.add_argument("--fresh-clone", action="store_true", help="run it in a fresh clone of this repository")
    t.add_argument("--carry", action="append", default=[], metavar="PATH",
                   help="with --fresh-clone: copy this ignored path (e.g. results/checker) into the clone")
    t.add_argument("--keep", action="append", default=[], metavar="PATH",
                   help="with --fresh-clone: copy this path the command built (e.g. results/checker) back here, "
                        "unless it exists here")
    t.add_argument("timed", nargs="*", metavar="COMMAND", help="after --: the command to time")
    sub.add_parser("readme", parents=[common],
                   help="render the README's Performance block from the measurements file")
    x = sub.add_parser("checker-export", help="write the timed pairs, the CPU verdicts and a half-precision copy of "
                                              "the checker, to time it on a GPU machine (checker-device)")
    x.add_argument("--checker", default="results/checker")
    x.add_argument("--seed", type=int, default=17)
    x.add_argument("--out", required=True)
    g = sub.add_parser("checker-device", help="on a GPU machine: time an exported checker; write the result")
    g.add_argument("exported")
    g.add_argument("--out", required=True)
    r = sub.add_parser("record-device", parents=[common],
                       help="file a checker-device result with this commit (README Performance block)")
    r.add_argument("result")
    s = sub.add_parser("single")  # internal: one corpus in its own process
    s.add_argument("--config", required=True)
    s.add_argument("corpus_dir")
    if not argv or argv[0] not in ("measure", "time", "readme", "single", "checker-export", "checker-device",
                                   "record-device", "-h", "--help"):
        argv = ["measure", *argv]
    timed = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    args.timed = timed
    if args.command == "single":
        with tempfile.TemporaryDirectory() as tmp:
            print(json.dumps(bench_one(args.config, Path(args.corpus_dir), Path(tmp))))
        return 0
    if args.command == "time":
        return time_command(args)
    if args.command == "readme":
        write_readme(Path(args.readme) if args.readme else None, load_measured(Path(args.measured)))
        return 0
    if args.command in ("checker-export", "checker-device", "record-device"):
        return device_checker(args)
    return measure(args)


DEVICE_KEY = "device:checker"


def device_checker(args) -> int:
    """The learned checker timed on a GPU machine without the corpora (`checker.device_bench`)."""
    from .checker import device_bench

    if args.command == "checker-export":
        from .data.audit import write_audit_corpus

        with tempfile.TemporaryDirectory() as tmp:
            write_audit_corpus(Path(tmp), seed=args.seed)
            premises, claims = throughput_pairs(Path(tmp))
        print(f"wrote {device_bench.export(args.checker, premises, claims, args.out)}")
    elif args.command == "checker-device":
        result = device_bench.measure(args.exported)
        result["machine"] = {**machine(), "gpu": result["device"]}
        atomic_write_text(Path(args.out), json.dumps(result, indent=2, sort_keys=True) + "\n")
        print(json.dumps(result, indent=2, sort_keys=True))
    else:
        result = json.loads(Path(args.result).read_text("utf-8"))
        save(Path(args.measured), DEVICE_KEY, {**result, **stamp(), "machine": result.get("machine")},
             Path(args.readme) if args.readme else None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
