"""Drafts to corpus: locate every fact's gold chunk, pick corrupted responses, generate them."""
from __future__ import annotations

import json
import random

from ...records import Corpus, Response
from ...text.chunks import build_evidence
from .facts import Draft
from .marco import marco_draft
from .news import news_draft
from .plan import MODELS, TASK_PLAN, TEMPERATURES, TaskPlan, cell_rates
from .respond import respond
from .yelp import yelp_draft


class DraftError(AssertionError):
    """A draft whose facts cannot be located unambiguously in its evidence."""


def finish_draft(draft: Draft) -> Draft:
    """Locate every fact's gold chunk in the built evidence; check verbatim slots."""
    ev = build_evidence(draft.source)
    for fact in draft.lead + draft.body + draft.optional:
        hits = [c.index for c in ev.chunks if fact.anchor in c.text]
        if len(hits) != 1:
            raise DraftError(f"{draft.source.source_id}: anchor {fact.anchor[:50]!r} found in "
                             f"{len(hits)} chunks")
        fact.chunk = hits[0]
        chunk_text = ev.chunks[hits[0]].text.lower()
        for name, slot in fact.slots.items():
            if slot.verbatim and slot.value.lower() not in chunk_text:
                raise DraftError(f"{draft.source.source_id}: slot {name}={slot.value!r} "
                                 f"not in chunk {hits[0]}")
    info = draft.source.source_info
    draft.hay = "\n".join([ev.text, ev.query or "",
                           info if isinstance(info, str) else json.dumps(info, ensure_ascii=False)]).lower()
    return draft


def build_draft(seed: int, plan: TaskPlan, sid: str, attempts: int = 5) -> Draft:
    """The draft of one source; a rare ambiguous draft is redrawn from a derived seed."""
    for attempt in range(attempts):
        suffix = f":{attempt}" if attempt else ""
        rng = random.Random(f"audit:{seed}:source:{sid}{suffix}")
        if plan.task_type == "Data2txt":
            draft = yelp_draft(rng, sid)
        elif plan.task_type == "QA":
            draft = marco_draft(rng, sid)
        else:
            draft = news_draft(rng, sid, plan.source)
        try:
            return finish_draft(draft)
        except DraftError:
            if attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")


def generate_audit_corpus(seed: int = 17, scale: int = 1) -> Corpus:
    """The audit corpus for `seed` and `scale` (140 x scale sources, six responses each)."""
    if scale < 1:
        raise ValueError(f"scale must be >= 1, got {scale}")
    plan_rng = random.Random(f"audit:{seed}:plan")
    drafts: list[Draft] = []
    test_ids: set[str] = set()
    for plan in TASK_PLAN:
        ids = [f"{plan.prefix}-{i + 1:04d}" for i in range(plan.sources * scale)]
        drafts.extend(build_draft(seed, plan, sid) for sid in ids)
        test_ids.update(plan_rng.sample(ids, plan.test * scale))
    by_task: dict[str, list[str]] = {}
    for d in drafts:
        by_task.setdefault(d.source.task_type, []).append(d.source.source_id)
    rates = cell_rates({t: len(v) for t, v in by_task.items()})
    corrupted: set[tuple[str, str]] = set()
    for model in MODELS:
        for task, ids in by_task.items():
            k = round(rates[(model, task)] * len(ids))
            corrupted.update((model, sid) for sid in plan_rng.sample(ids, k))
    responses: list[Response] = []
    for d in drafts:
        sid = d.source.source_id
        for model in MODELS:
            rng = random.Random(f"audit:{seed}:response:{sid}:{model}")
            no_info_rng = random.Random(f"audit:{seed}:noinfo:{sid}:{model}")
            text, labels, gold = respond(d, model, rng, (model, sid) in corrupted, no_info_rng)
            responses.append(Response(
                id=f"audit-{len(responses) + 1:06d}", source_id=sid, model=model,
                temperature=rng.choice(TEMPERATURES), labels=labels,
                split="test" if sid in test_ids else "train", quality="good",
                response=text, sentence_meta=gold))
    sources = {d.source.source_id: d.source for d in drafts}
    return Corpus(name="audit", sources=sources, responses=responses)
