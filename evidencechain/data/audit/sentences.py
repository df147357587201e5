"""Response sentences as segments: rendering frames, prefixing openers, text with label offsets."""
from __future__ import annotations

import random
from dataclasses import dataclass

from .facts import Fact, Slot, convert, template_parts
from .resources import RESPONSES

_LOWERCASE_STARTS = frozenset(RESPONSES.lowercase_starts)
_PROPER_KINDS = {"person", "first", "last", "city", "state", "town", "county", "org", "title", "name"}


@dataclass
class Seg:
    text: str
    slot: str | None = None
    label: tuple[str, str] | None = None
    """(label type, meta) when the segment is a hallucinated span."""


@dataclass
class Sentence:
    segs: list[Seg]
    fact: Fact | None
    supported: bool = True
    whole_label: tuple[str, str] | None = None


def pick_frame(frames: tuple[str, ...], offset: int, rng: random.Random) -> str:
    """A frame, favouring the one at `offset` (a generator label's habit) three to one."""
    favoured = offset % len(frames)
    weights = [3 if i == favoured else 1 for i in range(len(frames))]
    return rng.choices(frames, weights=weights)[0]


def render_frame(frame: str, slots: dict[str, Slot]) -> list[Seg]:
    segs = []
    for literal, name, conversion in template_parts(frame):
        if literal:
            segs.append(Seg(literal))
        if name is not None:
            segs.append(Seg(convert(slots[name].value, conversion), slot=name))
    return segs


def _first_word(segs: list[Seg]) -> str:
    text = "".join(s.text for s in segs)
    return text.split(" ", 1)[0].rstrip(",").lower()


def add_prefix(sent: Sentence, prefix: str) -> None:
    """Prepend an opener or connective if the sentence start allows it (lower-casing it)."""
    first = next(s for s in sent.segs if s.text)
    if first.slot is None:
        if _first_word(sent.segs) not in _LOWERCASE_STARTS:
            return
        first.text = first.text[:1].lower() + first.text[1:]
    elif sent.fact is None or sent.fact.slots[first.slot].kind not in _PROPER_KINDS:
        return
    sent.segs.insert(0, Seg(prefix))


def sentence_text(sent: Sentence) -> tuple[str, list[tuple[int, int, str, str, str]]]:
    """The sentence (capitalised, with a full stop) and its labels (start, end, text, type, meta)."""
    segs = [Seg(s.text, s.slot, s.label) for s in sent.segs if s.text]
    segs[0].text = segs[0].text[:1].upper() + segs[0].text[1:]
    text, labels, pos = "", [], 0
    for s in segs:
        if s.label is not None:
            labels.append((pos, pos + len(s.text), s.text, s.label[0], s.label[1]))
        text += s.text
        pos += len(s.text)
    if sent.whole_label is not None:
        labels.append((0, len(text), text, sent.whole_label[0], sent.whole_label[1]))
    return text + ".", labels
