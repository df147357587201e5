"""Swapped roles: the same relation with subject and object exchanged ("A defeated B" for
"B defeated A"); a passive on one side only ("B was defeated by A", "B was founded in 1957 by A",
"B beaten by A") reverses the order back. A verb of saying relates two names only in one clause
("Roldan says Castro was", "SPLC told the Guardian"); after a comma its subject is inverted and its
complement is a clause ("crashes near Peoria, said Amina Wilson")."""
from __future__ import annotations

from .align import View
from .base import Signal
from .frames import Frame, frame_at, frames, markers, particle_words, same_relation
from .lexicon import Lexicon

_LINKS = frozenset({"the", "a", "an", "and", "or", "but", "'s", "'", "-"})
_NAMED = frozenset({"PERSON", "ORG", "GPE", "NORP", "LOC", "FAC", "PRODUCT", "EVENT", "WORK_OF_ART"})
_INSIDE = frozenset({"of", "for"})
"""Prepositions that join a name to the noun before it ('the centre of Lowden Cross')."""
_ASIDE = 6
"""Longest aside (tokens) between a verb and its second party."""
_BE = frozenset({"is", "are", "was", "were", "been", "being", "be", "'s", "got", "get", "gets"})
_MODALS = frozenset({"will", "would", "shall", "should", "can", "could", "may", "might", "must", "do", "does", "did"})
"""Auxiliaries, no relation of their own ('X will conduct Y' for 'Y will be conducted by X')."""
_NO_RELATION = _LINKS | _BE | _MODALS
_PASSED = frozenset({"to", "from"})


def _passive(v: View, k: int, since: int, until: int, lex: Lexicon) -> bool:
    """'by' just after the word ('acquired by', 'beaten by'), or a form of 'be' between its first
    argument at `since` and it, and 'by' between it and its second argument at `until` ('was
    founded in 1957 by'); the word a participle ('goals by Ashley Young' is no passive), or a noun
    with a passive of its own right after it ('its score was composed by')."""
    w = v.word(k)
    if k + 3 < len(v) and v.word(k + 1) in _BE and v.word(k + 3) == "by" \
            and (v.word(k + 2).endswith(("ed", "en")) or v.word(k + 2) in lex.participles):
        return True  # a noun with its own passive ('its score was composed by Y')
    if not (w.endswith(("ed", "en")) or w in lex.participles or (w,) in lex.relations):
        return False
    if k + 1 < len(v) and v.word(k + 1) == "by":
        return True
    return any(v.word(j) in _BE for j in range(since + 1, k)) and any(v.word(j) == "by" for j in range(k + 1, until))


def _arguments(v: View, k: int, step: int, shared: frozenset[str], names: dict, nearest: bool = False) -> list[int]:
    """From position k in direction `step`, in the clause: the first token of each of the nearest
    two shared names ('sold the Seaview bakery to Jonah Reyes': the bakery, then the buyer), else
    the nearest shared content word; `nearest`: that word too, in order of distance (a listed
    relation's party that is no name: 'sued a group of farmers over pollution in the Esk')."""
    j, first, found, infinitive = k + step, None, [], False
    while 0 <= j < len(v) and len(found) < 2:
        if v.punct(j) and v.word(j) not in ("'s", "-"):
            if step > 0 and not found and first is None and (closing := _aside_end(v, j)) is not None:
                j = closing + 1  # 'was mentored, as a young chef, by Amadou Tiernan': the aside says nothing
                continue
            if not (v.word(j) == "," and step > 0 and not found and j + 1 in names):
                opened = _apposition_start(v, j, names) if step < 0 and not found and first is None else None
                if opened is None:
                    break  # 'its smaller rival, Pemberly Freight': a name in apposition is the argument
                j = opened  # 'The Halvard Trust, a family foundation based in Leeford, is sponsored by'
                infinitive = v.word(k - 1) == "to"  # 'for Dara Fenn, the champion, to defeat': the infinitive's subject
                continue
            first = None
        if v.keys(j) & shared and (v.content(j) or j in names):
            if j in names:
                if step < 0 and _inside(v, min(names[j])) and not (infinitive and v.word(min(names[j]) - 1) == "for"):
                    j = min(names[j]) - 1  # 'a charge for the centre of Lowden Cross': a noun's, not the verb's
                    continue
                if not any(j in names[f] for f in found):
                    found.append(j)
            elif first is None and not (step < 0 and j == k - 2 and v.word(k - 1) == "to"):
                first = j  # not the verb whose infinitive the relation is ('has agreed to acquire')
        j += step
    if nearest and first is not None and first not in found:
        return sorted([*found, first], key=lambda i: abs(i - k))
    return found or ([] if first is None else [first])


def _inside(v: View, k: int) -> bool:
    """The name starting at k belongs to the noun before it ('a charge for the centre of Lowden
    Cross'): a preposition of `_INSIDE` after a noun (a content word that is no participle)."""
    return k > 1 and v.word(k - 1) in _INSIDE and v.content(k - 2) and not v.word(k - 2).endswith(("ed", "en"))


def _aside_end(v: View, j: int) -> int | None:
    """Where an aside opened by the comma at j right after a verb closes ('mentored, as a young
    chef, by'): the closing comma within `_ASIDE` tokens, followed by a word; None when there is none."""
    if v.word(j) != ",":
        return None
    close = next((i for i in range(j + 1, min(len(v), j + 2 + _ASIDE)) if v.punct(i) and v.word(i) not in ("'s", "-")), None)
    if close is None or v.word(close) != "," or close - j < 2 or close + 1 >= len(v) or v.punct(close + 1):
        return None
    return close


def _apposition_start(v: View, j: int, names: dict) -> int | None:
    """Where a comma at j closes an apposition after a name ('X, a family foundation based in Y,'):
    the position of the name's last token before the opening comma; None when there is none."""
    i = j - 1
    while i > 0 and not v.punct(i):
        i -= 1
    if i >= 1 and v.word(i) == "," and j - 1 in names and min(names[j - 1]) == i + 1:
        return j - 1  # 'the defending champion, Liesl Umbra, defeated': the name is the apposition
    owner = i - 2 if i >= 2 and v.word(i - 1) == "'s" else i - 1  # "Ottley's, the bakery chain,"
    if i < 1 or v.word(i) != "," or j - i < 3 or owner not in names:
        return None
    return owner


def _names(v: View) -> dict[int, tuple[int, ...]]:
    """`_found_names` of v, once per view (read only)."""
    if "names" not in v.memo_:
        v.memo_["names"] = _found_names(v)
    return v.memo_["names"]


def _found_names(v: View) -> dict[int, tuple[int, ...]]:
    """Position of every token inside a named entity -> the positions of its whole entity; a run of
    capitalised words inside the sentence is one name too, with the entities it starts from ('Quorvant',
    which the parser did not tag; 'Bexley Town', where it tagged 'Bexley')."""
    doc, out = v.doc, {}
    other = set()  # tokens of dates, numbers and other entities that are no party
    for s, t, label in v.doc.entities or ():
        inside = tuple(k for k in range(len(v)) if s <= doc.starts[v.idx[k]] < t and v.word(k) not in ("the", "a", "an"))
        if label in _NAMED:
            out.update({k: inside for k in inside})
        else:
            other.update(inside)
    run: list[int] = []
    start = 0 if len(v) > 1 and v.content(0) and v.content(1) and v.text(1)[:1].isupper() else 1
    for k in [*range(start, len(v)), None]:  # the first word only in a name of two words ('Bexley Town beat')
        if k is not None and v.content(k) and v.text(k)[:1].isupper() and not v.doc.like_num[v.idx[k]] \
                and k not in other:
            run.append(k)
            continue
        tagged = [r for r in run if r in out]
        if tagged:  # a title before a tagged name is not the name ('Judge', 'Gov.'): the run extends it rightwards
            run = [r for r in run if r >= min(out[tagged[0]])]
        whole = tuple(sorted({*run, *(i for r in run for i in out.get(r, ()))}))
        out.update({i: whole for i in whole})
        run = []
    return out


def relation(v: View, k: int, lex: Lexicon) -> tuple[str, int] | None:
    """The relation group of the form that starts at k ('lost to': 'lose_to') and its length in words."""
    for n in (2, 1):
        group = lex.relations.get(tuple(v.word(i) for i in range(k, min(len(v), k + n))))
        if group and k + n <= len(v):
            return group, n
    return None


def _related(e: View, group: str, lex: Lexicon) -> tuple[int | None, bool]:
    """The one position in e of a form of `group` or of a converse group, and whether it is a converse."""
    hits = [(j, found[0] != group) for j in range(len(e)) if (found := relation(e, j, lex))
            and (found[0] == group or found[0] in lex.converses.get(group, ()))]
    return hits[0] if len(hits) == 1 else (None, False)


def _unique(v: View, keys: frozenset[str]) -> int | None:
    hits = v.find(keys)
    return hits[0] if len(hits) == 1 else None


def _compares(v: View, r: int, lex: Lexicon) -> bool:
    """The word at r compares its two parties ('longer than'): 'X is longer than Y' says nothing of
    who holds a relation 'long' of the other sentence, whose parties are in clauses of their own."""
    return r + 1 < len(v) and v.word(r + 1) in lex.comparison and not lex.relations.get((v.word(r),))


def _same_comparison(a: View, r: int, e: View, er: int, lex: Lexicon) -> bool:
    """Where the relation word is a comparison's 'than', the two words before it are the same on both
    sides: 'longer than' for 'shorter than', 'fewer passengers than' for 'more passengers than', with
    the parties exchanged, is the converse, which keeps the meaning."""
    if a.word(r) not in lex.comparison:
        return True
    return [a.word(j) for j in range(max(r - 2, 0), r)] == [e.word(j) for j in range(max(er - 2, 0), er)]


def _closed(v: View, j: int, r: int) -> bool:
    """A relative clause opened by a comma at j closes with a comma before the relation at r
    ('Tamsett Brewing, which makes the ale, is a subsidiary of')."""
    return j > 0 and v.word(j - 1) == "," and any(v.word(i) == "," for i in range(j + 1, r))


def _distinctive(a: View, e: View, x: int, other: int, names: dict) -> int:
    """The token of x's name that the evidence has once and the other name lacks ('Calder' of
    'the Calder River' against 'the Orrin River'); x itself when none is."""
    rival = frozenset().union(*(a.keys(k) for k in names.get(other, (other,))))
    for k in names.get(x, (x,)):
        if not a.keys(k) & rival and _unique(e, a.keys(k)) is not None:
            return k
    return x


def _word_ends(v: View, r: int) -> tuple[int, int]:
    """First and last position of the hyphenated word at r ('co - owners')."""
    lo, hi = r, r
    while lo >= 2 and v.word(lo - 1) == "-":
        lo -= 2
    while hi + 2 < len(v) and v.word(hi + 1) == "-":
        hi += 2
    return lo, hi


def _modifier_or_of(v: View, r: int, k: int, names: dict) -> str | None:
    """'modifier' where the name at k stands right before the noun at r ('Reading co-owners'),
    'of' where it follows 'of', 'at' or 'for' after it ('co-owners of Reading')."""
    lo, hi = _word_ends(v, r)
    whole = names.get(k, (k,))
    if max(whole) == lo - 1:
        return "modifier"
    if hi + 1 < len(v) and v.word(hi + 1) in ("of", "at", "for") and min(whole) - hi - 2 in (0, 1):
        return "of"
    return None


def _swap(a: View, e: View, r: int, er: int, x: int, y: int, names: dict, their_names: dict,
          lex: Lexicon, converse: bool | None = None) -> Signal | None:
    """The signal of arguments x and y of the relation at r (er in e) exchanged, if they are.
    `converse`: r is a form of a listed relation (cues.toml [roles]) and er a form of its converse
    (True) or of its own group (False); None for a relation word that e repeats."""
    x, y = _distinctive(a, e, x, y, names), _distinctive(a, e, y, x, names)
    if a.keys(x) & a.keys(y):
        return None
    ex, ey = _unique(e, a.keys(x)), _unique(e, a.keys(y))
    if ex is None or ey is None:
        return None
    named = (x in names or ex in their_names, y in names or ey in their_names)
    if (named[0] != named[1] and converse is None) or (not named[0] and not a.content(r)) \
            or (not named[0] and converse is None and (_superlative(a, r) or not _verbal(a, r, lex))):
        return None  # a listed relation takes a party that is no name ('a group of farmers sued X')
    if not (min(ex, ey) < er < max(ex, ey)) or _conjunct_subject(e, min(ex, ey), er, max(ex, ey), their_names):
        return None
    if converse is None and any({_modifier_or_of(a, r, p, names), _modifier_or_of(e, er, q, their_names)}
                                == {"modifier", "of"} for p, q in ((x, ex), (y, ey))):
        return None  # 'Reading co-owners X' = 'X, co-owners of Reading': a noun's two ways to take a name
    if any(e.word(j) in lex.relative and not _closed(e, j, er) and not _cleft(e, j) for j in range(min(ex, ey) + 1, max(ex, ey))):
        return None  # 'a queue of traffic that had built up by veering': the 'by' is the clause's
    if converse is None and a.word(r) in lex.reporting and any(e.punct(j) for j in range(min(ex, ey), max(ex, ey))):
        return None
    if converse is None and any(e.word(j) == "," and (e.word(j + 1).endswith("ing") or e.word(j + 1) in lex.clause_breaks)
                                for j in range(er + 1, max(ex, ey) - 1)):
        return None  # 'across the Plains overnight, bringing rain to Coldmarsh': the second party is another clause's
    voiced = _passive(a, r, x, y, lex) != _passive(e, er, min(ex, ey), max(ex, ey), lex)
    if (ex > er) == (voiced ^ bool(converse)):
        return None
    words = {*names.get(x, (x,)), *names.get(y, (y,))}
    if converse:  # the parties in their places with the converse relation: the relation's words are wrong, or the parties
        words.update(range(r, r + relation(a, r, lex)[1]))
    elif voiced and (x < y) == (ex < ey):  # ... or with the other voice ('X was sued by Y' for 'X sued Y')
        words.update(_voice_words(a, r))
    return Signal("roles", tuple(int(a.idx[k]) for k in sorted(words)), _shown(e, ex, ey, er, lex, their_names))


_VOICE_AUXILIARIES = _BE | {"has", "have", "had"}
_COORDINATORS = frozenset({"and", "while", "whereas", "but"})


def _conjunct_subject(e: View, lo: int, er: int, q: int, names: dict) -> bool:
    """Whether the party at q opens a conjunct of its own: a coordinator between the relation at er
    and it, and right after its name a number or a content word of the first conjunct again ('X was
    fined 80,000 pounds and its subcontractor Y 25,000 pounds', 'the one in X treated 1,340 patients
    and the one in Y treated 980'): the subject of a second clause, not the relation's other party."""
    c = next((j for j in range(er + 1, q) if e.word(j) in _COORDINATORS), None)
    if c is None:
        return False
    end, name = q + 1, names.get(q, (q,))
    while end < len(e) and (end in name or e.text(end)[:1].isupper()) and not e.doc.like_num[e.idx[end]]:
        end += 1  # the rest of the name, which the tagger may have joined to the number ('Lowe Haulage 25,000')
    return end < len(e) and bool(e.doc.like_num[e.idx[end]]
                                 or any(e.content(j) and e.keys(end) & e.keys(j) for j in range(lo + 1, c)))


def _voice_words(v: View, r: int) -> list[int]:
    """The verb at r with the forms of 'be' right before it and the 'by' right after it."""
    lo = r
    while lo > 0 and v.word(lo - 1) in _VOICE_AUXILIARIES:
        lo -= 1
    return list(range(lo, r + 1 + (r + 1 < len(v) and v.word(r + 1) == "by")))


def _shown(e: View, ex: int, ey: int, er: int, lex: Lexicon, their_names: dict) -> str:
    """e's words from one party to the other, less a closed relative clause or an apposition
    between them ('Ferrowind Energy, a turbine maker based in Stallbridge, acquired'): they say
    nothing of the relation."""
    inside = set()
    for j in range(min(ex, ey) + 1, min(max(ex, ey), er)):
        if e.word(j) in lex.relative and _closed(e, j, er):
            inside.update(range(j - 1, next(i for i in range(j + 1, er) if e.word(i) == ",") + 1))
        elif e.word(j) == "," and j - 1 in their_names:
            close = next((i for i in range(j + 1, er) if e.punct(i) and e.word(i) not in ("-", "'s")), None)
            if close is not None and e.word(close) == "," and close - j > 2:
                inside.update(range(j, close + 1))
    return e.span_text([j for j in range(min(ex, ey), max(ex, ey) + 1) if j not in inside])


def role_swaps(a: View, e: View, lex: Lexicon) -> list[Signal]:
    out, seen = [], set()
    shared = a.all_keys & e.all_keys
    names, their_names = _names(a), _names(e)
    inside = particle_words(a, frames())  # 'receives funding from': the frame's, judged there
    for r in range(len(a)):
        listed = relation(a, r, lex)
        if a.punct(r) or r in names or r in inside or a.word(r) in _NO_RELATION or a.word(r) in lex.symmetric \
                or not (listed or a.keys(r) & shared):
            continue
        lefts = _arguments(a, r, -1, shared, names)
        er, converse = _related(e, listed[0], lex) if listed else (_unique(e, a.keys(r)), None)
        if listed and er is None and a.keys(r) & shared:  # a listed form that e does not state as one
            er, converse = _unique(e, a.keys(r)), None
        if not lefts or er is None or e.word(er) in lex.symmetric or _compares(a, r, lex) != _compares(e, er, lex) \
                or not _same_comparison(a, r, e, er, lex):
            continue
        x = lefts[0]
        if not listed and not _verbal(a, r, lex) and any(_verbal(a, i, lex) and _judged(a, e, i, lex) for i in range(x + 1, r)):
            continue  # 'X is supplied with its engines by Y': the relation is the verb's, not the noun's
        for y in _arguments(a, r + (listed[1] - 1 if listed else 0), 1, shared, names, nearest=converse is not None):
            if not listed and any(relation(a, i, lex) for i in range(r + 1, y)):
                break  # 'has employed': the relation is the listed verb's, judged at its own position
            if not listed and (f := frame_at(a, r, y, max(names.get(y, (y,))), frames())) and f.marker:
                continue  # 'leased vessels to B' for 'B leased vessels from A': the frames' to judge
            if _recipient(a, r, y) and _passive(a, r, x, y, lex):
                continue
            found = _swap(a, e, r, er, x, y, names, their_names, lex, converse)
            if found and (x, y) not in seen:
                seen.add((x, y))
                out.append(found)
                break
    return out + _frame_swaps(a, e, lex, shared, names, their_names, {w for s in out for w in s.tokens})


def _recipient(v: View, r: int, y: int) -> bool:
    """Whether the party at y is the 'to' or 'from' party of a passive with its own 'by' party
    ('KRVX was sold by the Talley family to Bellcourt Media'): the passive's subject is the thing
    passed, so it and y are not the relation's two parties."""
    j = y - 1
    while j > r and not v.punct(j) and v.word(j) not in _PASSED and v.word(j) != "by":
        j -= 1
    return j > r and v.word(j) in _PASSED and any(v.word(i) == "by" for i in range(r + 1, j))


def _frame_swaps(a: View, e: View, lex: Lexicon, shared: frozenset[str], names: dict, their_names: dict,
                 taken: set[int]) -> list[Signal]:
    """Role swaps between two frames of one relation (data/frames.toml), the same or converse ('A
    supplies water to B' for 'A buys water from B'; 'A defeated B' for 'A lost the final to B'):
    each side's logical first party (the subject, or a passive's 'by' party) against the other's,
    mapped through the frames' direction."""
    fr, out = frames(), []
    for r in range(len(a)):
        if r in names or a.punct(r) or not a.keys(r) & fr.verbs or a.word(r) in lex.symmetric:
            continue
        lefts = _arguments(a, r, -1, shared, names)
        for y in _arguments(a, r, 1, shared, names) if lefts else ():  # 'took over the orchestra from Y'
            fa = frame_at(a, r, y, max(names.get(y, (y,))), fr)
            found = fa and _frame_swap(a, e, r, lefts[0], y, fa, names, their_names, lex)
            if found and not taken.intersection(found.tokens):
                taken.update(found.tokens)
                out.append(found)
                break
    return out


def _frame_swap(a: View, e: View, r: int, x: int, y: int, fa: Frame, names: dict, their_names: dict,
                lex: Lexicon) -> Signal | None:
    fr = frames()
    passive = fa.marker == "" and (markers(a, r, y, fr) or ("",))[0] == "by"
    if passive and not _passive(a, r, x, y, lex):
        return None
    x, y = _distinctive(a, e, x, y, names), _distinctive(a, e, y, x, names)
    ex, ey = _unique(e, a.keys(x)), _unique(e, a.keys(y))
    if ex is None or ey is None or a.keys(x) & a.keys(y) or ex in their_names.get(ey, ()):
        return None
    if not (x in names or ex in their_names) or not (y in names or ey in their_names):
        return None
    lo, hi = min(ex, ey), max(ex, ey)
    start, end = min(their_names.get(hi, (hi,))), max(their_names.get(hi, (hi,)))
    hits = [(j, f) for j in range(lo + 1, start) if j not in their_names and not e.punct(j)
            and e.word(j) not in lex.symmetric and (f := frame_at(e, j, start, end, fr))
            and same_relation(fa, f, fr) is not None]
    if not hits:
        return None
    er, fe = hits[-1]
    if any(e.word(j) in lex.relative and not _closed(e, j, er) and not _cleft(e, j) for j in range(lo + 1, hi)):
        return None
    e_passive = fe.marker == "" and (markers(e, er, start, fr) or ("",))[0] == "by"
    if e_passive and not _passive(e, er, lo, start, lex):
        return None
    subject = ey if passive else ex  # the e position of the answer's logical first party
    same = same_relation(fa, fe, fr)
    if (subject == (hi if e_passive else lo)) == same:
        return None
    words = {*names.get(x, (x,)), *names.get(y, (y,))} | (set() if same else {r})
    if same and passive != e_passive and (x < y) == (ex < ey):  # the parties in place, the voice changed
        words.update(_voice_words(a, r))
    return Signal("roles", tuple(int(a.idx[k]) for k in sorted(words)), _shown(e, ex, ey, er, lex, their_names))


def aside(v: View, lo: int, hi: int) -> set[int]:
    """Positions in lo..hi of a relative clause or an apposition set off by commas after a name
    ('The Saltry Herons, whose captain scored 22 points, defeated'): it says nothing of the
    relation of the name to the words after it."""
    names, out = _names(v), set()
    for j in range(lo + 1, hi):
        if v.word(j) == "," and j - 1 in names and j not in out:
            close = next((i for i in range(j + 1, hi) if v.punct(i) and v.word(i) not in ("-", "'s")), None)
            if close is not None and v.word(close) == "," and close - j > 2:
                out.update(range(j, close + 1))
    return out


def _superlative(v: View, k: int) -> bool:
    """'the park's busiest summit path': an adjective's degree, no relation between the nouns round it."""
    return v.word(k).endswith("est") and v.lemma(k) != v.word(k)


def _verbal(v: View, k: int, lex: Lexicon) -> bool:
    """A verb's form, as far as the tokens tell: a listed relation or frame verb, a participle, or an
    inflected form other than a plural's ('supplied', 'knocking', 'drew'; 'engines' is none)."""
    w = v.word(k)
    return bool(relation(v, k, lex) or v.keys(k) & frames().verbs or w in lex.participles or w in lex.symmetric
                or (w != v.lemma(k) and (w.endswith(("ed", "ing")) or not w.endswith("s"))))


def _judged(a: View, e: View, i: int, lex: Lexicon) -> bool:
    """The verb at i relates the parties by itself: a symmetric, listed or frame verb, or one that e
    states once ('led' against e's 'led' and 'took the lead' is none: the words after it may tell)."""
    return bool(a.word(i) in lex.symmetric or relation(a, i, lex) or a.keys(i) & frames().verbs
                or _unique(e, a.keys(i)) is not None)


def _cleft(v: View, j: int) -> bool:
    """The relative word at j closes a cleft's focus ('It was Nollis Labs that acquired')."""
    return any(v.word(i) == "it" and v.word(i + 1) in _BE for i in range(max(0, j - 8), j - 1))
