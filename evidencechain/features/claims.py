"""Claim triplets as a feature family (RefChecker-style): each answer sentence's (subject,
relation, object) triplets, each checked against the sentences of its own source.

Sentence columns: `n_triplets`, `n_entailment`, `n_neutral`, `n_contradiction` and `triplets`
(readable: "subject | relation | object [Verdict]; ..."). Token column: `triplet_verdict`
(2 inside an element of a contradicted triplet, 1 of a neutral one, 0 otherwise). The triplet
table (one row per triplet, offsets in the answer) is kept on the feature tables for the
triplet-level evaluation and `detect`.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ..text.triplets import extract_triplets, load_dependency_pipeline
from .evidence import EvidenceIndex
from .triplets import COUNT_COLUMNS, check_triplets

TRIPLET_COLUMNS = ["response_id", "sentence_index", "start", "end", "subject", "relation", "object",
                   "verdict", "evidence_index", "coverage"]
VERDICT_CODE = {"Entailment": 0, "Neutral": 1, "Contradiction": 2}


def claim_pipeline_name() -> str:
    """Which parser extracts the triplets (run.json): a dependency parse, or the clause rule."""
    nlp = load_dependency_pipeline()
    return f"spaCy dependency parse ({nlp.meta.get('name', 'model')})" if nlp is not None else \
        "clause rule (no dependency parser installed)"


def evidence_sentences(index: EvidenceIndex) -> list[str]:
    p = index.parsed
    spans = p.sentences or ([(0, len(p.text))] if p.text.strip() else [])
    return [p.text[a:b] for a, b in spans]


def add_claim_features(sentences: pd.DataFrame, tokens: pd.DataFrame | None, texts: dict[str, str],
                       indices: dict[str, EvidenceIndex], progress: bool = True) -> pd.DataFrame:
    """Add the claim columns to `sentences` (and `tokens`); return the triplet table."""
    nlp = load_dependency_pipeline()
    rows, counts = [], {c: np.zeros(len(sentences), dtype=int) for c in COUNT_COLUMNS}
    readable = np.full(len(sentences), "", dtype=object)
    evidence_of: dict[str, list[str]] = {}
    groups = sentences.groupby("response_id", sort=False).indices if len(sentences) else {}
    for rid, where in tqdm(groups.items(), desc="claim triplets", disable=not progress, unit="resp", leave=False):
        part = sentences.iloc[where]
        sid = part["source_id"].iloc[0]
        if sid not in evidence_of:
            evidence_of[sid] = evidence_sentences(indices[sid])
        spans = list(zip(part["start"].astype(int), part["end"].astype(int)))
        triplets = extract_triplets(texts[rid], spans, nlp=nlp)
        verdicts = check_triplets(triplets, evidence_of[sid])
        row_of = dict(zip(part["sentence_index"].astype(int), where))
        for v in verdicts:
            t, k = v.triplet, row_of.get(v.triplet.sentence_index)
            if k is None:
                continue
            counts["n_triplets"][k] += 1
            counts[f"n_{v.verdict.lower()}"][k] += 1
            text = f"{t.subject.text} | {t.relation.text} | {t.object.text} [{v.verdict}]"
            readable[k] = f"{readable[k]}; {text}" if readable[k] else text
            rows.append({"response_id": rid, "sentence_index": t.sentence_index, "start": t.start, "end": t.end,
                         "subject": t.subject.text, "relation": t.relation.text, "object": t.object.text,
                         "verdict": v.verdict, "evidence_index": v.evidence_index, "coverage": v.coverage,
                         "elements": [(e.start, e.end) for e in (t.subject, t.relation, t.object)]})
    for c, values in counts.items():
        sentences[c] = values
    sentences["triplets"] = readable
    table = pd.DataFrame(rows, columns=[*TRIPLET_COLUMNS, "elements"])
    if tokens is not None and len(tokens):
        tokens["triplet_verdict"] = _token_verdicts(tokens, table)
    return table.drop(columns="elements")


def _token_verdicts(tokens: pd.DataFrame, table: pd.DataFrame) -> np.ndarray:
    out = np.zeros(len(tokens), dtype=np.int8)
    if table.empty:
        return out
    by_response = tokens.groupby("response_id", sort=False).indices
    starts, ends = tokens["start"].to_numpy(), tokens["end"].to_numpy()
    for r in table.itertuples(index=False):
        where = by_response.get(r.response_id)
        code = VERDICT_CODE[r.verdict]
        if where is None or code == 0:
            continue
        for a, b in r.elements:
            inside = where[(starts[where] < b) & (ends[where] > a)]
            out[inside] = np.maximum(out[inside], code)
    return out
