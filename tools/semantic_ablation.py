"""With and without the semantic family: the default model's recipe fitted both ways, scored on
CLIFF (thresholds on `val`, scored once on `test`) and on SummEdits domains (thresholds on each
domain's own calibration half, as in the benchmark's zero-shot protocol).

    python tools/semantic_ablation.py [--data ../shared/data] [--benchmarks cliff summedits:podcast]

Writes results/semantic_ablation/{models/,ablation.csv}: per benchmark, variant and detector,
answer-level balanced accuracy and ROC-AUC on the scored part. The 'without' variant is the
recipe before the semantic family (audit corpus only, groups lexical / retrieval / mismatch).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evidencechain.detect import default  # noqa: E402
from evidencechain.metrics import binary_metrics  # noqa: E402
from evidencechain.model import EvidenceChain  # noqa: E402
from evidencechain.text.parse import ParseCache  # noqa: E402

DETECTORS = ("NLI_Rules", "EvidenceChain_LR", "EvidenceChain_RF", "EvidenceChain_Token")
VARIANTS = {"without": {"planted": False, "groups": ["lexical", "retrieval", "mismatch"]},
            "with": {"planted": True, "groups": ["lexical", "retrieval", "mismatch", "semantic"]}}


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


def _benchmark(name: str, data: Path):
    """(calibration corpus, scored corpus) of a benchmark, by its protocol: CLIFF val / test,
    a SummEdits domain's evaluation / test split."""
    if name == "cliff":
        from evidencechain.data.cliff import load_cliff
        corpus = load_cliff(data / "cliff")
    else:
        from evidencechain.data.summedits import load_summedits
        corpus = load_summedits(data / "summedits", domains=[name.split(":", 1)[1]])
    held = {r.id for r in corpus.responses if r.split == "test"}
    return (corpus.subset(response_ids={r.id for r in corpus.responses} - held, name=f"{name}:calibration"),
            corpus.subset(response_ids=held, name=f"{name}:test"))


def _balanced(labels: np.ndarray, pred: np.ndarray) -> float:
    tpr = (pred & (labels == 1)).sum() / max(1, (labels == 1).sum())
    tnr = (~pred & (labels == 0)).sum() / max(1, (labels == 0).sum())
    return float((tpr + tnr) / 2)


def _best_balanced(labels: np.ndarray, risk: np.ndarray) -> float:
    best, cut = -1.0, 0.5
    for t in np.unique(risk):
        score = _balanced(labels, risk >= t)
        if score > best:
            best, cut = score, t
    return float(cut)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared/data")
    ap.add_argument("--benchmarks", nargs="+", default=["cliff"])
    ap.add_argument("--out", type=Path, default=ROOT / "results/semantic_ablation")
    args = ap.parse_args(argv)
    cache = ParseCache(args.out / "parse.sqlite")
    rows = []
    for variant in VARIANTS:
        model = EvidenceChain.load(_model(variant, args.out), cache=cache)
        for bench in args.benchmarks:
            calibration, scored = _benchmark(bench, args.data)
            cal = model.score(calibration, progress=False).responses
            test = model.score(scored, progress=False).responses
            for det in DETECTORS:
                cut = _best_balanced(cal["label"].to_numpy(), cal[f"risk_{det}"].to_numpy())
                y, risk = test["label"].to_numpy(), test[f"risk_{det}"].to_numpy()
                m = binary_metrics(y, risk, cut)
                rows.append({"benchmark": bench, "variant": variant, "detector": det,
                             "balanced_accuracy": round(_balanced(y, risk >= cut), 4),
                             "roc_auc": round(m["roc_auc"], 4), "answers": len(test)})
                print(rows[-1], flush=True)
    table = pd.DataFrame(rows)
    args.out.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out / "ablation.csv", index=False)
    print(table.to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
