"""Command-line interface: `evidencechain data check|audit`, `run`, `detect`, `report`.

Expected failures (bad input, unsafe output path, damaged model or run directory, missing
optional dependency) print one `error: ...` line and exit 2; Ctrl-C exits 130; `-v` shows
tracebacks. Only heavy-free modules are imported here: everything else loads inside `main`.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import traceback
from pathlib import Path

from . import cli_parser

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

OPTIONAL_MODULES = {"torch": "neural", "transformers": "neural", "sentence_transformers": "neural",
                    "docx": "report", "nbclient": "notebooks", "nbformat": "notebooks"}
BUG_HINT = ("evidencechain: unexpected internal error (a bug); please report it with the "
            "command line and this traceback:")


def _data_check(args: argparse.Namespace) -> int:
    from .data.check import check_files, check_plain
    from .errors import ConfigError

    if args.plain:
        if args.response_jsonl or args.source_info_jsonl:
            raise ConfigError("data check: give either --plain FILE or --response-jsonl and --source-info-jsonl")
        report = check_plain(args.plain)
    elif args.response_jsonl and args.source_info_jsonl:
        report = check_files(args.response_jsonl, args.source_info_jsonl)
    else:
        raise ConfigError("data check: give --plain FILE, or --response-jsonl and --source-info-jsonl together")
    print(report.text)
    return 0 if report.ok else 1


def _data_audit(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .data.audit import write_audit_corpus
    from .io import staged_directory

    with staged_directory(args.out) as stage:
        names = [p.name for p in write_audit_corpus(stage, seed=args.seed, scale=args.scale)]
    for name in names:
        print(Path(args.out) / name)
    return 0


def _data_benchmarks(args: argparse.Namespace) -> int:
    from .data.benchmarks import benchmarks, extra_runs, formats

    for b in benchmarks().values():
        print(f"benchmark {b.name}: {b.title}; experiments/{b.name}.toml, make {b.name.replace('_', '-')}, "
              f"format {b.format}, report section {b.section}")
    for name in extra_runs():
        print(f"run {name}: experiments/{name}.toml, make {name.replace('_', '-')}")
    for f in formats().values():
        print(f"format {f.name}" + (f": subsets {', '.join(f.subsets)}" if f.subsets else ""))
    return 0


def _data_planted(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .data.planted.corpus import generate_planted_corpus
    from .data.ragtruth import write_ragtruth
    from .io import staged_directory

    with staged_directory(args.out) as stage:
        names = [p.name for p in write_ragtruth(generate_planted_corpus(args.seed), stage)]
    for name in names:
        print(Path(args.out) / name)
    return 0


def _run(args: argparse.Namespace) -> int:
    from .config import apply_overrides, load_config
    from .io import check_output_dir
    from .runner import run

    config = apply_overrides(load_config(args.config), response_jsonl=args.response_jsonl,
                             source_info_jsonl=args.source_info_jsonl,
                             test_response_jsonl=args.test_response_jsonl,
                             test_source_info_jsonl=args.test_source_info_jsonl, seed=args.seed,
                             limit=args.limit, checker=args.checker)
    inputs = (args.config, *config.input_paths, config.cache_dir or None)
    check_output_dir(args.out or config.output_dir, inputs)
    out = run(config, args.out, progress=not args.quiet)
    print(f"results written to {out} (config {args.config})")
    for line in _corpus_lines(Path(out) / "run.json"):
        print(line)
    return 0


def _corpus_lines(run_json) -> list[str]:
    """What each corpus contributed and what loading removed or kept with a verdict."""
    corpora = json.loads(run_json.read_text("utf-8")).get("corpora", {})
    lines = []
    for name, c in corpora.items():
        removed = ", ".join(f"{k}: {v}" for k, v in c.get("filtered", {}).items()) or "nothing"
        lines.append(f"  {name}: {c['responses']} answers kept ({c.get('splits')}); removed: {removed}; "
                     f"empty answers kept with verdict 'nothing to check': {c.get('empty_answers_kept', 0)}")
    return lines


def _checker_pairs(args: argparse.Namespace) -> int:
    from .checker.config import load_checker_config
    from .checker.pipeline import build_training_data, write_pairs
    from .checker.records import describe
    from .errors import InputError

    out = Path(args.out)
    if out.exists() and not args.force:
        raise InputError(f"{out}: exists; pass --force to overwrite it")
    config = load_checker_config(args.config)
    if args.seed is not None:
        config.seed = args.seed
    train, validation = build_training_data(config)
    write_pairs(out, train, validation)
    mix = describe(train + validation).groupby("source")["pairs"].sum()
    print(f"checker pairs: {len(train)} training and {len(validation)} validation pairs into {out}")
    print("  by source: " + ", ".join(f"{k} {v}" for k, v in mix.items()))
    return 0


def _checker_train(args: argparse.Namespace) -> int:
    from .checker.config import load_checker_config
    from .checker.pipeline import read_card, train_checker

    config = load_checker_config(args.config)
    if args.seed is not None:
        config.seed = args.seed
    out, trained = train_checker(config, args.out, progress=not args.quiet, force=args.force,
                                 pairs_file=args.pairs)
    card = read_card(out) or {}
    m = card.get("metrics", {})
    state = "trained" if trained else "up to date (same inputs hash; --force retrains)"
    print(f"checker {state}: {out}")
    print(f"  {card.get('pairs', {}).get('train')} training pairs; validation balanced accuracy "
          f"{m.get('validation_balanced_accuracy') or float('nan'):.3f}; device {m.get('device')}; "
          f"{m.get('wall_seconds', 0) / 60:.1f} min")
    return 0


def _detect(args: argparse.Namespace) -> int:
    from .detect.command import run_detect

    return run_detect(args)


def _calibrate(args: argparse.Namespace) -> int:
    from .detect.calibrate_command import run_calibrate

    return run_calibrate(args)


def _report(args: argparse.Namespace) -> int:
    from .report import STEPS, build_benchmark_report, build_report

    if args.only == ["readme"]:
        from .errors import ConfigError
        from .report.readme import update_blocks

        if not args.readme:
            raise ConfigError("report --only readme: give --readme FILE (e.g. README.md)")
        print(f"readme {args.readme}: blocks {', '.join(update_blocks(args.readme)) or 'none found'} "
              "regenerated where their sources exist")
        return 0
    for run_dir in args.benchmark or ():
        build_benchmark_report(run_dir, args.tables, args.figures)
    if args.benchmark:
        return 0
    build_report(args.run, args.tables, args.figures, args.paper, args.template, args.section_run,
                 args.readme, args.only or STEPS)
    return 0


HANDLERS = {"data check": _data_check, "data audit": _data_audit, "data benchmarks": _data_benchmarks,
            "data planted": _data_planted, "run": _run,
            "checker train": _checker_train, "checker pairs": _checker_pairs, "detect": _detect, "calibrate": _calibrate, "report": _report}


def build_parser():
    """The CLI's parser with each command bound to its handler."""
    return cli_parser.build_parser(HANDLERS)


def _is_expected(exc: BaseException) -> bool:
    from .errors import EvidenceChainError

    if isinstance(exc, EvidenceChainError):
        return True
    if isinstance(exc, ModuleNotFoundError):
        return (exc.name or "").split(".")[0] in OPTIONAL_MODULES
    if any(cls.__name__ == "NeuralUnavailable" for cls in type(exc).__mro__):
        return True
    return isinstance(exc, OSError) and exc.filename is not None


SHOWN_PROBLEMS = 20


def _data_lines(exc) -> list[str]:
    """A data error, one line per problem (the first SHOWN_PROBLEMS), each with what to do."""
    problems = exc.problems[:SHOWN_PROBLEMS]
    files = sorted({p.file for p in exc.problems})
    lines = [f"{exc.total} problem(s) in {', '.join(files) or 'the input data'}; nothing was written"]
    for p in problems:
        advice = p.advice()
        lines.append(" ".join(f"{p}{'; ' + advice if advice else ''}".split()))
    if exc.total > len(problems):
        check = " (`evidencechain data check` lists every problem)"
        lines.append(f"... and {exc.total - len(problems)} more{check}")
    return lines


def _message(exc: BaseException) -> str:
    """One line: what failed and where."""
    if isinstance(exc, ModuleNotFoundError):
        module = (exc.name or "").split(".")[0]
        return f"the optional package {module!r} is not installed (pip install -e '.[{OPTIONAL_MODULES[module]}]')"
    if isinstance(exc, OSError) and exc.filename is not None:
        target = str(exc.filename) + (f" -> {exc.filename2}" if exc.filename2 else "")
        return f"{target}: {exc.strerror or exc}"
    lines = [" ".join(line.split()) for line in str(exc).splitlines() if line.strip()]
    return "; ".join(lines) or type(exc).__name__


def main(argv: list[str] | None = None) -> int:
    """Run one command; the imports, model load and tables allocate mostly long-lived objects,
    so the garbage collector looks at new objects less often (`gc_threshold`)."""
    from .gc_threshold import fewer_collections

    with fewer_collections():
        return _main(argv)


def _main(argv: list[str] | None) -> int:
    verbose = bool({"-v", "--verbose"} & set(sys.argv[1:] if argv is None else argv))
    try:
        args = build_parser().parse_args(argv)
        verbose = args.verbose
        logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                            format="%(levelname)s %(name)s: %(message)s")
        return args.func(args)
    except KeyboardInterrupt:
        print("interrupted: no output was replaced (earlier outputs are intact)", file=sys.stderr)
        return 130
    except Exception as exc:
        if not _is_expected(exc):
            print(BUG_HINT, file=sys.stderr)
            raise
        if verbose:
            traceback.print_exc()
        lines = _data_lines(exc) if hasattr(exc, "problems") else [_message(exc)]
        for line in lines:
            print(f"error: {line}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
