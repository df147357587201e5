"""The `calibrate` command: read the labels, estimate, refit (and stack), write the model directory.

What is estimated and fitted is in `calibrate` (thresholds, reported detector, the guard that keeps
the base model unless calibration beats it on inner folds) and `stack` (the stacker); this module
checks the arguments, decides whether a stacker is fitted, keeps the better of thresholds-only and
stacked by the cross-validated answer F1, and writes the model with its card (the base model's
conflict rule kept) and prints the report.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

from ..errors import ConfigError
from .calibrate import REPORT, check_counts, cross_validate, featurize, read_labelled, refit
from .stack import stack, stack_decision

METRICS = ("response_f1_before", "response_f1_after", "span_f1_before", "span_f1_after")
STACKED_METRICS = ("response_f1_stacked", "span_f1_stacked")


def _shown(args) -> str:
    return str(args.labelled) if args.labelled else str(args.response_jsonl)


def check_args(args) -> tuple[str, ...]:
    pairs = args.response_jsonl or args.source_info_jsonl
    if args.labelled and pairs:
        raise ConfigError("calibrate: give either LABELLED (a JSONL/CSV file) or --response-jsonl and "
                          "--source-info-jsonl, not both")
    if pairs and not (args.response_jsonl and args.source_info_jsonl):
        raise ConfigError("calibrate: --response-jsonl and --source-info-jsonl go together")
    if not args.labelled and not pairs:
        raise ConfigError("calibrate: give LABELLED (a JSONL or CSV file of {context, question, answer, "
                          "hallucinated, spans} records), or --response-jsonl and --source-info-jsonl")
    if args.folds < 2:
        raise ConfigError(f"calibrate: --folds must be at least 2, got {args.folds}")
    return tuple(str(p) for p in (args.labelled, args.response_jsonl, args.source_info_jsonl, args.model) if p)


def run_calibrate(args) -> int:
    import sys

    from ..io import atomic_write_text, cache_dir, check_output_dir, staged_directory
    from .api import Detector
    from .default import CARD

    inputs = check_args(args)
    cache_root = Path(args.cache_dir) if args.cache_dir else cache_dir()
    check_output_dir(args.out, (*inputs, cache_root))
    corpus = read_labelled(args.labelled, args.response_jsonl, args.source_info_jsonl)
    check_counts(corpus, args.folds, _shown(args))
    common = {"cache_dir": cache_root, "parse_cache": not args.no_cache}
    detector = Detector.load(args.model, **common) if args.model else Detector.default(quiet=args.quiet, **common)
    if args.detector and args.detector not in detector.model.detectors:
        from ..errors import did_you_mean

        names = tuple(detector.model.detectors)
        detector.close()
        raise ConfigError(f"calibrate: --detector {args.detector!r} is not in the model"
                          f"{did_you_mean(args.detector, names)}; its detectors: {', '.join(names)}")
    try:
        data = featurize(detector.model, corpus, progress=not args.quiet and sys.stderr.isatty())
        stacked, why_not = stack_decision(data.labels, args.stack_min, args.no_stack)
        keep_base = not args.always_calibrate
        estimate = cross_validate(detector.model, detector.detector, data, args.folds, args.seed, args.detector,
                                  stacked, args.objective, keep_base)
        model, guard = refit(copy.deepcopy(detector.model), data, args.folds, args.seed, args.detector,
                             args.objective, keep_base)
        summary = {k: dict(zip(("mean", "sd", "folds"), estimate.summary(k)))
                   for k in METRICS + (STACKED_METRICS if stacked else ())}
        thresholds_detector = model.primary
        kept, why = keep(summary) if stacked else ("thresholds", why_not)
        if kept == "stacked":
            model = stack(model, data, args.folds, args.seed)
            model.stacker.cv = {k: summary[k] for k in ("response_f1_stacked", "span_f1_stacked",
                                                         "response_f1_after", "response_f1_before")}
    finally:
        detector.close()
    report = _report(args, detector, data, corpus, estimate, summary, model, thresholds_detector)
    report["guard"] = {**guard.describe(), "why": guard.why(),
                       "folds_base_kept": sum(f["guard"]["kept"] == "base" for f in estimate.per_fold)}
    report["stacker"] = {"min_per_class": args.stack_min, "disabled": bool(args.no_stack), "estimated": stacked,
                         "kept": kept, "why": why, "model": model.stacker.describe() if kept == "stacked" else None}
    model.timings = {}  # wall-clock seconds: the one part of a model that differs between runs
    with staged_directory(args.out, (*inputs, cache_root)) as stage:
        atomic_write_text(stage / REPORT, json.dumps(report, indent=2, sort_keys=True) + "\n")
        atomic_write_text(stage / CARD, json.dumps(card(detector, model), indent=2, sort_keys=True) + "\n")
        model.save(stage)  # its checksums cover calibration.json and card.json
    for line in summary_lines(report, args.out):
        print(line)
    return 0


def card(base, model) -> dict:
    """card.json of the model written: what `detect --model` takes from it (its detector, and the
    conflict rule as the base model used it: on for the default model), and where it came from."""
    return {"name": "calibrated", "base_model": base.name, "detector": model.primary,
            "conflict_rule": bool(base.conflicts),
            "selection_rule": f"calibrated on labelled answers by `evidencechain calibrate` ({REPORT})",
            "learned_checker": base.card.get("learned_checker", "absent")}


def keep(summary: dict) -> tuple[str, str]:
    """'stacked' when its cross-validated answer F1 is higher than both thresholds-only's and the base
    model's as it is (the stacker must not get around the guard), else 'thresholds'."""
    st, th = summary["response_f1_stacked"]["mean"], summary["response_f1_after"]["mean"]
    base = summary.get("response_f1_before", {}).get("mean")
    rival, named = (base, "the base model as it is") if base is not None and base > th else (th, "thresholds only")
    if st > rival + 1e-9:
        return "stacked", f"kept: stacked: its cross-validated answer F1 {st:.3f} is higher than {named} {rival:.3f}"
    return "thresholds", (f"kept: thresholds only: the stacked model's cross-validated answer F1 {st:.3f} is not "
                          f"higher than {named} {rival:.3f}")


def _report(args, detector, data, corpus, estimate, summary, model, thresholds_detector) -> dict:
    from ..io import sha256_file
    from ..runinfo import code_commit

    return {"commit": code_commit(), "base_model": detector.name, "detector": detector.detector,
            "detector_after": model.primary, "detector_thresholds": thresholds_detector,
            "detector_fixed": bool(args.detector),
            "labelled": {"files": {Path(p).name: sha256_file(p) for p in
                                   (args.labelled, args.response_jsonl, args.source_info_jsonl) if p},
                         "answers": len(data.ids), "hallucinated": int(data.labels.sum()),
                         "answers_with_word_labels": len(data.word_known),
                         "with_spans": sum(bool(r.labels) for r in corpus.responses)},
            "folds": args.folds, "seed": args.seed, "objective": args.objective,
            "per_fold": estimate.per_fold, "summary": summary,
            "thresholds_before": detector.model.thresholds[detector.detector],
            "thresholds_after": model.thresholds[model.primary]}


def _cell(summary: dict | None) -> str:
    if not summary or not summary["folds"]:
        return "n/a"
    return f"{summary['mean']:.3f} ± {summary['sd']:.3f}"


def summary_lines(report: dict, out) -> list[str]:
    """What `calibrate` prints: the labels, the cross-validated estimate (before, thresholds only
    and, when estimated, stacked), what the guard kept and why, which of thresholds only and
    stacked is kept and why, the thresholds, the model."""
    lab, s, st = report["labelled"], report["summary"], report["stacker"]
    stacked = st["estimated"]
    head = f"  {'':12} {'before':>20} {'thresholds only':>20}" + (f" {'stacked':>20}" if stacked else "")
    lines = [f"labelled: {lab['answers']} answers ({lab['hallucinated']} hallucinated, "
             f"{lab['answers'] - lab['hallucinated']} supported; {lab['with_spans']} with spans, "
             f"{lab['answers_with_word_labels']} with word labels); base model {report['base_model']}",
             f"cross-validated estimate ({report['folds']} folds by context, seed {report['seed']}; "
             f"mean ± sd over folds):", head,
             f"  {'detector':12} {report['detector']:>20} {report['detector_thresholds']:>20}"
             + (f" {'Stacked':>20}" if stacked else "") + "   "
             + ("(given by --detector)" if report["detector_fixed"] else "(chosen on each fold's training answers)")]
    for level in ("response", "span"):
        lines.append(f"  {level + ' F1':12} {_cell(s[f'{level}_f1_before']):>20} {_cell(s[f'{level}_f1_after']):>20}"
                     + (f" {_cell(s.get(f'{level}_f1_stacked')):>20}" if stacked else ""))
    if not s["span_f1_after"]["folds"]:
        lines.append("  span F1 n/a: no labelled spans (word and sentence thresholds kept from the base model)")
    if stacked:
        lines.append("  stacked: a logistic regression over the calibrated model's answer signals, fitted with "
                     "its threshold on each fold's training answers; spans from the thresholds-only detector")
    lines.append(f"  thresholds only: the base model kept in {report['guard']['folds_base_kept']} of "
                 f"{len(report['per_fold'])} folds by the guard")
    lines.append(report["guard"]["why"])
    lines.append(st["why"])
    before, after = report["thresholds_before"], report["thresholds_after"]
    written = "model (the base model, kept by the guard)" if report["guard"]["kept"] == "base" else "calibrated model"
    lines.append(f"{written}: detector {report['detector_after']}, thresholds " + ", ".join(
        f"{k} {after[k]:.4g}" for k in ("response", "sentence", "word") if k in after)
        + f" (base {report['detector']}: " + ", ".join(
        f"{k} {before[k]:.4g}" for k in ("response", "sentence", "word") if k in before) + ")")
    if st["model"]:
        lines.append(f"  stacker inputs: {', '.join(st['model']['inputs'])}; spans from {st['model']['spans_from']}")
    lines.append(f"model written to {out} (evidencechain detect INPUT --model {out})")
    return lines
