"""Response-level features: the whole answer against its evidence and its query.

For corpora labelled per response (no spans), a sentence's risk also depends on the answer
it belongs to: how long it is, how much of it is copied from the evidence, how much only
repeats the question. These columns are computed once per response and repeated on each
of its sentences (group "response"; `FeatureConfig.response_features` switches them on).

| column | meaning |
|---|---|
| resp_words | log(1 + words of the answer), punctuation excluded |
| resp_sentences | sentences of the answer |
| resp_coverage | content words covered by evidence or query (numbers matched as numbers) |
| resp_min_coverage | lowest sentence coverage |
| resp_evidence_coverage | content words found in the evidence alone |
| resp_query_coverage | content words found in the query alone (0 without a query) |
| resp_novel | content words and numbers found in neither |
| resp_numeric_mismatch / resp_entity_mismatch | sums over the answer's sentences |
| resp_bigram_precision / resp_trigram_precision | answer word n-grams present in evidence or query |
| resp_evidence_recall | share of the evidence's content-word types the answer uses |
| resp_length_ratio | log((1 + answer words) / (1 + evidence words)) |

Length features describe the answer, not its support; on some benchmarks they also capture a
known artefact (hallucinated answers are longer), which reports should state.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..records import Corpus
from ..text.parse import ParseCache, ParsedText, parse_texts
from .evidence import EvidenceIndex, content_indices, forms
from .family import FamilyContext, FeatureFamily, WorkTables, switched

RESPONSE_FEATURES = [
    "resp_words", "resp_sentences", "resp_coverage", "resp_min_coverage", "resp_evidence_coverage",
    "resp_query_coverage", "resp_novel", "resp_numeric_mismatch", "resp_entity_mismatch",
    "resp_bigram_precision", "resp_trigram_precision", "resp_evidence_recall", "resp_length_ratio",
]


def _words(doc: ParsedText) -> list[str]:
    return [doc.lower[i] for i in np.flatnonzero(~doc.is_punct)]


def _ngrams(words: list[str], n: int) -> set[tuple[str, ...]]:
    return set(zip(*[words[i:] for i in range(n)]))


class _SourceView:
    """What the response features need from one source, computed once."""

    __slots__ = ("evidence_forms", "query_forms", "ngrams", "content_types", "words")

    def __init__(self, index: EvidenceIndex, query: ParsedText):
        doc = index.parsed
        self.evidence_forms = frozenset(forms(doc, content_indices(doc)))
        self.query_forms = frozenset(forms(query, content_indices(query)))
        ev_words, q_words = _words(doc), _words(query)
        self.ngrams = {n: _ngrams(ev_words, n) | _ngrams(q_words, n) for n in (2, 3)}
        self.content_types = frozenset(doc.lemma[i] for i in content_indices(doc))
        self.words = len(ev_words)


def _precision(words: list[str], known: set, n: int) -> float:
    grams = _ngrams(words, n)
    return len(grams & known) / len(grams) if grams else 1.0


def response_feature_rows(sentences: pd.DataFrame, corpus: Corpus, parsed: list[ParsedText],
                          indices: dict[str, EvidenceIndex], queries: dict[str, ParsedText]) -> pd.DataFrame:
    """One row of RESPONSE_FEATURES per response of `corpus` (index: response_id)."""
    frame = sentences.assign(_covered=sentences["coverage"] * sentences["n_content"])
    per = frame.groupby("response_id", sort=False).agg(
        content=("n_content", "sum"), covered=("_covered", "sum"), min_coverage=("coverage", "min"),
        sentences=("sentence_index", "size"), novel=("novel_count", "sum"),
        numeric=("numeric_mismatch", "sum"), entity=("entity_mismatch", "sum")).to_dict("index")
    empty = {"content": 0, "covered": 0.0, "min_coverage": 1.0, "sentences": 0, "novel": 0,
             "numeric": 0, "entity": 0}
    views: dict[str, _SourceView] = {}
    rows = []
    for response, doc in zip(corpus.responses, parsed):
        sid = response.source_id
        view = views.get(sid)
        if view is None:
            view = views[sid] = _SourceView(indices[sid], queries[sid])
        idx = content_indices(doc)
        n = len(idx)
        in_ev = sum((doc.lower[i] in view.evidence_forms) or (doc.lemma[i] in view.evidence_forms) for i in idx)
        in_q = sum((doc.lower[i] in view.query_forms) or (doc.lemma[i] in view.query_forms) for i in idx)
        lemmas = {doc.lemma[i] for i in idx}
        words = _words(doc)
        agg = per.get(response.id, empty)
        content = float(agg["content"])
        rows.append({
            "response_id": response.id,
            "resp_words": float(np.log1p(len(words))),
            "resp_sentences": int(agg["sentences"]),
            "resp_coverage": float(agg["covered"]) / content if content else 1.0,
            "resp_min_coverage": float(agg["min_coverage"]),
            "resp_evidence_coverage": in_ev / n if n else 1.0,
            "resp_query_coverage": in_q / n if n else 0.0,
            "resp_novel": int(agg["novel"]),
            "resp_numeric_mismatch": int(agg["numeric"]),
            "resp_entity_mismatch": int(agg["entity"]),
            "resp_bigram_precision": _precision(words, view.ngrams[2], 2),
            "resp_trigram_precision": _precision(words, view.ngrams[3], 3),
            "resp_evidence_recall": (len(lemmas & view.content_types) / len(view.content_types)
                                     if view.content_types else 0.0),
            "resp_length_ratio": float(np.log((1 + len(words)) / (1 + view.words))),
        })
    return pd.DataFrame(rows, columns=["response_id", *RESPONSE_FEATURES]).set_index("response_id")


def add_response_features(sentences: pd.DataFrame, corpus: Corpus, parsed: list[ParsedText],
                          indices: dict[str, EvidenceIndex], *, pipeline: str = "auto",
                          cache: ParseCache | None = None) -> None:
    """Add the RESPONSE_FEATURES columns to the sentence table in place."""
    if sentences.empty:
        for col in RESPONSE_FEATURES:
            sentences[col] = pd.Series(dtype=float)
        return
    sids = list(indices)
    query_docs = parse_texts([indices[s].evidence.query or "" for s in sids], pipeline=pipeline,
                             cache=cache, progress=False, desc="parse queries")
    queries = dict(zip(sids, query_docs))
    table = response_feature_rows(sentences, corpus, parsed, indices, queries)
    joined = table.reindex(sentences["response_id"].to_numpy())
    for col in RESPONSE_FEATURES:
        sentences[col] = joined[col].to_numpy()


class ResponseFamily(FeatureFamily):
    name = "response"
    columns = tuple(RESPONSE_FEATURES)
    groups = {"response": tuple(RESPONSE_FEATURES)}
    needs = ("parse", "the query of each source (when it has one)")

    def state(self, extractor) -> str:
        return "runs" if extractor.config.response_features else "not configured (response_features = false)"

    def switched_on(self, config) -> bool:
        return config.response_features

    def switch_on(self, config):
        return switched(config, response_features=True)

    def add(self, tables: WorkTables, context: FamilyContext) -> None:
        add_response_features(tables.sentences, context.corpus, context.parsed, context.indices,
                              pipeline=context.config.pipeline, cache=context.cache)
