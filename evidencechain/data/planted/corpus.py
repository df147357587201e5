"""The 'planted' training corpus: real passages with planted meaning errors as conflict spans.

Each of the shipped passages (`passages.json`: four consecutive sentences of a real
summarization document, none shared with a benchmark's test text) is one source; its answers
restate two of its sentences: one answer copies or paraphrases them (supported), two plant an
error of a semantic class into one sentence (gold span: the planted words, 'Evident Conflict').
Classes rotate over the passages so each appears about equally. Deterministic for a seed; the
audit corpus is not touched (this corpus is separate, merged only where a recipe asks).
"""
from __future__ import annotations

import json
import random
from functools import cache
from importlib import resources

from ...records import Corpus, Label, Response, Source
from ...text.parse import parse_texts
from .paraphrase import paraphrase
from .plant import CLASSES, Edit
from .planting import plant

NAME = "planted"
TEST_SHARE = 0.25
FALLBACK = ("quantity", "modality", "recombination", "roles", "antonym", "polarity")
"""Classes tried when the one whose turn it is finds nothing to edit: the rarer ones first."""


@cache
def _shipped() -> dict:
    return json.loads(resources.files(__package__).joinpath("passages.json").read_text(encoding="utf-8"))


def load_passages() -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple((p["id"], tuple(p["sentences"])) for p in _shipped()["passages"])


def _answer(sentences: list[str], k: int, edit: Edit | None) -> tuple[str, tuple[Label, ...]]:
    """Sentences k and k+1 of the passage, sentence k replaced by the edit's text."""
    first = edit.text if edit is not None else sentences[k]
    text = first + " " + sentences[k + 1]
    labels = tuple(Label(a, b, first[a:b], "Evident Conflict", edit.how) for a, b in edit.spans) \
        if edit is not None and edit.spans else ()
    return text, labels


def _first_edit(sents: list[str], parsed, turn: int, rng) -> tuple[int, Edit] | None:
    """(sentence index, planted edit) of the class whose turn it is, else of the first class of
    `FALLBACK` that applies to one of the passage's sentences (the last one only gives context)."""
    first = CLASSES[turn % len(CLASSES)]
    for cls in (first, *(c for c in FALLBACK if c != first)):
        order = list(range(len(sents) - 1))
        rng.shuffle(order)
        for k in order:
            edit = plant(cls, sents[k], parsed[k], rng, [s for j, s in enumerate(sents) if j != k])
            if edit is not None:
                return k, edit
    return None


def generate_planted_corpus(seed: int = 17, limit: int | None = None) -> Corpus:
    passages = list(load_passages())[:limit]
    rng = random.Random(f"planted:{seed}")
    docs = parse_texts([s for _, sents in passages for s in sents], progress=False)
    sources, responses = {}, []
    at = 0
    for n, (pid, sents) in enumerate(passages):
        parsed, at = docs[at:at + len(sents)], at + len(sents)
        sid = f"planted-{n + 1:04d}"
        sources[sid] = Source(sid, "Summary", _shipped()["source"], " ".join(sents),
                              "Summarize the following news article.", {"passage": pid})
        split = "test" if rng.random() < TEST_SHARE else "train"
        made: list[tuple[str, tuple[Label, ...]]] = []
        k = rng.randrange(len(sents) - 1)
        made.append(_answer(list(sents), k, paraphrase(CLASSES[n % len(CLASSES)], sents[k], parsed[k], rng)))
        for offset in (0, 3):
            edit = _first_edit(list(sents), parsed, n + offset, rng)
            if edit is not None:
                made.append(_answer(list(sents), *edit))
        for text, labels in made:
            responses.append(Response(id=f"planted-{len(responses) + 1:06d}", source_id=sid, model="planted",
                                      temperature=0.7, labels=labels, split=split, quality="good",
                                      response=text))
    return Corpus(name=NAME, sources=sources, responses=responses)


def merged(first: Corpus, second: Corpus, name: str) -> Corpus:
    """Two corpora as one (source ids must not collide)."""
    clash = set(first.sources) & set(second.sources)
    if clash:
        raise ValueError(f"corpora {first.name!r} and {second.name!r} share source ids, e.g. {sorted(clash)[0]!r}")
    return Corpus(name=name, sources={**first.sources, **second.sources},
                  responses=[*first.responses, *second.responses])
