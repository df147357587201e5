"""`evidencechain detect`: check answers in one command (arguments are defined in `cli.py`).

    evidencechain detect my.jsonl --html report.html          # JSONL to stdout, HTML report
    evidencechain detect my.csv --out results.jsonl --format pretty
    cat my.jsonl | evidencechain detect -
    evidencechain detect --response-jsonl R --source-info-jsonl S            # RAGTruth pairs
    evidencechain detect --model RUN/model --response-jsonl R --source-info-jsonl S --out DIR
    evidencechain detect big.jsonl.gz --out-dir DIR --engine dask --workers 2    # a large log

The tables form: with RAGTruth pairs, an `--out` that does not end in .jsonl (and no --format,
--html or --tables) names a directory of CSV tables, as `--tables` writes.
Every output path is checked before any work starts; inputs are validated as a whole before
the model is loaded (or built, on first use). `--out-dir DIR` switches to streaming (`stream`,
`engines`): the input is read in partitions (`--partition-size`), scored by `--engine local` or
`dask`, and written as one file per partition plus DIR/manifest.json; a rerun resumes.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from ..errors import ConfigError, OutputError


def legacy_tables(args) -> bool:
    """The tables form: RAGTruth pairs with --out DIR and none of --format, --html, --tables."""
    return bool(args.response_jsonl and args.out and not args.tables and args.format is None
                and not args.html and not str(args.out).endswith(".jsonl"))


def _check_inputs(args) -> tuple[str, ...]:
    pairs = args.response_jsonl or args.source_info_jsonl
    if args.input and pairs:
        raise ConfigError("detect: give either INPUT (a JSONL/CSV file, or - for stdin) or "
                          "--response-jsonl and --source-info-jsonl, not both")
    if pairs and not (args.response_jsonl and args.source_info_jsonl):
        raise ConfigError("detect: --response-jsonl and --source-info-jsonl go together")
    if not args.input and not pairs:
        raise ConfigError("detect: give INPUT (a JSONL or CSV file of {context, question, answer} "
                          "records, or - for stdin), or --response-jsonl and --source-info-jsonl")
    return tuple(str(p) for p in (args.input, args.response_jsonl, args.source_info_jsonl, args.model)
                 if p and str(p) != "-")


def run_detect(args) -> int:
    from ..io import check_cache_dir
    from .default import cache_dir

    inputs = _check_inputs(args)
    cache_root = check_cache_dir(args.cache_dir) if getattr(args, "cache_dir", None) else \
        check_cache_dir(cache_dir(), "EVIDENCECHAIN_CACHE_DIR (or --cache-dir)")
    if _streaming(args):
        return _run_stream(args, inputs, cache_root)
    if legacy_tables(args):
        return _tables(args, args.out, inputs, cache_root, print_paths=True)
    from .output import OutputFile, check_output_file

    outputs = [p for p in (args.out, args.html) if p]
    if args.out and args.html and os.path.abspath(args.out) == os.path.abspath(args.html):
        raise OutputError(f"--out and --html name the same file {args.out}")
    for path, what in ((args.out, "--out"), (args.html, "--html")):
        if path:
            check_output_file(path, args.force, inputs, what)
    if args.tables:
        from ..io import check_output_dir
        check_output_dir(args.tables, (*inputs, cache_root, *outputs))
    corpus = _read(args)
    detector = _detector(args, cache_root)
    out = OutputFile(args.out, args.force, inputs, "--out") if args.out else None
    html = None
    try:
        counts, seconds, report = _write(args, detector, corpus, out)
        if report is not None:  # both files are complete before either is moved into place
            html = OutputFile(args.html, args.force, inputs, "--html")
            html.write(report.render(_shown(args)))
        for file in (out, html):
            if file is not None:
                file.commit()
    except BrokenPipeError:  # the reader of stdout went away (`| head`): stop quietly
        _silence_stdout()
        return 0
    finally:
        for file in (out, html):
            if file is not None:
                file.discard()
        detector.close()
    if args.tables:
        _tables(args, args.tables, inputs, cache_root, print_paths=False, model_dir=_model_dir(detector),
                corpus=corpus)
    if not args.quiet:
        from .output import summary_line
        print(summary_line(counts, detector.detector, detector.name, seconds), file=sys.stderr)
        for path in (args.out, args.html, args.tables):
            if path:
                print(f"evidencechain: wrote {path}", file=sys.stderr)
    return 0


STREAM_ONLY = {"engine": "--engine", "partition_size": "--partition-size", "workers": "--workers",
               "scheduler": "--scheduler"}


def _streaming(args) -> bool:
    """True with --out-dir; the options that need it, or clash with it, are refused here."""
    given = [flag for key, flag in STREAM_ONLY.items() if getattr(args, key, None) is not None]
    if not getattr(args, "out_dir", None):
        if given or args.format == "parquet":
            raise ConfigError(f"detect: {(given or ['--format parquet'])[0]} writes partitions: give "
                              f"--out-dir DIR (a directory of partition files and manifest.json)")
        return False
    clash = [flag for flag, value in (("--out", args.out), ("--html", args.html), ("--tables", args.tables))
             if value]
    if clash:
        raise ConfigError(f"detect: --out-dir writes partition files; {clash[0]} cannot be combined with it")
    if args.format == "pretty":
        raise ConfigError("detect: --out-dir writes jsonl or parquet partitions, not --format pretty")
    if args.input == "-":
        raise ConfigError("detect: --out-dir reads its input twice (to check it, then to score it); "
                          "save standard input to a file first")
    if (args.workers or args.scheduler) and args.engine != "dask":
        raise ConfigError("detect: --workers and --scheduler go with --engine dask")
    if args.workers and args.scheduler:
        raise ConfigError("detect: give --workers N (a local Dask cluster) or --scheduler ADDRESS, not both")
    return True


def _run_stream(args, inputs: tuple[str, ...], cache_root: Path) -> int:
    from ..io import check_output_dir
    from .engines import PARTITION_SIZE, import_distributed, require_pyarrow, run_stream
    from .inputs import check_input_format
    from .stream import PlainLog, RagtruthLog

    fmt, engine = args.format or "jsonl", args.engine or "local"
    size = args.partition_size or PARTITION_SIZE
    if engine == "dask":
        import_distributed()
    if fmt == "parquet":
        require_pyarrow()
    check_output_dir(args.out_dir, (*inputs, cache_root))
    input_format = check_input_format(args.input_format)
    log = PlainLog(args.input, input_format) if args.input else RagtruthLog(args.response_jsonl,
                                                                            args.source_info_jsonl)
    parts = log.scan(size)
    args.no_cache = True  # a log is parsed once; its parses would only grow the cache
    detector = _detector(args, cache_root)
    try:
        summary = run_stream(log, detector, args.out_dir, parts, fmt=fmt, size=size, engine=engine,
                             workers=args.workers, scheduler=args.scheduler, inputs=(*inputs, cache_root),
                             force=args.force, input_format=input_format,
                             progress=not args.quiet and sys.stderr.isatty())
    except KeyboardInterrupt:
        print(f"evidencechain: interrupted; finished partitions are kept in {args.out_dir}: run the same "
              f"command again to score the others", file=sys.stderr)
        raise
    finally:
        detector.close()
    if not args.quiet:
        from .output import summary_line

        kept = f"; {summary.done_before} done earlier, kept" if summary.done_before else ""
        print(summary_line(summary.counts, detector.detector, detector.name, summary.seconds), file=sys.stderr)
        print(f"evidencechain: wrote {args.out_dir} ({summary.partitions} {fmt} partition(s) of up to {size} "
              f"answers{kept}; {summary.scored} answers scored now by --engine {engine}; manifest "
              f"{Path(args.out_dir) / 'manifest.json'})", file=sys.stderr)
    return 0


def _shown(args) -> str:
    if args.input:
        return "standard input" if args.input == "-" else str(args.input)
    return str(args.response_jsonl)


def _read(args):
    from .inputs import check_input_format, read_plain, read_ragtruth

    if args.input:
        return read_plain(args.input, check_input_format(args.input_format))
    return read_ragtruth(args.response_jsonl, args.source_info_jsonl)


def _detector(args, cache_root: Path):
    from .api import Detector

    common = {"detector": args.detector, "device": args.device, "cache_dir": cache_root,
              "parse_cache": not args.no_cache, "batch_size": args.batch_size}
    if args.model:
        return Detector.load(args.model, **common)
    return Detector.default(quiet=args.quiet, **common)


def _write(args, detector, corpus, out):
    """Score in batches; write each answer as soon as its batch is scored."""
    from .html import HtmlReport
    from .output import jsonl_line, pretty, use_colour

    fmt = args.format or "jsonl"
    stream = out if out is not None else sys.stdout
    colour = fmt == "pretty" and out is None and use_colour(args.color, sys.stdout)
    report = HtmlReport(f"evidencechain report: {Path(_shown(args)).name}") if args.html else None
    counts: dict[str, int] = {}
    progress = not args.quiet and sys.stderr.isatty() and len(corpus.responses) > detector.batch_size
    t0 = time.perf_counter()
    for k, result in enumerate(detector.iter_corpus(corpus, progress=progress)):
        stream.write(jsonl_line(result) if fmt == "jsonl" else pretty(result, colour))
        counts[result.verdict] = counts.get(result.verdict, 0) + 1
        if report is not None:
            report.add(result)
        if (k + 1) % detector.batch_size == 0:
            stream.flush()
    stream.flush()
    return counts, time.perf_counter() - t0, report


def _model_dir(detector) -> str:
    if detector.path is None:
        raise ConfigError("--tables needs a model directory")
    return str(detector.path)


def _tables(args, out_dir, inputs, cache_root: Path, print_paths: bool, model_dir: str | None = None,
            corpus=None) -> int:
    """The CSV tables of every detector (sentences, tokens, responses) into a directory."""
    from ..io import check_output_dir
    from .inputs import read_ragtruth
    from .tables import detect_files

    check_output_dir(out_dir, (*inputs, cache_root))
    if corpus is None:
        corpus = _read(args) if args.input else read_ragtruth(args.response_jsonl, args.source_info_jsonl)
    if model_dir is None:
        model_dir = args.model or _model_dir(_detector(args, cache_root))
    for path in detect_files(model_dir, corpus, out_dir, progress=not args.quiet, cache_dir=cache_root,
                             inputs=[p for p in inputs if p != str(model_dir)]):
        if print_paths:
            print(path)
    return 0


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
