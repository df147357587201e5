"""The 'semantic' feature family: class counts per sentence and the flagged words per token.

Sentence columns (`SEMANTIC_FEATURES`): one count of signals per class (`sem_polarity`, ...) and
their total (`semantic_conflict`). Token columns: `semantic_conflict` (1 on a flagged word), the
class (`semantic_class`) and the evidence words it conflicts with (`semantic_evidence`), '' elsewhere,
and `semantic_confident` (1 on a word of a confident signal, which `detect` flags by rule; also on
the names of a role swap read from dependency arcs, `dependency_roles`, on the words of a polarity
or antonym flip read from them, `dependency_flips`, and on the certainty markers before a confident
modality shift, and on the words of `shown_signals` (the confident signals of a sentence's parts read
alone, `read_parts`, and doubtful quantifier shifts on one named group): shown by rule only, no count
or fitted feature moves).
Reads the one cached parse of each answer and each source's evidence; nothing is parsed here.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...text.parse import ParsedText
from ..family import FamilyContext, FeatureFamily, WorkTables, switched
from . import CLASSES, EvidenceSide, sentence_signals, shown_signals
from .align import sentence_view
from .dependency_flips import flip_candidates, flips_of, open_to_flips
from .dependency_roles import candidates, open_to_swaps, swaps_of
from .lexicon import lexicon

SEMANTIC_FEATURES = [f"sem_{c}" for c in CLASSES] + ["semantic_conflict"]
TOKEN_COLUMNS = ("semantic_conflict", "semantic_class", "semantic_evidence", "semantic_confident")


def add_semantic_features(sentences: pd.DataFrame, tokens: pd.DataFrame | None,
                          parsed: dict[str, ParsedText], indices: dict, cache=None) -> None:
    """Add the family's columns to `sentences` (and `tokens` when given) in place."""
    sides: dict[str, EvidenceSide] = {}
    unsigned: list[tuple[str, ParsedText, int, int, list]] = []  # no confident signal: try dependency roles
    unflipped: list[tuple[str, ParsedText, int, int, list]] = []  # ... and dependency flips
    counts = np.zeros((len(sentences), len(CLASSES)), dtype=np.int32)
    flagged: dict[tuple[str, int], tuple[str, str, bool]] = {}
    shown: dict[tuple[str, int], tuple[str, str]] = {}  # by rule only: modality markers, dependency swaps and flips
    rows = sentences[["response_id", "source_id", "start", "end"]].itertuples(index=False)
    for n, (rid, sid, start, end) in enumerate(rows):
        doc = parsed.get(rid)
        if doc is None or sid not in indices:
            continue
        if sid not in sides:
            sides[sid] = EvidenceSide(indices[sid].parsed)
        view = sentence_view(doc, int(start), int(end))
        found = sentence_signals(view, sides[sid])
        if open_to_swaps(found) and tokens is not None and (others := candidates(view, sides[sid].sentences)):
            unsigned.append((rid, doc, int(start), int(end), others))
        if open_to_flips(found) and tokens is not None \
                and (others := flip_candidates(view, sides[sid].sentences, lexicon())):
            unflipped.append((rid, doc, int(start), int(end), others))
        for s in found:
            counts[n, CLASSES.index(s.cls)] += 1
            for t in s.tokens:
                flagged[(rid, int(t))] = (s.cls, s.evidence, s.confident)
            if s.cls == "modality" and s.confident:
                for t in markers_before(doc, min(s.tokens), int(start)):
                    shown.setdefault((rid, t), (s.cls, s.evidence))
        for s in shown_signals(view, sides[sid], found) if tokens is not None else ():
            _show(flagged, shown, rid, s.tokens, s.cls, s.evidence)  # by rule only, like the dependency readers
    read = [[(x.names, "roles", x.evidence) for x in found] for found in swaps_of(_pairs(unsigned), cache)] \
        + [[([x.span], x.cls, x.evidence) for x in found] for found in flips_of(_pairs(unflipped), cache)]
    for (rid, doc, start, *_), found in zip(unsigned + unflipped, read):
        for spans, cls, evidence in found:
            for a, b in spans:
                _show(flagged, shown, rid, doc.tokens_in(start + a, start + b), cls, evidence)
    for k, c in enumerate(CLASSES):
        sentences[f"sem_{c}"] = counts[:, k]
    sentences["semantic_conflict"] = counts.sum(axis=1)
    if tokens is None or not len(tokens):
        if tokens is not None:
            for col in TOKEN_COLUMNS:
                tokens[col] = pd.Series(dtype=np.int8 if col in ("semantic_conflict", "semantic_confident") else object)
        return
    keys = zip(tokens["response_id"].to_numpy(), tokens["token_index"].to_numpy())
    keys = [(rid, int(i)) for rid, i in keys]
    hits = [flagged.get(key) for key in keys]
    marks = [None if h else shown.get(key) for h, key in zip(hits, keys)]
    tokens["semantic_conflict"] = np.array([h is not None for h in hits], dtype=np.int8)
    tokens["semantic_class"] = [h[0] if h else m[0] if m else "" for h, m in zip(hits, marks)]
    tokens["semantic_evidence"] = [h[1] if h else m[1] if m else "" for h, m in zip(hits, marks)]
    tokens["semantic_confident"] = np.array([bool(h and h[2]) or m is not None for h, m in zip(hits, marks)],
                                            dtype=np.int8)


def _show(flagged: dict, shown: dict, rid: str, tokens, cls: str, evidence: str) -> None:
    """Mark words for the rule only: a doubtful signal's word keeps its count and is shown."""
    for t in tokens:
        if (rid, int(t)) in flagged:
            flagged[(rid, int(t))] = (cls, evidence, True)
        else:
            shown.setdefault((rid, int(t)), (cls, evidence))


def _pairs(sentences: list[tuple[str, ParsedText, int, int, list]]) -> list[tuple[str, list[str]]]:
    """(answer sentence, its candidate evidence sentences) as texts, for a dependency reader."""
    return [(doc.text[a:b], [e.doc.text[e.start:e.end] for e in others]) for _, doc, a, b, others in sentences]


def markers_before(doc: ParsedText, first: int, floor: int) -> list[int]:
    """Tokens right before token `first` (not before character `floor`, the sentence start) that
    are certainty or tense markers (cues.toml [modality] span_markers), nearest first."""
    lex = lexicon()
    out = []
    for t in range(first - 1, max(first - 1 - lex.span_reach, -1), -1):
        if doc.starts[t] < floor or doc.lower[t] not in lex.span_markers:
            break
        out.append(t)
    return out if any(doc.lower[t] not in ("a", "an", "the") for t in out) else []


class SemanticFamily(FeatureFamily):
    name = "semantic"
    columns = tuple(SEMANTIC_FEATURES)
    token_columns = TOKEN_COLUMNS
    groups = {"semantic": tuple(SEMANTIC_FEATURES)}
    needs = ("parse", "the semantic word lists (features/semantic/data)")

    def switched_on(self, config) -> bool:
        return config.semantic

    def switch_on(self, config):
        return switched(config, semantic=True)

    def add(self, tables: WorkTables, context: FamilyContext) -> None:
        add_semantic_features(tables.sentences, tables.tokens, context.parsed_by_id, context.indices, context.cache)
