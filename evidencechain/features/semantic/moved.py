"""Facts of one person given to another person the evidence names: an age (`moved`), or a phrase of
one person's clause ('specialises in paediatric cardiology', `moved_attribute`)."""
from __future__ import annotations

from .align import View
from .base import Signal
from .holder_names import Name, cues, names
from .holders import Held, evidence_words, value_signal


def moved(a: View, mine: list[Held], source: list[Held], evidence_names: frozenset[str]) -> list[Signal]:
    """A bare number (an age) that the evidence binds to one person, joined in the answer to
    another person the evidence names, the answer naming none of the first."""
    every = frozenset().union(*(n.words for n in names(a, cues())))
    out = []
    for x in mine:
        if x.value.unit or x.value.key.endswith(" year"):
            continue
        homes = [h for h in source if h.value.key == x.value.key and not h.value.unit]
        people = [n for h in homes for n in h.local if n.person]
        if not homes or len(people) != len(homes) or every & frozenset().union(*(n.words for n in people)):
            continue
        wrong = [n for n in x.local if n.person and n.words <= evidence_names]
        if wrong and not any(h.subject or len(h.local) > 1 for h in homes):
            out.append(value_signal(a, x, [], evidence_words(homes[0], people[:1])))
    return out


def _subject_of(v: View, name: Name, start: int) -> bool:
    """Whether `name` is the subject of the words at `start`: only function words between, once a
    comma-delimited apposition right after the name is skipped ('Dr Felix Strand, one of ..., specialises')."""
    k = name.hi
    if k < start and v.word(k) == ",":
        close = next((j for j in range(k + 1, start) if v.word(j) == ","), None)
        k = close + 1 if close is not None else k
    return k <= start and not any(v.content(j) or v.punct(j) for j in range(k, start))


def _runs(v: View) -> list[list[int]]:
    """The content words of v in runs that no punctuation mark breaks."""
    out: list[list[int]] = [[]]
    for k in range(len(v)):
        if v.punct(k):
            out.append([])
        elif v.content(k) and not v.doc.like_num[v.idx[k]]:
            out[-1].append(k)
    return [r for r in out if r]


def _common(a: View, xs: list[int], e: View, ys: list[int]) -> tuple[int, int, int]:
    """(length, start in xs, start in ys) of the longest run of words of xs matched in order by ys."""
    best = (0, 0, 0)
    for i in range(len(xs)):
        for j in range(len(ys)):
            n = 0
            while i + n < len(xs) and j + n < len(ys) and a.keys(xs[i + n]) & e.keys(ys[j + n]):
                n += 1
            if n > best[0]:
                best = (n, i, j)
    return best


def moved_attribute(a: View, sentences: list[View], evidence_names: frozenset[str]) -> list[Signal]:
    """A phrase the evidence says of one person (its subject), said in the answer of another person the
    evidence names, the answer naming none of the first."""
    c = cues()
    runs = names(a, c)
    if not runs or not runs[0].person or not runs[0].words <= evidence_names:
        return []
    person, every = runs[0], frozenset().union(*(n.words for n in runs))
    named = {k for n in runs for k in range(n.lo, n.hi)}
    for xs in _runs(a):
        xs = [k for k in xs if k >= person.hi and k not in named]
        for e in sentences:
            for ys in _runs(e):
                n, i, j = _common(a, xs, e, ys)
                if n < c.min_phrase or not _subject_of(a, person, xs[i]):
                    continue
                holders = [r for r in names(e, c) if r.hi <= ys[j] and _subject_of(e, r, ys[j])]
                if len(holders) != 1 or not holders[0].person or (holders[0].words - person.words) & every \
                        or not holders[0].words - person.words:
                    continue
                q = holders[0]
                lo = q.lo - (q.lo > 0 and e.word(q.lo - 1) in c.titles)
                return [Signal("recombination", tuple(int(a.idx[k]) for k in range(xs[i], xs[i + n - 1] + 1)),
                               e.span_text(list(range(lo, ys[j + n - 1] + 1))), confident=True)]
    return []
