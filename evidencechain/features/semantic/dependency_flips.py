"""Polarity and antonym flips read from dependency arcs: one verb's reading in the answer sentence
against the same verb, or its opposite, in an evidence sentence of its source, with the same parties,
wherever the rest of the sentence comes from ('the species is not recovering' in an answer sentence
that fuses two evidence sentences, for '... suggests the species is recovering'; 'ridership fell 18
percent' for 'Ridership ... rose 18 percent'; 'was not accepted by the pilots' for 'Pilots ... accepted').

A verb's reading: its stem, whether it is negated ('not', "n't", 'never', 'no longer' on the verb, a
negating head such as 'failed to', 'denied that'), its parties (the agent: the subject or a passive's
'by' phrase; the patient: the object or a passive's subject) and its other complements. Only asserted
verbs are read: none under a modal ('may not recover'), with a limiting or frequency word ('will not
reopen until June', 'if it does not renew', 'is often caused'), in a comparison, after 'not only' or
'not adequately', under a head that leaves it undone ('plans to renew'; only `done_heads` and negating
heads pass) or a negated clause ('no evidence Jesus existed'), with a negated party, as a light verb or
a modifier, or in a question. A flip: the same stem read with the other polarity, or an opposite stem
(`Lexicon.antonyms`) of the same event read with the same polarity, where the parties agree
(`_same_parties`: the agents' head nouns share a word, and so do patients, names and complements
present on both sides). It is no flip where an evidence sentence states the answer's own reading
with agreeing parties ('rose in May and fell in June'). Shown by `detect`'s
conflict rule only, for answer sentences without a confident signal (`features.semantic.table`), as the
role swaps of `dependency_roles` are; no count or fitted feature moves. Word lists: data/flips.toml.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .align import View
from .dependency_roles import Tree, read_pairs
from .lexicon import Lexicon, stem
from .polarity import prefixed

_NEGATIONS = frozenset({"not", "n't", "n’t", "never"})
_CONTENT = frozenset({"NOUN", "PROPN", "NUM", "ADJ"})
_AGENT = frozenset({"nsubj", "csubj"})
_PATIENT = frozenset({"dobj", "nsubjpass"})
_RELATIVE = frozenset({"who", "that", "which", "whom"})
_COMPLEMENTS = frozenset({"prep", "npadvmod", "xcomp", "ccomp", "dative", "attr", "oprd", "acomp"})
_CLAUSES = frozenset({"ROOT", "ccomp", "relcl", "advcl", "conj", "xcomp", "acl"})
"""A verb's own dependency labels that may assert it; others ('amod', 'pcomp', ...) modify or are governed."""


@dataclass(frozen=True)
class Flip:
    span: tuple[int, int]
    """Character span, in the answer sentence, of the flipped words."""
    cls: str
    """'polarity' or 'antonym'."""
    evidence: str
    """The evidence sentence's words that the answer's words flip."""


@dataclass(frozen=True)
class _Reading:
    verb: int
    stem: str
    negated: bool
    cues: tuple[int, ...]
    patient: frozenset[str]
    head: frozenset[str]
    """The agent's head noun and its compound words ('Mehdi Zaheer' of 'Mehdi Zaheer for Iqbal Bano')."""
    names: tuple[frozenset[str], frozenset[str]]
    """The proper nouns of the agent and of the patient."""
    pronoun: bool
    """Its patient is a pronoun alone ('she is voiced by X')."""
    complement: frozenset[str]
    """Content words of its other dependents ('on St James Street', '18 percent', 'watching the game')."""


@cache
def _lists() -> dict[str, frozenset[str]]:
    data = tomllib.loads(resources.files(__package__).joinpath("data", "flips.toml").read_text(encoding="utf-8"))
    return {k: frozenset(v) | ({stem(w) for w in v} if k in ("done_heads", "denying", "converse") else set())
            for k, v in data.items()}


def _words(t: Tree, tokens, pos=_CONTENT) -> frozenset[str]:
    return frozenset(stem(t.p.words[j].lower()) for j in tokens if t.p.pos[j] in pos)


def _whole(t: Tree, tokens: list[int]) -> list[int]:
    """`tokens` with every dependent of theirs ('shares in Corrin Savings')."""
    out, todo = set(), list(tokens)
    while todo:
        j = todo.pop()
        if j not in out:
            out.add(j)
            todo += t.children[j]
    return sorted(out)


def _named(t: Tree, i: int) -> list[int]:
    """The noun at i with its compound, flat and apposition words ('the Kinmoor depot')."""
    return [i, *(k for k in t.children[i] if t.p.deps[k] in ("compound", "flat", "appos"))]


def _kids(t: Tree, i: int, deps) -> list[int]:
    return [c for c in t.children[i] if t.p.deps[c] in deps]


def _parties(t: Tree, v: int, lex: Lexicon) -> tuple[list[int], list[int], list[int]] | None:
    """(agent's tokens, patient's tokens, the agent's head noun with its compound words) of the verb
    at v; a coordinated or governed verb without a subject takes its head's, a relative clause's 'which'
    stands for its noun. None where a party is negated ('No member of the choir failed'), but for the
    object's 'no' (`_no_object`), which negates the verb."""
    agent, patient, heads, at = [], [], [], v
    for _ in range(3):
        for c in t.children[at]:
            dep = t.p.deps[c]
            relative = t.p.words[c].lower() in _RELATIVE and t.p.deps[at] == "relcl"
            if dep in _AGENT and relative:
                agent += _named(t, t.p.heads[at])
                heads += _named(t, t.p.heads[at])
            elif dep == "nsubjpass" and relative and at == v:
                patient += _named(t, t.p.heads[at])
            elif dep in _AGENT:
                agent += t.subtree(c)
                heads += _named(t, c)
            elif dep == "agent":
                agent += [j for k in _kids(t, c, {"pobj"}) for j in t.subtree(k)]
                heads += [j for k in _kids(t, c, {"pobj"}) for j in _named(t, k)]
            elif dep in _PATIENT and at == v:
                patient += t.subtree(c)
        if at == v and t.p.deps[v] == "acl" and t.p.tags[v] == "VBN" and not _kids(t, v, _PATIENT):
            head = t.p.heads[v]  # 'a plan ... (that was) disapproved by X': the noun is the patient
            patient += [head, *(j for k in t.children[head] if k != v for j in _whole(t, [k]))]
        if agent or _kids(t, at, {"nsubjpass", "expl"}) or t.p.deps[at] not in ("conj", "xcomp") \
                or t.p.heads[at] == at:
            break
        at = t.p.heads[at]
    nos = _no_object(t, v)
    if any(t.p.words[j].lower() in lex.negation for j in agent + patient if j not in nos):
        return None
    return agent, patient, heads


def _no_object(t: Tree, v: int) -> list[int]:
    """The 'no' of the verb's object ('observed no side effects': the verb's negation)."""
    return [k for c in t.children[v] if t.p.deps[c] == "dobj" for k in t.children[c]
            if t.p.deps[k] == "det" and t.p.words[k].lower() == "no"]


def _unasserted(t: Tree, i: int, lists: dict) -> bool:
    """A modal, a limiting or frequency word, a comparison ('never ranked higher than 50'), a
    subjunctive 'be' ('that he be allowed') or 'not only' among the children of i (or after its 'not');
    a coordinated verb shares its head's ('would hike VAT and cut the top rate')."""
    if t.p.deps[i] == "conj" and t.p.heads[i] != i and _unasserted(t, t.p.heads[i], lists):
        return True
    aux = [c for c in t.children[i] if t.p.deps[c] in ("aux", "auxpass")]
    if aux and t.p.words[aux[0]].lower() == "be" and t.p.tags[aux[0]] == "VB":
        return True
    if t.p.deps[i] == "acl" and any(t.p.words[c].lower() in ("to", "that") for c in t.children[i]):
        return True  # 'a secret plan to cut taxes', 'the recommendation that he be allowed'
    for c in t.children[i]:
        w = t.p.words[c].lower()
        if w in lists["limiting"] or (c in aux and w in lists["modals"]) or t.p.tags[c] in ("JJR", "RBR"):
            return True
        if w in _NEGATIONS and (c + 1 < len(t.p.words) and t.p.words[c + 1].lower() in lists["not_scoping"]
                                or any(t.p.pos[k] == "ADV" for k in range(c + 1, i))):
            return True  # 'not only', 'had not been adequately trained': the negation scopes over another word
    return False


def _negated_here(t: Tree, i: int) -> list[int]:
    """The negation tokens on the word at i ('not', 'never', 'no longer')."""
    out = [c for c in t.children[i] if t.p.deps[c] == "neg" or t.p.words[c].lower() in _NEGATIONS and t.p.deps[c] == "advmod"]
    for c in t.children[i]:
        if t.p.words[c].lower() == "longer" and any(t.p.words[k].lower() == "no" for k in t.children[c]):
            out += [k for k in t.children[c] if t.p.words[k].lower() == "no"] + [c]
    return out


def _under_negation(t: Tree, at: int) -> bool:
    """Whether a word above the clause at `at` is negated or has 'no' ('no evidence Jesus existed')."""
    seen = {at}
    while t.p.heads[at] != at and t.p.heads[at] not in seen:
        at = t.p.heads[at]
        seen.add(at)
        if _negated_here(t, at) or any(t.p.words[c].lower() in ("no", "neither") for c in t.children[at]):
            return True
    return False


def readings(t: Tree, lex: Lexicon) -> list[_Reading]:
    """The asserted verbs of one parse with their polarity and parties."""
    lists = _lists()
    negating = {stem(w) for w in lex.verb_negation | lex.ending_negation}
    blocked = {stem(w) for w in lex.governors} - {"suggest"}  # 'hopes the pavilion will reopen'
    light = lex.light_verbs | {"be", "been", "being", "having"}  # 'won't have access' says little
    if "?" in t.p.words:
        return []
    out = []
    for v, (w, pos) in enumerate(zip(t.p.words, t.p.pos)):
        if pos != "VERB" or t.p.deps[v] not in _CLAUSES or _unasserted(t, v, lists):
            continue
        cues = _negated_here(t, v) + _no_object(t, v)
        negated, at, ok = bool(cues), v, True
        while t.p.deps[at] == "xcomp" and ok:  # 'voted to renew', 'failed to renew'
            head = t.p.heads[at]
            hs = stem(t.p.words[head].lower())
            ok = (hs in negating or hs in lists["done_heads"]) and not _unasserted(t, head, lists)
            negated ^= hs in negating
            negated ^= bool(_negated_here(t, head))
            at = head
        if t.p.deps[at] == "ccomp" and stem(t.p.words[t.p.heads[at]].lower()) in blocked:
            ok = False  # 'hopes the pavilion will reopen'
        if ok and _under_negation(t, at):
            ok = False  # "I don't think it defines me", 'there is no evidence Jesus existed'
        if t.p.deps[at] == "ccomp" and stem(t.p.words[t.p.heads[at]].lower()) in lists["denying"]:
            negated = not negated  # 'denied that the striker had broken his ankle'
        parties = _parties(t, v, lex) if ok and w.lower() not in light else None
        if parties is not None:
            agent, patient, heads = parties
            names = (_words(t, _whole(t, agent), {"PROPN"}), _words(t, _whole(t, patient), {"PROPN"}))
            taken = set(agent) | set(patient)
            rest = [j for c in t.children[v] if t.p.deps[c] in _COMPLEMENTS for j in _whole(t, [c]) if j not in taken]
            out.append(_Reading(v, stem(w.lower()), negated, tuple(sorted(cues)), _words(t, patient), _words(t, heads), names, bool(patient) and not _words(t, patient), _words(t, rest)))
    return out


def _same_parties(a: _Reading, e: _Reading) -> bool:
    """Both agents' head nouns share a word; patients on both sides share one, and none is a pronoun where the
    other side names it ('she is voiced by X' says nothing of 'Daffy Duck'; a patient the parse did not
    attach is unknown); a party named on both sides shares a name ('shares in Corrin Savings' are not
    'shares in Halloway Mutual'); complements on both sides share a word ('located on St James Street'
    is no flip of 'located in Monmouth')."""
    if not a.head & e.head or (a.patient and e.patient and not a.patient & e.patient) \
            or (a.patient and e.pronoun) or (e.patient and a.pronoun):
        return False
    named = [(x, y) for x, y in zip(a.names, e.names) if x and y]
    return all(x & y for x, y in named) and not (a.complement and e.complement and not a.complement & e.complement)


def _same_event(a: _Reading, e: _Reading, lex: Lexicon, lists: dict) -> bool:
    """Opposite verbs of one event: complements on both sides or on neither ('fell off' is not the
    event of 'jumped on the hood'), and no verb whose object is the loser ('defeated Minnesota' =
    'won'); a negative prefix ('disapproved' / 'approved') is a polarity, judged as one."""
    if prefixed(a.stem, lex) == e.stem or prefixed(e.stem, lex) == a.stem:
        return True
    if a.stem in lists["converse"] or e.stem in lists["converse"]:
        return False
    return bool(a.complement) == bool(e.complement)


def _evidence_words(t: Tree, r: _Reading) -> str:
    first = min([*r.cues, r.verb])
    aux = [c for c in t.children[r.verb] if t.p.deps[c] in ("aux", "auxpass") and c < first]
    lo = min([first, *aux]) if r.cues else r.verb
    return " ".join(t.p.words[lo:max([r.verb, *r.cues]) + 1])  # 'observed no'


def flips(answer, evidence: list, lex: Lexicon) -> list[Flip]:
    """Flips of the answer sentence's parse against its candidate evidence sentences' parses."""
    a, lists = Tree(answer), _lists()
    stated = [(e, readings(e, lex)) for e in map(Tree, evidence)]
    out = []
    for r in readings(a, lex):
        opposite = lex.antonyms.get(r.stem, frozenset())
        same = {r.stem} | lex.verb_relations.get(r.stem, frozenset())  # 'do not satisfy' / 'meet'
        found, kept = None, False
        for e, rs in stated:
            for x in rs:
                if not _same_parties(r, x):
                    continue
                if x.stem in same and x.negated == r.negated:
                    kept = True  # the evidence states the answer's reading
                elif found is None and (x.stem in same and x.negated != r.negated
                                        or x.stem in opposite and x.negated == r.negated
                                        and _same_event(r, x, lex, lists)):
                    cls = "polarity" if x.stem in same else "antonym"
                    words = [*r.cues, r.verb] if cls == "polarity" and r.negated else [r.verb]
                    if cls == "polarity" and (_no_object(e, x.verb) or _no_object(a, r.verb)):
                        words += [c for c in a.children[r.verb] if a.p.deps[c] == "dobj"]  # 'showed a reduction'
                    found = Flip((a.offsets[min(words)][0], a.offsets[max(words)][1]), cls, _evidence_words(e, x))
        if found is not None and not kept:
            out.append(found)
    return out


def open_to_flips(signals) -> bool:
    """Whether an answer sentence with these word-order signals is read for dependency flips: none
    is confident (a confident signal already shows its words)."""
    return not any(s.confident for s in signals)


def flip_candidates(a: View, sentences: list[View], lex: Lexicon) -> list[View]:
    """Evidence sentences worth a dependency parse against answer sentence a: one holding a word
    of a's stem, or of an opposite stem, beside a negation on either side (the same stem) or not
    (an opposite), and another content word of a."""
    words = [stem(a.word(k)) for k in range(len(a)) if a.content(k)]
    cues = _NEGATIONS | {"no"}  # 'observed no side effects'
    negated = any(a.word(k) in cues for k in range(len(a)))
    opposite = {o for w in words for o in lex.antonyms.get(w, ())}
    out = []
    for e in sentences:
        theirs = {stem(e.word(k)) for k in range(len(e)) if e.content(k)}
        shared = theirs.intersection(words)
        if len(shared) < 2 and not (shared and theirs & opposite):
            continue
        if theirs & opposite or (negated or any(e.word(k) in cues for k in range(len(e)))):
            out.append(e)
    return out


def flips_of(pairs: list[tuple[str, list[str]]], cache=None) -> list[list[Flip]]:
    """`flips` of each (answer sentence, its candidate evidence sentences) (`read_pairs`)."""
    return read_pairs(pairs, flips, cache)
