"""Shared by the semantic rule tests: the confident signals of an answer against its evidence."""
from __future__ import annotations

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
