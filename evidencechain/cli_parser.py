"""The command line's grammar: every command, option, help text and example (from cli_help.toml).

Kept apart from `cli` (which runs the commands) so that the README's command reference can be
rendered from it without importing what the commands use.
"""
from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping

DESCRIPTION = """Offline word-level hallucination detection and evidence attribution for RAG answers.
`evidencechain COMMAND --help` describes each command, with examples.
(stage timings: python -m evidencechain.bench, or make bench)"""
MODEL_TRUST = """--model DIR: a model directory (RUN_DIR/model) holds model.skops and model.json. Loading it
runs no code from the files: model.skops is read with a fixed list of trusted types after its sha256
in model.json is checked; an old pickled model (model.pkl) is refused (refit it with `evidencechain run`)."""

def integer_type(low: int, high: int | None = None, what: str = "an integer"):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{text} is out of range: expected {what}")
        return value
    return parse


POSITIVE = integer_type(1, what="a positive integer")
SEED = integer_type(0, 2**32 - 1, what="an integer from 0 to 4294967295")


def command_help() -> dict[str, dict]:
    """Each command's help line, description and examples (cli_help.toml)."""
    import tomllib
    from importlib import resources

    return tomllib.loads(resources.files("evidencechain").joinpath("cli_help.toml").read_text("utf-8"))


def _command(sub, name: str, texts: dict, description_tail: str = "") -> argparse.ArgumentParser:
    """A subcommand whose --help gives its description and, as the epilog, its examples."""
    text = texts[name]
    epilog = "examples:\n" + "\n".join(f"  {line}" for line in text["examples"])
    return sub.add_parser(name.split()[-1], help=text["help"], description=text["description"] + description_tail,
                          epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)


def build_parser(handlers: Mapping[str, Callable] | None = None) -> argparse.ArgumentParser:
    """Every command and option; `handlers` (command -> function, as `cli.HANDLERS`) binds each command."""
    from .data.benchmarks import benchmarks, extra_runs

    handlers = handlers or {}
    texts = command_help()
    parser = argparse.ArgumentParser(prog="evidencechain", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="log progress details; show tracebacks of errors")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    data = _command(sub, "data", texts)
    data_sub = data.add_subparsers(dest="data_command", required=True, metavar="COMMAND")
    check = _command(data_sub, "data check", texts)
    check.add_argument("--response-jsonl", metavar="FILE", help="RAGTruth-format answers (with --source-info-jsonl)")
    check.add_argument("--source-info-jsonl", metavar="FILE", help="their sources (with --response-jsonl)")
    check.add_argument("--plain", metavar="FILE", help="instead: a plain JSONL/CSV file of {context, question, "
                                                       "answer} records, as `detect` reads")
    check.set_defaults(func=handlers.get('data check'))
    audit = _command(data_sub, "data audit", texts)
    audit.add_argument("--seed", type=SEED, default=17, help="the corpus seed (default 17)")
    audit.add_argument("--scale", type=POSITIVE, default=1, help="multiply the number of sources (default 1)")
    audit.add_argument("--out", default="data/audit", metavar="DIR",
                       help="corpus directory (default data/audit); replaced only if absent, empty or an "
                            "earlier corpus")
    audit.set_defaults(func=handlers.get('data audit'))
    listing = _command(data_sub, "data benchmarks", texts)
    listing.set_defaults(func=handlers.get('data benchmarks'))
    planted = _command(data_sub, "data planted", texts)
    planted.add_argument("--seed", type=SEED, default=17, help="the corpus seed (default 17)")
    planted.add_argument("--out", default="data/planted", metavar="DIR",
                         help="corpus directory in RAGTruth format (default data/planted); replaced only if absent, "
                              "empty or an earlier corpus")
    planted.set_defaults(func=handlers.get('data planted'))

    run = _command(sub, "run", texts)
    run.add_argument("--config", default="experiments/audit.toml", metavar="TOML",
                     help="the experiment's config (default experiments/audit.toml)")
    run.add_argument("--out", metavar="DIR", help="output directory (default: the config's output_dir); replaced "
                                                  "only if absent, empty or an earlier evidencechain output")
    run.add_argument("--response-jsonl", metavar="FILE",
                     help="fit and evaluate on these RAGTruth-format answers instead of the config's corpus")
    run.add_argument("--source-info-jsonl", metavar="FILE", help="their sources (with --response-jsonl)")
    run.add_argument("--test-response-jsonl", metavar="FILE",
                     help="also score every answer of these files once (cross-corpus)")
    run.add_argument("--test-source-info-jsonl", metavar="FILE", help="their sources (with --test-response-jsonl)")
    run.add_argument("--seed", type=SEED, help="override the config's seed (one seed for every random choice)")
    run.add_argument("--limit", type=POSITIVE, metavar="N", help="HaluEval: records per subset (quick runs)")
    run.add_argument("--checker", metavar="DIR",
                     help="use this trained checker directory instead of the config's [features] checker "
                          "(e.g. results/checker_gpu); absent, the checker's rows are skipped as with the key")
    run.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    run.set_defaults(func=handlers.get('run'))

    checker = _command(sub, "checker", texts)
    checker_sub = checker.add_subparsers(dest="checker_command", required=True, metavar="COMMAND")
    train = _command(checker_sub, "checker train", texts)
    train.add_argument("--config", default="experiments/checker.toml", metavar="TOML",
                       help="the training config (default experiments/checker.toml)")
    train.add_argument("--out", metavar="DIR", help="model directory (default: the config's output_dir)")
    train.add_argument("--seed", type=SEED, help="override the config's seed")
    train.add_argument("--force", action="store_true", help="train even when the model is up to date")
    train.add_argument("-q", "--quiet", action="store_true", help="no progress bars")
    train.add_argument("--pairs", metavar="FILE", help="train on the pairs `checker pairs` wrote (e.g. built here, "
                                                       "trained on a GPU machine) instead of building them")
    train.set_defaults(func=handlers.get('checker train'))
    pairs = _command(checker_sub, "checker pairs", texts)
    pairs.add_argument("--config", default="experiments/checker.toml", metavar="TOML",
                       help="the training config (default experiments/checker.toml)")
    pairs.add_argument("--out", required=True, metavar="FILE",
                       help="JSON Lines file of the pairs (.gz or .xz compresses); an existing file is kept "
                            "unless --force")
    pairs.add_argument("--seed", type=SEED, help="override the config's seed")
    pairs.add_argument("--force", action="store_true", help="overwrite an existing --out")
    pairs.set_defaults(func=handlers.get('checker pairs'))

    detect = _command(sub, "detect", texts, "\n\n" + MODEL_TRUST)
    detect.add_argument("input", nargs="?", metavar="INPUT",
                        help="a JSONL (.jsonl, .ndjson, .json) or CSV file of {context, question, answer, id} "
                             "records, optionally .gz, or - for standard input")
    detect.add_argument("--response-jsonl", metavar="FILE", help="instead of INPUT: RAGTruth-format answers")
    detect.add_argument("--source-info-jsonl", metavar="FILE", help="with --response-jsonl: their sources")
    detect.add_argument("--model", metavar="DIR", help="a fitted model directory, e.g. results/audit/model "
                                                       "(default: the default model, built on first use and "
                                                       "cached); see the trust note above")
    detect.add_argument("--detector", metavar="NAME",
                        help="report this detector of the model instead of its chosen one (e.g. BM25)")
    detect.add_argument("--conflict-rule", choices=["on", "off"],
                        help="on: also flag, by rule (level 'rule'), the words of confident semantic error "
                             "signals (negation, antonym, roles, quantity, recombination, modality) "
                             "whatever the detector says (default: as the model's card says; on for the "
                             "default model)")
    detect.add_argument("--out", metavar="FILE",
                        help="write the records to this file instead of standard output (an existing file is "
                             "kept unless --force); with --response-jsonl and no --format, --html or --tables, "
                             "an --out not ending in .jsonl is a directory of CSV tables, as --tables writes "
                             "(deprecated, removed on 2027-06-01: use --tables DIR)")
    detect.add_argument("--html", metavar="FILE", help="also write a self-contained HTML report")
    detect.add_argument("--tables", metavar="DIR", help="also write the CSV tables (sentences, tokens, "
                                                        "responses) of every detector of the model")
    detect.add_argument("--format", choices=["jsonl", "pretty", "parquet"],
                        help="jsonl (default), pretty (terminal) or, with --out-dir, parquet")
    detect.add_argument("--color", choices=["auto", "always", "never"], default="auto",
                        help="colour in --format pretty (default auto: on a terminal, unless NO_COLOR is set)")
    detect.add_argument("--input-format", choices=["auto", "jsonl", "csv"], default="auto",
                        help="format of INPUT (default auto: by its name; stdin: jsonl)")
    detect.add_argument("--force", action="store_true", help="replace existing --out / --html files (with "
                                                             "--out-dir: start over when DIR holds another run)")
    detect.add_argument("--batch-size", type=POSITIVE, default=64, metavar="N",
                        help="answers scored together (default 64)")
    detect.add_argument("--device", default="cpu", help="cpu (default), cuda or auto: where neural parts run "
                                                        "(the default model has none)")
    detect.add_argument("--cache-dir", metavar="DIR",
                        help="cache directory (default: $EVIDENCECHAIN_CACHE_DIR, else "
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
    large.add_argument("--partition-size", type=POSITIVE, metavar="N", help="answers per partition (default 1000)")
    large.add_argument("--engine", choices=["local", "dask"],
                       help="local (this process; default) or dask (pip install 'evidencechain[scale]')")
    large.add_argument("--workers", type=POSITIVE, metavar="N",
                       help="--engine dask: a local cluster of N single-threaded worker processes "
                            "(default: one per CPU core)")
    large.add_argument("--scheduler", metavar="ADDRESS",
                       help="--engine dask: use this running cluster instead (e.g. tcp://host:8786)")
    detect.set_defaults(func=handlers.get('detect'))

    calibrate = _command(sub, "calibrate", texts, "\n\n" + MODEL_TRUST)
    calibrate.add_argument("labelled", nargs="?", metavar="LABELLED",
                           help="a JSONL or CSV file of {context, question, answer, hallucinated, spans} records")
    calibrate.add_argument("--response-jsonl", metavar="FILE",
                           help="instead of LABELLED: RAGTruth-format answers (their spans are the labels)")
    calibrate.add_argument("--source-info-jsonl", metavar="FILE", help="with --response-jsonl: their sources")
    calibrate.add_argument("--out", required=True, metavar="MODEL_DIR",
                           help="the calibrated model directory (absent, empty, or an earlier evidencechain "
                                "output; never a directory of other files)")
    calibrate.add_argument("--model", metavar="BASE_MODEL_DIR",
                           help="the model to calibrate (default: the default model); see the trust note above")
    calibrate.add_argument("--detector", metavar="NAME",
                           help="report this detector of the model after calibration (default: the one with the "
                                "best cross-validated verdict F1 on your answers)")
    calibrate.add_argument("--folds", type=POSITIVE, default=5, help="cross-validation folds (default 5; at least 2)")
    calibrate.add_argument("--objective", choices=("joint", "answer"), default="joint",
                           help="with labelled spans, choose thresholds and the detector for the mean of answer F1 "
                                "and span F1, as the default model does (joint, default), or for answer F1 alone")
    calibrate.add_argument("--always-calibrate", action="store_true",
                           help="keep the calibrated thresholds and detector even when they do not beat the base "
                                "model on inner folds of your answers (by default the base model is kept, "
                                "unchanged, unless the whole calibration, run on the other inner folds only, "
                                "scores more than 0.01 higher on average)")
    calibrate.add_argument("--seed", type=SEED, default=17, help="seed of the fold split (default 17)")
    calibrate.add_argument("--stack-min", type=POSITIVE, default=30, metavar="N",
                           help="fit and estimate a stacker (a logistic regression over the model's answer "
                                "signals) when there are at least N hallucinated and N supported answers "
                                "(default 30); kept only when its cross-validated answer F1 is higher")
    calibrate.add_argument("--no-stack", action="store_true", help="thresholds only: never fit a stacker")
    calibrate.add_argument("--cache-dir", metavar="DIR",
                           help="cache directory of the default model and the parses (as detect)")
    calibrate.add_argument("--no-cache", action="store_true", help="do not keep parses in the cache")
    calibrate.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    calibrate.set_defaults(func=handlers.get('calibrate'))

    report = _command(sub, "report", texts)
    report.add_argument("--run", default="results/audit", metavar="DIR",
                        help="run directory with run.json (default results/audit)")
    report.add_argument("--halueval", metavar="DIR", dest="section_run", help="HaluEval run directory (default results/halueval)")
    report.add_argument("--tables", default="paper/tables", metavar="DIR",
                        help="where tables are written and read (default paper/tables)")
    report.add_argument("--figures", default="figures", metavar="DIR", help="where figures go (default figures)")
    report.add_argument("--paper", default="paper", metavar="DIR", help="manuscript directory (default paper)")
    report.add_argument("--template", metavar="FILE", help="manuscript template (default PAPER/template.md)")
    report.add_argument("--readme", metavar="FILE",
                        help="regenerate this README's generated blocks (make tables: README.md)")
    report.add_argument("--only", action="append", choices=["tables", "figures", "paper", "readme"],
                        help="build only this step (repeatable; default tables, figures and paper); "
                             "readme: only the README blocks that need no run (with --readme)")
    report.add_argument("--benchmark", action="append", metavar="RUN_DIR",
                        help="instead: the benchmark tables (beside published rows) and figures of this "
                             f"run ({', '.join([*benchmarks(), *extra_runs()])}; others get a generic "
                             "table); repeatable")
    report.set_defaults(func=handlers.get('report'))
    return parser
