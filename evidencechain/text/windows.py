"""Sentences and evidence windows: the premise a claim is checked against is a run of whole
sentences of at most `max_words` words (whitespace tokens), chosen around given sentences or by
word overlap with the claim. Shared by the training-pair builders and inference."""
from __future__ import annotations

import re
from random import Random

from spacy.lang.en.stop_words import STOP_WORDS

_BOUNDARY = re.compile(r"[.!?]+[\"'”’)\]]*\s+(?=[\"'“‘(\[]?[A-Z0-9])|(?<=[a-z]{2}[.!?])(?=[A-Z][a-z])")
_LAST_WORD = re.compile(r"([\w.]+)[.!?]+[\"'”’)\]]*\s*$")
_ABBREVIATIONS = frozenset(
    "mr mrs ms dr prof st jr sr inc ltd co corp vs etc no gen col lt sgt rev gov sen rep fig jan feb "
    "mar apr aug sep sept oct nov dec u.s u.k e.g i.e a.m p.m approx dept est mt ft".split())
_WORD = re.compile(r"\w+")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) character offsets of the sentences of `text`: lines are split at sentence-final
    punctuation followed by a capital or digit (not after an abbreviation or an initial), and at
    a full stop glued to the next sentence ("alcohol.Ethanol"); whitespace is trimmed."""
    spans = []
    for line in re.finditer(r"[^\n]+", text):
        start = line.start()
        for m in _BOUNDARY.finditer(line.group()):
            cut = line.start() + m.end()
            before = _LAST_WORD.search(text[start:line.start() + m.start() + 1] + " ")
            word = before.group(1).lower().rstrip(".") if before else ""
            if word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
                continue
            spans.append((start, cut))
            start = cut
        spans.append((start, line.end()))
    out = []
    for a, b in spans:
        piece = text[a:b]
        a2 = a + len(piece) - len(piece.lstrip())
        b2 = b - (len(piece) - len(piece.rstrip()))
        if b2 > a2:
            out.append((a2, b2))
    return out


def split_sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in sentence_spans(text)]


def words(text: str) -> list[str]:
    """Whitespace tokens: the unit of every word budget here."""
    return text.split()


def word_count(text: str) -> int:
    return len(text.split())


def content_words(text: str) -> set[str]:
    """Lower-cased word tokens that are not stop words (numbers included)."""
    return {w for w in _WORD.findall(text.lower()) if w not in STOP_WORDS and (len(w) > 1 or w.isdigit())}


def window_text(sentences: list[str], bounds: tuple[int, int]) -> str:
    return " ".join(sentences[bounds[0]:bounds[1]])


def bounds_around(sentences: list[str], index: int, max_words: int, end: int | None = None,
                  rng: Random | None = None) -> tuple[int, int]:
    """The sentence range [lo, hi) holding sentences[index:end] (default: sentence `index`) and
    as many neighbours as fit in `max_words`: added alternately before and after, or on a side
    drawn from `rng` at each step. The core alone is returned even when it is longer."""
    end = index + 1 if end is None else end
    if not 0 <= index < end <= len(sentences):
        raise IndexError(f"sentence range [{index}, {end}) outside 0..{len(sentences)}")
    return _grow([word_count(s) for s in sentences], index, end, max_words, rng)


def _grow(counts: list[int], index: int, end: int, max_words: int, rng: Random | None) -> tuple[int, int]:
    lo, hi, total = index, end, sum(counts[index:end])
    open_sides = [s for s, ok in (("before", lo > 0), ("after", hi < len(counts))) if ok]
    turn = 0
    while open_sides:
        side = rng.choice(open_sides) if rng is not None else open_sides[turn % len(open_sides)]
        turn += 1
        k = lo - 1 if side == "before" else hi
        if total + counts[k] > max_words:
            open_sides.remove(side)
            continue
        total += counts[k]
        lo, hi = (k, hi) if side == "before" else (lo, k + 1)
        if (side == "before" and lo == 0) or (side == "after" and hi == len(counts)):
            open_sides.remove(side)
    return lo, hi


def window_around(sentences: list[str], index: int, max_words: int, end: int | None = None,
                  rng: Random | None = None) -> str:
    """The text of `bounds_around`."""
    return window_text(sentences, bounds_around(sentences, index, max_words, end, rng))


def _scored_windows(sentences: list[str], claim: str, max_words: int) -> list[tuple[int, int, int]]:
    """(score, lo, hi) of the window around the matching sentences of the longest run that starts
    at each sentence; score = distinct content words of the claim the window holds. The run's
    first to last matching sentences are the core; neighbours fill the word budget around it."""
    wanted = content_words(claim)
    counts = [word_count(s) for s in sentences]
    found = [content_words(s) & wanted for s in sentences]
    out = []
    for lo in range(len(sentences)):
        covered, total, hi, hits = set(), 0, lo, []
        while hi < len(sentences) and (hi == lo or total + counts[hi] <= max_words):
            covered |= found[hi]
            total += counts[hi]
            if found[hi]:
                hits.append(hi)
            hi += 1
        if hits:
            lo, hi = _grow(counts, hits[0], hits[-1] + 1, max_words, None)
            covered = set().union(*found[lo:hi])
        out.append((len(covered), lo, hi))
    return out


def best_bounds(sentences: list[str], claim: str, max_words: int) -> tuple[int, int]:
    """The sentence range [lo, hi) of at most `max_words` words (one sentence at least) holding
    the most distinct content words of `claim`, centred on its matching sentences; ties go to the
    earliest start. (0, 0) for no sentences."""
    if not sentences:
        return 0, 0
    score, lo, hi = max(_scored_windows(sentences, claim, max_words), key=lambda w: (w[0], -w[1]))
    return lo, hi


def best_window(sentences: list[str], claim: str, max_words: int) -> str:
    """The text of `best_bounds`: the premise a claim is checked against. Deterministic."""
    return window_text(sentences, best_bounds(sentences, claim, max_words))


def candidate_windows(sentences: list[str], claim: str, k: int, max_words: int) -> list[str]:
    """Up to `k` windows of at most `max_words` words, best first (as `best_window`): each next
    one shares at most half of its sentences with the windows already taken, when possible."""
    if not sentences or k < 1:
        return []
    ranked = sorted(_scored_windows(sentences, claim, max_words), key=lambda w: (-w[0], w[1]))
    taken: list[tuple[int, int]] = []
    for _, lo, hi in ranked:
        shared = max((max(0, min(hi, b) - max(lo, a)) for a, b in taken), default=0)
        if 2 * shared <= hi - lo:
            taken.append((lo, hi))
        if len(taken) == k:
            break
    for _, lo, hi in ranked:
        if len(taken) == k:
            break
        if (lo, hi) not in taken:
            taken.append((lo, hi))
    return [window_text(sentences, b) for b in taken]
