"""RefChecker-style claim triplets (subject, relation, object) with character offsets.

Extraction reads spaCy's dependency parse (`load_dependency_pipeline`: the installed English
model with its parser, unlike the senter pipeline of `nlp.load_pipeline`). Conventions:

- Offsets are into the text passed in: `text[e.start:e.end] == e.text` for every element.
- Element extent: a noun phrase is its head's subtree without relative/adnominal clauses,
  appositions, coordinated conjuncts (`_NP_CUT`) and prepositional phrases before the head,
  cut to the contiguous run around the head and stripped of edge punctuation. Prepositional
  phrases after the head are kept ("the capital of France"). A clausal complement is one
  object in full ("noted that the soup was cold"), and its clause gives its own triplets.
- Relation: the verb with its auxiliaries, negation and particles ("was not opened",
  "set up"); a controlled infinitive joins its governor ("wants to buy"). A prepositional
  object's preposition ends the relation when it follows the verb group directly (adverbs
  between are allowed: "was born in", "was designed by"); otherwise it opens the object
  ("moved the company to Paris" -> (He, moved, the company), (He, moved, to Paris)).
- Passive: the surface subject stays the subject and the agent is the object:
  "The tower was designed by Eiffel" -> (The tower, was designed by, Eiffel).
- Copulas: (X, is, attribute) and (X, is in, place); "X was born in Z" -> (X, was born in, Z);
  a predicate adjective parsed as the head keeps its auxiliary: (the soup, was, overcooked).
  Multiword prepositions join the relation ("because of", "out of").
- Apposition: "Paris, the capital of France," -> (Paris, <gap>, the capital of France) where
  the relation element is the separator between the two phrases (here ","), rendered "is"
  by `Triplet.relation_text` and `as_text`.
- Conjunctions multiply: "A and B founded C and D" -> 4 triplets; a coordinated verb without
  a subject inherits its governor's ("founded C and sold D"), so do infinitives and adverbial
  clauses; a relative pronoun or a reduced relative clause takes the noun it modifies.
- Fallback, for a content sentence where the parse yields nothing or there is no parser:
  relation = the first verb-like word after the first word (VERB/AUX tag, or the word
  lists of data/triplets.toml without tags) extended over following particles, subject =
  the words before it, object = the words after it (empty, zero-length, when the verb ends
  the sentence: "The river flows"); with no verb-like word, the second word is the
  relation. Two words: (w1, gap, w2); one word: (w, "", ""). A sentence
  without a content word (all stop words or punctuation) yields no triplet.
"""
from __future__ import annotations

import logging
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from .dependency import load_dependency_pipeline
from .nlp import load_pipeline
from .parse import piece_bounds

log = logging.getLogger(__name__)

APPOSITION_RELATION = "is"
_SUBJ = {"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"}
_OBJ = {"dobj", "attr", "acomp", "oprd", "npadvmod"}
_PREP = {"prep", "agent"}
_VERB_GROUP = {"aux", "auxpass", "neg"}
_NP_CUT = {"relcl", "acl", "appos", "conj", "cc", "preconj", "advcl", "parataxis"}
_INHERIT = {"conj", "xcomp", "advcl"}
_PREDICATE_CUT = _SUBJ | _VERB_GROUP | {"mark", "ccomp"}
_RELATIVE = {"which", "who", "whom", "that", "whose"}


@dataclass(frozen=True)
class Element:
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Triplet:
    subject: Element
    relation: Element
    object: Element
    sentence_index: int

    @property
    def start(self) -> int:
        return min(self.subject.start, self.relation.start, self.object.start)

    @property
    def end(self) -> int:
        return max(self.subject.end, self.relation.end, self.object.end)

    @property
    def relation_text(self) -> str:
        """The relation as words: an apposition's separator reads as "is"."""
        rel = self.relation.text
        if any(c.isalnum() for c in rel) or not (self.subject.text and self.object.text):
            return rel.strip()
        return APPOSITION_RELATION

    def as_text(self) -> str:
        return " ".join(p for p in (self.subject.text, self.relation_text, self.object.text) if p)

    def moved(self, offset: int, sentence_index: int) -> Triplet:
        """This triplet of a sentence parsed alone, placed at `offset` of a text as its sentence
        `sentence_index` (extraction reads only the sentence: the triplets found there)."""
        return Triplet(*(Element(e.start + offset, e.end + offset, e.text)
                         for e in (self.subject, self.relation, self.object)), sentence_index)


@cache
def _words() -> dict:
    return tomllib.loads(resources.files(__package__).joinpath("data/triplets.toml")
                        .read_text("utf-8"))


# -- spans over a parsed doc --------------------------------------------------------------

def _np_range(tok, cut_deps: frozenset[str] | set[str] = frozenset()) -> tuple[int, int]:
    """Token range [lo, hi] of the noun phrase headed by `tok` (see module docstring)."""
    cut: set[int] = set()
    for t in tok.subtree:
        if t is not tok and (t.dep_ in _NP_CUT or t.dep_ in cut_deps
                             or (t.dep_ == "prep" and t.i < t.head.i)):
            cut.update(x.i for x in t.subtree)
    lo = hi = tok.i
    left, right = tok.left_edge.i, tok.right_edge.i
    while lo - 1 >= left and lo - 1 not in cut:
        lo -= 1
    while hi + 1 <= right and hi + 1 not in cut:
        hi += 1
    return _trim(tok.doc, lo, hi, tok.i)


def _trim(doc, lo: int, hi: int, keep: int) -> tuple[int, int]:
    """[lo, hi] without punctuation or space at either edge, never past token `keep`."""
    while lo < keep and (_is_punct(doc[lo]) or doc[lo].is_space):
        lo += 1
    while hi > keep and (_is_punct(doc[hi]) or doc[hi].is_space):
        hi -= 1
    return lo, hi


def _is_punct(tok) -> bool:
    return tok.is_punct or not any(c.isalnum() for c in tok.text)


def _conjuncts(tok) -> list:
    """`tok` and the conjuncts coordinated with it, in order."""
    out, todo = [], [tok]
    while todo:
        t = todo.pop()
        out.append(t)
        todo.extend(c for c in t.children if c.dep_ == "conj")
    return sorted(out, key=lambda t: t.i)


def _verb_group(v) -> tuple[int, int]:
    """Token range of the verb with its contiguous auxiliaries, negation and particles."""
    group = {c.i for c in v.children if c.dep_ in _VERB_GROUP}
    lo = v.i
    while lo - 1 >= v.sent.start and (lo - 1 in group or (
            v.doc[lo - 1].pos_ == "ADV" and v.doc[lo - 1].head is v and (lo - 2) in group)):
        lo -= 1
    hi = v.i
    while hi + 1 < v.sent.end and v.doc[hi + 1].dep_ == "prt" and v.doc[hi + 1].head is v:
        hi += 1
    if v.dep_ == "xcomp" and not _own_subjects(v) and lo - 1 == v.head.i:
        lo = _verb_group(v.head)[0]
    return lo, hi


def _own_subjects(v) -> list:
    return [c for c in v.children if c.dep_ in _SUBJ]


def _resolve(arg, v):
    """A relative pronoun argument of a relative clause stands for the noun it modifies."""
    if v.dep_ == "relcl" and arg.lower_ in _RELATIVE:
        return v.head
    return arg


def _subjects(v, depth: int = 0) -> list:
    own = _own_subjects(v)
    if own:
        return [_resolve(s, v) for s in own]
    if depth < 8 and v.dep_ in _INHERIT and v.head is not v:
        return _subjects(v.head, depth + 1)
    if v.dep_ in ("acl", "relcl") and v.head is not v:
        return [v.head]
    return []


def _objects(v, group_hi: int) -> list[tuple[int, int, int]]:
    """(relation end, object start, object end) token indices per object of `v`."""
    out = []
    for c in v.children:
        if c.dep_ in _OBJ:
            out += [(group_hi, *_np_range(o)) for o in _conjuncts(_resolve(c, v))]
        elif c.dep_ == "ccomp":
            out.append((group_hi, *_trim(v.doc, c.left_edge.i, c.right_edge.i, c.i)))
        elif c.dep_ in _PREP:
            chain = [c]  # multiword prepositions: "out of", "because of"
            while nxt := [g for g in chain[-1].children if g.i == chain[-1].i + 1
                          and g.pos_ == "ADP" and g.dep_ in ("prep", "pcomp")]:
                chain.append(nxt[0])
            last = chain[-1]
            adjacent = c.i > group_hi and all(t.pos_ == "ADV" for t in v.doc[group_hi + 1:c.i])
            for h in (g for p in chain for g in p.children
                      if g.dep_ in ("pobj", "pcomp") and g not in chain):
                for o in _conjuncts(h):
                    lo, hi = _np_range(o)
                    if adjacent:
                        out.append((last.i, lo, hi))
                    else:
                        out.append((group_hi, min(lo, c.i) if o is h else lo, hi))
    if v.pos_ not in ("VERB", "AUX"):  # adjectival or nominal predicate: "it was overcooked"
        lo, hi = _np_range(v, _PREDICATE_CUT)
        if lo > _verb_group(v)[0]:
            out.append((lo - 1, lo, hi))
    return out


def _parsed_triplets(span, base: int, text: str, index: int) -> list[Triplet]:
    doc = span.doc
    found: list[Triplet] = []

    def element(lo: int, hi: int) -> Element:
        a = base + doc[lo].idx
        b = base + doc[hi].idx + len(doc[hi].text)
        return Element(a, b, text[a:b])

    for v in span:
        if v.dep_ in _VERB_GROUP or not (v.pos_ in ("VERB", "AUX") or _own_subjects(v)):
            continue
        subjects = [s for subj in _subjects(v) for s in _conjuncts(subj)]
        if not subjects:
            continue
        lo, hi = _verb_group(v)
        for rel_hi, o_lo, o_hi in _objects(v, hi):
            for s in subjects:
                s_lo, s_hi = _np_range(s)
                r_lo = lo
                if s_lo <= rel_hi and lo <= s_hi:  # inverted auxiliary: "Was it built"
                    r_lo = s_hi + 1
                spans = sorted([(s_lo, s_hi), (r_lo, rel_hi), (o_lo, o_hi)])
                if r_lo > rel_hi or any(x[1] >= y[0] for x, y in zip(spans, spans[1:])):
                    continue
                found.append(Triplet(element(s_lo, s_hi), element(r_lo, rel_hi),
                                     element(o_lo, o_hi), index))
    for t in span:
        for a in (c for c in t.children if c.dep_ == "appos"):
            s_lo, s_hi = _np_range(t)
            o_lo, o_hi = _np_range(a)
            if s_hi < o_lo:
                found.append(Triplet(element(s_lo, s_hi), _gap(text, base + doc[s_hi].idx
                                     + len(doc[s_hi].text), base + doc[o_lo].idx),
                                     element(o_lo, o_hi), index))
    return found


def _gap(text: str, a: int, b: int) -> Element:
    """The separator text[a:b] without surrounding whitespace (whitespace if that is all)."""
    seg = text[a:b]
    if seg.strip():
        a += len(seg) - len(seg.lstrip())
        b -= len(seg) - len(seg.rstrip())
    return Element(a, b, text[a:b])


# -- rule fallback ------------------------------------------------------------------------

def _verb_like(tok, tagged: bool) -> bool:
    if tagged:
        return tok.pos_ in ("VERB", "AUX")
    w = _words()
    low = tok.lower_
    return low in w["verbs"] or (len(low) >= w["verb_suffix_min_length"] and tok.is_alpha
                                 and any(low.endswith(s) for s in w["verb_suffixes"]))


def _particle(tok, tagged: bool) -> bool:
    if tagged:
        return tok.pos_ in ("ADP", "PART", "AUX", "VERB") or tok.lower_ in ("not", "never")
    return tok.lower_ in _words()["relation_particles"] or _verb_like(tok, False)


def _fallback(span, base: int, text: str, index: int) -> list[Triplet]:
    words = [t for t in span if not t.is_space and not _is_punct(t)]
    if not words:
        return []
    tagged = span.doc.has_annotation("TAG")

    def element(first, last) -> Element:
        a, b = base + first.idx, base + last.idx + len(last.text)
        return Element(a, b, text[a:b])

    n = len(words)
    if n == 1:
        end = base + words[0].idx + len(words[0].text)
        empty = Element(end, end, "")
        return [Triplet(element(words[0], words[0]), empty, empty, index)]
    if n == 2:
        gap = _gap(text, base + words[0].idx + len(words[0].text), base + words[1].idx)
        return [Triplet(element(words[0], words[0]), gap, element(words[1], words[1]), index)]
    pivot = next((i for i in range(1, n) if _verb_like(words[i], tagged)), 1)
    last = pivot
    while last + 2 < n and _particle(words[last + 1], tagged):
        last += 1
    relation = element(words[pivot], words[last])
    obj = (element(words[last + 1], words[-1]) if last + 1 < n
           else Element(relation.end, relation.end, ""))
    return [Triplet(element(words[0], words[pivot - 1]), relation, obj, index)]


def _has_content(span) -> bool:
    return any(not t.is_stop and not t.is_space and not _is_punct(t) for t in span)


# -- public API ---------------------------------------------------------------------------

def _trimmed_sents(doc):
    for s in doc.sents:
        if s.text.strip():
            yield s


def _has_sentences(doc) -> bool:
    return doc.has_annotation("SENT_START") or doc.has_annotation("DEP")


def extract_triplets(text: str, sentences: list[tuple[int, int]] | None = None,
                     nlp=None) -> list[Triplet]:
    """Claim triplets of `text`, in sentence order (see the module docstring).

    `sentences`: (start, end) character spans of the sentences, as the project computes
    them; triplets get the index of the span they come from. None: the parser's (or the
    sentencizer's) sentences, whitespace-only ones dropped. `nlp`: a spaCy pipeline; without
    a parser in it the rule fallback applies. Default: `load_dependency_pipeline()`, else the
    blank pipeline.
    """
    if nlp is None:
        nlp = load_dependency_pipeline() or load_pipeline("blank")[0]
    parsed = "parser" in nlp.pipe_names
    units: list[tuple[int, object]] = []  # (base offset, span)
    indices: list[int] = []
    if sentences is None:
        for a, b in piece_bounds(text, min(nlp.max_length, 100_000)):
            doc = nlp(text[a:b])
            if not len(doc):
                continue
            spans = list(_trimmed_sents(doc)) if _has_sentences(doc) else [doc[:]]
            units += [(a, s) for s in spans if s.text.strip()]
        indices = list(range(len(units)))
    else:
        jobs = sentence_jobs(text, sentences)
        docs = nlp.pipe(text[a:b] for _, a, b in jobs)
        return sentence_triplets(text, [(i, a, doc) for (i, a, _), doc in zip(jobs, docs)], parsed)
    return _triplets_of_units(text, [(a, span, i) for (a, span), i in zip(units, indices)], parsed)


def sentence_jobs(text: str, sentences: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """(sentence index, start, end) of the sentences of `text` that are not blank."""
    return [(i, a, b) for i, (a, b) in enumerate(sentences) if text[a:b].strip()]


def sentence_triplets(text: str, parsed_sentences: list[tuple[int, int, object]], parsed: bool) -> list[Triplet]:
    """Triplets of `text` from its sentences parsed one by one: (sentence index, start offset,
    spaCy Doc of text[start:end]) each, from `sentence_jobs`; `parsed`: the docs carry a
    dependency parse (else the rule fallback applies)."""
    return _triplets_of_units(text, [(a, doc[:], i) for i, a, doc in parsed_sentences], parsed)


def _triplets_of_units(text: str, units: list[tuple[int, object, int]], parsed: bool) -> list[Triplet]:
    out: list[Triplet] = []
    for base, span, index in units:
        if not _has_content(span):
            continue
        found = _parsed_triplets(span, base, text, index) if parsed else []
        if not found:
            found = _fallback(span, base, text, index)
        out += sorted(set(found), key=lambda t: (t.relation.start, t.subject.start,
                                                 t.object.start, t.object.end))
    return out


def triplet_token_mask(triplets, token_starts, token_ends) -> np.ndarray:
    """Per token: does it overlap an element (subject, relation or object) of a triplet?"""
    starts = np.asarray(token_starts)
    ends = np.asarray(token_ends)
    mask = np.zeros(len(starts), dtype=bool)
    for t in triplets:
        for e in (t.subject, t.relation, t.object):
            if e.end > e.start:
                mask |= (starts < e.end) & (ends > e.start)
    return mask
