"""One writer for every report table: CSV, Markdown (pipe table) and LaTeX (booktabs)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..io import atomic_write_text, write_csv

TITLES = {
    "method": "Method", "split": "Split", "sources": "Sources", "responses": "Responses",
    "hallucinated_responses": "Hallucinated responses", "sentences": "Sentences",
    "tokens": "Tokens", "hallucinated_tokens": "Hallucinated tokens",
    "hallucinated_token_rate": "Hallucinated token rate", "task_type": "Task", "source": "Source",
    "hallucination_rate": "Hallucination rate", "model": "Generator label",
    "mean_temperature": "Mean temperature", "precision": "Precision", "recall": "Recall",
    "f1": "F1", "accuracy": "Accuracy", "roc_auc": "ROC-AUC", "pr_auc": "PR-AUC",
    "threshold": "Threshold", "n": "N", "positives": "Positives", "predicted_chars": "Predicted chars",
    "gold_chars": "Gold chars", "overlap_chars": "Overlap chars", "variant": "Variant",
    "level": "Level", "supported_sentences": "Supported sentences",
    "top1_accuracy": "Top-1 accuracy", "coverage_bin": "Coverage bin",
    "mean_source_coverage": "Mean source coverage",
    "mean_hallucinated_token_rate": "Mean hallucinated token rate", "training": "Training",
    "main_signal": "Main signal", "runtime_class": "Runtime class", "file": "File",
    "field": "Field", "type": "Type", "use": "Use in this framework", "item": "Item",
    "value": "Value", "word_f1": "Word F1", "sentence_f1": "Sentence F1",
    "response_f1": "Response F1", "span_f1": "Span F1", "word_roc_auc": "Word ROC-AUC",
    "word_threshold": "Word threshold", "sentence_threshold": "Sentence threshold",
    "response_threshold": "Response threshold",
}


@dataclass
class Table:
    """A report table: a tidy frame plus what a reader needs to read it."""

    name: str
    caption: str
    frame: pd.DataFrame
    digits: int = 3
    titles: dict[str, str] = field(default_factory=dict)

    def header(self) -> list[str]:
        return [self.titles.get(c, TITLES.get(c, c)) for c in self.frame.columns]

    def numeric(self) -> list[bool]:
        return [pd.api.types.is_numeric_dtype(self.frame[c]) for c in self.frame.columns]

    def cells(self, missing: str) -> list[list[str]]:
        return [[_fmt(v, self.digits, missing) for v in row]
                for row in self.frame.itertuples(index=False, name=None)]


def _fmt(value, digits: int, missing: str) -> str:
    if hasattr(value, "item") and not isinstance(value, str):  # numpy scalar
        value = value.item()
    if value is None:
        return missing
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return missing if math.isnan(value) else f"{value:.{digits}f}"
    return str(value)


def to_markdown(table: Table) -> str:
    def esc(s: str) -> str:
        return s.replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(esc(h) for h in table.header()) + " |",
             "|" + "|".join("---:" if num else "---" for num in table.numeric()) + "|"]
    lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in table.cells("—")]
    return "\n".join(lines) + "\n"


_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
          "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
          "^": r"\textasciicircum{}", "—": "---", "–": "--", "<": r"\textless{}",
          ">": r"\textgreater{}"}


def latex_escape(text: str) -> str:
    return "".join(_LATEX.get(ch, ch) for ch in text)


def to_latex(table: Table) -> str:
    spec = "".join("r" if num else "l" for num in table.numeric())
    lines = [
        r"\begin{table}[t]", r"\centering", r"\small",
        rf"\caption{{{latex_escape(table.caption)}}}", rf"\label{{tab:{table.name}}}",
        rf"\begin{{tabular}}{{{spec}}}", r"\toprule",
        " & ".join(latex_escape(h) for h in table.header()) + r" \\", r"\midrule",
    ]
    lines += [" & ".join(latex_escape(c) for c in row) + r" \\" for row in table.cells("—")]
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
    return "\n".join(lines) + "\n"


def write_table(table: Table, out_dir: str | Path) -> list[Path]:
    """Write `<name>.csv`, `<name>.md` (caption + pipe table) and `<name>.tex` (booktabs)."""
    out = Path(out_dir)
    md = f"**{table.caption}**\n\n{to_markdown(table)}"
    return [write_csv(table.frame, out / f"{table.name}.csv"),
            atomic_write_text(out / f"{table.name}.md", md),
            atomic_write_text(out / f"{table.name}.tex", to_latex(table))]
