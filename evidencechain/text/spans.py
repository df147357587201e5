"""Map character spans to token labels and token decisions back to character spans."""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .parse import ParsedText


def token_labels(parsed: ParsedText, spans: Iterable[tuple[int, int]]) -> np.ndarray:
    """1 for every token whose characters intersect any [start, end) span, else 0."""
    labels = np.zeros(len(parsed), dtype=np.int8)
    for start, end in spans:
        labels[(parsed.starts < end) & (parsed.ends > start)] = 1
    return labels


def tokens_to_spans(parsed: ParsedText, mask: np.ndarray, scores: np.ndarray | None = None,
                    ) -> list[tuple[int, int, float]]:
    """Merge runs of flagged tokens into character spans (start, end, max score).

    Punctuation between two flagged tokens joins them; a run never crosses a sentence end.
    """
    mask = np.asarray(mask, dtype=bool)
    scores = np.ones(len(parsed)) if scores is None else np.asarray(scores, dtype=float)
    sentence_of = np.full(len(parsed), -1)
    for k, (a, b) in enumerate(parsed.sentences):
        sentence_of[(parsed.starts >= a) & (parsed.starts < b)] = k
    spans: list[tuple[int, int, float]] = []
    i, n = 0, len(parsed)
    while i < n:
        if not mask[i]:
            i += 1
            continue
        j, last = i, i
        while j + 1 < n and sentence_of[j + 1] == sentence_of[i]:
            if mask[j + 1]:
                last = j + 1
            elif not parsed.is_punct[j + 1]:
                break
            j += 1
        spans.append((int(parsed.starts[i]), int(parsed.ends[last]),
                      float(scores[i:last + 1][mask[i:last + 1]].max())))
        i = last + 1
    return spans
