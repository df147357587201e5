"""`evidencechain detect`: check answers in one command (arguments are defined in `cli_parser.py`).

    evidencechain detect my.jsonl --html report.html          # JSONL to stdout, HTML report
    evidencechain detect my.csv --out results.jsonl --format pretty
    cat my.jsonl | evidencechain detect -
    evidencechain detect --response-jsonl R --source-info-jsonl S            # RAGTruth pairs
    evidencechain detect --model RUN/model --response-jsonl R --source-info-jsonl S --tables DIR
    evidencechain detect big.jsonl.gz --out-dir DIR --engine dask --workers 2    # a large log

The arguments become one `DetectOptions`, validated once before any work starts: which input,
which output mode, and every output path checked. The modes, one function each: records
(JSONL or the terminal view on stdout or `--out`, with `--html` and `--tables` beside them),
stream (`--out-dir DIR`: the input read in partitions, `stream` and `engines`) and the
deprecated tables form (RAGTruth pairs with an `--out` that does not end in .jsonl and no
--format, --html or --tables: a directory of CSV tables, as `--tables` writes; removed on
LEGACY_REMOVAL). Inputs are validated as a whole before the model is loaded (or built, on
first use).
"""
from __future__ import annotations

import dataclasses
import os
import sys
import time
from pathlib import Path
from typing import Literal

from ..errors import ConfigError, OutputError

LEGACY_REMOVAL = "2027-06-01"
"""The day the tables form of `--out` goes (after it, `--out` is always the records file)."""
STREAM_ONLY = {"engine": "--engine", "partition_size": "--partition-size", "workers": "--workers",
               "scheduler": "--scheduler"}


@dataclasses.dataclass(frozen=True)
class DetectOptions:
    """What `detect` was asked to do; built and checked once by `from_args`."""

    mode: Literal["records", "stream", "tables"]
    inputs: tuple[str, ...]
    """The input files and model directory named: no output may replace them."""
    cache_root: Path
    input: str | None = None
    response_jsonl: str | None = None
    source_info_jsonl: str | None = None
    input_format: str = "auto"
    model: str | None = None
    detector: str | None = None
    device: str = "cpu"
    batch_size: int = 64
    conflict_rule: bool | None = None
    """Flag confident semantic conflicts by rule; None: as the model's card says."""
    parse_cache: bool = True
    quiet: bool = False
    force: bool = False
    out: str | None = None
    """The records file; in the tables form, the directory of CSV tables."""
    html: str | None = None
    tables: str | None = None
    format: str = "jsonl"
    color: str = "auto"
    out_dir: str | None = None
    partition_size: int | None = None
    engine: str = "local"
    workers: int | None = None
    scheduler: str | None = None

    @classmethod
    def from_args(cls, args) -> DetectOptions:
        """The options of parsed `detect` arguments; ConfigError or OutputError (one line) for
        arguments that do not go together and for output paths that may not be written."""
        from ..io import check_cache_dir
        from .default import cache_dir

        inputs = _check_inputs(args)
        cache_root = check_cache_dir(args.cache_dir) if getattr(args, "cache_dir", None) else \
            check_cache_dir(cache_dir(), "EVIDENCECHAIN_CACHE_DIR (or --cache-dir)")
        mode = "stream" if _streaming(args) else "tables" if legacy_tables(args) else "records"
        options = cls(
            mode=mode, inputs=inputs, cache_root=cache_root, input=args.input,
            response_jsonl=args.response_jsonl, source_info_jsonl=args.source_info_jsonl,
            input_format=args.input_format, model=args.model, detector=args.detector, device=args.device,
            batch_size=args.batch_size,
            conflict_rule=None if getattr(args, "conflict_rule", None) is None else args.conflict_rule == "on",
            parse_cache=not args.no_cache and mode != "stream",
            quiet=args.quiet, force=args.force, out=args.out, html=args.html, tables=args.tables,
            format=args.format or "jsonl", color=args.color, out_dir=getattr(args, "out_dir", None),
            partition_size=getattr(args, "partition_size", None), engine=getattr(args, "engine", None) or "local",
            workers=getattr(args, "workers", None), scheduler=getattr(args, "scheduler", None))
        _CHECKS[mode](options)
        return options

    @property
    def shown(self) -> str:
        """The input as messages and the HTML report name it."""
        if self.input:
            return "standard input" if self.input == "-" else str(self.input)
        return str(self.response_jsonl)


def legacy_tables(args) -> bool:
    """The tables form: RAGTruth pairs with --out DIR and none of --format, --html, --tables."""
    return bool(args.response_jsonl and args.out and not args.tables and args.format is None
                and not args.html and not str(args.out).endswith(".jsonl"))


def run_detect(args) -> int:
    options = DetectOptions.from_args(args)
    return {"records": run_records, "stream": run_streaming, "tables": run_legacy_tables}[options.mode](options)


# -- checking the arguments ------------------------------------------------------------------------

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


def _check_records(options: DetectOptions) -> None:
    from ..io import check_output_dir
    from .inputs import check_input_format
    from .output import check_output_file

    if options.out and options.html and os.path.abspath(options.out) == os.path.abspath(options.html):
        raise OutputError(f"--out and --html name the same file {options.out}")
    for path, what in ((options.out, "--out"), (options.html, "--html")):
        if path:
            check_output_file(path, options.force, options.inputs, what)
    if options.tables:
        outputs = [p for p in (options.out, options.html) if p]
        check_output_dir(options.tables, (*options.inputs, options.cache_root, *outputs))
    if options.input:
        check_input_format(options.input_format)


def _check_stream(options: DetectOptions) -> None:
    from ..io import check_output_dir
    from .engines import import_distributed, require_pyarrow
    from .inputs import check_input_format

    if options.engine == "dask":
        import_distributed()
    if options.format == "parquet":
        require_pyarrow()
    check_output_dir(options.out_dir, (*options.inputs, options.cache_root))
    check_input_format(options.input_format)


def _check_tables(options: DetectOptions) -> None:
    from ..io import check_output_dir

    check_output_dir(options.out, (*options.inputs, options.cache_root))


_CHECKS = {"records": _check_records, "stream": _check_stream, "tables": _check_tables}


# -- the modes ---------------------------------------------------------------------------------

def run_records(options: DetectOptions) -> int:
    """One record per answer (JSONL or the terminal view) on stdout or into --out, as each batch is
    scored; the --html report and --tables beside them."""
    from .output import OutputFile

    corpus = _read(options)
    detector = _detector(options)
    out = OutputFile(options.out, options.force, options.inputs, "--out") if options.out else None
    html = None
    try:
        counts, seconds, report = _write_records(options, detector, corpus, out)
        if report is not None:  # both files are complete before either is moved into place
            html = OutputFile(options.html, options.force, options.inputs, "--html")
            html.write(report.render(options.shown))
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
    if options.tables:
        _write_tables(options, options.tables, corpus, _model_dir(detector))
    if not options.quiet:
        from .output import summary_line
        print(summary_line(counts, detector.detector, detector.name, seconds), file=sys.stderr)
        for path in (options.out, options.html, options.tables):
            if path:
                print(f"evidencechain: wrote {path}", file=sys.stderr)
    return 0


def run_streaming(options: DetectOptions) -> int:
    """--out-dir: the input checked, then scored partition by partition into the directory."""
    from .engines import PARTITION_SIZE, run_stream
    from .stream import PlainLog, RagtruthLog

    size = options.partition_size or PARTITION_SIZE
    log = PlainLog(options.input, options.input_format) if options.input else \
        RagtruthLog(options.response_jsonl, options.source_info_jsonl)
    parts = log.scan(size)
    detector = _detector(options)  # without the parse cache: a log is parsed once
    try:
        summary = run_stream(log, detector, options.out_dir, parts, fmt=options.format, size=size,
                             engine=options.engine, workers=options.workers, scheduler=options.scheduler,
                             inputs=(*options.inputs, options.cache_root), force=options.force,
                             input_format=options.input_format,
                             progress=not options.quiet and sys.stderr.isatty())
    except KeyboardInterrupt:
        print(f"evidencechain: interrupted; finished partitions are kept in {options.out_dir}: run the same "
              f"command again to score the others", file=sys.stderr)
        raise
    finally:
        detector.close()
    if not options.quiet:
        from .output import summary_line

        kept = f"; {summary.done_before} done earlier, kept" if summary.done_before else ""
        print(summary_line(summary.counts, detector.detector, detector.name, summary.seconds), file=sys.stderr)
        print(f"evidencechain: wrote {options.out_dir} ({summary.partitions} {options.format} partition(s) of "
              f"up to {size} answers{kept}; {summary.scored} answers scored now by --engine {options.engine}; "
              f"manifest {Path(options.out_dir) / 'manifest.json'})", file=sys.stderr)
    return 0


def run_legacy_tables(options: DetectOptions) -> int:
    """The deprecated tables form of --out: the CSV tables into the directory, their paths on stdout."""
    from .inputs import read_ragtruth

    corpus = read_ragtruth(options.response_jsonl, options.source_info_jsonl)
    if options.model:
        model_dir = options.model
    else:
        detector = _detector(options)
        detector.close()
        model_dir = _model_dir(detector)
    for path in _write_tables(options, options.out, corpus, model_dir):
        print(path)
    print(f"evidencechain: --out DIR for CSV tables is deprecated and will be removed on {LEGACY_REMOVAL}; "
          f"use --tables {options.out} (the records then go to standard output, or to --out FILE.jsonl)",
          file=sys.stderr)
    return 0


# -- the pieces --------------------------------------------------------------------------------

def _read(options: DetectOptions):
    from .inputs import read_plain, read_ragtruth

    if options.input:
        return read_plain(options.input, options.input_format)
    return read_ragtruth(options.response_jsonl, options.source_info_jsonl)


def _detector(options: DetectOptions):
    from .api import Detector

    common = {"detector": options.detector, "device": options.device, "cache_dir": options.cache_root,
              "parse_cache": options.parse_cache, "batch_size": options.batch_size,
              "conflicts": options.conflict_rule}
    if options.model:
        return Detector.load(options.model, **common)
    return Detector.default(quiet=options.quiet, **common)


def _write_records(options: DetectOptions, detector, corpus, out):
    """Score in batches; write each answer as soon as its batch is scored."""
    from .html import HtmlReport
    from .output import jsonl_line, pretty, use_colour

    stream = out if out is not None else sys.stdout
    colour = options.format == "pretty" and out is None and use_colour(options.color, sys.stdout)
    report = HtmlReport(f"evidencechain report: {Path(options.shown).name}") if options.html else None
    counts: dict[str, int] = {}
    progress = not options.quiet and sys.stderr.isatty() and len(corpus.responses) > detector.batch_size
    t0 = time.perf_counter()
    for k, result in enumerate(detector.iter_corpus(corpus, progress=progress)):
        stream.write(jsonl_line(result) if options.format == "jsonl" else pretty(result, colour))
        counts[result.verdict] = counts.get(result.verdict, 0) + 1
        if report is not None:
            report.add(result)
        if (k + 1) % detector.batch_size == 0:
            stream.flush()
    stream.flush()
    return counts, time.perf_counter() - t0, report


def _write_tables(options: DetectOptions, out_dir: str, corpus, model_dir: str) -> list[Path]:
    """The CSV tables of every detector (sentences, tokens, responses) into a directory."""
    from .tables import detect_files

    return detect_files(model_dir, corpus, out_dir, progress=not options.quiet, cache_dir=options.cache_root,
                        inputs=[p for p in options.inputs if p != str(model_dir)])


def _model_dir(detector) -> str:
    if detector.path is None:
        raise ConfigError("--tables needs a model directory")
    return str(detector.path)


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
