"""Relation frames of two parties (data/frames.toml): a verb with the word that marks its second party
('buys water from B': buy + from; 'lost the final to B': lose + to; 'defeated B': defeat), read from
the tokens of one sentence, and the direction in which two frames state one relation ('A buys from B'
= 'B supplies to A': converse; 'A beat B' = 'A defeated B': same). A passive states its verb's own
frame with the parties exchanged ('B was knocked out by A' = 'A knocked B out')."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .align import View
from .lexicon import stem

PARTY_REACH = 8
"""Tokens after a frame's verb within which a particle of several words may follow its party."""


@dataclass(frozen=True)
class Frame:
    verb: str
    """The stem of the verb's base form."""
    marker: str
    """The word before the second party ('' for an object)."""
    particle: str = ""
    """A particle the verb needs in its clause ('knock out')."""


@dataclass(frozen=True)
class Frames:
    markers: frozenset[str]
    direction: dict[Frame, tuple[int, int]]
    """Frame -> (its relation, 0 or 1): two frames of one relation with the same second number
    state it with the same parties in the same places, with different ones exchanged."""
    verbs: frozenset[str]


def _frame(text: str, markers: frozenset[str]) -> Frame:
    """'take over from' -> take + over + from; a last word that is no marker ends the particle
    ('get the better of': the party follows the particle as an object)."""
    words = text.split()
    marker = words[-1] if len(words) > 1 and words[-1] in markers else ""
    rest = words[1:len(words) - bool(marker)]
    return Frame(stem(words[0]), marker, " ".join(rest))


@cache
def frames() -> Frames:
    data = tomllib.loads(resources.files(__package__).joinpath("data", "frames.toml").read_text(encoding="utf-8"))
    markers = frozenset(data["markers"])
    links: dict[Frame, list[tuple[Frame, int]]] = {}
    for a, b, kind in data["pairs"]:
        fa, fb = _frame(a, markers), _frame(b, markers)
        flip = {"converse": 1, "same": 0}[kind]
        links.setdefault(fa, []).append((fb, flip))
        links.setdefault(fb, []).append((fa, flip))
    direction: dict[Frame, tuple[int, int]] = {}
    for n, start in enumerate(links):
        if start in direction:
            continue
        direction[start], todo = (n, 0), [start]
        while todo:
            f = todo.pop()
            for g, flip in links[f]:
                if g not in direction:
                    direction[g] = (n, direction[f][1] ^ flip)
                    todo.append(g)
    return Frames(markers, direction, frozenset(f.verb for f in direction))


def markers(v: View, r: int, y: int, frames_: Frames) -> tuple[str, ...] | None:
    """The words between the verb at r and the party starting at y that may mark it as the verb's
    second party, nearest the party first ('from the weaving mill at Drummore': 'at', 'from'); ()
    for none (an object); None where a punctuation mark stands between (another clause)."""
    out = []
    for j in range(y - 1, r, -1):
        w = v.word(j)
        if v.punct(j) and w not in ("-", "'s"):
            return None
        if w in frames_.markers:
            out.append(w)
    return tuple(out)


def frame_at(v: View, r: int, y: int, end: int, frames_: Frames) -> Frame | None:
    """The listed frame of the verb at r whose second party stands at y..end: the nearest marker
    that makes one ('buys its wool from the mill at Drummore': 'from'), the verb alone where there
    is none or a 'by' nearest the party (a passive, for the caller to tell); its particle right
    after the verb or after the party ('knocked out B', 'knocked B out', 'took B to court')."""
    found = markers(v, r, y, frames_)
    if found is None:
        return None
    keys = v.keys(r) & frames_.verbs
    particles = {v.word(j) for j in (r + 1, end + 1) if j < len(v)}
    options = [m for m in found if m != "by"] if found and found[0] != "by" else [""]
    for m in options:
        hits = [f for f in frames_.direction if f.verb in keys and f.marker == m
                and (not f.particle or f.particle in particles or _follows(v, r, f.particle)
                     or _follows(v, end, f.particle))]
        if hits:
            return max(hits, key=lambda f: len(f.particle))
    return None


def _follows(v: View, r: int, words: str) -> bool:
    """The words of a particle of several words right after the verb at r ('got the better of')."""
    parts = words.split()
    return len(parts) > 1 and tuple(v.word(j) for j in range(r + 1, min(len(v), r + 1 + len(parts)))) == tuple(parts)


def particle_words(v: View, frames_: Frames) -> frozenset[int]:
    """Positions of the particles right after a frame's verb ('receives funding from': 'funding'), or
    of a particle of several words after its party, in the same clause ('took the trust to court'):
    words of the frame, no relation of their own."""
    out: set[int] = set()
    for r in range(len(v)):
        keys = v.keys(r) & frames_.verbs
        for f in (f for f in frames_.direction if keys and f.verb in keys and f.particle):
            words = tuple(f.particle.split())
            n = len(words)
            for start in range(r + 1, min(len(v), r + 1 + (PARTY_REACH if n > 1 else 1))):
                if v.punct(start):
                    break
                if tuple(v.word(j) for j in range(start, min(len(v), start + n))) == words:
                    out.update(range(start, start + n))
                    break
    return frozenset(out)


def same_relation(f: Frame, g: Frame, frames_: Frames) -> bool | None:
    """True where f and g state one relation with the parties in the same places, False where
    exchanged, None where they are not one relation."""
    a, b = frames_.direction.get(f), frames_.direction.get(g)
    if a is None or b is None or a[0] != b[0]:
        return None
    return a[1] == b[1]


def relations(v: View, k: int) -> frozenset[int]:
    """The relations of data/frames.toml that a frame of the verb at k states."""
    fr = frames()
    keys = v.keys(k) & fr.verbs
    return frozenset(n for f, (n, _) in fr.direction.items() if f.verb in keys) if keys else frozenset()
