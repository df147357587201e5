"""One generated response: facts rendered through frames, optionally corrupted, with gold."""
from __future__ import annotations

import random

from ..records import Label, SentenceGold
from .facts import Draft
from .inject import corrupt
from .resources import RESPONSES
from .sentences import Sentence, add_prefix, pick_frame, render_frame, sentence_text


def respond(draft: Draft, model: str, rng: random.Random, corrupted: bool
            ) -> tuple[str, tuple[Label, ...], tuple[SentenceGold, ...]]:
    """Response text, its labels and per-sentence gold for generator label `model`."""
    task = draft.source.task_type
    style = RESPONSES.styles[model]
    lo, hi = draft.sentences
    n = rng.randint(lo, hi)
    k = max(0, min(n - len(draft.lead), len(draft.body)))
    picked = sorted(rng.sample(range(len(draft.body)), k))
    facts = draft.lead + [draft.body[i] for i in picked]
    for fact in draft.optional:
        if rng.random() < 0.3 and len(facts) < hi:
            facts.append(fact)
    sentences = []
    for i, fact in enumerate(facts):
        frame = pick_frame(fact.frames, style["frame_offset"] + i, rng)
        sentences.append(Sentence(render_frame(frame, fact.slots), fact))
    if corrupted:
        corrupt(sentences, draft, rng)
    for i, sent in enumerate(sentences):
        if i == 0 and rng.random() < style["opener"]:
            add_prefix(sent, rng.choice(RESPONSES.openers[task]))
        elif i > 0 and sent.fact is not None and rng.random() < style["connector"]:
            add_prefix(sent, rng.choice(RESPONSES.connectors))
    text, labels, gold, pos = "", [], [], 0
    for i, sent in enumerate(sentences):
        if i:
            text += " "
            pos += 1
        s_text, s_labels = sentence_text(sent)
        for a, b, t, typ, meta in s_labels:
            labels.append(Label(pos + a, pos + b, t, typ, meta))
        chunk = sent.fact.chunk if sent.fact is not None else None
        gold.append(SentenceGold(pos, pos + len(s_text), chunk, sent.supported))
        text += s_text
        pos += len(s_text)
    for lab in labels:
        assert text[lab.start:lab.end] == lab.text
    return text, tuple(sorted(labels, key=lambda x: (x.start, x.end))), tuple(gold)
