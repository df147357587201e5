"""Benchmark: wall time per stage, scoring throughput and peak memory.

    python -m evidencechain.bench [--scales 1 10] [--config experiments/audit.toml]

Each corpus runs in its own process (so peak memory is its own) with a cold parse cache.
Targets on 2 cores: the whole audit experiment under 60 s; scoring with a fitted model at
>= 100 responses/s once texts are parsed.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .config import apply_overrides, load_config
from .data.audit import write_audit_corpus
from .data.ragtruth import load_ragtruth
from .data.splits import split_corpus
from .model import EvidenceChain
from .runner import run as run_experiment
from .text.parse import ParseCache

STAGES = ("load", "parse", "features", "fit", "score", "evaluate")


def bench_one(config_path: str, corpus_dir: Path, work: Path) -> dict:
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
    cache = ParseCache(work / "cache" / "parse.sqlite")
    model = EvidenceChain.load(out / "model", cache=cache)
    model.score(test, progress=False)  # warm-up: loads the parse cache into memory
    t1 = time.perf_counter()
    model.score(test, progress=False)
    scoring = time.perf_counter() - t1
    cache.close()
    return {
        "responses": run["corpora"][config.evaluations[0].fit]["responses"],
        "stages": run["stage_seconds"],
        "experiment_seconds": wall,
        "test_responses": len(test.responses),
        "score_responses_per_s": len(test.responses) / scoring,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def checker_throughput(model_dir: str | Path, corpus_dir: Path, n: int = 256) -> list[tuple[str, float]]:
    """Sentence-window pairs per second of the trained checker (fp32, int8 and ONNX Runtime on CPU;
    the GPU when present), on audit answer sentences against their best source windows."""
    from .checker.infer import CheckerScorer, throughput
    from .checker.windows import candidate_windows, split_sentences
    from .data.ragtruth import load_ragtruth
    from .text.chunks import build_evidence

    corpus = load_ragtruth(corpus_dir / "response.jsonl", corpus_dir / "source_info.jsonl")
    premises, claims = [], []
    for r in corpus.responses:
        evidence = split_sentences(build_evidence(corpus.source_of(r)).text)
        for sentence in split_sentences(r.response):
            premises.append(candidate_windows(evidence, sentence, 1, 110)[0])
            claims.append(sentence)
        if len(claims) >= n:
            break
    premises, claims = premises[:n], claims[:n]
    rows = []
    for device, quantize in (("cpu", "none"), ("cpu", "int8"), ("cpu", "onnx"), ("cuda", "none")):
        try:
            scorer = CheckerScorer.load(model_dir, device=device, quantize=quantize)
        except Exception as exc:  # a device or quantization this machine lacks: say so
            rows.append((f"{device} {quantize}: unavailable ({str(exc).splitlines()[0][:80]})", float("nan")))
            continue
        rows.append((f"{device} {'fp32' if quantize == 'none' else quantize}", throughput(scorer, premises, claims)))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", default="experiments/audit.toml")
    parser.add_argument("--scales", type=int, nargs="+", default=[1, 10])
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--checker", default="results/checker",
                        help="trained checker to time (skipped, with the reason, when absent)")
    parser.add_argument("--single", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.single:
        with tempfile.TemporaryDirectory() as tmp:
            print(json.dumps(bench_one(args.config, Path(args.single), Path(tmp))))
        return 0
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for scale in args.scales:
            corpus_dir = Path(tmp) / f"audit-x{scale}"
            t0 = time.perf_counter()
            write_audit_corpus(corpus_dir, seed=args.seed, scale=scale)
            generate = time.perf_counter() - t0
            done = subprocess.run([sys.executable, "-m", "evidencechain.bench", "--config", args.config,
                                   "--single", str(corpus_dir)], capture_output=True, text=True)
            if done.returncode != 0:
                sys.stderr.write(done.stderr)
                return done.returncode
            result = json.loads(done.stdout.strip().splitlines()[-1])
            result.update(scale=scale, generate_seconds=generate)
            rows.append(result)
            print(f"scale x{scale}: {result['responses']} responses done", file=sys.stderr)
    header = (f"{'corpus':<10}{'responses':>10}{'generate':>10}" + "".join(f"{s:>10}" for s in STAGES)
              + f"{'total s':>10}{'score resp/s':>14}{'peak MB':>10}")
    print(header)
    for r in rows:
        print(f"{'audit-x' + str(r['scale']):<10}{r['responses']:>10}{r['generate_seconds']:>10.1f}"
              + "".join(f"{r['stages'].get(s, 0.0):>10.1f}" for s in STAGES)
              + f"{r['experiment_seconds']:>10.1f}{r['score_responses_per_s']:>14.0f}{r['peak_rss_mb']:>10.0f}")
    print("targets (2 cores): audit experiment < 60 s; scoring >= 100 responses/s once parsed")
    from .features.checker import checker_absent_reason

    absent = checker_absent_reason(args.checker)
    if absent:
        print(f"checker throughput: skipped, the checker is {absent}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        write_audit_corpus(Path(tmp), seed=args.seed)
        for label, rate in checker_throughput(args.checker, Path(tmp)):
            print(f"checker {label:<52}" + (f"{rate:>8.1f} pairs/s" if rate == rate else ""))
    print("checker targets: >= 40 pairs/s on 2 CPU cores; >= 2,000 pairs/s on one H100")
    return 0


if __name__ == "__main__":
    sys.exit(main())
