"""`make default-model`: the default detect model's card as a project file, which the README's
generated `default-model` block is rendered from (`report --readme`).

    python -m evidencechain.detect.card --out results/default_model [--conflict-rule on|off]

Builds the default model if it is not cached yet, and writes into OUT:
  * `card.json`: the model's own card (recipe, selection rule, calibration and audit-test metrics,
    build seconds) plus `commit`, the git commit of the code that built it;
  * `ragtruth_qa.json`, when the real RAGTruth QA answers are present (`--ragtruth-qa DIR`,
    default ../shared/data/ragtruth_qa): those answers scored once with `detect`'s own verdicts
    and spans: answer F1, span F1 and the flag-everything floor, with the conflict rule as the
    recipe says, and under `other_rule` the same with the rule set the other way (the rule only
    adds flags after scoring, so both come from one model). Nothing is fitted, chosen or tuned
    on them.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

RAGTRUTH_QA = Path("../shared/data/ragtruth_qa")


def ragtruth_qa_metrics(detector, data_dir: Path) -> dict:
    """Answer and span F1 of `detector`'s own verdicts and spans on the RAGTruth QA answers."""
    from ..metrics import binary_metrics, span_f1
    from .inputs import read_ragtruth

    corpus = read_ragtruth(data_dir / "response.jsonl", data_dir / "source_info.jsonl")
    t0 = time.perf_counter()
    results = list(detector.iter_corpus(corpus))
    gold = [int(bool(r.labels) or bool(r.response_label)) for r in corpus.responses]
    predicted = [int(r.verdict == "hallucinated") for r in results]
    answer = binary_metrics(gold, predicted, 0.5)
    share = sum(gold) / len(gold)
    return {"data": str(data_dir), "answers": len(gold), "hallucinated": sum(gold), "detector": detector.detector,
            "answer_f1": round(answer["f1"], 4), "answer_precision": round(answer["precision"], 4),
            "answer_recall": round(answer["recall"], 4), "span_f1": round(span_f1(corpus, results), 4),
            "flag_everything_answer_f1": round(2 * share / (1 + share), 4),
            "seconds": round(time.perf_counter() - t0, 1)}


def write_card(out: Path, ragtruth_qa: Path | None = RAGTRUTH_QA, cache_dir: Path | None = None,
               conflicts: bool | None = None) -> list[Path]:
    """`conflicts`: score RAGTruth QA with the conflict rule on or off (None: as the recipe says)."""
    from ..io import atomic_write_text
    from ..runinfo import code_commit
    from .api import Detector
    from .default import read_card

    detector = Detector.default(cache_dir=cache_dir, conflicts=conflicts)
    try:
        card = {**read_card(detector.path), "commit": code_commit()}
        out.mkdir(parents=True, exist_ok=True)
        written = [out / "card.json"]
        atomic_write_text(written[0], json.dumps(card, indent=2, sort_keys=True) + "\n")
        if ragtruth_qa is not None and (ragtruth_qa / "response.jsonl").is_file():
            metrics = {**ragtruth_qa_metrics(detector, ragtruth_qa), "model": card.get("key"),
                       "commit": card["commit"], "conflict_rule": bool(detector.conflicts)}
            detector.conflicts = not detector.conflicts
            other = ragtruth_qa_metrics(detector, ragtruth_qa)
            metrics["other_rule"] = {"conflict_rule": bool(detector.conflicts),
                                     **{k: other[k] for k in ("answer_f1", "answer_precision", "answer_recall",
                                                              "span_f1")}}
            written.append(out / "ragtruth_qa.json")
            atomic_write_text(written[1], json.dumps(metrics, indent=2, sort_keys=True) + "\n")
    finally:
        detector.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evidencechain.detect.card", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="results/default_model", help="directory (default results/default_model)")
    parser.add_argument("--ragtruth-qa", default=str(RAGTRUTH_QA),
                        help=f"RAGTruth QA directory (default {RAGTRUTH_QA}); skipped when absent")
    parser.add_argument("--conflict-rule", choices=("on", "off"), default=None,
                        help="score RAGTruth QA with the conflict rule on or off (default: as the recipe says)")
    args = parser.parse_args(argv)
    from ..errors import EvidenceChainError

    try:
        conflicts = None if args.conflict_rule is None else args.conflict_rule == "on"
        for path in write_card(Path(args.out), Path(args.ragtruth_qa), conflicts=conflicts):
            print(path)
    except EvidenceChainError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
