"""Provenance (Sankararaman et al., 2024): a fact checker built from replaceable stages.

    context items --relevance--> scores --selection--> sources + weights
    query, answer --claim-->     claim
    (source, claim) --fact checker--> support per source --aggregation--> factuality

1. **Context items** are the sentences of the evidence (as in the paper), in their order.
2. **Relevance** of each item to the query (question or dialogue history; a summary has
   no query, so the summary itself is the relevance query): BM25+, TF-IDF cosine, MiniLM
   embedding cosine (optional), a transformers cross-encoder from a local directory
   (optional) or the learned checker's supported probability of (item, query) (optional,
   `learned_checker`, default results/checker from `make checker`; T = 0.05 like the
   similarities). Every scorer has the interface `score(examples) -> [array per example]`.
3. **Selection**: relevance scores become probabilities by a softmax with temperature T,
   p_i = exp(s_i / T) / sum_j exp(s_j / T). BM25+, TF-IDF and embedding scores are
   similarities on a [0, 1] (cosine: [-1, 1]) scale and use T = 0.05 unless configured
   (a similarity gap of 0.1 is then a factor e^2 in probability); cross-encoder logits use
   T = 1. The benchmark config that runs it sets BM25+ 0.01 and TF-IDF / MiniLM 0.03, so that
   TopP(0.9) keeps a few sentences of a news article (the paper reports 3-4 sources).
   TopK keeps the k most probable items; TopP keeps the smallest set, taken in order of
   decreasing probability (ties: earlier item first), whose cumulative probability
   reaches p (p >= 1 keeps every item). The kept probabilities are renormalised to sum to
   one (the source weights) and the kept items are put back in their original order.
4. **Claim**: QA "The answer to question Q is A."; dialogue "The reply to the conversation
   H is: A"; summary "A summary of the document is: A".
5. **Fact checker**: the support probability of each (source, claim) pair. An NLI
   cross-encoder from a local directory (entailment probability; optional), the learned
   checker of `make checker` (its supported probability; optional, `learned_checker`),
   or offline checkers: the EvidenceChain sentence model (1 - its hallucination
   probability on the answer's features computed against that one source, query words
   counting as given) and the NLI-lite rules (1 - max of numeric, entity and coverage risks).
6. **Aggregation** of the supports over the selected sources: min, max, or the weighted
   average with the selection weights. The response risk is 1 - factuality.

Absent optional models raise `NeuralUnavailable` when loaded; callers report them as
absent (see `evidencechain.detectors.response_methods`), never substitute another component.

Modules, one stage each: `examples` (context items from the feature tables), `relevance`
(scorers), `store` (embedding cache), `selection` (softmax, TopK, TopP), `claims`, `pairs`
((source, claim) batches and their features), `checkers`, `aggregate`, `grid` (`run_grid`,
`Provenance`) and `settings` (`[detectors.params.Provenance]` of an experiment file).
"""
from __future__ import annotations

from .aggregate import AGGREGATIONS, aggregate_support
from .checkers import (
    DetectorChecker,
    FactChecker,
    LearnedChecker,
    NLICrossEncoderChecker,
    evidencechain_checker,
    load_learned_checker,
    nli_rules_checker,
)
from .claims import CLAIM_TEMPLATES, DEFAULT_TEMPLATE, Claim, make_claim
from .examples import Example, context_spans, examples_from_tables
from .grid import GridResult, Provenance, config_name, run_grid
from .pairs import PAIR_FEATURES, PairBatch, PairFeaturizer
from .relevance import (
    LOGIT_TEMPERATURE,
    SIMILARITY_TEMPERATURE,
    BM25Relevance,
    CrossEncoderRelevance,
    EmbeddingRelevance,
    LearnedCheckerRelevance,
    RelevanceScorer,
    TfidfRelevance,
)
from .selection import Selection, Selector, TopK, TopP, relevance_probabilities
from .settings import FACT_CHECKERS, RELEVANCE_SCORERS, ProvenanceSettings
from .store import EmbeddingStore

__all__ = [
    "AGGREGATIONS",
    "CLAIM_TEMPLATES",
    "DEFAULT_TEMPLATE",
    "FACT_CHECKERS",
    "LOGIT_TEMPERATURE",
    "PAIR_FEATURES",
    "RELEVANCE_SCORERS",
    "SIMILARITY_TEMPERATURE",
    "BM25Relevance",
    "Claim",
    "CrossEncoderRelevance",
    "DetectorChecker",
    "EmbeddingRelevance",
    "EmbeddingStore",
    "Example",
    "FactChecker",
    "GridResult",
    "LearnedChecker",
    "LearnedCheckerRelevance",
    "NLICrossEncoderChecker",
    "PairBatch",
    "PairFeaturizer",
    "Provenance",
    "ProvenanceSettings",
    "RelevanceScorer",
    "Selection",
    "Selector",
    "TfidfRelevance",
    "TopK",
    "TopP",
    "aggregate_support",
    "config_name",
    "context_spans",
    "evidencechain_checker",
    "examples_from_tables",
    "load_learned_checker",
    "make_claim",
    "nli_rules_checker",
    "relevance_probabilities",
    "run_grid",
]
