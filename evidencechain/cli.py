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

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

DESCRIPTION = """Offline word-level hallucination detection and evidence attribution for RAG answers.

commands: data check, data audit, data planted, run, checker train, detect, report
(stage timings: python -m evidencechain.bench, or make bench)"""
MODEL_HELP = """a run's model directory (RUN_DIR/model). It holds a Python pickle: loading it runs
code, so use only models from a trusted source (checksums in model.json detect damage and
edits after saving, not a malicious author)"""
OPTIONAL_MODULES = {"torch": "neural", "transformers": "neural", "sentence_transformers": "neural",
                    "docx": "report", "nbclient": "notebooks", "nbformat": "notebooks"}
DETECT_DESCRIPTION = """Check answers against their evidence: which words are unsupported, and which
evidence passage each sentence rests on.

  evidencechain detect my.jsonl --html report.html     one JSON record per answer on stdout
  evidencechain detect my.csv --format pretty          a coloured view in the terminal
  cat my.jsonl | evidencechain detect - --out results.jsonl
  evidencechain detect --response-jsonl R --source-info-jsonl S   RAGTruth-format files
  evidencechain detect big.jsonl.gz --out-dir DIR --engine dask --workers 2
                                  a large log: partition files + DIR/manifest.json, resumable

INPUT records: context (a string or a list of passages), optional question, answer, optional id.
Without --model the default model is used; it is built on first use (about 30 s) and cached."""
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
                             limit=args.limit)
    inputs = (args.config, *config.input_paths, config.cache_dir or None)
    check_output_dir(args.out or config.output_dir, inputs)
    out = run(config, args.out, progress=not args.quiet)
    print(f"results written to {out}")
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


def _checker_train(args: argparse.Namespace) -> int:
    from .checker.config import load_checker_config
    from .checker.pipeline import read_card, train_checker

    config = load_checker_config(args.config)
    if args.seed is not None:
        config.seed = args.seed
    out, trained = train_checker(config, args.out, progress=not args.quiet, force=args.force)
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


def _report(args: argparse.Namespace) -> int:
    from .report import STEPS, build_benchmark_report, build_report

    for run_dir in args.benchmark or ():
        build_benchmark_report(run_dir, args.tables, args.figures)
    if args.benchmark:
        return 0
    build_report(args.run, args.tables, args.figures, args.paper, args.template, args.halueval,
                 args.readme, args.only or STEPS)
    return 0


def _integer(low: int, high: int | None = None, what: str = "an integer"):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{text} is out of range: expected {what}")
        return value
    return parse


POSITIVE = _integer(1, what="a positive integer")
SEED = _integer(0, 2**32 - 1, what="an integer from 0 to 4294967295")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="evidencechain", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="log progress details; show tracebacks of errors")
    sub = parser.add_subparsers(dest="command", required=True)

    data = sub.add_parser("data", help="check RAGTruth-format files, generate the audit corpus")
    data_sub = data.add_subparsers(dest="data_command", required=True)
    check = data_sub.add_parser("check", help="validate files and print their statistics")
    check.add_argument("--response-jsonl", help="RAGTruth-format answers (with --source-info-jsonl)")
    check.add_argument("--source-info-jsonl")
    check.add_argument("--plain", metavar="FILE", help="a plain JSONL/CSV file of {context, question, answer}")
    check.set_defaults(func=_data_check)
    audit = data_sub.add_parser("audit", help="generate the seeded audit corpus")
    audit.add_argument("--seed", type=SEED, default=17)
    audit.add_argument("--scale", type=POSITIVE, default=1, help="multiply the number of sources (>= 1)")
    audit.add_argument("--out", default="data/audit",
                       help="corpus directory; replaced only if absent, empty or an earlier corpus")
    audit.set_defaults(func=_data_audit)
    planted = data_sub.add_parser("planted", help="write the 'planted' corpus: real passages with planted meaning "
                                                  "errors (polarity, antonym, roles, quantity, recombination, "
                                                  "modality) as conflict spans")
    planted.add_argument("--seed", type=SEED, default=17)
    planted.add_argument("--out", default="data/planted", help="output directory (RAGTruth format)")
    planted.set_defaults(func=_data_planted)

    run = sub.add_parser("run", help="run an experiment from a TOML config")
    run.add_argument("--config", default="experiments/audit.toml")
    run.add_argument("--out", help="output directory (overrides the config's output_dir); replaced only "
                                   "if absent, empty or an earlier evidencechain output")
    run.add_argument("--response-jsonl", help="train/evaluate on these RAGTruth files instead")
    run.add_argument("--source-info-jsonl")
    run.add_argument("--test-response-jsonl", help="evaluate on a second corpus (cross-corpus)")
    run.add_argument("--test-source-info-jsonl")
    run.add_argument("--seed", type=SEED, help="override the config's seed")
    run.add_argument("--limit", type=POSITIVE, help="HaluEval: records per subset (quick runs)")
    run.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    run.set_defaults(func=_run)

    checker = sub.add_parser("checker", help="train the learned support checker (MiniLM, the neural extra)")
    checker_sub = checker.add_subparsers(dest="checker_command", required=True)
    train = checker_sub.add_parser("train", help="build the training pairs and train (cached by input hash)")
    train.add_argument("--config", default="experiments/checker.toml")
    train.add_argument("--out", help="model directory (overrides the config's output_dir)")
    train.add_argument("--seed", type=SEED, help="override the config's seed")
    train.add_argument("--force", action="store_true", help="train even when the model is up to date")
    train.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    train.set_defaults(func=_checker_train)

    detect = sub.add_parser(
        "detect", help="check answers against their evidence: spans, verdicts, evidence (JSONL, HTML)",
        description=DETECT_DESCRIPTION + "\n\n--model takes " + MODEL_HELP + ".",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    detect.add_argument("input", nargs="?", metavar="INPUT",
                        help="a JSONL or CSV file of {context, question, answer, id} records, or - for stdin")
    detect.add_argument("--response-jsonl", help="instead of INPUT: RAGTruth-format answers")
    detect.add_argument("--source-info-jsonl", help="with --response-jsonl: their sources")
    detect.add_argument("--model", help="a fitted model directory (default: the default model, built on "
                                        "first use and cached). " + MODEL_HELP)
    detect.add_argument("--detector", help="report this detector of the model instead of its chosen one")
    detect.add_argument("--out", help="write the records to this file instead of standard output (an "
                                      "existing file is kept unless --force); with --response-jsonl, an "
                                      "--out not ending in .jsonl is the 0.1 directory of CSV tables")
    detect.add_argument("--html", metavar="FILE", help="also write a self-contained HTML report")
    detect.add_argument("--tables", metavar="DIR", help="also write the CSV tables of every detector")
    detect.add_argument("--format", choices=["jsonl", "pretty", "parquet"],
                        help="jsonl (default), pretty (terminal) or, with --out-dir, parquet")
    detect.add_argument("--color", choices=["auto", "always", "never"], default="auto",
                        help="colour in --format pretty (auto: on a terminal, unless NO_COLOR is set)")
    detect.add_argument("--input-format", choices=["auto", "jsonl", "csv"], default="auto",
                        help="format of INPUT (auto: by its suffix; stdin: jsonl unless csv)")
    detect.add_argument("--force", action="store_true", help="replace existing --out / --html files (with "
                                                             "--out-dir: start over when DIR holds another run)")
    detect.add_argument("--batch-size", type=POSITIVE, default=64, help="answers scored together (64)")
    detect.add_argument("--device", default="cpu", help="cpu, cuda or auto: where neural parts run "
                                                        "(the default model has none)")
    detect.add_argument("--cache-dir", help="cache directory (default: $EVIDENCECHAIN_CACHE_DIR, else "
                                            "$XDG_CACHE_HOME/evidencechain, else ~/.cache/evidencechain)")
    detect.add_argument("--no-cache", action="store_true", help="do not keep parses in the cache")
    detect.add_argument("-q", "--quiet", action="store_true", help="no progress and no summary on stderr")
    large = detect.add_argument_group(
        "large logs", "--out-dir DIR streams: the input (a file, or RAGTruth pairs) is checked, then read in "
        "partitions, never whole; each partition is written to DIR as part-NNNNNN.jsonl (or .parquet) "
        "and recorded with its sha256 in DIR/manifest.json. Run the same command again to resume: "
        "finished partitions are kept. Without --out-dir, detect reads the input whole, as above. "
        "--engine, --partition-size, --workers and --scheduler need --out-dir")
    large.add_argument("--out-dir", metavar="DIR", help="stream into this directory (absent, empty, or "
                                                       "an earlier run's, which is resumed)")
    large.add_argument("--partition-size", type=POSITIVE, metavar="N", help="answers per partition (1000)")
    large.add_argument("--engine", choices=["local", "dask"],
                       help="local (this process; default) or dask (pip install 'evidencechain[scale]')")
    large.add_argument("--workers", type=POSITIVE, metavar="N",
                       help="--engine dask: a local cluster of N single-threaded worker processes "
                            "(default: one per CPU core)")
    large.add_argument("--scheduler", metavar="ADDRESS",
                       help="--engine dask: use this running cluster instead (e.g. tcp://host:8786)")
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
    report.add_argument("--benchmark", action="append", metavar="RUN_DIR",
                        help="instead: the benchmark tables (beside published rows) and figures of this "
                             "run (ragtruth_qa, summedits, cliff, halueval, transfer; others get a generic "
                             "table); repeatable")
    report.set_defaults(func=_report)
    return parser


def _is_expected(exc: BaseException) -> bool:
    from .errors import EvidenceChainError

    if isinstance(exc, EvidenceChainError):
        return True
    if isinstance(exc, ModuleNotFoundError):
        return (exc.name or "").split(".")[0] in OPTIONAL_MODULES
    if any(cls.__name__ == "NeuralUnavailable" for cls in type(exc).__mro__):
        return True
    return isinstance(exc, OSError) and exc.filename is not None


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
        print(f"error: {_message(exc)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
