"""Reports from a run's saved results: tables, figures, the manuscript, notebook helpers.

    evidencechain report --run results/audit --tables paper/tables --figures figures --paper paper

Every file is produced in a staging directory first and moved into place only when all were
produced; a file `report` would overwrite must be one it wrote before (recorded with its
sha256 in the directory's `.evidencechain-report.json`) or identical to the new one.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from ..io import FileStage, staged_files
from .figures import save_figure, write_figures
from .manuscript import TemplateError, build_manuscript
from .readme import readme_text, update_readme
from .render import write_table
from .runs import DamagedResultError, MissingResultError, Run, load_run
from .tables import TABLES, build_tables, write_tables

__all__ = ["DamagedResultError", "build_benchmark_report", "MissingResultError", "Run", "TemplateError", "build_manuscript",
           "build_report", "build_tables", "load_run", "update_readme", "write_figures", "write_tables"]

STEPS = ("tables", "figures", "paper")
Log = Callable[[str], None] | None


def build_report(run_dir: str | Path, tables_dir: str | Path = "paper/tables", figures_dir: str | Path = "figures",
                 paper_dir: str | Path = "paper", template: str | Path | None = None,
                 halueval_dir: str | Path | None = None, readme: str | Path | None = None,
                 only: Iterable[str] = STEPS, log: Log = print) -> list[Path]:
    """Build the selected steps (tables, figures, paper) from `run_dir`; returns written paths.

    Nothing is written unless every step succeeds.
    """
    steps = set(only)
    unknown = steps - set(STEPS)
    if unknown:
        raise ValueError(f"unknown report step(s) {sorted(unknown)}; choose from {STEPS}")
    run = load_run(run_dir)
    run.check()
    messages: list[str] = []
    with staged_files() as stage:
        if "tables" in steps:
            _tables(run, stage, Path(tables_dir), readme, str(run_dir), messages)
        if "figures" in steps:
            _figures(run, stage, Path(figures_dir), messages)
        if "paper" in steps:
            template = Path(template) if template else Path(paper_dir) / "template.md"
            build_manuscript(run, template, tables_dir, figures_dir, paper_dir, halueval_dir,
                             find=stage.find, out_dir=stage.dir(paper_dir))
            messages += [f"paper  {Path(paper_dir) / name}" for name in ("manuscript.md", "manuscript.docx")]
        written = list(stage.staged()) + list(stage.single)
    for message in messages if log else ():
        log(message)
    return written


def build_benchmark_report(run_dir: str | Path, tables_dir: str | Path = "paper/tables",
                           figures_dir: str | Path = "figures", log: Log = print) -> list[Path]:
    """A benchmark run's tables beside the published rows, and its figures (see `benchmarks`)."""
    from .benchmarks import benchmark_figures, benchmark_tables

    run = load_run(run_dir)
    run.check()
    run.table("metrics")
    messages: list[str] = []
    with staged_files() as stage:
        for table in benchmark_tables(run):
            write_table(table, stage.dir(Path(tables_dir)))
            messages.append(f"table  {table.name:24s} -> {Path(tables_dir) / table.name}.{{csv,md,tex}}")
        for name, fig in benchmark_figures(run).items():
            save_figure(fig, stage.dir(Path(figures_dir)), name)
            messages.append(f"figure {name:24s} -> {Path(figures_dir) / name}.{{png,pdf}}")
        written = list(stage.staged()) + list(stage.single)
    for message in messages if log else ():
        log(message)
    return written


def _tables(run: Run, stage: FileStage, tables_dir: Path, readme: str | Path | None, label: str,
            messages: list[str]) -> None:
    names = write_tables(run, stage.dir(tables_dir), log=None)
    messages += [f"table  {name:16s} -> {tables_dir / name}.{{csv,md,tex}}" for name in names]
    if skipped := sorted(set(TABLES) - set(names)):
        messages.append(f"tables skipped (results absent in {run.path}): {', '.join(skipped)}")
    if readme is not None:
        text = readme_text(readme, run, label, tables_dir)
        if text is not None and text != Path(readme).read_text("utf-8"):
            stage.put(readme, text.encode("utf-8"))
        messages.append(f"readme {readme}: " + ("results block updated" if text is not None
                                                else "no results markers; left alone"))


def _figures(run: Run, stage: FileStage, figures_dir: Path, messages: list[str]) -> None:
    figures = write_figures(run, stage.dir(figures_dir), log=None)
    messages += [f"figure {name:16s} -> {figures_dir / name}.{{png,pdf}}" for name in figures]
