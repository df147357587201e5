"""With and without the semantic family: the default model's recipe fitted both ways, scored on
real benchmarks (`features/semantic/data/sources.toml` [ablation]): those with a predefined calibration part get
thresholds there and are scored once on their test part (a domain at a time: NAME:DOMAIN, as in
the benchmark's zero-shot protocol); test-only corpora are scored with the model's own
thresholds (chosen on the synthetic calibration split), as `detect` would, giving answer F1 and
span F1.

    python -m evidencechain.detect.semantic_ablation [--data ../shared/data] [--benchmarks NAME NAME:SUBSET ...]
    python -m evidencechain.detect.semantic_ablation --runs without=RUN_DIR with=RUN_DIR

The second form adds rows from two finished benchmark runs of one config with and without the
new feature groups (e.g. leave-one-subset-out fits): per evaluation and detector, the mean
over the scored subsets.

Writes results/semantic_ablation/{models/,ablation_BENCHMARKS.csv}: per benchmark, variant and detector,
answer-level balanced accuracy and ROC-AUC on the scored part. The 'without' variant is the
recipe before the semantic family (audit corpus only, groups lexical / retrieval / mismatch).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd

from evidencechain.detect import default
from evidencechain.features.semantic.build_suite import sources
from evidencechain.metrics import balanced_accuracy, binary_metrics
from evidencechain.model import EvidenceChain
from evidencechain.text.parse import ParseCache

ROOT = Path.cwd()  # run from the project root, as every make target is

DETECTORS = ("NLI_Rules", "EvidenceChain_LR", "EvidenceChain_RF", "EvidenceChain_Token")
SEMANTIC = ["lexical", "retrieval", "mismatch", "semantic"]
VARIANTS = {"without": {"planted": 0, "groups": SEMANTIC[:3]},
            "with": {"planted": default.RECIPE["planted"], "groups": SEMANTIC},
            "planted_only": {"planted": 240, "groups": SEMANTIC[:3]},
            "semantic_only": {"planted": 0, "groups": SEMANTIC},
            "planted_60": {"planted": 60, "groups": SEMANTIC},
            "planted_120": {"planted": 120, "groups": SEMANTIC},
            "planted_240": {"planted": 240, "groups": SEMANTIC}}
"""'without' is the recipe before the family, 'with' the default model's; the other two split the
change into its training corpus and its features."""


def _model(variant: str, out: Path) -> Path:
    target = out / "models" / variant
    if not (target / "model.json").is_file():
        saved = dict(default.RECIPE)
        default.RECIPE.update(VARIANTS[variant])
        try:
            default.build_default_model(target)
        finally:
            default.RECIPE.clear()
            default.RECIPE.update(saved)
    return target


CORPUS_KEYS = {"path": "", "subsets": [], "limit": 0, "quality": [], "response_jsonl": "",
               "source_info_jsonl": "", "test_fraction": 0.3}
"""A corpus table's keys and their defaults (those of `data.load.CorpusConfig`)."""


def _benchmark(name: str, data: Path):
    """(calibration corpus or None, scored corpus) of a benchmark, by its protocol (`features/semantic/data/sources.toml`)."""
    from evidencechain.data.benchmarks import formats

    key, _, subset = name.partition(":")
    table = dict(sources()["ablation"]["corpora"][key])
    protocol = table.pop("protocol")
    fmt = formats()[table.pop("format")]
    spec = SimpleNamespace(**{**CORPUS_KEYS, **table})
    for field in ("path", "response_jsonl", "source_info_jsonl"):
        if getattr(spec, field):
            setattr(spec, field, str(data / getattr(spec, field)))
    if subset:
        spec.subsets = [subset]
    corpus = fmt.read(spec, key, 17)
    if protocol == "own":
        return None, corpus
    held = {r.id for r in corpus.responses if r.split == "test"}
    return (corpus.subset(response_ids={r.id for r in corpus.responses} - held, name=f"{name}:calibration"),
            corpus.subset(response_ids=held, name=f"{name}:test"))


def _best_balanced(labels: np.ndarray, risk: np.ndarray) -> float:
    best, cut = -1.0, 0.5
    for t in np.unique(risk):
        score = balanced_accuracy(labels, risk, t)
        if score > best:
            best, cut = score, t
    return float(cut)


def _own_thresholds(model: EvidenceChain, corpus, bench: str, variant: str) -> list[dict]:
    """Answer F1 and span F1 (as `detect` gives spans) at the model's calibrated thresholds."""
    from evidencechain.metrics import span_f1
    from evidencechain.results import results_from_scored

    scored = model.score(corpus, progress=False)
    rows = []
    for det in DETECTORS:
        m = binary_metrics(scored.responses["label"], scored.responses[f"risk_{det}"],
                           model.thresholds[det]["response"])
        labelled = any(r.labels for r in corpus.responses)  # a corpus may label answers, not words
        spans = span_f1(corpus, results_from_scored(model, det, corpus, scored)) if labelled else None
        rows.append({"benchmark": bench, "variant": variant, "detector": det, "response_f1": round(m["f1"], 4),
                     "span_f1": None if spans is None else round(spans, 4), "roc_auc": round(m["roc_auc"], 4), "answers": len(corpus.responses)})
        print(rows[-1], flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared/data")
    ap.add_argument("--benchmarks", nargs="+", default=sources()["ablation"]["default"])
    ap.add_argument("--variants", nargs="+", default=["without", "with"], choices=list(VARIANTS))
    ap.add_argument("--out", type=Path, default=ROOT / "results/semantic_ablation")
    ap.add_argument("--runs", nargs="+", metavar="VARIANT=RUN_DIR",
                    help="instead: add the per-subset mean of finished `evidencechain run` directories "
                         "(one per variant, e.g. without=... with=...) as rows")
    args = ap.parse_args(argv)
    if args.runs:
        return _import_runs(args.runs, args.out)
    cache = ParseCache(args.out / "parse.sqlite")
    rows = []
    for variant in args.variants:
        model = EvidenceChain.load(_model(variant, args.out), cache=cache)
        for bench in args.benchmarks:
            calibration, scored = _benchmark(bench, args.data)
            if calibration is None:
                rows += _own_thresholds(model, scored, bench, variant)
                continue
            cal = model.score(calibration, progress=False).responses
            test = model.score(scored, progress=False).responses
            for det in DETECTORS:
                cut = _best_balanced(cal["label"].to_numpy(), cal[f"risk_{det}"].to_numpy())
                y, risk = test["label"].to_numpy(), test[f"risk_{det}"].to_numpy()
                m = binary_metrics(y, risk, cut)
                rows.append({"benchmark": bench, "variant": variant, "detector": det,
                             "balanced_accuracy": round(balanced_accuracy(y, risk, cut), 4),
                             "roc_auc": round(m["roc_auc"], 4), "answers": len(test)})
                print(rows[-1], flush=True)
    table = pd.DataFrame(rows)
    args.out.mkdir(parents=True, exist_ok=True)
    name = "_".join(b.replace(":", "-") for b in args.benchmarks) + "_" + "_".join(args.variants)
    table.to_csv(args.out / f"ablation_{name}.csv", index=False)
    _combine(args.out)
    print(table.to_string(index=False))
    return 0


def run_rows(variant: str, run_dir: Path) -> list[dict]:
    """Rows of one finished run: per evaluation and detector, the mean over the scored subsets
    (each scored at its own threshold) of response-level balanced accuracy and ROC-AUC."""
    m = pd.read_csv(run_dir / "metrics.csv")
    m = m[(m["level"] == "response") & m["method"].isin(DETECTORS)]
    fitted_on = m["fit"].where(~m["unit"].str.contains(r"\[-", regex=True), m["fit"] + " (leave-one-domain-out)")
    first = fitted_on.groupby(m["test"]).transform("first")
    keep = (m["family"] != "unsupervised") | (fitted_on == first)  # rules do not depend on the fit
    m, fitted_on = m[keep], fitted_on[keep]
    rows = []
    for (test, fitted, det), part in m.groupby([m["test"], fitted_on, m["method"]], sort=False):
        scope = f"{test}, mean of {len(part)}" if len(part) > 1 else str(test)
        rows.append({"benchmark": f"{scope}, fitted on {fitted}", "variant": variant,
                     "detector": det, "balanced_accuracy": round(part["balanced_accuracy"].mean(), 4),
                     "roc_auc": round(part["roc_auc"].mean(), 4), "answers": int(part["n"].sum())})
    return rows


def _import_runs(runs: list[str], out: Path) -> int:
    rows, names = [], []
    for item in runs:
        variant, _, where = item.partition("=")
        if not where or not (Path(where) / "metrics.csv").is_file():
            print(f"error: --runs {item}: expected VARIANT=RUN_DIR with RUN_DIR/metrics.csv", file=sys.stderr)
            return 2
        rows += run_rows(variant, Path(where))
        names.append(f"{Path(where).name}-{variant}")
    table = pd.DataFrame(rows)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / f"ablation_runs_{'_'.join(names)}.csv", index=False)
    _combine(out)
    print(table.to_string(index=False))
    return 0


def _combine(out: Path) -> None:
    """ablation.csv: every run's rows in this directory (the latest per benchmark, variant and
    detector) and commit.txt, which the README's generated block names."""
    from evidencechain.runinfo import code_commit

    parts = [pd.read_csv(f) for f in sorted(out.glob("ablation_*.csv"), key=lambda f: f.stat().st_mtime)]
    rows = pd.concat(parts, ignore_index=True).drop_duplicates(["benchmark", "variant", "detector"], keep="last")
    rows.to_csv(out / "ablation.csv", index=False)
    (out / "commit.txt").write_text((code_commit() or "unknown") + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
