"""The unit of checker training data: one (evidence window, claim) pair with its verdict."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pandas as pd

LABELS = ("supported", "conflict", "baseless")
"""Verdict classes, in head order: RAGTruth's Conflict / Baseless Info, RefChecker's
Entailment / Contradiction / Neutral."""


@dataclass(frozen=True)
class Pair:
    premise: str
    """The evidence window the claim is checked against."""
    claim: str
    """One claim sentence."""
    label: str
    """One of LABELS."""
    spans: tuple[tuple[int, int], ...] = ()
    """Character offsets in `claim` of the unsupported words (changed, added or contradicted)."""
    token_labels: bool = False
    """True when `spans` is known (then the token loss applies, an empty `spans` meaning every
    token is supported); False for sources that label whole claims only."""
    kind: str = ""
    """What made the pair: a perturbation type ("number_swap", "negation", ...) or a real label."""
    source: str = ""
    """Recipe source name ("perturb_halueval", "anli", "wice", "factcheck", "cliff_val", ...)."""
    group: str = ""
    """Document id: pairs of one group never straddle the training / validation split."""

    def __post_init__(self):
        if self.label not in LABELS:
            raise ValueError(f"label {self.label!r} not in {LABELS}")
        for start, end in self.spans:
            if not 0 <= start < end <= len(self.claim):
                raise ValueError(f"span {(start, end)} outside the claim of length {len(self.claim)}")


def describe(pairs: list[Pair]) -> pd.DataFrame:
    """Pairs by source, label and kind, with the share that carries token labels."""
    counts = Counter((p.source, p.label, p.kind, p.token_labels) for p in pairs)
    rows = [{"source": s, "label": lab, "kind": k, "token_labels": int(t), "pairs": n}
            for (s, lab, k, t), n in sorted(counts.items())]
    return pd.DataFrame(rows, columns=["source", "label", "kind", "token_labels", "pairs"])
