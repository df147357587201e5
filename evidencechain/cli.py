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
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    from .data.ragtruth import DataValidationError

    try:
        return args.func(args)
    except DataValidationError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted; completed outputs are intact", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
