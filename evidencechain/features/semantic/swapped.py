"""Two values of one sentence swapped by moving what they are said of, not the values: "the western
wing was finished in 1762, with the eastern wing completed in 1789" for "the eastern wing was
completed in 1762, and the western wing followed in 1789". The values keep their order (which
`recombination.recombined` reads), the words of their events move.

For two dates or two amounts that the evidence sentence states once each, in two of its clauses, the
anchors of each are the content words of its clause that the other's clause lacks ('eastern',
'completed' / 'western', 'followed'). In the answer, each value stands in a clause of its own (cut
at commas too); a value whose clause holds more of the other value's anchors than of its own is
moved, and the pair is swapped when the other value does not keep more of its own anchors than of
the first's either. The same test reads two values of two evidence sentences (each stated once in
the source) that one answer sentence fuses and swaps (`swapped_across`).
Decided here: the signals come confident. A swap whose answer keeps an anchor of each beside a value
("the south tower was built in 1410" for "the north tower was built in 1410, ... the south tower
followed") is not read: the counts tie."""
from __future__ import annotations

from collections import Counter
from itertools import combinations

from .align import View, alignment, fused_alignment
from .base import Signal
from .frame_clauses import frame_cues, opening_scene
from .holder_names import cues, names
from .lexicon import Lexicon
from .recombination import Value, bound, clauses, own_clause, values

MIN_ALIGNMENT = 0.6
"""The answer sentence restates its evidence sentence this much (a swap is a minimal edit)."""
MIN_FUSED = 0.5
"""... and at least this much of the whole of an answer sentence that fuses it with others."""
MIN_MOVED = 2
"""Anchors of the other sentence that two values swapped across sentences bring along together, at least."""
MIN_APART = 3
"""Content words between the two values on each side, at least: fewer make a range or a list
('between October 7, 2001 and December 31, 2007'), not two events."""
MIN_APART_ACROSS = 2
"""... between two values of two evidence sentences: a range or a list joins values of one
('£1.1 million for road maintenance, £3.2 million for public libraries' states two events)."""
MIN_APART_NAMES = 2
"""... between two names, or two values whose holders' names decide (`_by_names`): a list has none
('Iraq, Afghanistan and Pakistan'), an apposition one ('X and his dad, Y')."""


_KINDS = frozenset({"year", "number"})
"""Kinds of values read here: dates and amounts; names are read apart (`_names`): as values of the
tagger's kinds, names in lists and appositions ('Iraq, Afghanistan and Pakistan', 'X and his dad, Y')
moved on faithful summaries."""
NAME = "name"
MONTH = "month"


def _values(v: View, lex: Lexicon) -> list[Value]:
    return [x for x in values(v, lex) if not (x.kind in ("year", "number") and bound(v, x.positions, lex))]


def _names(v: View, lex: Lexicon) -> list[Value]:
    """The names of a sentence as values of kind 'name': runs of capitalised words (`holder_names`,
    whatever kind the tagger gives them, which varies between two sentences) outside its dates and
    amounts (months and weekdays are a date's words), each known by its last word ('Goalkeeper Sam
    Orrey' is 'Sam Orrey' in another sentence)."""
    numeric = {k for x in _values(v, lex) if x.kind in _KINDS for k in x.positions}
    return [Value(v.word(n.hi - 1), NAME, tuple(range(n.lo, n.hi)))
            for n in names(v, cues()) if not numeric.intersection(range(n.lo, n.hi))
            and not n.words & (cues().months | frame_cues().weekdays)]


def _span(v: View, x: Value, parts, lex: Lexicon, commas: bool = False) -> tuple[int, int]:
    """The clause of x (`commas`: only its piece between commas, 'with the eastern wing completed
    later, in 1789')."""
    k = x.positions[0]
    lo, hi = own_clause(v, k, parts, lex)
    if commas:
        lo = max([j + 1 for j in range(lo, k) if v.word(j) == ","], default=lo)
        hi = min([j for j in range(k, hi) if v.word(j) == ","], default=hi)
    return lo, hi


def _words(v: View, span: tuple[int, int], taken: set[int]) -> list[int]:
    """The content words of a span, less every value's words."""
    return [k for k in range(*span) if v.content(k) and k not in taken]


def swapped_values(a: View, e: View, lex: Lexicon, sentences: list[View] | None = None) -> list[Signal]:
    """`sentences`: the source's, for an answer sentence that fuses e with others (`fused_alignment`)."""
    aligned = alignment(a, e)
    if aligned < MIN_ALIGNMENT and (sentences is None or aligned < MIN_FUSED
                                    or fused_alignment(a, e, sentences) < MIN_ALIGNMENT):
        return []
    theirs, named = _values(e, lex), _names(e, lex)
    parts, taken = clauses(e, theirs, lex), _taken(e, theirs, lex)
    numbers = _pairs(e, [x for x in theirs if x.kind in _KINDS], parts, taken, MIN_APART, lex)
    scene = taken - {k for x in theirs for k in x.positions}  # a name's dates and amounts tell its clause apart
    by_name = _pairs(e, named, parts, scene | {k for x in named for k in x.positions}, MIN_APART_NAMES, lex)
    months = _months(e)
    by_month = _pairs(e, months, parts, taken | {k for x in months for k in x.positions}, MIN_APART, lex)
    return _swaps(a, numbers, lex) + _swaps(a, by_name, lex, least=MIN_MOVED, names_too=True) \
        + _swaps(a, by_month, lex, values_of=_months)


def _months(v: View) -> list[Value]:
    """Month names without a day or year ('in March'): values of kind 'month' (a capitalised 'May' only)."""
    return [Value(v.word(k), MONTH, (k,)) for k in range(len(v)) if v.word(k) in cues().months
            and v.text(k)[:1].isupper() and not (k + 1 < len(v) and v.doc.like_num[v.idx[k + 1]])
            and not (k > 0 and v.doc.like_num[v.idx[k - 1]])]


def _pairs(e: View, vals: list[Value], parts, taken: set[int], apart: int, lex: Lexicon) -> list[tuple[tuple, tuple]]:
    """Pairs of two values of one kind that e states once each, in two clauses, `apart` content words
    apart at least; each side (e, the value, its clause span, `taken`)."""
    def once(x: Value) -> bool:
        return sum((y.key, y.kind) == (x.key, x.kind) for y in vals) == 1

    out = []
    for x, y in combinations(vals, 2):
        if x.kind != y.kind or x.key == y.key or not once(x) or not once(y):
            continue
        ex_span, ey_span = (_span(e, z, parts, lex) for z in (x, y))
        if ex_span != ey_span and _apart(e, x, y, apart):
            out.append(((e, x, ex_span, taken), (e, y, ey_span, taken)))
    return out


def swapped_across(a: View, sentences: list[View], lex: Lexicon) -> list[Signal]:
    """Two values of two evidence sentences swapped in one answer sentence that fuses them ('18 percent
    of farmers ..., compared with 62 percent of urban respondents' for '62 percent of farmers ...' and
    'Among urban respondents, the figure was 18 percent'): each value stated once in the whole source,
    and the two moved clauses together restate at least `MIN_MOVED` anchors of the other's sentence. A
    value alone of its kind in its sentence takes the whole sentence as its event ('The new footbridge,
    which opened a year later, cost £1.9 million': not the bare 'cost £1.9 million')."""
    mine = _values(a, lex)
    if len(mine) < 2:
        return []
    per = [(s, _values(s, lex)) for s in sentences]
    stated = Counter((x.key, x.kind) for _, vals in per for x in vals)
    wanted = {(x.key, x.kind) for x in mine if x.kind in _KINDS}
    homes = {}
    for s, vals in per:
        if not any((x.key, x.kind) in wanted for x in vals):
            continue
        parts, taken = clauses(s, vals, lex), _taken(s, vals, lex)
        for x in vals:
            if (x.key, x.kind) in wanted and stated[x.key, x.kind] == 1:
                alone = sum(y.kind == x.kind for y in vals) == 1  # the whole sentence is its event's
                homes[x.key, x.kind] = (s, x, (0, len(s)) if alone else _span(s, x, parts, lex), taken)
    pairs = [(homes[p], homes[q]) for p, q in combinations(sorted(homes), 2)
             if p[1] == q[1] and p[0] != q[0] and homes[p][0] is not homes[q][0]]
    return _swaps(a, pairs, lex, least=MIN_MOVED, apart=MIN_APART_ACROSS)


def _swaps(a: View, pairs: list[tuple[tuple, tuple]], lex: Lexicon, least: int = 1,
           names_too: bool = False, values_of=None, apart: int = MIN_APART) -> list[Signal]:
    """The values of the answer swapped among `pairs` of evidence values, each side (its sentence view,
    the value, its clause span, the positions of that sentence's values); `names_too`: the pairs are
    names (`_names`), whose words are no anchors either (their clauses' dates and amounts are), and each
    name's clause must lean to the other's event ('BK will provide gift bags, Mason Jars and crowns' for 'BK will be paying for the wedding and
    providing gift bags, Mason Jars and crowns': the subject of both clauses keeps the one it states)."""
    if not pairs:
        return []
    mine = _values(a, lex)
    a_parts, a_taken = clauses(a, mine, lex), {k for y in mine for k in y.positions}
    if names_too or values_of is not None:  # `values_of`: the answer's values of the pairs' kind (`_months`)
        mine = _names(a, lex) if names_too else values_of(a)
        a_taken = (set() if names_too else a_taken) | {k for y in mine for k in y.positions}

    def once(x: Value) -> list[Value]:
        return [y for y in mine if (y.key, y.kind) == (x.key, x.kind)]

    def count(span: tuple[int, int], anchors: frozenset[str]) -> int:
        return sum(bool(a.keys(k) & anchors) for k in _words(a, span, a_taken))

    def anchors(side: tuple) -> frozenset[str]:
        v, _, span, taken = side
        return frozenset().union(*(v.keys(k) for k in _words(v, span, taken)))

    out, flagged = [], set()
    for sx, sy in pairs:
        (_, x, _, _), (_, y, _, _) = sx, sy
        ax, ay = once(x), once(y)
        if len(ax) != 1 or len(ay) != 1:
            continue
        ax_span, ay_span = (_span(a, z[0], a_parts, lex, commas=True) for z in (ax, ay))
        if ax_span == ay_span:
            continue
        named = None if names_too else _by_names(a, (ax[0], ay[0]), (sx, sy), a_parts, lex)
        if named is not None:  # the holders' names, where the evidence and the answer name any, decide
            if named and _apart(a, ax[0], ay[0], MIN_APART_NAMES):
                out += _flag(a, (ax[0], sy), (ay[0], sx), flagged=flagged)
            continue
        if not _apart(a, ax[0], ay[0], apart):
            continue
        ex, ey = anchors(sx), anchors(sy)
        own_x, own_y = ex - ey, ey - ex  # the anchors of each value's event
        if not own_x or not own_y:
            continue
        kx, ky = count(ax_span, own_x), count(ay_span, own_y)
        cross_x, cross_y = count(ax_span, own_y), count(ay_span, own_x)
        leans = cross_x > kx and cross_y > ky if names_too else \
            cross_x > kx and cross_y >= ky or cross_y > ky and cross_x >= kx
        if leans and cross_x + cross_y >= least:
            out += _flag(a, (ax[0], sy), (ay[0], sx), flagged=flagged)
    return out


def _flag(a: View, *moved: tuple, flagged: set) -> list[Signal]:
    """Confident signals of answer values each given the other side's value (once per value)."""
    out = []
    for z, (v, other, _, _) in moved:
        if z.positions not in flagged:
            flagged.add(z.positions)
            out.append(Signal("recombination", tuple(int(a.idx[k]) for k in z.positions),
                              v.span_text(list(other.positions)), confident=True))
    return out


def _capitalised(v: View, span: tuple[int, int], first: bool = False) -> frozenset[str]:
    """Keys of the capitalised content words of a span, the sentence's first word only with `first`
    (the answer's, read against the evidence's names), months aside: its names."""
    return frozenset().union(*(v.keys(k) for k in range(*span) if (k > 0 or first) and v.content(k)
                               and v.text(k)[:1].isupper() and v.word(k) not in cues().months))


def _by_names(a: View, mine: tuple[Value, Value], sides: tuple[tuple, tuple], parts, lex: Lexicon) -> bool | None:
    """Whether both answer values stand in stretches that name the other value's holder and not their
    own ('Verdana raised yields by 18 percent, while NutraGrow added 7' for 'NutraGrow ... 18 percent'
    and 'Verdana ... 7 percent'; not 'The Corran Viaduct, completed in 1902, came fifteen years after
    the Ellery Bridge, finished in 1887', whose verbs trade places); None where the evidence names no
    holder of either value's own, or an answer's stretch names none of them. An answer value's stretch is
    its clause where both clauses name a holder, else it runs from just after the other value, where that
    stands earlier in the sentence (else from its start), to the end of its clause; an evidence value
    alone in its sentence has the whole sentence."""
    (e0, x0, _, _), (e1, x1, _, _) = sides
    inside = _capitalised(a, (1, len(a)))  # an evidence sentence's first word is a name the answer writes so inside
    if e0 is e1:
        e_parts = clauses(e0, _values(e0, lex), lex)
        names = [_capitalised(e0, _stretch(e0, x, y, e_parts, lex), bool(e0.keys(0) & inside))
                 for x, y in ((x0, x1), (x1, x0))]
    else:
        names = [_capitalised(v, (0, len(v)), bool(v.keys(0) & inside)) for v in (e0, e1)]
    own = (names[0] - names[1], names[1] - names[0])
    if not own[0] or not own[1]:
        return None
    said = [_capitalised(a, _span(a, mine[i], parts, lex), first=True) for i in (0, 1)]
    if not all(x & (own[0] | own[1]) for x in said):  # a clause naming no holder: from after the other value
        said = [_capitalised(a, _stretch(a, mine[i], mine[1 - i], parts, lex), first=True) for i in (0, 1)]
    if not said[0] & (own[0] | own[1]) or not said[1] & (own[0] | own[1]):
        return None
    return all(said[i] & own[1 - i] and not said[i] & own[i] for i in (0, 1))


def _stretch(v: View, x: Value, other: Value, parts, lex: Lexicon) -> tuple[int, int]:
    end = _span(v, x, parts, lex)[1]
    return (max(other.positions) + 1 if max(other.positions) < x.positions[0] else 0), end


def _taken(v: View, vals: list[Value], lex: Lexicon) -> set[int]:
    """Positions that are no anchor of an evidence value's event: the values' words, and an opening
    scene, which sets every clause ('In the council election, X won 14 seats, while turnout fell to 41
    percent')."""
    return {k for y in vals for k in y.positions} | set(opening_scene(v, frame_cues(), lex.clause_breaks | {";"}))


def _apart(v: View, x: Value, y: Value, least: int = MIN_APART) -> bool:
    lo, hi = sorted((x, y), key=lambda z: z.positions[0])
    return sum(v.content(k) for k in range(max(lo.positions) + 1, min(hi.positions))) >= least


def names_across(a: View, sentences: list[View], lex: Lexicon) -> list[Signal]:
    """Two names of two evidence sentences exchanged in one answer sentence ('ran its Dravomab trial in
    Portugal with 420 patients, and tested Sorenlimab on 310 patients in Canada' for '... trial of
    Dravomab enrolled 420 patients in Canada.' and 'Its trial of Sorenlimab enrolled 310 patients in
    Portugal.'). Each name is stated once in the source; its anchors are the words and values of its
    evidence clause that the other name's clause lacks, less the two names themselves (the other names
    of a clause are what tells two events apart, so they count); each answer name's clause (cut at
    commas) holds more of the other name's anchors than of its own, `MIN_MOVED` at least together."""
    mine = _names(a, lex)
    if len(mine) < 2:
        return []
    per = [(s, _names(s, lex)) for s in sentences]
    stated = Counter(x.key for _, found in per for x in found)
    homes = {x.key: (s, x) for s, found in per for x in found if stated[x.key] == 1}
    once = [x for x in mine if x.key in homes and sum(y.key == x.key for y in mine) == 1]
    a_parts = clauses(a, _values(a, lex), lex)

    def count(span: tuple[int, int], anchors: frozenset[str], moved: set[int]) -> int:
        return sum(bool(a.keys(k) & anchors) for k in range(*span) if a.content(k) and k not in moved)

    out, flagged = [], set()
    for x, y in combinations(once, 2):
        (sx, ex), (sy, ey) = homes[x.key], homes[y.key]
        if sx is sy:
            continue
        moved = set(x.positions + y.positions)
        spans = [_span(a, z, a_parts, lex, commas=True) for z in (x, y)]
        if spans[0] == spans[1] or not _apart(a, x, y, MIN_APART_NAMES):
            continue
        names = a.keys(x.positions[-1]) | a.keys(y.positions[-1])
        ax, ay = (_anchors(s, z, lex) - names for s, z in ((sx, ex), (sy, ey)))
        own_x, own_y = ax - ay, ay - ax
        if not own_x or not own_y:
            continue
        kx, ky = count(spans[0], own_x, moved), count(spans[1], own_y, moved)
        cross_x, cross_y = count(spans[0], own_y, moved), count(spans[1], own_x, moved)
        if cross_x > kx and cross_y > ky and cross_x + cross_y >= MIN_MOVED:
            out += _flag(a, (x, (sy, ey, None, None)), (y, (sx, ex, None, None)), flagged=flagged)
    return out


def _anchors(v: View, x: Value, lex: Lexicon) -> frozenset[str]:
    """The keys of the content words and values of x's clause in v, less x's own words."""
    lo, hi = _span(v, x, clauses(v, _values(v, lex), lex), lex)
    return frozenset().union(*(v.keys(k) for k in range(lo, hi) if v.content(k) and k not in x.positions))
