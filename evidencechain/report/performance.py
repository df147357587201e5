"""The README's Performance block, rendered from `paper/measured/performance.json` (written by
`make bench` and `make timings`, with the commit and machine of every figure)."""
from __future__ import annotations

import json
import os
import platform
import tomllib
from importlib import resources
from pathlib import Path

MEASURED = "paper/measured/performance.json"
STAGES = ("load", "parse", "features", "fit", "score", "evaluate")
START, END = "<!-- performance:start -->", "<!-- performance:end -->"


def load_measured(path: str | Path) -> dict:
    path = Path(path)
    if not path.is_file():
        return {}
    data = json.loads(path.read_text("utf-8"))
    return data if isinstance(data, dict) else {}


def speed_probe() -> float:
    """Seconds for a fixed pure-Python workload (the best of three): the same machine runs it
    slower when its host is busy, which load averages inside it do not show. Figures measured with
    different probes are not comparable."""
    import time

    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        total = 0
        for i in range(6_000_000):
            total += (i * i) % 7
        best = min(best, time.perf_counter() - t0)
    return round(best, 3)


def machine() -> dict:
    """What the figures were measured on (with the speed probe at that moment)."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    memory = None
    try:
        memory = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30)
    except (ValueError, OSError, AttributeError):
        pass
    return {"cpu": cpu, "cores": cores, "memory_gb": memory, "python": platform.python_version(),
            "gpu": "none used", "speed_probe_s": speed_probe()}


BUSY_LOAD_PER_CORE = 1.25
"""A mean 1-minute load above this many per core: the timed command shared the machine."""


def targets() -> list[dict]:
    text = resources.files(__package__).joinpath("data/performance.toml").read_text("utf-8")
    return tomllib.loads(text)["target"]


def _measured_value(data: dict, key: str) -> tuple[float | None, dict | None]:
    """(value, its measurement record) of a target key, or (None, None) when not measured."""
    bench = data.get("bench", {})
    rows = {r["corpus"]: r for r in bench.get("rows", [])}
    if key.startswith("time:"):
        record = data.get(key)
        return (record["seconds"], record) if record else (None, None)
    if key in ("detect", "build"):
        field = "detect_seconds" if key == "detect" else "default_model_build_seconds"
        return (bench[field], bench) if field in bench else (None, None)
    corpus, what = key.rsplit(".", 1)
    row = rows.get(corpus)
    if row is None:
        return None, None
    field = {"total": "experiment_seconds", "warm": "score_responses_per_s", "cold": "cold_responses_per_s",
             "peak": "peak_rss_mb"}[what]
    return row[field], bench


def _fmt(value: float, unit: str) -> str:
    if unit == "s" and value >= 120:
        return f"{value / 60:.1f} min"
    return f"{value:,.0f} {unit}" if value >= 100 else f"{value:.1f} {unit}"


def _machine_text(m: dict) -> str:
    probe = f", speed probe {m['speed_probe_s']:.2f} s" if m.get("speed_probe_s") else ""
    return (f"{m.get('cores')} cores ({m.get('cpu')}), {m.get('memory_gb')} GB, Python {m.get('python')}, "
            f"GPU: {m.get('gpu')}{probe}")


def _load_text(record: dict) -> str:
    """What a timed command's wall time needs beside it: ' (machine busy: mean load 4.9 on 2 cores)'
    when other work ran beside it, its CPU time, and what it was spared ('carrying results/checker')."""
    load, cores = record.get("mean_load"), (record.get("machine") or {}).get("cores")
    notes = []
    if load is not None and cores and load > BUSY_LOAD_PER_CORE * cores:
        notes.append(f"machine busy: mean load {load:.1f} on {cores} cores")
    if record.get("cpu_seconds"):
        notes.append(f"CPU {record['cpu_seconds'] / 60:.1f} min")
    if record.get("carried"):
        notes.append("carrying " + ", ".join(record["carried"]))
    return f" ({'; '.join(notes)})" if notes else ""


def performance_block(data: dict) -> str:
    lines = [START, f"<!-- generated from {MEASURED} by `make bench` / `make timings`; do not edit by hand -->"]
    bench = data.get("bench")
    if not bench:
        lines += ["No measurements yet: run `make bench`.", END]
        return "\n".join(lines)
    lines += [f"Measured by `make bench` at commit `{bench['commit']}` ({bench['measured_at']}) on "
              f"{_machine_text(bench['machine'])}. Cold parse cache, one process per corpus; `cold` scores "
              "the test split with a fitted model and an empty parse cache, `score` scores it again (warm). "
              "Stage columns are seconds.", "",
              "| corpus | answers | generate | " + " | ".join(STAGES) + " | cold answers/s | total s | "
              "score answers/s | peak MB |",
              "|---|" + "--:|" * (len(STAGES) + 6)]
    for r in bench.get("rows", []):
        lines.append(f"| {r['corpus']} | {r['responses']:,} | {r['generate_seconds']:.1f} | "
                     + " | ".join(f"{r['stages'].get(s, 0.0):.1f}" for s in STAGES)
                     + f" | {r['cold_responses_per_s']:,.0f} | {r['experiment_seconds']:.1f} | "
                     f"{r['score_responses_per_s']:,.0f} | {r['peak_rss_mb']:,.0f} |")
    families = [(r["corpus"], r.get("families", {})) for r in bench.get("rows", [])]
    for corpus, fam in families[:1]:
        if fam:
            parts = ", ".join(f"{k} {v:.1f} s" for k, v in sorted(fam.items(), key=lambda kv: -kv[1]))
            lines += ["", f"Feature families that ran ({corpus}, seconds over every `transform`): {parts}. "
                          "A family runs only when a configured detector needs it (`run.json`: "
                          "`feature_families`)."]
    lines += ["", "| measurement | measured | target | met | commit |", "|---|--:|--:|:-:|---|"]
    for t in targets():
        value, record = _measured_value(data, t["key"])
        limit = f"{'<=' if t['better'] == 'lower' else '>='} {_fmt(t['limit'], t['unit'])}"
        if value is None:
            lines.append(f"| {t['label']} | not measured | {limit} | | |")
            continue
        met = value <= t["limit"] if t["better"] == "lower" else value >= t["limit"]
        lines.append(f"| {t['label']} | {_fmt(value, t['unit'])}{_load_text(record)} | {limit} | "
                     f"{'yes' if met else 'no'} | `{record['commit']}` |")
    checker = bench.get("checker") or []
    if checker:
        rates = "; ".join(f"{c['label']}: {c['pairs_per_s']} pairs/s" if c["pairs_per_s"] is not None
                          else c["label"] for c in checker)
        lines += ["", f"Learned checker throughput (256 sentence-window pairs): {rates}."]
    elif bench.get("checker_absent"):
        lines += ["", f"Learned checker throughput: not measured, the checker is {bench['checker_absent']}."]
    device = data.get("device:checker")
    if device:
        rates = "; ".join(f"{r['label']}: {r['pairs_per_s']} pairs/s" for r in device["rows"])
        lines += ["", f"The same checker on a lent GPU ({device['device']}, torch {device['torch']}; a half-precision "
                      f"copy, `bench checker-export` / `checker-device` / `record-device`, commit `{device['commit']}`): "
                      f"{rates}; its verdict is the CPU's on {device['verdicts_agree']} of {device['pairs']} pairs "
                      f"(largest probability difference {device['max_probability_difference']})."]
    timed = sorted(k for k in data if k.startswith("time:"))
    machines = {_machine_text(data[k]["machine"]) for k in timed} - {_machine_text(bench["machine"])}
    if machines:
        lines += ["", "Timed commands ran on: " + "; ".join(sorted(machines)) + "."]
    return "\n".join([*lines, END])


def render_readme(text: str, data: dict) -> str | None:
    """`text` with its Performance block regenerated; None when it has no markers."""
    if START not in text or END not in text:
        return None
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return head + performance_block(data) + tail
