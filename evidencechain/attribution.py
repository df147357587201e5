"""Evidence attribution: the chunk each sentence rests on, and its top-1 accuracy."""
from __future__ import annotations

import pandas as pd

ATTRIBUTION_METHODS = {
    "Lexical-overlap argmax": ("overlap_chunk", "best_chunk_overlap"),
    "BM25 argmax": ("bm25_chunk", "bm25_max"),
    "TF-IDF argmax": ("tfidf_chunk", "tfidf_max"),
}


def attribution_accuracy(sentences: pd.DataFrame) -> pd.DataFrame:
    """Top-1 accuracy on supported sentences that carry a gold chunk index."""
    gold = sentences[(sentences["gold_chunk"] >= 0) & (sentences["label"] == 0)]
    rows = []
    for method, (column, _) in ATTRIBUTION_METHODS.items():
        n = len(gold)
        correct = int((gold[column] == gold["gold_chunk"]).sum())
        rows.append({"method": method, "supported_sentences": n,
                     "top1_accuracy": correct / n if n else float("nan")})
    return pd.DataFrame(rows)


def attach_chunks(sentences: pd.DataFrame, indices: dict, method: str = "TF-IDF argmax") -> pd.DataFrame:
    """Evidence chunk id, offsets, text and score of each sentence under one attribution method."""
    column, score = ATTRIBUTION_METHODS[method]
    out = []
    for sid, k, s in zip(sentences["source_id"], sentences[column], sentences[score]):
        chunks = indices[sid].evidence.chunks
        if 0 <= k < len(chunks):
            c = chunks[k]
            out.append((f"{sid}#{c.index}", c.start, c.end, c.text, float(s)))
        else:
            out.append(("", -1, -1, "", float(s)))
    return pd.DataFrame(out, columns=["evidence_chunk", "evidence_start", "evidence_end",
                                      "evidence_text", "evidence_score"], index=sentences.index)
