"""Slots, facts, evidence sentence specs and drafts, and filling templates with values.

A *draft* of a source holds the Source record and its *facts*; a fact is an evidence sentence
(its `anchor`, found verbatim in exactly one chunk) plus response *frames* that restate it,
with the fact's values held in typed *slots*. Templates name values in braces; `{x!c}`
capitalises a value and `{x!l}` lower-cases it.
"""
from __future__ import annotations

import random
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ...records import Source

_FORMATTER = string.Formatter()


@dataclass(frozen=True)
class Slot:
    """One value of a fact. `kind` decides how an unsupported alternative is proposed."""

    value: str
    kind: str = "fixed"
    corrupt: bool = True
    pool: tuple[str, ...] = ()
    verbatim: bool = True
    """True when the value appears literally in the gold chunk (checked at build time)."""


def slot(value, kind: str = "fixed", *, corrupt: bool | None = None, pool=(), verbatim: bool = True) -> Slot:
    """A slot; kind "fixed" (plain words) and "name" (a proper name) are never corrupted."""
    if corrupt is None:
        corrupt = kind not in ("fixed", "name")
    return Slot(str(value), kind, corrupt, tuple(pool), verbatim)


@dataclass
class Fact:
    anchor: str
    frames: tuple[str, ...]
    slots: dict[str, Slot]
    chunk: int = -1


@dataclass(frozen=True)
class Spec:
    """An evidence sentence: text variants, and the response frames that restate it."""

    variants: tuple[str, ...]
    frames: tuple[str, ...] = ()


def specs(tables: Iterable[Mapping]) -> list[Spec]:
    """Specs from template tables with `variants` and optional `frames`."""
    return [Spec(t["variants"], t.get("frames", ())) for t in tables]


@dataclass
class Draft:
    source: Source
    lead: list[Fact]
    body: list[Fact]
    sentences: tuple[int, int]
    noun: str
    years: tuple[int, int]
    optional: list[Fact] = field(default_factory=list)
    """Facts a response mentions only sometimes (QA: a comparison with a distractor)."""
    clauses: tuple[tuple[str, str], ...] = ()
    """Baseless clauses specific to this source, used besides the task's generic ones."""
    extra_sentences: tuple[str, ...] = ()
    """Baseless sentences specific to this source, used besides the task's generic ones."""
    hay: str = ""
    """The lower-cased source text that injected values must not occur in."""
    features: tuple[tuple[str, tuple[str, ...], str], ...] = ()
    """Features the record does not list: (phrase, words that would settle it, label type)."""


def template_parts(template: str) -> Iterable[tuple[str, str | None, str | None]]:
    """(literal text, field name or None, conversion or None) for each piece of a template."""
    for literal, name, _, conversion in _FORMATTER.parse(template):
        yield literal, name, conversion


def fields(template: str) -> list[str]:
    return [name for _, name, _ in template_parts(template) if name is not None]


def convert(value: str, conversion: str | None) -> str:
    if conversion == "c":
        return value[:1].upper() + value[1:]
    if conversion == "l":
        return value.lower()
    return value


def fill(template: str, values: Mapping[str, object]) -> str:
    out = []
    for literal, name, conversion in template_parts(template):
        out.append(literal)
        if name is not None:
            out.append(convert(str(values[name]), conversion))
    return "".join(out)


def slot_values(slots: Mapping[str, Slot]) -> dict[str, str]:
    return {name: s.value for name, s in slots.items()}


def realise(rng: random.Random, sentence_specs: list[Spec], slots: dict[str, Slot]
            ) -> list[tuple[str, Fact | None]]:
    """Render evidence sentences; facts carry the slots their frames use."""
    values = slot_values(slots)
    out = []
    for sp in sentence_specs:
        text = fill(rng.choice(sp.variants), values)
        fact = None
        if sp.frames:
            names = {n for fr in sp.frames for n in fields(fr)}
            fact = Fact(text, sp.frames, {n: slots[n] for n in sorted(names)})
        out.append((text, fact))
    return out
