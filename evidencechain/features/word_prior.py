"""The 'word_prior' feature family: what the training answers say about words absent from the evidence.

A minimal edit (an antonym no lexicon lists, "struggling" for "thriving", a new qualifier) puts
one word into the answer that the evidence lacks; so does every faithful paraphrase. Which new
words go with hallucinated answers is learned from the training corpus: per lemma, the smoothed
log-odds of "hallucinated" among the training answers that use it without the evidence having
it. Columns per sentence: `novel_words` (its novel lemmas, space-separated; read by refits, in no
group), `word_prior_sum` and `word_prior_max` over those seen in at least `MIN_COUNT` training
answers (0 without any).

The training answers' own columns are cross-fitted: an answer of the training corpus gets the
counts of the other `FOLDS - 1` folds (folds by source), so a detector fitted on these columns
does not learn from a word's own label.
"""
from __future__ import annotations

import hashlib
import math

import numpy as np
import pandas as pd

from ..text.parse import ParsedText, parse_texts
from .family import RUNS, FamilyContext, FeatureFamily, WorkTables

FOLDS = 5
MIN_COUNT = 3
"""Training answers a lemma must occur in (as a novel word) before its log-odds count."""
SMOOTHING = 1.0
"""Pseudo-answers added to each lemma's counts, split by the training corpus's class balance."""
WORD_PRIOR_FEATURES = ("word_prior_sum", "word_prior_max")


def novel_lemmas(doc: ParsedText, vocab: frozenset[str], start: int = 0, end: int | None = None) -> list[str]:
    """Distinct lemmas (in order) of the content words in [start, end) that the evidence lacks;
    numbers are left to the numeric features."""
    end = len(doc.text) if end is None else end
    out: dict[str, None] = {}
    for i in np.flatnonzero((doc.starts >= start) & (doc.ends <= end)):
        if doc.is_punct[i] or doc.is_stop[i] or doc.like_num[i]:
            continue
        if doc.lower[i] not in vocab and doc.lemma[i] not in vocab:
            out[doc.lemma[i].lower()] = None
    return list(out)


def fold_of(source_id: str) -> int:
    return int(hashlib.md5(source_id.encode()).hexdigest(), 16) % FOLDS


def fit_counts(words: list[list[str]], labels: list[int], folds: list[int]) -> dict:
    """Per-lemma answer counts by class, overall and per fold (plain dicts: the model file keeps them)."""
    counts = {"pos": {}, "neg": {}, "n": [0, 0], "fold_pos": [{} for _ in range(FOLDS)],
              "fold_neg": [{} for _ in range(FOLDS)], "fold_n": [[0, 0] for _ in range(FOLDS)]}
    for lemmas, label, fold in zip(words, labels, folds):
        key = "pos" if label else "neg"
        counts["n"][int(not label)] += 1
        counts["fold_n"][fold][int(not label)] += 1
        for w in set(lemmas):
            counts[key][w] = counts[key].get(w, 0) + 1
            counts[f"fold_{key}"][fold][w] = counts[f"fold_{key}"][fold].get(w, 0) + 1
    return counts


def log_odds(counts: dict, lemmas: list[str], fold: int | None = None) -> tuple[float, float]:
    """(sum, max) of the lemmas' log-odds; `fold`: leave that fold's answers out."""
    npos, nneg = counts["n"]
    if fold is not None:
        npos, nneg = npos - counts["fold_n"][fold][0], nneg - counts["fold_n"][fold][1]
    if npos <= 0 or nneg <= 0:
        return 0.0, 0.0
    prior = npos / (npos + nneg)
    values = []
    for w in lemmas:
        pos, neg = counts["pos"].get(w, 0), counts["neg"].get(w, 0)
        if fold is not None:
            pos -= counts["fold_pos"][fold].get(w, 0)
            neg -= counts["fold_neg"][fold].get(w, 0)
        if pos + neg < MIN_COUNT:
            continue
        values.append(math.log((pos + SMOOTHING * prior) / npos) - math.log((neg + SMOOTHING * (1 - prior)) / nneg))
    return (float(sum(values)), float(max(values))) if values else (0.0, 0.0)


class WordPriorFamily(FeatureFamily):
    name = "word_prior"
    columns = ("novel_words", *WORD_PRIOR_FEATURES)
    groups = {"word_prior": WORD_PRIOR_FEATURES}
    needs = ("parse", "labelled training answers")
    learned = True

    def state(self, extractor) -> str:
        if not self.switched_on(extractor.config):
            return super().state(extractor)
        return RUNS if getattr(extractor, "word_prior", None) else "not fitted"

    def fit(self, extractor, context: FamilyContext) -> None:
        if not self.switched_on(extractor.config) or context.corpus is None:
            return
        responses = [r for r in context.corpus.responses if r.source_id in context.indices]
        docs = parse_texts([r.response for r in responses], pipeline=extractor.config.pipeline,
                           cache=context.cache, progress=False)
        words = [novel_lemmas(d, context.indices[r.source_id].vocab) for r, d in zip(responses, docs)]
        folds = [fold_of(r.source_id) for r in responses]
        extractor.word_prior = {"counts": fit_counts(words, [int(r.hallucinated) for r in responses], folds),
                                "fitted": {r.id: f for r, f in zip(responses, folds)}}

    def add(self, tables: WorkTables, context: FamilyContext) -> None:
        sentences = tables.sentences
        if "novel_words" not in sentences.columns:
            parsed, indices = context.parsed_by_id, context.indices
            rows = sentences[["response_id", "source_id", "start", "end"]].itertuples(index=False)
            sentences["novel_words"] = [
                " ".join(novel_lemmas(parsed[rid], indices[sid].vocab, int(a), int(b)))
                if rid in parsed and sid in indices else "" for rid, sid, a, b in rows]
        prior = context.extractor.word_prior
        values = [log_odds(prior["counts"], words.split(), prior["fitted"].get(rid))
                  for rid, words in zip(sentences["response_id"], sentences["novel_words"])]
        frame = pd.DataFrame(values or np.zeros((0, 2)), columns=list(WORD_PRIOR_FEATURES))
        for column in WORD_PRIOR_FEATURES:
            sentences[column] = frame[column].to_numpy()
