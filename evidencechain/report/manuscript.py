"""Fill the manuscript template from a run's results; write Markdown and Word.

Template syntax: `{{ key }}` for a value of `context.run_context` (e.g. `{{ word.Lexical.f1 }}`),
`{{ table.NAME }}` for `TABLES_DIR/NAME.md` (numbered in order of appearance),
`{{ figure.NAME }}` for `FIGURES_DIR/NAME.png`, `{{ ref.table.NAME }}` / `{{ ref.figure.NAME }}`
for "Table 3" / "Figure 2", and `{{ section.NAME }}` for a benchmark's optional section
(`data/sections.toml` [NAME.manuscript], filled from its run directory).
Any unknown key, missing file or missing value (NaN) fails the build with every problem listed.
"""
from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

from ..errors import InputError
from ..io import atomic_write_text
from .context import fmt, run_context
from .docx import markdown_to_docx
from .figures import FIGURES
from .realdata import abstract_sentence, realdata_section, sections
from .runs import Run

PLACEHOLDER = re.compile(r"\{\{\s*([^{}]*?)\s*\}\}")
EXTRA_FIGURES = {"transfer_matrix": "Transfer matrix: response-level ROC-AUC and balanced accuracy of "
                                    "the primary detector fitted on each corpus (rows) and scored on "
                                    "each corpus's test split (columns)."}


Find = Callable[[Path], Path]
"""Maps a final output path to the file to read now (its staged copy during `report`)."""


def _same(path: Path) -> Path:
    return path


class TemplateError(InputError):
    """The template names something the results do not provide."""


def benchmark_section(name: str, text: dict, tables_dir: Path, figures_dir: Path, run_dir: Path | None,
                      find: Find = _same) -> tuple[str, dict]:
    """A benchmark's own manuscript section (`data/sections.toml` [NAME.manuscript]) and its values:
    its tables and figure where present."""
    if not find(tables_dir / f"{text['table']}.md").is_file():
        return text["absent"], {}
    run_dir = run_dir or Path(f"results/{name}")
    body = text["present"]
    if find(tables_dir / f"{text['grid_table']}.md").is_file():
        body += text["grid"]
    if any(find(d / f"{text['figure']}.png").is_file() for d in (figures_dir, run_dir)):
        body += text["figure_text"]
    meta_file = run_dir / "run.json"
    if meta_file.is_file():
        h = Run(meta_file.parent, json.loads(meta_file.read_text("utf-8")))
        source = f"`{meta_file.parent}` (seed {h.seed}, run id `{h.run_id}`)"
    else:
        source = f"`{run_dir}` (its run.json was not present when this manuscript was built)"
    return body, {f"{name}.source": source}


def _own_sections() -> dict[str, dict]:
    """Run name -> its manuscript section texts, for the benchmarks that have one."""
    return {name: t["manuscript"] for name, t in sections().items() if "manuscript" in t}


def _numbered(template: str, kind: str) -> dict[str, int]:
    names: dict[str, int] = {}
    for key in PLACEHOLDER.findall(template):
        if key.startswith(f"{kind}."):
            names.setdefault(key.split(".", 1)[1], len(names) + 1)
    return names


def _table_block(path: Path, number: int) -> str:
    text = path.read_text("utf-8").strip()
    if text.startswith("**"):
        return f"**Table {number}. " + text[2:]
    return f"**Table {number}.**\n\n{text}"


def layout_values(template: str, tables_dir: Path, figures_dir: Path, paper_dir: Path,
                  extra_figure_dirs: tuple[Path, ...] = (), find: Find = _same) -> tuple[dict, list[str]]:
    """table./figure./ref. values for the template; problems for missing files."""
    values, problems = {}, []
    for name, k in _numbered(template, "table").items():
        values[f"ref.table.{name}"] = f"Table {k}"
        if find(tables_dir / f"{name}.md").is_file():
            values[f"table.{name}"] = _table_block(find(tables_dir / f"{name}.md"), k)
        else:
            problems.append(f"table.{name}: {tables_dir / (name + '.md')} does not exist")
    captions = ({n: c for n, (_, c) in FIGURES.items()} | EXTRA_FIGURES
                | {t["figure"]: t["figure_caption"] for t in _own_sections().values()})
    for name, k in _numbered(template, "figure").items():
        values[f"ref.figure.{name}"] = f"Figure {k}"
        png = next((d / f"{name}.png" for d in (figures_dir, *extra_figure_dirs)
                    if find(d / f"{name}.png").is_file()), figures_dir / f"{name}.png")
        if find(png).is_file():
            rel = Path(os.path.relpath(png, paper_dir)).as_posix()
            values[f"figure.{name}"] = f"![Figure {k}. {captions.get(name, name)}]({rel})"
        else:
            problems.append(f"figure.{name}: {png} does not exist")
    return values, problems


def fill(template: str, values: dict, problems: list[str] | None = None) -> str:
    """Replace every `{{ key }}`; raise TemplateError listing every unknown or missing value."""
    problems = list(problems or [])

    def sub(match: re.Match) -> str:
        key = match.group(1)
        if key not in values:
            if not any(p.startswith(f"{key}:") for p in problems):
                problems.append(f"{key}: no such value in the results")
            return match.group(0)
        try:
            return fmt(values[key])
        except ValueError as exc:
            problems.append(f"{key}: {exc}")
            return match.group(0)

    out = PLACEHOLDER.sub(sub, template)
    if not problems and ("{{" in out or "}}" in out):
        problems.append("unbalanced '{{' or '}}' left in the text")
    if problems:
        raise TemplateError("manuscript template could not be filled:\n  " + "\n  ".join(problems))
    return out


def claims_section(run: Run, tables_dir: Path, figures_dir: Path, find: Find = _same) -> str:
    """Section 5.8 (`data/claims_section.md`): a part per claim table the run wrote; empty without any."""
    text = (Path(__file__).parent / "data" / "claims_section.md").read_text("utf-8")
    parts = dict(re.findall(r"<!-- part: (\w+) -->\n(.*?)(?=<!-- part: |\Z)", text, flags=re.S))
    name = run.meta["name"]
    kept = [body for key, body in parts.items() if key != "header"
            and find(tables_dir / f"{name}_{key}.md").is_file()
            and (key != "copy_rate" or find(figures_dir / "copy_rate.png").is_file())]
    return (parts["header"] + "".join(kept)).replace("NAME", name).strip() if kept else ""


def render(run: Run, template: str, tables_dir: Path, figures_dir: Path, paper_dir: Path,
           halueval_dir: Path | None = None, find: Find = _same) -> str:
    """The manuscript text; `find` gives the file to read for an output path (staged or final)."""
    extra = {}
    for name, text in _own_sections().items():
        section, values = benchmark_section(name, text, tables_dir, figures_dir, halueval_dir, find)
        template = template.replace(f"{{{{ section.{name} }}}}", section.strip() + "\n")
        extra |= values
    real, real_values = realdata_section(tables_dir, find)
    template = template.replace("{{ section.realdata }}", real.strip() + "\n")
    template = template.replace("{{ section.claims }}", claims_section(run, tables_dir, figures_dir, find) + "\n")
    extra = extra | real_values | {"real.abstract": abstract_sentence(real_values)}
    values = run_context(run) | extra
    layout, problems = layout_values(template, tables_dir, figures_dir, paper_dir,
                                     tuple(halueval_dir or Path(f"results/{name}") for name in _own_sections()), find)
    return fill(template, values | layout, problems)


def build_manuscript(run: Run, template: str | Path, tables_dir: str | Path, figures_dir: str | Path,
                     paper_dir: str | Path, halueval_dir: str | Path | None = None,
                     find: Find = _same, out_dir: str | Path | None = None) -> list[Path]:
    """Write `manuscript.md` and `manuscript.docx` (figures embedded) for `paper_dir`.

    They go to `out_dir` (default `paper_dir`); links stay relative to `paper_dir`.
    """
    paper = Path(paper_dir)
    out = Path(out_dir or paper_dir)
    try:
        source = Path(template).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TemplateError(f"cannot read the manuscript template {template}: {exc}") from exc
    text = render(run, source, Path(tables_dir), Path(figures_dir), paper,
                  Path(halueval_dir) if halueval_dir else None, find)
    md = atomic_write_text(out / "manuscript.md", text)
    docx = markdown_to_docx(text, out / "manuscript.docx", base_dir=paper, find=find)
    return [md, docx]
