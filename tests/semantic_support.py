"""Shared by the semantic rule tests: the confident signals of an answer against its evidence, and
the semantic family's tables of one answer."""
from __future__ import annotations

import pandas as pd

from evidencechain.features.semantic import EvidenceSide, text_signals
from evidencechain.text.parse import parse_texts


def confident_signals(evidence: str, answer: str) -> list[tuple[str, str, str]]:
    """(class, flagged words, evidence words) of every confident signal."""
    ev, doc = parse_texts([evidence, answer], progress=False)
    return [(s.cls, " ".join(doc.token_text(t) for t in s.tokens), s.evidence)
            for ss in text_signals(doc, EvidenceSide(ev)) for s in ss if s.confident]


def flagged(evidence: str, answer: str) -> list[tuple[str, str]]:
    """Sorted (class, flagged words) of every confident signal."""
    return sorted((c, w) for c, w, _ in confident_signals(evidence, answer))


def semantic_table(evidence_text: str, answer_text: str):
    """(answer parse, sentence table, token table) of one answer sentence with the semantic family's
    columns (`features.semantic.table.add_semantic_features`)."""
    from evidencechain.features.evidence import EvidenceIndex
    from evidencechain.features.semantic.table import add_semantic_features

    evidence, answer = parse_texts([evidence_text, answer_text], progress=False)
    index = EvidenceIndex.__new__(EvidenceIndex)
    index.parsed = evidence
    sentences = pd.DataFrame({"response_id": ["r"], "source_id": ["s"], "start": [0], "end": [len(answer.text)]})
    tokens = pd.DataFrame({"response_id": ["r"] * len(answer), "token_index": range(len(answer))})
    add_semantic_features(sentences, tokens, {"r": answer}, {"s": index})
    return answer, sentences, tokens
