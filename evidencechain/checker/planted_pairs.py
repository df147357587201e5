"""Checker pairs with a planted meaning error (polarity, antonym, swapped roles, quantity,
recombined value, modality) in a real sentence, and meaning-preserving paraphrases of real
sentences as supported pairs: the error classes that reuse the evidence's own words, taught to
the learned checker from the documents a recipe names (train splits only, never a benchmark's test text)."""
from __future__ import annotations

import random

from ..data.planted import CLASSES, paraphrase, plant
from ..data.planted.corpus import FALLBACK
from ..text.parse import parse_texts
from ..text.windows import split_sentences, window_around, word_count
from .records import Pair

SUPPORTED_SHARE = 1 / 3
"""Share of the pairs that are paraphrases (supported): the hard negatives of the classes."""
CANDIDATES_PER_PAIR = 2
"""Sentences sampled (and parsed) per wanted pair: not every sentence offers an edit."""


def _candidates(docs: list[tuple[str, list[str]]], count: int, rng: random.Random) -> list[tuple[int, int]]:
    seen: set[tuple[int, int]] = set()
    out = []
    for _ in range(count * 20):
        if len(out) >= count:
            break
        d = rng.randrange(len(docs))
        i = rng.randrange(len(docs[d][1]))
        if (d, i) in seen or not 6 <= word_count(docs[d][1][i]) <= 50:
            continue
        seen.add((d, i))
        out.append((d, i))
    return out


def _first(classes, make, args: tuple, good):
    """(class, edit) of the first class whose `make(class, *args)` applies and passes `good`."""
    for cls in classes:
        edit = make(cls, *args)
        if edit is not None and good(edit):
            return cls, edit
    return None


def planted_pairs(documents: list[tuple[str, str]], n: int, random_state: int, source: str,
                  max_premise_words: int = 110, progress: bool = False) -> list[Pair]:
    """`n` pairs from (doc_id, text) documents: a conflict pair per planted error (gold span: the
    planted words, kind `planted_<class>`) and a supported pair per paraphrase (kind
    `paraphrase_<class>`); classes rotate so each appears about equally."""
    rng = random.Random(random_state)
    docs = [(d, split_sentences(t)) for d, t in documents]
    docs = [(d, s) for d, s in docs if len(s) >= 2]
    if not docs or n <= 0:
        return []
    picks = _candidates(docs, n * CANDIDATES_PER_PAIR, rng)
    parsed = parse_texts([docs[d][1][i] for d, i in picks], progress=progress, desc="planted pairs: parse")
    out: list[Pair] = []
    for k, ((d, i), doc) in enumerate(zip(picks, parsed)):
        if len(out) >= n:
            break
        doc_id, sentences = docs[d]
        turn = CLASSES[k % len(CLASSES)]
        order = (turn, *(c for c in FALLBACK if c != turn))
        if rng.random() < SUPPORTED_SHARE:
            found = _first(order, paraphrase, (sentences[i], doc, rng), lambda e, was=sentences[i]: e.text != was)
            if found is None:
                continue
            cls, edit = found
            label, spans, kind = "supported", (), f"paraphrase_{cls}"
        else:
            context = [s for j, s in enumerate(sentences) if j != i]
            found = _first(order, plant, (sentences[i], doc, rng, context), lambda e: bool(e.spans))
            if found is None:
                continue
            cls, edit = found
            label, spans, kind = "conflict", tuple(edit.spans), f"planted_{cls}"
        premise = window_around(sentences, i, max_premise_words)
        out.append(Pair(premise, edit.text, label, spans, True, kind, source, doc_id))
    return out
