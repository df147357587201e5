"""Whether a modality shift weakens its evidence (`confidence.mark_confident`): on the scales where
only a stronger answer conflicts (epistemic, status) a hedge the answer adds, or a climb of fewer
levels than the scale's `min_steps`, contradicts nothing; an event the evidence only plans or
governs that the answer asserts is stronger."""
from __future__ import annotations

from .align import View
from .base import Signal
from .irrealis import governed, intention, planned
from .lexicon import Lexicon
from .modality import hits
from .positions import position, positions


def _level(word: str, lex: Lexicon) -> tuple[str, int] | None:
    for name, scale in lex.modality.items():
        if word in scale:
            return name, scale[word]
    return None


def weakened(a: View, e: View, s: Signal, lex: Lexicon) -> bool:
    """Whether a modality shift weakens its evidence on a scale where only a stronger answer
    conflicts, or climbs fewer levels than the scale's `min_steps` (an event the evidence only
    governs, 'considering moving', that the answer asserts, 'will move', is stronger)."""
    k = position(a, s.tokens[0])
    if k is None:
        return True
    first, will = s.evidence.lower().split()[0], any(a.word(i) in ("will", "'ll") for i in positions(a, s))
    if any(e.word(g) == first and not (will and intention(e, g, lex)) for g, _ in governed(e, lex) + planned(e, lex)):
        return False  # 'plans to build' / 'will build', 'is considering a ban' / 'will ban': the plan's own strength
    own = {a.word(i) for i in positions(a, s)}
    words = [w for w in s.evidence.lower().split() if w not in own]  # 'expected approved': the hedge, not the word
    mine = [(name, h.level) for name in lex.modality for h in hits(a, name, lex) if h.lo <= k < h.hi]
    if not mine:  # a hedge the answer drops: stronger
        return False
    name, level = next(((n, lv) for n, lv in mine if any(w in lex.modality[n] for w in words)), mine[0])
    scale = lex.modality[name]
    theirs = [scale[w] for w in words if w in scale]
    if not theirs:  # a modal the answer adds where the evidence has none: weaker; a word of another scale
        others = [x for x in map(lambda w: _level(w, lex), words) if x]
        return name in lex.strengthened_only and (not others or name in lex.min_steps)
    if name in lex.strengthened_only:  # 'expected to' -> 'will', 'may' -> 'likely': a step, not possible -> certain
        return not any(level - lv >= lex.min_steps.get(name, 1) for lv in theirs)
    return False
