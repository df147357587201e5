"""The exploration notebooks: their source (written without outputs) and their execution.

    python -m evidencechain.report.notebooks write experiments/notebooks
    python -m evidencechain.report.notebooks execute --run results/audit --out results/notebooks

Notebooks read the run directory from the environment variable EVIDENCECHAIN_RUN (default
`results/audit`) and call the package's API (`evidencechain.report.explore`); executing them
writes executed copies elsewhere and never touches the committed (output-free) files.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ENV = "EVIDENCECHAIN_RUN"
SETUP = f'''%matplotlib inline
import os
import warnings

import pandas as pd
from IPython.display import HTML, display

warnings.filterwarnings("ignore", message="IProgress not found")  # tqdm, imported by the package
from evidencechain.report import explore  # noqa: E402

pd.set_option("display.max_colwidth", 110)
pd.set_option("display.width", 160)
RUN = os.environ.get("{ENV}", "results/audit")
run = explore.load_run(explore.resolve_run_dir(RUN))
print(f"run {{run.path}}: id {{run.run_id}}, seed {{run.seed}}, detectors {{', '.join(run.methods)}}")
print(f"primary detector: {{run.primary}}; test responses: {{len(run.responses)}}")'''

NOTEBOOKS: dict[str, list[tuple[str, str]]] = {
    "01_explore_features.ipynb": [
        ("markdown", "# 01 · Explore the features of a run\n\n"
         f"Loads a finished run (directory from `${ENV}`, default `results/audit`; create it with "
         "`make experiment`), shows its scored sentence and token tables, compares feature "
         "distributions of supported and hallucinated test sentences, and looks at the detector's "
         "worst errors with the evidence chunk each sentence was attributed to."),
        ("code", SETUP),
        ("markdown", "## Test sentences and their evidence-chain features\n\nOne row per answer "
         "sentence of the test split; `label` is 1 when the sentence contains a gold hallucinated "
         "span."),
        ("code", "sentences = explore.feature_table(run)\nsentences.head()"),
        ("code", 'sentences.groupby(["task_type", "label"]).size().unstack(fill_value=0)'),
        ("code", 'sentences.groupby("label")[[f for f in explore.FEATURES if f in sentences]].mean().T'),
        ("markdown", "## Feature distributions by label"),
        ("code", "fig = explore.plot_feature_distributions(run)"),
        ("markdown", "## Test tokens\n\nOne row per word token; punctuation is excluded from word "
         "metrics. `novelty`, `number_absent` and `entity_absent` are the token evidence signals."),
        ("code", 'run.tokens[["response_id", "sentence_index", "token_index", "text", "novelty", '
         '"number_absent", "entity_absent", "label", f"risk_{run.primary}"]].head(15)'),
        ("code", "explore.token_feature_rates(run)"),
        ("markdown", "## Worst sentence-level errors, with their evidence chunks\n\nFalse positives "
         "with the highest risk and false negatives with the lowest risk of the primary detector."),
        ("code", 'errors = explore.worst_errors(run, level="sentence", k=5)\n'
         'errors[["outcome", "response_id", "task_type", "risk", "text", "evidence_text"]]'),
        ("code", 'for rid in list(dict.fromkeys(errors["response_id"]))[:4]:\n'
         "    display(HTML(explore.highlight_response(run, rid)))"),
    ],
    "02_error_analysis.ipynb": [
        ("markdown", "# 02 · Error analysis\n\nFalse positives and false negatives of a detector by "
         "task and by generator label, at word and sentence level, and highlighted example "
         f"responses (gold spans underlined, flagged spans shaded). Run directory from `${ENV}` "
         "(default `results/audit`)."),
        ("code", SETUP),
        ("code", "METHOD = run.primary  # any of run.methods"),
        ("markdown", "## Word level, by task and by generator label"),
        ("code", 'by_task = explore.error_breakdown(run, METHOD, level="word", by="task_type")\nby_task'),
        ("code", 'by_model = explore.error_breakdown(run, METHOD, level="word", by="model")\nby_model'),
        ("code", 'fig = explore.plot_error_rates(by_task, f"{METHOD}: word errors by task")\n'
         'fig = explore.plot_error_rates(by_model, f"{METHOD}: word errors by generator label")'),
        ("markdown", "## Sentence level, by task and generator label"),
        ("code", 'explore.error_breakdown(run, METHOD, level="sentence", by=["task_type", "model"])'),
        ("markdown", "## Word-level F1 of every detector per task"),
        ("code", 'pd.DataFrame({m: explore.error_breakdown(run, m, level="word", by="task_type")["f1"]\n'
         "              for m in run.methods}).round(3)"),
        ("markdown", "## Examples: missed and false alarms at response level"),
        ("code", 'resp = explore.outcomes(run, METHOD, level="response")\n'
         'fn = resp[resp["outcome"] == "FN"].sort_values(["risk", "response_id"]).head(3)\n'
         'fp = resp[resp["outcome"] == "FP"].sort_values(["risk", "response_id"], ascending=[False, True]).head(3)\n'
         'pd.concat([fn, fp])[["outcome", "response_id", "task_type", "model", "risk"]]'),
        ("code", 'for rid in list(fn["response_id"]) + list(fp["response_id"]):\n'
         "    display(HTML(explore.highlight_response(run, rid, METHOD)))"),
        ("markdown", "## Word-level errors with the most confident scores"),
        ("code", 'explore.worst_errors(run, METHOD, level="word", k=8)'),
    ],
}


def make_notebook(cells: list[tuple[str, str]]):
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                   "language_info": {"name": "python"}}
    for k, (kind, source) in enumerate(cells):
        cell = (nbformat.v4.new_markdown_cell if kind == "markdown" else nbformat.v4.new_code_cell)(source)
        cell.id = f"cell-{k:02d}"
        nb.cells.append(cell)
    return nb


def write_notebooks(out_dir: str | Path) -> list[Path]:
    """Write the notebooks without outputs (the committed versions)."""
    import nbformat

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, cells in NOTEBOOKS.items():
        path = out / name
        nbformat.write(make_notebook(cells), str(path))
        paths.append(path)
    return paths


def execute_notebook(path: str | Path, run_dir: str | Path, out_path: str | Path | None = None,
                     cwd: str | Path = ".", timeout: int = 600):
    """Execute a notebook top to bottom against `run_dir`; save the executed copy to `out_path`."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(str(path), as_version=4)
    old = os.environ.get(ENV)
    os.environ[ENV] = str(Path(run_dir).resolve())
    try:
        NotebookClient(nb, timeout=timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(Path(cwd).resolve())}}).execute()
    finally:
        if old is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = old
    if out_path is not None:
        Path(out_path).parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, str(out_path))
    return nb


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evidencechain.report.notebooks")
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write", help="write the output-free notebooks")
    w.add_argument("out", nargs="?", default="experiments/notebooks")
    e = sub.add_parser("execute", help="execute copies of the notebooks against a run")
    e.add_argument("--run", default="results/audit")
    e.add_argument("--notebooks", default="experiments/notebooks")
    e.add_argument("--out", default="results/notebooks")
    args = parser.parse_args(argv)
    if args.command == "write":
        for p in write_notebooks(args.out):
            print(p)
        return 0
    for name in NOTEBOOKS:
        print(f"executing {name} against {args.run} ...", flush=True)
        execute_notebook(Path(args.notebooks) / name, args.run, Path(args.out) / name)
        print(f"  -> {Path(args.out) / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
