"""Seeded perturbations of real sentences: supported paraphrases, conflicts and baseless
additions, each with the character span of what changed in the claim and its kind.
Vocabularies and templates live in `data/perturb.toml`."""
from __future__ import annotations

import random
import re
import tomllib
from functools import cache
from importlib import resources

from ..text.windows import window_around


def words(text: str) -> list[str]:
    return text.split()

_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?![\w])")
_NAME = re.compile(r"(?<![\w])(?:[A-Z][a-z]+(?:\s+(?:of\s+|de\s+|the\s+)?[A-Z][a-z]+)*)")
_MONTH = re.compile(r"\b(January|February|March|April|May|June|July|August|September|October|November|December)\b")
_CLAUSE_CUT = re.compile(r",\s+(?:which|who|where|while|although|after|before|when|including|as)\b[^,]*|"
                         r"\s*\([^)]*\)")
_END = re.compile(r"[\s.!?;:,]+$")
_COMMON = frozenset("the a an it he she they this that these those there many most some in on at after before "
                    "during its his her their we our".split())


@cache
def vocabulary() -> dict:
    return tomllib.loads(resources.files(__package__).joinpath("data/perturb.toml").read_text("utf-8"))


def _word_swap(sentence: str, table: dict[str, str], rng: random.Random) -> tuple[str, tuple[int, int]] | None:
    hits = [m for m in re.finditer(r"[A-Za-z]+", sentence) if m.group().lower() in table]
    if not hits:
        return None
    m = rng.choice(hits)
    new = table[m.group().lower()]
    if m.group()[0].isupper():
        new = new[0].upper() + new[1:]
    claim = sentence[:m.start()] + new + sentence[m.end():]
    return claim, (m.start(), m.start() + len(new))


def _replace(sentence: str, match: re.Match, new: str) -> tuple[str, tuple[int, int]]:
    return sentence[:match.start()] + new + sentence[match.end():], (match.start(), match.start() + len(new))


def _name_matches(text: str) -> list[re.Match]:
    """Capitalised word runs that are not just a sentence's first word."""
    return [m for m in _NAME.finditer(text) if text[:m.start()].rstrip()[-1:] not in ("", ".", "!", "?")
            and not _MONTH.fullmatch(m.group())]


def _names(text: str) -> list[str]:
    return [m.group() for m in _name_matches(text)]


def _lower_first(text: str) -> str:
    first = words(text)[:1]
    return text[0].lower() + text[1:] if first and first[0].lower() in _COMMON else text


class Perturber:
    def __init__(self, rng: random.Random, max_premise_words: int = 110):
        self.rng, self.max_words, self.vocab = rng, max_premise_words, vocabulary()

    # -- supported -------------------------------------------------------------------------
    def supported(self, sentences: list[str], i: int) -> tuple[str, str, str] | None:
        """(premise, claim, kind): the claim restates sentence i without copying it verbatim."""
        s = sentences[i]
        options = ["synonym", "clause_drop", "fusion", "compression"]
        self.rng.shuffle(options)
        for kind in options:
            claim = None
            if kind == "synonym":
                swapped = _word_swap(s, self.vocab["synonyms"], self.rng)
                claim = swapped[0] if swapped else None
            elif kind == "clause_drop":
                cut = _CLAUSE_CUT.sub("", s, count=1)
                claim = cut if cut != s and len(words(cut)) >= 5 else None
            elif kind == "fusion" and i + 1 < len(sentences) and len(words(s + sentences[i + 1])) <= 55:
                nxt = sentences[i + 1]
                claim = _END.sub("", s) + ", and " + _lower_first(nxt)
            elif kind == "compression":
                parts = [p for p in re.split(r",\s+", _END.sub("", s)) if len(words(p)) >= 5]
                claim = parts[0] + "." if len(parts) > 1 else None
            if claim:
                return window_around(sentences, i, self.max_words), claim, kind
        return None

    # -- conflict --------------------------------------------------------------------------
    def conflict(self, sentences: list[str], i: int, document: str) -> tuple[str, str, tuple[int, int], str] | None:
        s = sentences[i]
        options = ["number_swap", "entity_swap", "date_swap", "negation", "antonym", "quantifier"]
        self.rng.shuffle(options)
        for kind in options:
            made = getattr(self, "_" + kind)(s, document)
            if made:
                claim, span = made
                return window_around(sentences, i, self.max_words), claim, span, kind
        return None

    def _number_swap(self, s: str, document: str):
        found = list(_NUMBER.finditer(s))
        if not found:
            return None
        m = self.rng.choice(found)
        others = sorted({n.group() for n in _NUMBER.finditer(document)} - {m.group()})
        if not others:
            value = m.group().replace(",", "")
            others = [str(int(float(value)) + self.rng.choice([2, 3, 5, 10, 11]))] if value.replace(".", "").isdigit() \
                else self.vocab["fallback"]["numbers"]
        return _replace(s, m, self.rng.choice(others))

    def _entity_swap(self, s: str, document: str):
        found = _name_matches(s)
        if not found:
            return None
        m = self.rng.choice(found)
        others = sorted(set(_names(document)) - {m.group()} - set(_names(s)))
        if not others:
            fb = self.vocab["fallback"]
            others = fb["names"] if " " in m.group() else fb["places"]
        return _replace(s, m, self.rng.choice(others))

    def _date_swap(self, s: str, document: str):
        found = list(_MONTH.finditer(s))
        if not found:
            return None
        m = self.rng.choice(found)
        return _replace(s, m, self.rng.choice([x for x in self.vocab["fallback"]["months"] if x != m.group()]))

    def _negation(self, s: str, document: str):
        aux = self.vocab["negation"]["auxiliaries"]
        m = re.search(r"\b(" + "|".join(aux) + r")\s+not\b", s)
        if m:
            return s[:m.start(1) + len(m.group(1))] + s[m.end():], (max(m.start(1) - 1, 0), m.start(1) + len(m.group(1)))
        m = re.search(r"\b(" + "|".join(aux) + r")\b(?=\s+[a-z])", s)
        if not m:
            return None
        claim = s[:m.end()] + " not" + s[m.end():]
        return claim, (m.start(), m.end() + 4)

    def _antonym(self, s: str, document: str):
        return _word_swap(s, self.vocab["antonyms"], self.rng)

    def _quantifier(self, s: str, document: str):
        return _word_swap(s, self.vocab["quantifiers"], self.rng)

    # -- baseless --------------------------------------------------------------------------
    def baseless(self, sentences: list[str], i: int, other: list[str]) -> tuple[str, str, tuple[int, int], str] | None:
        s = sentences[i]
        kinds = ["removed_support", "appended_other", "appended_cause"]
        kind = self.rng.choice(kinds)
        if kind == "removed_support" and len(sentences) >= 3:
            rest = sentences[:i] + sentences[i + 1:]
            premise = window_around(rest, min(i, len(rest) - 1), self.max_words)
            claim = s
            return premise, claim, (0, len(_END.sub("", claim)) or len(claim)), kind
        base = _END.sub("", s)
        if kind == "appended_other" and other:
            extra = self.rng.choice(other)
            extra = _END.sub("", extra)
            if 4 <= len(words(extra)) <= 25:
                addition = _lower_first(extra)
                claim = f"{base}, and {addition}."
                start = len(base) + 6
                return window_around(sentences, i, self.max_words), claim, (start, start + len(addition)), kind
        templates = self.vocab["templates"]
        if self.rng.random() < 0.5:
            addition, sep = self.rng.choice(templates["causes"]), " "
        else:
            addition, sep = self.rng.choice(templates["opinions"]), ", "
        claim = f"{base}{sep}{addition}."
        start = len(base) + len(sep)
        return window_around(sentences, i, self.max_words), claim, (start, start + len(addition)), "appended_cause"
