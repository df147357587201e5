"""The manuscript's real-data section and the README's lead: benchmark tables with their key
numbers read from the tables' CSVs (written by `report --benchmark`)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

Find = Callable[[Path], Path]

INTRO = """Every number in this section is measured on real generated answers with human labels.
Each detector was fitted and calibrated on the corpus its row names, its thresholds were fixed
before the scored data was seen, and the scored data was scored once. Rows fitted on the scored
corpus itself are in-distribution and are marked as such; published rows come from the papers
and were measured on their own data (their scope is stated).
"""
PARTS = {
    "ragtruth_qa": """
**RAGTruth QA.** On {{ real.ragtruth_qa.n }} real RAGTruth QA answers with human word spans
({{ ref.table.ragtruth_qa }}), the best response-level F1 was {{ real.ragtruth_qa.response_f1 }}
({{ real.ragtruth_qa.response_method }}, fitted on {{ real.ragtruth_qa.response_fit }}) against
{{ real.ragtruth_qa.floor }} for flagging every answer; the best span-level F1 was
{{ real.ragtruth_qa.span_f1 }} ({{ real.ragtruth_qa.span_method }}). The best published span
detector reports 0.589 on the whole RAGTruth test, where QA is the hardest task.

{{ table.ragtruth_qa }}
""",
    "ragtruth_qa_span_types": """
By label type ({{ ref.table.ragtruth_qa_span_types }}), recall differs between conflicts and
baseless information; predicted spans carry no type, so precision is not split.

{{ table.ragtruth_qa_span_types }}
""",
    "ragtruth_qa_no_info": """
Real answers contain sentences with nothing to check: refusals ("Unable to answer based on the
given passages"), hedges and offers of help. {{ ref.table.ragtruth_qa_no_info }} gives the share
of those (as marked by RAGHalu's tier 1, among sentences without a gold span) that each detector
flags; every flag is a false positive.

{{ table.ragtruth_qa_no_info }}
""",
    "ragtruth_qa_triplet_verdicts": """
The RefChecker-style triplet verdicts on these answers, against gold derived from the human
spans, are in {{ ref.table.ragtruth_qa_triplet_verdicts }}.

{{ table.ragtruth_qa_triplet_verdicts }}
""",
    "summedits": """
**SummEdits.** Under the paper's protocol ({{ ref.table.summedits }}) the best mean balanced
accuracy over the 8 domains was {{ real.summedits.mean }} ({{ real.summedits.method }}, fitted on
{{ real.summedits.fit }}); published: DAE 0.554, SummaC-Conv 0.571, QAFactEval 0.674, GPT-4 0.832.

{{ table.summedits }}
""",
    "cliff": """
**CLIFF.** On the 300 CLIFF test summaries ({{ ref.table.cliff }}) the best summary-level balanced
accuracy was {{ real.cliff.balanced_accuracy }} ({{ real.cliff.ba_method }}) and the best
word-level F1 {{ real.cliff.word_f1 }} ({{ real.cliff.word_method }}).

{{ table.cliff }}

{{ table.cliff_span_types }}
""",
    "transfer_roc_auc": """
**Transfer.** {{ ref.table.transfer_roc_auc }} and {{ ref.figure.transfer_matrix }} show the
response-level ROC-AUC of {{ real.transfer.method }} fitted on each corpus and scored on every
other. In-distribution cells (the diagonal) are high; off the diagonal most cells fall towards
0.5: a model fitted on one corpus's artefacts does not carry them to another. The mean
off-diagonal ROC-AUC is {{ real.transfer.off_diagonal }} against {{ real.transfer.diagonal }} on
the diagonal.

{{ table.transfer_roc_auc }}

{{ figure.transfer_matrix }}
""",
}
ABSENT = """*Not included in this build:* no real-data benchmark tables were present (`make
benchmarks` writes them into `paper/tables/`). Rebuild the manuscript after running them.
"""


def _best(frame: pd.DataFrame, column: str, exclude: tuple[str, ...] = ()) -> pd.Series:
    part = frame[frame[column].notna() & ~frame["method"].str.contains("published|floor", regex=True)]
    part = part[~part["method"].isin(exclude)]
    return part.loc[part[column].idxmax()]


def _values(name: str, frame: pd.DataFrame) -> dict:
    if name.endswith(("_span_types", "_no_info", "_triplet_verdicts", "_copy_rate")):
        return {}
    if name == "ragtruth_qa":
        resp, span = _best(frame, "response_f1"), _best(frame, "span_f1")
        floor = frame[frame["method"].str.contains("floor")]["response_f1"]
        return {"real.ragtruth_qa.n": 437, "real.ragtruth_qa.response_f1": resp["response_f1"],
                "real.ragtruth_qa.response_method": resp["method"], "real.ragtruth_qa.response_fit": resp["fitted_on"],
                "real.ragtruth_qa.floor": float(floor.iloc[0]) if len(floor) else np.nan,
                "real.ragtruth_qa.span_f1": span["span_f1"],
                "real.ragtruth_qa.span_method": f"{span['method']}, fitted on {span['fitted_on']}",
                **_word_values("ragtruth_qa", frame)}
    if name == "summedits":
        best = _best(frame[frame["fitted_on"] != "published"], "mean")
        return {"real.summedits.mean": best["mean"], "real.summedits.method": best["method"],
                "real.summedits.fit": best["fitted_on"]}
    if name == "cliff":
        ba, word = _best(frame, "summary_balanced_accuracy"), _best(frame, "word_f1")
        return {"real.cliff.balanced_accuracy": ba["summary_balanced_accuracy"],
                "real.cliff.ba_method": f"{ba['method']}, fitted on {ba['fitted_on']}",
                "real.cliff.word_f1": word["word_f1"],
                "real.cliff.word_method": f"{word['method']}, fitted on {word['fitted_on']}",
                **_word_values("cliff", frame)}
    method = str(frame["method"].iloc[0])
    matrix = frame.drop(columns="method").set_index("fitted_on")
    values = matrix.to_numpy(dtype=float)
    diagonal = [matrix.loc[r, r] for r in matrix.index if r in matrix.columns]
    return {"real.transfer.method": method,
            "real.transfer.diagonal": float(np.nanmean(diagonal)) if diagonal else np.nan,
            "real.transfer.off_diagonal": float(np.nanmean([v for r, row in zip(matrix.index, values)
                                                            for c, v in zip(matrix.columns, row) if c != r]))}


def _word_values(name: str, frame: pd.DataFrame) -> dict:
    """The best word and span F1 of a benchmark and the rule-based rows beside them."""
    out = {}
    for column in ("word_f1", "span_f1"):
        if column not in frame or frame[column].isna().all():
            continue
        best = _best(frame, column)
        out[f"word.{name}.{column}"] = best[column]
        out[f"word.{name}.{column}.detector"] = f"{best['method']}, fitted on {best['fitted_on']}"
        lexical = frame[(frame["method"] == "Lexical") & frame[column].notna()]
        if len(lexical):
            out[f"word.{name}.{column}.rule"] = lexical[column].iloc[0]
    return out


def word_level(values: dict) -> pd.DataFrame:
    """Word- and span-level F1 on real data: the best detector, the rule-based mapping, published."""
    titles = {"ragtruth_qa": "RAGTruth QA", "cliff": "CLIFF test"}
    published = {"ragtruth_qa.span_f1": "LettuceDetect-large 0.589, fine-tuned Llama-2-13B 0.527 "
                                         "(whole RAGTruth test, trained on RAGTruth train)"}
    rows = []
    for name, title in titles.items():
        for column, what in (("word_f1", "word F1"), ("span_f1", "span F1")):
            key = f"word.{name}.{column}"
            if key in values:
                rows.append({"benchmark": f"{title}, {what}", "ours": values[key],
                             "detector": values[f"{key}.detector"], "rule": values.get(f"{key}.rule", np.nan),
                             "reference": published.get(f"{name}.{column}", "")})
    return pd.DataFrame(rows, columns=["benchmark", "ours", "detector", "rule", "reference"])


def realdata_section(tables_dir: Path, find: Find = lambda p: p) -> tuple[str, dict]:
    """Template text and values of every benchmark whose table exists."""
    text, values = "", {}
    for name, part in PARTS.items():
        csv = find(tables_dir / f"{name}.csv")
        if csv.is_file():
            text += part
            values.update(_values(name, pd.read_csv(csv, keep_default_na=False, na_values=[""])))
    return (INTRO + text if text else ABSENT), values


def abstract_sentence(values: dict) -> str:
    """The abstract's real-data sentence, from the values the section found (or a plain note)."""
    parts = []
    if "real.ragtruth_qa.response_f1" in values:
        parts.append(f"response-level F1 {values['real.ragtruth_qa.response_f1']:.3f} on real RAGTruth QA "
                     f"answers ({values['real.ragtruth_qa.floor']:.3f} for flagging every answer) and "
                     f"span-level F1 {values['real.ragtruth_qa.span_f1']:.3f}")
    if "real.summedits.mean" in values:
        parts.append(f"a mean balanced accuracy of {values['real.summedits.mean']:.3f} on SummEdits "
                     "(QAFactEval 0.674, GPT-4 0.832)")
    if "real.cliff.word_f1" in values:
        parts.append(f"word-level F1 {values['real.cliff.word_f1']:.3f} on CLIFF summaries")
    if not parts:
        return "No real-data benchmark was included in this build."
    return ("On real data, with detectors fitted on other corpora or domains and thresholds fixed before "
            "each test set was scored once, the best detectors reach " + "; ".join(parts) + ".")


def headline(values: dict) -> pd.DataFrame:
    """One row per real-data headline number, beside its floor or published reference."""
    rows = []

    def add(what, key, who, reference):
        if key in values:
            rows.append({"benchmark": what, "ours": float(values[key]), "detector": who, "reference": reference})

    v = values
    add("RAGTruth QA, response F1", "real.ragtruth_qa.response_f1",
        f"{v.get('real.ragtruth_qa.response_method')} (fitted on {v.get('real.ragtruth_qa.response_fit')})",
        f"flag everything {v.get('real.ragtruth_qa.floor', np.nan):.3f}; LettuceDetect-large 0.792 "
        "(whole RAGTruth test)")
    add("RAGTruth QA, span F1", "real.ragtruth_qa.span_f1", v.get("real.ragtruth_qa.span_method"),
        "LettuceDetect-large 0.589, fine-tuned Llama-2-13B 0.527 (whole RAGTruth test)")
    add("SummEdits, mean balanced accuracy", "real.summedits.mean",
        f"{v.get('real.summedits.method')} (fitted on {v.get('real.summedits.fit')})",
        "SummaC-Conv 0.571, QAFactEval 0.674, GPT-4 0.832")
    add("CLIFF test, summary balanced accuracy", "real.cliff.balanced_accuracy", v.get("real.cliff.ba_method"),
        "MiniCheck-FT5 0.699 / 0.743 on AggreFact CNN/DM / XSum")
    add("CLIFF test, word F1", "real.cliff.word_f1", v.get("real.cliff.word_method"), "")
    add("Transfer, mean off-diagonal ROC-AUC", "real.transfer.off_diagonal", v.get("real.transfer.method"),
        f"in-distribution (diagonal) {v.get('real.transfer.diagonal', np.nan):.3f}")
    return pd.DataFrame(rows, columns=["benchmark", "ours", "detector", "reference"])
