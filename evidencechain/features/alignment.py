"""The 'alignment' feature family: how each answer sentence sits against its best-aligned evidence
sentences, for minimal edits whose words the evidence as a whole still contains.

Whole-evidence overlap (`coverage`, `novel_count`) cannot see a word swapped for another word of a
long source, or two facts of different evidence sentences joined in one answer sentence. These
columns compare each answer sentence with the evidence sentences that restate it (content words
matched by lower case, lemma or stem, as the semantic classes match them):

- `align_best`: share of the sentence's content words found in the single best evidence sentence;
- `align_top`: share found in the union of the `TOP` best evidence sentences;
- `align_missing`: content words absent from those `TOP` sentences (found elsewhere or nowhere);
- `pair_unsupported`: neighbouring content-word pairs whose words both occur in the evidence but
  never in one evidence sentence (a value or name moved to another fact);
- `novel_share`: share of content words absent from the whole evidence.

Reads the one cached parse of each answer and each source; nothing is parsed here.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd

from ..text.parse import ParsedText
from .family import FamilyContext, FeatureFamily, WorkTables
from .semantic.align import View, sentence_view, sentence_views

TOP = 3
"""Evidence sentences whose union an answer sentence is compared with (a summary sentence often
condenses two or three source sentences, or turns of a dialogue)."""
ALIGNMENT_FEATURES = ("align_best", "align_top", "align_missing", "pair_unsupported", "novel_share")


class EvidencePostings:
    """For one source: content-word key -> the evidence sentences that contain it."""

    def __init__(self, doc: ParsedText):
        self.postings: dict[str, set[int]] = {}
        for j, view in enumerate(sentence_views(doc)):
            for key in view.content_keys:
                self.postings.setdefault(key, set()).add(j)

    def sentences_of(self, keys: frozenset[str]) -> set[int]:
        out: set[int] = set()
        for key in keys:
            out |= self.postings.get(key, set())
        return out


def sentence_alignment(answer: View, evidence: EvidencePostings) -> tuple[float, float, int, int, float]:
    """The `ALIGNMENT_FEATURES` of one answer sentence (zeros for a sentence without content)."""
    found = [evidence.sentences_of(answer.keys(k)) for k in range(len(answer)) if answer.content(k)]
    if not found:
        return 0.0, 0.0, 0, 0, 0.0
    counts = Counter(j for where in found for j in where)
    ranked = [j for j, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]
    best = counts[ranked[0]] if ranked else 0
    top = set(ranked[:TOP])
    in_top = sum(bool(where & top) for where in found)
    pairs = sum(bool(a) and bool(b) and not a & b for a, b in zip(found, found[1:]))
    novel = sum(not where for where in found)
    n = len(found)
    return best / n, in_top / n, n - in_top, pairs, novel / n


def add_alignment_features(sentences: pd.DataFrame, parsed: dict[str, ParsedText], indices: dict) -> None:
    """Add `ALIGNMENT_FEATURES` to `sentences` in place."""
    postings: dict[str, EvidencePostings] = {}
    values = np.zeros((len(sentences), len(ALIGNMENT_FEATURES)), dtype=float)
    rows = sentences[["response_id", "source_id", "start", "end"]].itertuples(index=False)
    for n, (rid, sid, start, end) in enumerate(rows):
        doc = parsed.get(rid)
        if doc is None or sid not in indices:
            continue
        if sid not in postings:
            postings[sid] = EvidencePostings(indices[sid].parsed)
        values[n] = sentence_alignment(sentence_view(doc, int(start), int(end)), postings[sid])
    for k, column in enumerate(ALIGNMENT_FEATURES):
        sentences[column] = values[:, k]


class AlignmentFamily(FeatureFamily):
    name = "alignment"
    columns = ALIGNMENT_FEATURES
    groups = {"alignment": ALIGNMENT_FEATURES}
    needs = ("parse",)

    def add(self, tables: WorkTables, context: FamilyContext) -> None:
        add_alignment_features(tables.sentences, context.parsed_by_id, context.indices)
