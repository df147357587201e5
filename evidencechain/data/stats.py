"""Corpus statistics: per split, per task/source and per generator label."""
from __future__ import annotations

from collections import defaultdict

import numpy as np
import pandas as pd

from ..records import Corpus
from ..text.parse import parse_texts
from ..text.spans import token_labels
from .splits import SPLIT_NAMES, assign_splits


def _rate(num: int, den: int) -> float:
    return num / den if den else 0.0


def _no_info(resp) -> int:
    """Gold NO-INFO sentences of a response (`sentence_meta` tier; 0 without sentence_meta)."""
    return sum(g.tier == "no_info" for g in resp.sentence_meta or ())


def corpus_statistics(corpus: Corpus, seed: int = 17, calibration_fraction: float = 0.2,
                      pipeline: str = "auto") -> dict[str, pd.DataFrame]:
    """Tables "split", "task" and "generator" describing `corpus`.

    split: per train/calibration/test partition (`assign_splits`): sources, responses,
    hallucinated responses, spaCy sentences, gold NO-INFO sentences (`sentence_meta` tier),
    non-punctuation tokens, hallucinated tokens (tokens overlapping a gold span) and their rate.
    task: per (task_type, source): sources, responses, hallucinated responses and rate.
    generator: per model label: responses, hallucinated responses, mean temperature, rate,
    responses with a gold NO-INFO sentence and NO-INFO sentences.
    """
    assignment = assign_splits(corpus, calibration_fraction, seed)
    parsed = parse_texts([r.response for r in corpus.responses], pipeline=pipeline, progress=False,
                         desc="stats")
    split_rows = {name: defaultdict(int) for name in SPLIT_NAMES}
    split_sources: dict[str, set[str]] = {name: set() for name in SPLIT_NAMES}
    for resp, doc in zip(corpus.responses, parsed):
        name = assignment[resp.source_id]
        row = split_rows[name]
        split_sources[name].add(resp.source_id)
        row["responses"] += 1
        row["hallucinated_responses"] += int(resp.hallucinated)
        row["sentences"] += len(doc.sentences)
        row["no_info_sentences"] += _no_info(resp)
        keep = ~doc.is_punct
        row["tokens"] += int(keep.sum())
        gold = token_labels(doc, [(lab.start, lab.end) for lab in resp.labels])
        row["hallucinated_tokens"] += int(np.sum(gold[keep] == 1))
    split = pd.DataFrame([
        {"split": name, "sources": len(split_sources[name]), "responses": row["responses"],
         "hallucinated_responses": row["hallucinated_responses"], "sentences": row["sentences"],
         "no_info_sentences": row["no_info_sentences"], "tokens": row["tokens"],
         "hallucinated_tokens": row["hallucinated_tokens"],
         "hallucinated_token_rate": _rate(row["hallucinated_tokens"], row["tokens"])}
        for name, row in split_rows.items()
    ])

    task_rows: dict[tuple[str, str], dict] = {}
    for resp in corpus.responses:
        src = corpus.source_of(resp)
        row = task_rows.setdefault((src.task_type, src.source),
                                   {"sources": set(), "responses": 0, "hallucinated_responses": 0})
        row["sources"].add(src.source_id)
        row["responses"] += 1
        row["hallucinated_responses"] += int(resp.hallucinated)
    task = pd.DataFrame([
        {"task_type": t, "source": s, "sources": len(row["sources"]), "responses": row["responses"],
         "hallucinated_responses": row["hallucinated_responses"],
         "hallucination_rate": _rate(row["hallucinated_responses"], row["responses"])}
        for (t, s), row in sorted(task_rows.items())
    ])

    gen_rows: dict[str, dict] = {}
    for resp in corpus.responses:
        row = gen_rows.setdefault(resp.model, {"responses": 0, "hallucinated_responses": 0, "temp": 0.0,
                                               "no_info_responses": 0, "no_info_sentences": 0})
        row["responses"] += 1
        row["hallucinated_responses"] += int(resp.hallucinated)
        row["temp"] += resp.temperature
        row["no_info_responses"] += int(_no_info(resp) > 0)
        row["no_info_sentences"] += _no_info(resp)
    generator = pd.DataFrame([
        {"model": m, "responses": row["responses"], "hallucinated_responses": row["hallucinated_responses"],
         "mean_temperature": _rate(row["temp"], row["responses"]),
         "hallucination_rate": _rate(row["hallucinated_responses"], row["responses"]),
         "no_info_responses": row["no_info_responses"], "no_info_sentences": row["no_info_sentences"]}
        for m, row in sorted(gen_rows.items())
    ])
    return {"split": split, "task": task, "generator": generator}


def _cell(value) -> str:
    if isinstance(value, (float, np.floating)):
        return f"{value:.3f}"
    return str(value)


def markdown_table(frame: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table (numbers right-aligned, floats to 3 decimals)."""
    header = "| " + " | ".join(str(c) for c in frame.columns) + " |"
    align = "| " + " | ".join(
        "---:" if pd.api.types.is_numeric_dtype(frame[c]) else "---" for c in frame.columns) + " |"
    rows = ["| " + " | ".join(_cell(v) for v in row) + " |"
            for row in frame.itertuples(index=False, name=None)]
    return "\n".join([header, align, *rows])


TABLE_TITLES = {"split": "By split", "task": "By task and source", "generator": "By generator label"}


def statistics_markdown(tables: dict[str, pd.DataFrame]) -> str:
    """The tables of `corpus_statistics` as Markdown sections."""
    parts = []
    for key, frame in tables.items():
        parts.append(f"### {TABLE_TITLES.get(key, key)}\n\n{markdown_table(frame)}\n")
    return "\n".join(parts)
