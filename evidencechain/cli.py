"""Command-line interface: `evidencechain data ...`, `run`, `detect`, `report`, `bench`."""
from __future__ import annotations

import argparse
import logging
import os
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def _data_check(args: argparse.Namespace) -> int:
    from .data.check import check_files

    report = check_files(args.response_jsonl, args.source_info_jsonl)
    print(report.text)
    return 0 if report.ok else 1


def _data_audit(args: argparse.Namespace) -> int:
    from .data.audit import write_audit_corpus

    paths = write_audit_corpus(args.out, seed=args.seed, scale=args.scale)
    for p in paths:
        print(p)
    return 0


def _run(args: argparse.Namespace) -> int:
    from .config import load_config
    from .experiment import run_experiment

    config = load_config(args.config)
    if args.response_jsonl or args.source_info_jsonl:
        if not (args.response_jsonl and args.source_info_jsonl):
            raise SystemExit("error: --response-jsonl and --source-info-jsonl go together")
        config.data.format = "ragtruth"
        config.data.response_jsonl, config.data.source_info_jsonl = args.response_jsonl, args.source_info_jsonl
    if args.test_response_jsonl or args.test_source_info_jsonl:
        if not (args.test_response_jsonl and args.test_source_info_jsonl):
            raise SystemExit("error: --test-response-jsonl and --test-source-info-jsonl go together")
        config.data.test_response_jsonl = args.test_response_jsonl
        config.data.test_source_info_jsonl = args.test_source_info_jsonl
    if args.seed is not None:
        config.seed = args.seed
    if args.limit is not None:
        config.data.limit = args.limit
    if config.data.format == "halueval":
        from .halueval_experiment import run_halueval

        out = run_halueval(config, args.out, progress=not args.quiet)
        print(f"results written to {out}")
        return 0
    out = run_experiment(config, args.out, progress=not args.quiet)
    print(f"results written to {out}")
    return 0


def _detect(args: argparse.Namespace) -> int:
    from .data.ragtruth import load_ragtruth
    from .detect import detect_files

    corpus = load_ragtruth(args.response_jsonl, args.source_info_jsonl, quality=None)
    for path in detect_files(args.model, corpus, args.out, progress=not args.quiet):
        print(path)
    return 0


def _report(args: argparse.Namespace) -> int:
    from .report import STEPS, MissingResultError, TemplateError, build_report

    try:
        build_report(args.run, args.tables, args.figures, args.paper, args.template, args.halueval,
                     args.readme, args.only or STEPS)
    except (MissingResultError, TemplateError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="evidencechain", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    sub = parser.add_subparsers(dest="command", required=True)

    data = sub.add_parser("data", help="check RAGTruth-format files, generate the audit corpus")
    data_sub = data.add_subparsers(dest="data_command", required=True)
    check = data_sub.add_parser("check", help="validate files and print their statistics")
    check.add_argument("--response-jsonl", required=True)
    check.add_argument("--source-info-jsonl", required=True)
    check.set_defaults(func=_data_check)
    audit = data_sub.add_parser("audit", help="generate the seeded audit corpus")
    audit.add_argument("--seed", type=int, default=17)
    audit.add_argument("--scale", type=int, default=1, help="multiply the number of sources")
    audit.add_argument("--out", default="data/audit")
    audit.set_defaults(func=_data_audit)

    run = sub.add_parser("run", help="run an experiment from a TOML config")
    run.add_argument("--config", default="experiments/audit.toml")
    run.add_argument("--out", help="output directory (overrides the config's output_dir)")
    run.add_argument("--response-jsonl", help="train/evaluate on these RAGTruth files instead")
    run.add_argument("--source-info-jsonl")
    run.add_argument("--test-response-jsonl", help="evaluate on a second corpus (cross-corpus)")
    run.add_argument("--test-source-info-jsonl")
    run.add_argument("--seed", type=int, help="override the config's seed")
    run.add_argument("--limit", type=int, help="HaluEval: records per subset (quick runs)")
    run.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    run.set_defaults(func=_run)

    detect = sub.add_parser("detect", help="score RAGTruth-format files with a fitted model")
    detect.add_argument("--model", required=True, help="a run's model directory (RUN_DIR/model)")
    detect.add_argument("--response-jsonl", required=True)
    detect.add_argument("--source-info-jsonl", required=True)
    detect.add_argument("--out", required=True, help="directory for the scored tables")
    detect.add_argument("-q", "--quiet", action="store_true")
    detect.set_defaults(func=_detect)

    report = sub.add_parser("report", help="tables, figures and manuscript from a run's saved CSVs")
    report.add_argument("--run", default="results/audit", help="run directory (with run.json)")
    report.add_argument("--halueval", help="HaluEval run directory (default results/halueval)")
    report.add_argument("--tables", default="paper/tables")
    report.add_argument("--figures", default="figures")
    report.add_argument("--paper", default="paper", help="manuscript directory")
    report.add_argument("--template", help="manuscript template (default PAPER/template.md)")
    report.add_argument("--readme", help="rewrite this README's generated results block (make: README.md)")
    report.add_argument("--only", action="append", choices=["tables", "figures", "paper"],
                        help="build only this step (repeatable)")
    report.set_defaults(func=_report)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    from .config import ConfigError
    from .data.ragtruth import DataValidationError

    try:
        return args.func(args)
    except (DataValidationError, ConfigError, FileNotFoundError) as exc:
        if args.verbose:
            raise
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted; completed outputs are intact", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
