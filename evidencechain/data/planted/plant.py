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


def replace_span(text: str, start: int, end: int, new: str, evidence: str, how: str) -> Edit:
    out = text[:start] + new + text[end:]
    lead = len(new) - len(new.lstrip())
    return Edit(out, ((start + lead, start + len(new)),), evidence, how)


def words_of(doc: ParsedText) -> list[tuple[int, int, str]]:
    return [(int(doc.starts[i]), int(doc.ends[i]), doc.lower[i]) for i in range(len(doc))
            if not doc.is_punct[i]]


def tokens_of(doc: ParsedText) -> list[tuple[int, int, int, str]]:
    """(token index, start, end, lower-case word) of the words of a text."""
    return [(i, int(doc.starts[i]), int(doc.ends[i]), doc.lower[i]) for i in range(len(doc))
            if not doc.is_punct[i]]


def pick(rng, items):
    return items[rng.randrange(len(items))] if items else None


def in_name(text: str, doc: ParsedText, s: int, e: int, first: bool = False) -> bool:
    """Whether the word at [s, e) belongs to a name: capitalised inside the sentence, inside a named
    entity other than a plain number or date, or glued to another word by a hyphen
    ("Amnesty International", "May 20", "The Price Is Right", "black-and-white", "state-run")."""
    if text[s:s + 1].isupper() and not first:
        return True
    if text[s - 1:s] in ("-", "/") or text[e:e + 1] in ("-", "/"):
        return True
    return any(a < e and s < b for a, b, _ in doc.entities or ())


def _article(text: str, s: int, new: str) -> tuple[int, str]:
    """(start, replacement) with an 'a'/'an' just before `s` agreeing with `new`."""
    m = re.search(r"\b([Aa]n?) $", text[:s])
    if m is None:
        return s, new
    art = ("an" if new[:1].lower() in "aeiou" else "a")
    return m.start(1), keep_case(art, m.group(1)) + " " + new


def plant_polarity(text: str, doc: ParsedText, rng) -> Edit | None:
    p = edits()["polarity"]
    aux, negative = set(p["auxiliaries"]), NEGATIONS | set(p["negative"])
    words = tokens_of(doc)
    if any(w in negative for *_, w in words) or "?" in text or len(words) < 2:
        return None
    spots = []
    for k, (_, s, e, w) in enumerate(words[1:-1], start=1):
        prev, nxt = words[k - 1][3], words[k + 1][3]
        if w not in aux or nxt in ("not", "n't", "never", "no", "to") or nxt in p["not_before"]:
            continue
        if w in p["main_verbs"] and (nxt in p["not_before_main"] or doc.like_num[words[k + 1][0]]):
            continue
        if (w.startswith("ha") and prev in p["not_after_have"]) or prev == "there":
            continue
        if in_name(text, doc, s, e) or not re.match(r" [A-Za-z]", text[e:e + 2]):
            continue
        spots.append((s, e, k))
    spot = pick(rng, spots)
    if spot is None:
        return None
    s, e, k = spot
    nxt = words[k + 1]
    return Edit(text[:e] + " not" + text[e:], ((e + 1, e + 4),), f"{text[s:e]} {text[nxt[1]:nxt[2]]}",
                "negation inserted")


def _candidate(text: str, doc: ParsedText, words: list, k: int, table: dict, lexicon: str):
    """(word, previous word, next token or None) of word k when it is in `table[lexicon]`, does not
    follow a word of `table["not_after"]` and is not part of a name; else None."""
    _, s, e, w = words[k]
    prev = words[k - 1][3] if k else ""
    if w not in table[lexicon] or prev in table["not_after"] or in_name(text, doc, s, e, first=k == 0):
        return None
    return w, prev, words[k + 1] if k + 1 < len(words) else None


def _antonym_spot(text: str, doc: ParsedText, words: list, k: int) -> bool:
    a = edits()["antonym"]
    found = _candidate(text, doc, words, k, a, "swap")
    if found is None:
        return False
    w, prev, nxt = found
    if any(x[3] in a["not_near_after"] for x in words[max(0, k - 3):k]):
        return False
    if nxt is not None and nxt[3] in a["not_before"]:
        return False
    i = words[k][0]
    if w in ("before", "after") and (i + 1 >= len(doc) or doc.is_punct[i + 1]):
        return False  # an adverb at the end of a clause: "I've seen it before"
    return not (w.endswith("ed") and prev in ("a", "an", "the"))


def plant_antonym(text: str, doc: ParsedText, rng) -> Edit | None:
    """A word replaced by its opposite of the same part of speech (`edits.toml` [antonym.swap]), not
    in a name, an idiom ("as never before", "fell ill") or an adjective use of a verb ("a convicted
    felon"); an 'a'/'an' before it follows the new word."""
    swap = edits()["antonym"]["swap"]
    words = tokens_of(doc)
    spots = [(s, e, w) for k, (_, s, e, w) in enumerate(words) if _antonym_spot(text, doc, words, k)]
    spot = pick(rng, spots)
    if spot is None:
        return None
    s, e, w = spot
    new = keep_case(swap[w], text[s:e])
    start, out = _article(text, s, new)
    edit = replace_span(text, start, e, out, text[s:e], f"{w} -> {swap[w]}")
    return Edit(edit.text, ((edit.spans[0][1] - len(new), edit.spans[0][1]),), edit.evidence, edit.how)


def _verb_like(doc: ParsedText, i: int) -> bool:
    """An inflected word ("told", "killed", "takes") or an auxiliary: the best guess without tags."""
    w = doc.lower[i]
    return w in edits()["polarity"]["auxiliaries"] or (doc.lemma[i] != w and not w.endswith("s'"))


def plant_roles(text: str, doc: ParsedText, rng) -> Edit | None:
    """Two names of the same kind around a verb swapped ("A told B" -> "B told A"). Not where a
    name modifies a noun ("Marseille prosecutor", "CNN's Paula Newton", "the Maysak island nation")."""
    ents = [(s, e, lab) for s, e, lab in doc.entities or () if lab in ("PERSON", "ORG", "GPE", "NORP")]
    bounds = set(edits()["roles"]["boundaries"])
    pairs = []
    for i, (s1, e1, l1) in enumerate(ents):
        for s2, e2, l2 in ents[i + 1:]:
            gap = doc.tokens_in(e1, s2)
            words = [k for k in gap if not doc.is_punct[k]]
            after = doc.tokens_in(e2, len(text))
            if l1 != l2 or text[s1:e1] == text[s2:e2] or not 1 <= len(words) <= 4 or not words:
                continue
            if re.search(r"[,;:()\"\u2014-]", text[e1:s2]) or any(re.match(r"['\u2019-]", text[e:e + 1]) for e in (e1, e2)):
                continue
            if text[s1 - 1:s1] in ("-", "/") or re.search(r"\b(the|a|an)\s*$", text[:s1], re.I) \
                    or re.search(r"\b(the|a|an)\s*$", text[e1:s2], re.I):
                continue
            if any(text[doc.starts[k]].isupper() or doc.lower[k] in bounds for k in words):
                continue
            lead = next((k for k in words if not doc.lower[k].endswith("ly")), None)
            if lead is None or not _verb_like(doc, lead):
                continue
            if len(after) and not (doc.is_punct[after[0]] or doc.is_stop[after[0]]):
                continue
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
    """A unit or scale word after a number replaced ("5 km" -> "5 miles"); not inside a conversion
    ("17 miles (27 km)") nor in "30% of", which no other unit can follow."""
    q = edits()["quantity"]
    spots = []
    for m in re.finditer(rf"(?<![\w.])({NUMBER})(\s*)(%|[A-Za-z]+)\b", text):
        word = m.group(3).lower()
        table = q["scales"] if word in q["scales"] else q["units"] if word in q["units"] else None
        if table is None or text[m.start() - 1:m.start()] == "(" or re.match(r"\s*\(", text[m.end():]):
            continue
        if word in ("%", "percent") and re.match(r"\s+of\b", text[m.end():]):
            continue
        spots.append((m.start(3), m.end(3), table[word]))
    spot = pick(rng, spots)
    if spot is None:
        return None
    s, e, new = spot
    if text[s:e] == "%" or new.startswith(" "):
        new = " " + new.strip()
    return replace_span(text, s, e, new, text[s:e], f"{text[s:e]} -> {new.strip()}")


def _modality_spot(text: str, doc: ParsedText, words: list, k: int) -> str | None:
    """The replacement of word k on a higher level of its scale, or None where the word is part of a
    larger phrase, a name or a date ("May 20"), or where the shift would break the grammar."""
    m = edits()["modality"]
    found = _candidate(text, doc, words, k, m, "shifts")
    if found is None:
        return None
    w, prev, nxt = found
    s = words[k][1]
    if nxt is not None and (nxt[3] in m["not_before"] or (w in m["determiners"] and doc.like_num[nxt[0]])):
        return None
    if w in m["determiners"] and (prev in m["not_after_determiner"] or text[s - 2:s] in ("'s", "\u2019s")):
        return None
    if w in m["plural_after"] and (nxt is None or nxt[3].endswith(("ed", "ing", "er", "est", "ly")) or (
            doc.lemma[nxt[0]] == nxt[3] and nxt[3] not in m["plurals"])):
        return None
    if w in m["singular_after"] and nxt is not None and doc.lemma[nxt[0]] == nxt[3] and not nxt[3].endswith("s"):
        return None
    if w in m["hedges"] and (any(x[3] in m["concessive"] for x in words)
                             or "so that" in " ".join(x[3] for x in words[max(0, k - 3):k])):
        return None
    after = words[k + 2] if k + 2 < len(words) else None
    if nxt is not None and nxt[3] == "have" and after is not None \
            and after[3] not in edits()["polarity"]["not_before_main"] and not doc.like_num[after[0]]:
        return m["before_have"].get(w)
    return m["shifts"][w]


def plant_modality(text: str, doc: ParsedText, rng) -> Edit | None:
    words = tokens_of(doc)
    spots = [(s, e, w, new) for k, (_, s, e, w) in enumerate(words)
             if (new := _modality_spot(text, doc, words, k)) is not None]
    spot = pick(rng, spots)
    if spot is None:
        return None
    s, e, w, new = spot
    return replace_span(text, s, e, keep_case(new, text[s:e]), text[s:e], f"{w} -> {new}")
