"""Plant one meaning error of a class into a real sentence, or paraphrase it keeping the meaning.

Every function takes the sentence (str), its ParsedText and a random.Random and returns an
`Edit` or None when the sentence offers nothing to edit. Errors reuse the evidence's words
(a negation, an antonym, two names swapped, a unit or scale, a value from another sentence,
a quantifier or modal), and their gold spans are the planted words in the edited sentence.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from ...text.parse import ParsedText

NEGATIONS = frozenset({"not", "n't", "never", "no", "none", "nobody", "nothing", "neither", "nor", "without"})
CLASSES = ("polarity", "antonym", "roles", "quantity", "recombination", "modality")
NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
SMALL_NUMBERS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve"]


@dataclass(frozen=True)
class Edit:
    text: str
    spans: tuple[tuple[int, int], ...] = ()
    """Gold spans of the planted words in `text` (none for a paraphrase)."""
    evidence: str = ""
    how: str = ""
    tags: tuple[str, ...] = field(default=())


@cache
def edits() -> dict:
    text = resources.files(__package__).joinpath("edits.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def antonym_pairs() -> dict[str, list[str]]:
    """Surface word -> antonyms, from the semantic lexicon's sources (both directions)."""
    data = tomllib.loads(resources.files("evidencechain.features.semantic").joinpath(
        "data", "cues.toml").read_text(encoding="utf-8"))
    ignore = set(data["antonyms"]["ignore"])
    pairs = [tuple(p) for p in data["antonyms"]["pairs"]]
    tsv = resources.files("evidencechain.features.semantic").joinpath("data", "antonyms.tsv")
    for line in tsv.read_text(encoding="utf-8").splitlines():
        parts = line.split("\t")
        if len(parts) == 3 and not line.startswith(("#", "word\t")) and parts[2] in ("a", "v", "r"):
            if parts[0] not in ignore and parts[1] not in ignore:
                pairs.append((parts[0], parts[1]))
    out: dict[str, list[str]] = {}
    for a, b in pairs:
        out.setdefault(a, []).append(b)
        out.setdefault(b, []).append(a)
    return out


def keep_case(word: str, like: str) -> str:
    return word[:1].upper() + word[1:] if like[:1].isupper() else word


def _replace(text: str, start: int, end: int, new: str, evidence: str, how: str) -> Edit:
    out = text[:start] + new + text[end:]
    lead = len(new) - len(new.lstrip())
    return Edit(out, ((start + lead, start + len(new)),), evidence, how)


def words_of(doc: ParsedText) -> list[tuple[int, int, str]]:
    return [(int(doc.starts[i]), int(doc.ends[i]), doc.lower[i]) for i in range(len(doc))
            if not doc.is_punct[i]]


def pick(rng, items):
    return items[rng.randrange(len(items))] if items else None


def plant_polarity(text: str, doc: ParsedText, rng) -> Edit | None:
    aux = set(edits()["polarity"]["auxiliaries"])
    words = words_of(doc)
    if any(w in NEGATIONS for _, _, w in words):
        return None
    spots = [(s, e, w) for k, (s, e, w) in enumerate(words[:-1])
             if w in aux and words[k + 1][2] not in ("not", "n't", "never", "no", "to")]
    spot = pick(rng, spots)
    if spot is None:
        return None
    s, e, w = spot
    out = text[:e] + " not" + text[e:]
    nxt = words[words.index(spot) + 1]
    return Edit(out, ((e + 1, e + 4),), f"{text[s:e]} {text[nxt[0]:nxt[1]]}", "negation inserted")


def _prefix_pair(a: str, b: str) -> bool:
    """'common' / 'uncommon': a negative prefix, which is the polarity class, not an antonym."""
    short, long = sorted((a, b), key=len)
    return long.endswith(short) and long[:len(long) - len(short)].rstrip("-") in ("un", "in", "im", "il", "ir",
                                                                                    "dis", "non", "a")


def plant_antonym(text: str, doc: ParsedText, rng) -> Edit | None:
    pairs = antonym_pairs()
    scaled = set(edits()["modality"]["shifts"]) | set(edits()["modality"]["same"])
    spots = [(s, e, w) for s, e, w in words_of(doc) if w in pairs and len(w) > 2 and w not in scaled
             and any(not _prefix_pair(w, b) for b in pairs[w])]
    spot = pick(rng, spots)
    if spot is None:
        return None
    s, e, w = spot
    new = keep_case(pick(rng, sorted(b for b in pairs[w] if not _prefix_pair(w, b))), text[s:e])
    return _replace(text, s, e, new, text[s:e], f"{w} -> {new.lower()}")


def plant_roles(text: str, doc: ParsedText, rng) -> Edit | None:
    ents = [(s, e, lab) for s, e, lab in doc.entities or () if lab in ("PERSON", "ORG", "GPE", "NORP")]
    pairs = []
    def relation(a: int, b: int) -> bool:
        return any(not doc.is_stop[k] and not doc.is_punct[k] and doc.lower[k].isalpha()
                   and doc.lower[k].islower() for k in doc.tokens_in(a, b) if text[doc.starts[k]].islower())

    for i, (s1, e1, l1) in enumerate(ents):
        for s2, e2, l2 in ents[i + 1:]:
            gap = text[e1:s2]
            if l1 == l2 and text[s1:e1] != text[s2:e2] and 1 <= len(gap.split()) <= 4 \
                    and not re.search(r"[,;:()\"]| and | or ", gap) and relation(e1, s2):
                pairs.append((s1, e1, s2, e2))
    spot = pick(rng, pairs)
    if spot is None:
        return None
    s1, e1, s2, e2 = spot
    a, b = text[s1:e1], text[s2:e2]
    out = text[:s1] + b + text[e1:s2] + a + text[e2:]
    shift = len(b) - len(a)
    return Edit(out, ((s1, s1 + len(b)), (s2 + shift, s2 + shift + len(a))), text[s1:e2], "roles swapped")


def plant_quantity(text: str, doc: ParsedText, rng) -> Edit | None:
    q = edits()["quantity"]
    spots = []
    for m in re.finditer(rf"(?<![\w.])({NUMBER})(\s*)(%|[A-Za-z]+)\b", text):
        word = m.group(3).lower()
        table = q["scales"] if word in q["scales"] else q["units"] if word in q["units"] else None
        if table:
            spots.append((m.start(3), m.end(3), table[word]))
    spot = pick(rng, spots)
    if spot is None:
        return None
    s, e, new = spot
    if text[s:e] == "%" or new.startswith(" "):
        new = " " + new.strip()
    return _replace(text, s, e, new, text[s:e], f"{text[s:e]} -> {new.strip()}")


def plant_modality(text: str, doc: ParsedText, rng) -> Edit | None:
    shifts = edits()["modality"]["shifts"]
    words = words_of(doc)
    spots = [(s, e, w) for k, (s, e, w) in enumerate(words)
             if w in shifts and not (k + 1 < len(words) and words[k + 1][2] in ("to", "of"))]
    spot = pick(rng, spots)
    if spot is None:
        return None
    s, e, w = spot
    return _replace(text, s, e, keep_case(shifts[w], text[s:e]), text[s:e], f"{w} -> {shifts[w]}")


def _values(text: str) -> list[tuple[int, int, str]]:
    """Years and plain numbers of a text, (start, end, kind)."""
    out = []
    for m in re.finditer(rf"(?<![\w.,$:'/-])({NUMBER})(?![\w:/'-]|[.,]\d)", text):
        v = m.group(1)
        year = re.fullmatch(r"(1[5-9]|20)\d\d", v) is not None
        out.append((m.start(1), m.end(1), "year" if year else "number"))
    return out


def plant_recombination(text: str, doc: ParsedText, rng, context: list[str]) -> Edit | None:
    """A value of `text` replaced by a value of the same kind from the other evidence
    sentences `context` (or two values of the sentence swapped)."""
    mine = _values(text)
    kinds: dict[str, set[str]] = {}
    for other in context:
        for s, e, kind in _values(other):
            kinds.setdefault(kind, set()).add(other[s:e])
    spots = [(s, e, v) for s, e, kind in mine for v in sorted(kinds.get(kind, ()))
             if v != text[s:e] and v not in text]
    same = [(a, b) for i, a in enumerate(mine) for b in mine[i + 1:]
            if a[2] == b[2] and text[a[0]:a[1]] != text[b[0]:b[1]]]
    if same and (not spots or rng.random() < 0.5):
        (s1, e1, _), (s2, e2, _) = pick(rng, same)
        a, b = text[s1:e1], text[s2:e2]
        out = text[:s1] + b + text[e1:s2] + a + text[e2:]
        shift = len(b) - len(a)
        return Edit(out, ((s1, s1 + len(b)), (s2 + shift, s2 + shift + len(a))), f"{a} ... {b}",
                    "values swapped")
    spot = pick(rng, spots)
    if spot is None:
        return None
    s, e, v = spot
    return _replace(text, s, e, v, text[s:e], f"{text[s:e]} -> {v} (from another sentence)")


def plant(cls: str, text: str, doc: ParsedText, rng, context: list[str]) -> Edit | None:
    if cls == "recombination":
        return plant_recombination(text, doc, rng, context)
    return {"polarity": plant_polarity, "antonym": plant_antonym, "roles": plant_roles,
            "quantity": plant_quantity, "modality": plant_modality}[cls](text, doc, rng)
