"""Reports from a run's saved results: tables, figures, the manuscript, notebook helpers.

    evidencechain report --run results/audit --tables paper/tables --figures figures --paper paper
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from .figures import write_figures
from .manuscript import TemplateError, build_manuscript
from .readme import update_readme
from .runs import MissingResultError, Run, load_run
from .tables import build_tables, write_tables

__all__ = ["MissingResultError", "Run", "TemplateError", "build_manuscript", "build_report",
           "build_tables", "load_run", "update_readme", "write_figures", "write_tables"]

STEPS = ("tables", "figures", "paper")


def build_report(run_dir: str | Path, tables_dir: str | Path = "paper/tables", figures_dir: str | Path = "figures",
                 paper_dir: str | Path = "paper", template: str | Path | None = None,
                 halueval_dir: str | Path | None = None, readme: str | Path | None = None,
                 only: Iterable[str] = STEPS, log: Callable[[str], None] | None = print) -> list[Path]:
    """Build the selected steps (tables, figures, paper) from `run_dir`; returns written paths."""
    steps = set(only)
    unknown = steps - set(STEPS)
    if unknown:
        raise ValueError(f"unknown report step(s) {sorted(unknown)}; choose from {STEPS}")
    run = load_run(run_dir)
    written: list[Path] = []
    if "tables" in steps:
        for name in write_tables(run, tables_dir, log):
            written += [Path(tables_dir) / f"{name}.{ext}" for ext in ("csv", "md", "tex")]
        if readme is not None:
            ok = update_readme(readme, run, str(run_dir))
            if log:
                log(f"readme {readme}: " + ("results block updated" if ok else "no results markers; left alone"))
    if "figures" in steps:
        for png in write_figures(run, figures_dir, log).values():
            written += [png, png.with_suffix(".pdf")]
    if "paper" in steps:
        template = Path(template) if template else Path(paper_dir) / "template.md"
        paths = build_manuscript(run, template, tables_dir, figures_dir, paper_dir, halueval_dir)
        if log:
            for p in paths:
                log(f"paper  {p}")
        written += paths
    return written
