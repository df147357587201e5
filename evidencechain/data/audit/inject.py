"""Hallucination injection: swapped slot values, added clauses and added sentences."""
from __future__ import annotations

import random

from .alternatives import absent, alternative
from .baseless import clause_templates, fill_baseless, sentence_templates
from .facts import Draft, fill
from .resources import RESPONSES
from .sentences import Seg, Sentence

TWO_SPAN_PROB = 0.2
"""Share of corrupted responses that get a second hallucinated span."""
_MODES = ("swap", "clause", "sentence")
_MODE_WEIGHTS = (0.65, 0.25, 0.10)
_LABELS = RESPONSES.labels


def swap(sent: Sentence, draft: Draft, rng: random.Random, used: set[str]) -> bool:
    """Replace one slot value of the sentence by an alternative the source never mentions."""
    fact = sent.fact
    names = [s.slot for s in sent.segs if s.slot and s.label is None and fact.slots[s.slot].corrupt]
    names = list(dict.fromkeys(names))
    rng.shuffle(names)
    for name in names:
        slot = fact.slots[name]
        if slot.kind == "feature":
            options = [(p, typ) for p, keys, typ in draft.features
                       if p not in used and all(k not in draft.hay for k in keys)
                       and absent(p, draft.hay)]
            if not options:
                continue
            alt, typ = rng.choice(options)
        else:
            got = alternative(slot, rng, draft.hay, {u.lower() for u in used})
            if got is None:
                continue
            alt, typ = got
        seg = next(s for s in sent.segs if s.slot == name)
        meta = _LABELS["baseless_swap" if "Baseless" in typ else "conflict"]
        seg.text = alt
        seg.label = (typ, fill(meta, {"alt": alt, "value": slot.value}))
        sent.supported = False
        used.add(alt)
        return True
    return False


def add_clause(sent: Sentence, draft: Draft, rng: random.Random) -> bool:
    options = clause_templates(draft)
    rng.shuffle(options)
    for template, typ in options:
        text = fill_baseless(template, draft, rng)
        if text is None:
            continue
        sent.segs.append(Seg(", "))
        sent.segs.append(Seg(text, label=(typ, _LABELS["baseless_clause"])))
        sent.supported = False
        return True
    return False


def extra_sentence(draft: Draft, rng: random.Random) -> Sentence | None:
    options = sentence_templates(draft)
    rng.shuffle(options)
    for template in options:
        text = fill_baseless(template, draft, rng)
        if text is None:
            continue
        return Sentence([Seg(text)], None, supported=False,
                        whole_label=("Evident Baseless Info", _LABELS["baseless_sentence"]))
    return None


def corrupt(sentences: list[Sentence], draft: Draft, rng: random.Random) -> None:
    """Inject one or two hallucinated spans into the sentences (in place)."""
    n_spans = 2 if rng.random() < TWO_SPAN_PROB and len(sentences) >= 2 else 1
    targets = rng.sample(range(len(sentences)), n_spans)
    used: set[str] = set()
    done = 0
    extra: list[tuple[int, Sentence]] = []
    for t in targets:
        mode = rng.choices(_MODES, weights=_MODE_WEIGHTS)[0]
        ok = False
        if mode == "sentence":
            new = extra_sentence(draft, rng)
            if new is not None:
                extra.append((t + 1, new))
                ok = True
        if not ok and mode in ("swap", "sentence"):
            ok = swap(sentences[t], draft, rng, used)
        if not ok:
            ok = add_clause(sentences[t], draft, rng)
        if not ok:
            ok = swap(sentences[t], draft, rng, used)
        done += ok
    for pos, new in sorted(extra, key=lambda x: -x[0]):
        sentences.insert(pos, new)
    if done == 0:
        raise RuntimeError(f"could not corrupt a response for {draft.source.source_id}")
