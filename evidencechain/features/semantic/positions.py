"""Where a signal's words stand in a sentence and what stands around them: the positions of its
tokens or of a word sequence, the content words of a clause from a position (up to a punctuation
mark), and whether a word is a passive participle. The word-order primitives that the checks of
`confidence.mark_confident` share."""
from __future__ import annotations

from .align import View
from .base import Signal


def positions(v: View, s: Signal) -> list[int]:
    return [k for k in range(len(v)) if int(v.idx[k]) in s.tokens]


def position(v: View, token: int) -> int | None:
    hits = [k for k in range(len(v)) if int(v.idx[k]) == token]
    return hits[0] if hits else None


def occurrences(v: View, words: list[str]) -> list[tuple[int, int]]:
    """(first, last) positions of every occurrence of the word sequence in v."""
    n = len(words)
    return [(k, k + n - 1) for k in range(len(v) - n + 1)
            if all(v.word(k + i) == w for i, w in enumerate(words))]


def clause(v: View, k: int, step: int, limit: int = 5, predicate: bool = False) -> list[int]:
    """Content words from k in direction `step`, up to a punctuation mark (not a hyphen inside a word:
    'a 1.2-kilometre cycle lane'); `predicate`: forward, up to a second predicate too ('wider than
    the old crossing and carries two cycle lanes': 'and' before a word that opens no noun phrase)."""
    out, j = [], k + step
    while 0 <= j < len(v) and len(out) < limit and (not v.punct(j) or inside_word(v, j)):
        if predicate and v.word(j) in _COORDINATORS and j + 1 < len(v) and not _opens_noun_phrase(v, j + 1):
            break
        if v.content(j):
            out.append(j)
        j += step
    return out


_COORDINATORS = frozenset({"and", "but", "or"})
_DETERMINERS = frozenset({"the", "a", "an", "its", "their", "his", "her", "our", "this", "that", "these", "those"})


def _opens_noun_phrase(v: View, k: int) -> bool:
    return v.word(k) in _DETERMINERS or v.text(k)[:1].isupper() or bool(v.doc.like_num[v.idx[k]])


def inside_word(v: View, j: int) -> bool:
    """Whether the mark at j joins the tokens on either side with no space ('1.2-kilometre')."""
    starts, ends, i = v.doc.starts, v.doc.ends, v.idx
    return 0 < j < len(v) - 1 and ends[i[j - 1]] == starts[i[j]] and ends[i[j]] == starts[i[j + 1]] \
        and v.word(j) in ("-", "/")


_BE = frozenset({"is", "are", "was", "were", "been", "be", "being", "got", "get"})


def passive_verb(v: View, k: int) -> bool:
    """A participle after a form of 'be' ('was convicted', 'has been acquitted')."""
    w = v.word(k)
    return w.endswith(("ed", "en")) and k > 0 and v.word(k - 1) in _BE


def passive_near(v: View, k: int) -> bool:
    """A participle after a form of 'be', a negation or adverb between ('was never inspected')."""
    w = v.word(k)
    return w.endswith(("ed", "en")) and any(v.word(j) in _BE for j in (k - 1, k - 2) if j >= 0)
