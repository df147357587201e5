"""A rule-based RefChecker checker: each claim triplet gets Entailment, Neutral or
Contradiction against the evidence sentences, and response scores aggregate the verdicts.

Per triplet (its `as_text()`, parsed with the project's pipeline and parse cache):

1. Alignment: the evidence sentence covering the largest share of the triplet's content
   words (not stop words or punctuation; a word is covered when its lower-case form or lemma
   occurs in the sentence, a number when its normalised value does). Among tied sentences,
   the one whose window (itself and its two neighbours) covers most, then the first. No
   sentence sharing a content word: Neutral, `evidence_index` -1.
2. Contradiction: a number, date or named entity of the triplet is absent from the window,
   the window states a different value of the same kind (numbers: years 1000-2100, clock
   times, other numbers; entities: dates, other names), and the triplet's other content
   words are covered by the window at or above the threshold.
   Numbers are normalised by `features.numeric`, entities found and matched by
   `features.entities` (spaCy NER, or capitalised runs without it).
3. Entailment: coverage by the aligned sentence and its neighbours >= `coverage_threshold`
   (default 0.7: most content words, allowing a paraphrased word or two in a longer claim)
   and no number or entity of the triplet absent from them.
4. Neutral otherwise. A triplet without content words is Entailment (nothing to check).
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import pandas as pd

from ..text.parse import ParsedText, parse_texts
from ..text.triplets import Triplet
from .entities import absent_entity_mask, entity_spans, normalise_entity
from .evidence import content_indices, forms
from .numeric import absent_number_mask, evidence_numbers, implied_by, time_spans, token_number_values

VERDICTS = ("Entailment", "Neutral", "Contradiction")
RULES = ("strict", "ratio", "majority")
COUNT_COLUMNS = ("n_triplets", "n_entailment", "n_neutral", "n_contradiction")
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class TripletVerdict:
    triplet: Triplet
    verdict: str
    evidence_index: int
    coverage: float
    reason: str


@dataclass(frozen=True)
class EvidenceSentence:
    """What the checker needs of one evidence sentence (built once per source)."""
    forms: frozenset[str]
    numbers: frozenset[str]
    entities: tuple[tuple[str, str], ...]  # (kind, normalised text)
    lower: str
    words: tuple[str, ...] = ()
    """Its lower-case tokens, for the amounts that neighbouring sentences imply together."""


def _number_kind(value: str) -> str:
    if value.startswith("time:"):
        return "time"
    if "[" in value:  # an amount's unit-free key (`units.base_key`: '[length]:2.5e+03', '1 / [time]:0.5')
        return "amount"
    v = float(value)
    return "year" if v.is_integer() and 1000 <= v <= 2100 else "number"


def _entity_kind(label: str) -> str:
    return "date" if label in ("DATE", "TIME") else "name"


def evidence_sentence(p: ParsedText) -> EvidenceSentence:
    idx = np.flatnonzero(~p.is_punct)
    ents = tuple((_entity_kind(label), normalise_entity(p.text[a:b]))
                 for a, b, label in entity_spans(p))
    return EvidenceSentence(frozenset(forms(p, idx)), frozenset(evidence_numbers(p.text, p.lower)),
                            ents, p.text.lower(), tuple(p.lower))


@dataclass(frozen=True)
class EvidenceFacts:
    """A source's evidence sentences with an index from each word form and number to the
    sentences holding it, so a triplet's coverage of every sentence is a few look-ups."""
    sentences: list[EvidenceSentence]
    by_form: dict[str, np.ndarray]
    by_number: dict[str, np.ndarray]
    windows: dict[int, EvidenceSentence] = field(default_factory=dict, compare=False)
    """`_window` of each sentence index, made on first use."""

    def window(self, i: int) -> EvidenceSentence:
        if i not in self.windows:
            self.windows[i] = _window(self.sentences, i)
        return self.windows[i]


def evidence_facts(parsed: Sequence[ParsedText]) -> EvidenceFacts:
    sents = [evidence_sentence(p) for p in parsed]
    by_form: dict[str, list[int]] = {}
    by_number: dict[str, list[int]] = {}
    for i, s in enumerate(sents):
        for f in s.forms:
            by_form.setdefault(f, []).append(i)
        for n in s.numbers:
            by_number.setdefault(n, []).append(i)
    return EvidenceFacts(sents, {k: np.array(v) for k, v in by_form.items()},
                         {k: np.array(v) for k, v in by_number.items()})


def _coverage_matrix(p: ParsedText, idx: np.ndarray, values: list[set[str]], facts: EvidenceFacts) -> np.ndarray:
    """Content token x evidence sentence: is the token covered by the sentence (`_covered`)?"""
    m = np.zeros((len(idx), len(facts.sentences)), dtype=bool)
    for row, i in enumerate(idx):
        for hits in (facts.by_form.get(p.lower[i]), facts.by_form.get(p.lemma[i]),
                     *(facts.by_number.get(v) for v in values[i])):
            if hits is not None:
                m[row, hits] = True
    return m


def _window(sents: list[EvidenceSentence], i: int) -> EvidenceSentence:
    part = sents[max(0, i - 1):i + 2]
    joined = implied_by([w for s in part for w in s.words]) if len(part) > 1 else set()
    return EvidenceSentence(frozenset().union(*(s.forms for s in part)),
                            frozenset().union(joined, *(s.numbers for s in part)),
                            tuple(e for s in part for e in s.entities),
                            " ".join(s.lower for s in part))


def _token_values(p: ParsedText) -> list[set[str]]:
    """Normalised numbers per token, clock times included."""
    values = [token_number_values(t) for t in p.lower]
    for a, b, times in time_spans(p.text):
        for i in p.tokens_in(a, b):
            values[i] = set(times)
    return values


def _conflicts(p: ParsedText, values: list[set[str]],
               window: EvidenceSentence) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(tokens absent from the window, of those the contradicted ones, descriptions)."""
    has_number, absent = absent_number_mask(p.text, p.starts, p.ends, p.lower, set(window.numbers))
    known = has_number & ~absent
    absent = absent.copy()
    contradicted = np.zeros(len(p), dtype=bool)
    notes: list[str] = []
    claimed = set().union(*values) if values else set()
    for i in np.flatnonzero(absent):
        kinds = {_number_kind(v) for v in values[i]}
        rivals = sorted(v for v in window.numbers - claimed if _number_kind(v) in kinds)
        if rivals:
            contradicted[i] = True
            notes.append(f"number {p.token_text(i)!r} vs evidence {', '.join(rivals[:3])}")
    vocab = set(window.forms)
    lower = p.text.lower()
    for a, b, label in entity_spans(p):
        mask, _, missing = absent_entity_mask(p, (a, b), window.lower, vocab, known)
        if not missing:
            continue
        absent |= mask
        kind = _entity_kind(label)
        rivals = sorted({t for k, t in window.entities if k == kind and t and t not in lower})
        if rivals:
            contradicted |= mask
            notes.append(f"{kind} {p.text[a:b]!r} vs evidence {', '.join(rivals[:3])!r}")
    return absent, contradicted, notes


def judge(p: ParsedText, facts: EvidenceFacts, threshold: float = 0.7) -> tuple[str, int, float, str]:
    """(verdict, evidence index, coverage, reason) of the claim parsed as `p` (a triplet's
    `as_text()`): everything of its `TripletVerdict` but the triplet, which it depends on only
    through that text."""
    idx = content_indices(p)
    if not len(idx):
        return "Entailment", -1, 1.0, "no content words"
    values = _token_values(p)
    m = _coverage_matrix(p, idx, values, facts)
    counts = m.sum(axis=0)
    if not len(counts) or counts.max() == 0:
        return "Neutral", -1, 0.0, "no evidence sentence shares a content word"
    # among the best-covering sentences, the one whose window (itself and its neighbours) covers most
    windows = [(m[:, max(0, i - 1):i + 2].any(axis=1), i) for i in np.flatnonzero(counts == counts.max())]
    covered, best = max(windows, key=lambda x: (int(x[0].sum()), -x[1]))
    best = int(best)
    window = facts.window(best)
    coverage = float(covered.mean())
    absent, contradicted, notes = _conflicts(p, values, window)
    others = ~contradicted[idx]
    if contradicted.any() and others.any() and covered[others].mean() >= threshold:
        return "Contradiction", best, coverage, "; ".join(notes)
    if absent.any():
        missing = ", ".join(repr(p.token_text(i)) for i in np.flatnonzero(absent)[:3])
        return "Neutral", best, coverage, f"not in evidence: {missing}"
    if coverage >= threshold:
        return "Entailment", best, coverage, f"coverage {coverage:.2f} >= {threshold:.2f}"
    return "Neutral", best, coverage, f"coverage {coverage:.2f} < {threshold:.2f}"


def check_triplets(triplets: Sequence[Triplet], evidence_sentences: list[str],
                   coverage_threshold: float = 0.7, *, pipeline: str = "auto") -> list[TripletVerdict]:
    """One verdict per triplet, in order (see the module docstring for the rules).

    `pipeline` is the spaCy pipeline of `parse_texts` ("auto" or "blank").
    """
    triplets = list(triplets)
    if not triplets:
        return []
    parsed = parse_texts([t.as_text() for t in triplets] + list(evidence_sentences),
                         pipeline=pipeline, progress=False)
    facts = evidence_facts(parsed[len(triplets):])
    return check_parsed(triplets, parsed[:len(triplets)], facts, coverage_threshold)


def check_parsed(triplets: Sequence[Triplet], parsed: Sequence[ParsedText], facts: EvidenceFacts,
                 coverage_threshold: float = 0.7) -> list[TripletVerdict]:
    """`check_triplets` with the work done beforehand: each triplet's `as_text()` parsed, and
    the evidence sentences of its source as `evidence_facts` (once per source)."""
    return [TripletVerdict(t, *judge(p, facts, coverage_threshold)) for t, p in zip(triplets, parsed)]


def sentence_verdict_counts(verdicts: Sequence[TripletVerdict], n_sentences: int) -> pd.DataFrame:
    """Verdict counts per answer sentence (every sentence, with or without triplets)."""
    counts = np.zeros((n_sentences, 4), dtype=np.int64)
    for v in verdicts:
        i = v.triplet.sentence_index
        if not 0 <= i < n_sentences:
            raise ValueError(f"triplet sentence_index {i} outside 0..{n_sentences - 1}")
        counts[i, 0] += 1
        counts[i, 1 + VERDICTS.index(v.verdict)] += 1
    frame = pd.DataFrame(counts, columns=list(COUNT_COLUMNS))
    frame.insert(0, "sentence_index", np.arange(n_sentences, dtype=np.int64))
    return frame


def _totals(counts) -> tuple[int, int, int]:
    """(entailment, neutral, contradiction) from a mapping, a Series or a DataFrame."""
    if isinstance(counts, pd.DataFrame):
        counts = counts.sum(numeric_only=True)
    if not isinstance(counts, (Mapping, pd.Series)):
        raise TypeError(f"counts must be a mapping, Series or DataFrame, not {type(counts).__name__}")
    keys = {str(k).lower().removeprefix("n_"): k for k in counts.keys()}
    out = []
    for name in VERDICTS:
        key = keys.get(name.lower())
        value = 0 if key is None else counts[key]
        if value < 0:
            raise ValueError(f"negative count for {name}: {value}")
        out.append(int(value))
    return out[0], out[1], out[2]


def aggregate(counts, rule: str) -> float:
    """Response score in [0, 1] from verdict counts; higher = more likely hallucinated.

    `counts`: keys "Entailment"/"Neutral"/"Contradiction" (any case) or "n_entailment"/...;
    a DataFrame of `sentence_verdict_counts` rows is summed. No triplet scores 0.

    - "strict" (RefChecker's max-pooling, Entailment < Neutral < Contradiction): 1 if any
      triplet is a Contradiction, else 0.5 * the Neutral share. So score > 0 exactly when the
      pooled label is not Entailment, 1 exactly when it is Contradiction, and answers with
      only Neutral doubts rank by how many.
    - "ratio": (Neutral + 2 * Contradiction) / (2 * n), the paper's scalar (Entailment 1,
      Neutral 0, Contradiction -1) averaged and rescaled to [0, 1].
    - "majority": 1 when Neutral + Contradiction outnumber Entailment, else their share
      (at most 0.5), so the answers below the majority line still rank.
    """
    if rule not in RULES:
        raise ValueError(f"unknown aggregation rule {rule!r}; choose one of {', '.join(RULES)}")
    e, n, c = _totals(counts)
    total = e + n + c
    if total == 0:
        return 0.0
    if rule == "strict":
        return 1.0 if c else 0.5 * n / total
    if rule == "ratio":
        return (n + 2 * c) / (2 * total)
    return 1.0 if n + c > e else (n + c) / total


def copy_rate(answer: str, evidence: str, n: int) -> float:
    """Share of the answer's word n-grams (lower-cased \\w+ words, with repeats) that occur in
    the evidence; 0 when the answer has no n-gram. RefChecker averages n = 1..4."""
    return copy_rates(answer, evidence, (n,))[0]


def copy_rates(answer: str, evidence: str, ns: Sequence[int]) -> list[float]:
    """`copy_rate` for each n of `ns`, the answer and the evidence split into words once."""
    if any(n < 1 for n in ns):
        raise ValueError(f"n must be at least 1, got {min(ns)}")
    words = _WORD.findall(answer.lower())
    known = _joined_words(evidence)
    out = []
    for n in ns:
        # words hold no space, so " w1 w2 " is in the space-joined evidence iff (w1, w2) is an n-gram of it
        grams = [f" {' '.join(words[i:i + n])} " for i in range(len(words) - n + 1)]
        out.append(sum(g in known for g in grams) / len(grams) if grams else 0.0)
    return out


@lru_cache(maxsize=64)
def _joined_words(evidence: str) -> str:
    """The evidence's lower-cased words joined by single spaces, with a space at each end (the
    answers of a source share it)."""
    return f" {' '.join(_WORD.findall(evidence.lower()))} "
