"""One generated response: facts rendered through frames, optionally corrupted, with gold;
then NO-INFO sentences (greetings, closing offers, questions back, hedges, refusals) placed
around the facts from a separate random stream."""
from __future__ import annotations

import random
import re

from ...records import Label, SentenceGold
from .facts import Draft
from .inject import corrupt
from .resources import RESPONSES
from .sentences import Sentence, add_prefix, pick_frame, render_frame, sentence_text

_SENTENCE_BREAK = re.compile(r"(?<=[.!?]) +(?=[A-Z])")


def no_info_sentences(task: str, model: str, n_facts: int, rng: random.Random
                      ) -> list[tuple[int, str]]:
    """NO-INFO templates for one response, each as (position, text): the template goes before
    fact `position` (`n_facts` for after the last one). Draws come only from `rng`, in the
    fixed order of `RESPONSES.no_info["kinds"]`, each kind at most once."""
    table = RESPONSES.no_info
    rates = RESPONSES.styles[model]["no_info"]
    placed = []
    for kind in table["kinds"]:
        if rng.random() >= rates[kind]:
            continue
        text = rng.choice(table[kind]["any"] + table[kind][task])
        where = table["where"][kind]
        if where == "start":
            position = 0
        elif where == "between":
            position = rng.randint(1, n_facts)
        elif where == "end":
            position = n_facts
        else:
            raise ValueError(f"responses.toml: no_info.where.{kind} = {where!r}")
        placed.append((position, text))
    return placed


def respond(draft: Draft, model: str, rng: random.Random, corrupted: bool,
            no_info_rng: random.Random | None = None
            ) -> tuple[str, tuple[Label, ...], tuple[SentenceGold, ...]]:
    """Response text, its labels and per-sentence gold for generator label `model`.

    `rng` draws the facts, frames, corruptions and prefixes; `no_info_rng` (None: none) draws
    the NO-INFO sentences, so adding them leaves every factual sentence as it was."""
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
    placed = ([] if no_info_rng is None
              else no_info_sentences(draft.source.task_type, model, len(sentences), no_info_rng))
    items: list[Sentence | str] = []
    for i in range(len(sentences) + 1):
        items.extend(template for position, template in placed if position == i)
        if i < len(sentences):
            items.append(sentences[i])
    text, labels, gold, pos = "", [], [], 0
    for item in items:
        pieces = _SENTENCE_BREAK.split(item) if isinstance(item, str) else [item]
        for piece in pieces:
            if text:
                text += " "
                pos += 1
            if isinstance(piece, str):
                assert piece[-1] in ".!?", f"responses.toml: NO-INFO template piece {piece!r}"
                gold.append(SentenceGold(pos, pos + len(piece), None, True, tier="no_info"))
                text += piece
                pos += len(piece)
                continue
            s_text, s_labels = sentence_text(piece)
            for a, b, t, typ, meta in s_labels:
                labels.append(Label(pos + a, pos + b, t, typ, meta))
            chunk = piece.fact.chunk if piece.fact is not None else None
            gold.append(SentenceGold(pos, pos + len(s_text), chunk, piece.supported))
            text += s_text
            pos += len(s_text)
    for lab in labels:
        assert text[lab.start:lab.end] == lab.text
    return text, tuple(sorted(labels, key=lambda x: (x.start, x.end))), tuple(gold)
