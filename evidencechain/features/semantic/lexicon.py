"""The word lists of the semantic error classes (data/cues.toml, data/antonyms.tsv), loaded once."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from importlib import resources

_SUFFIXES = ("ing", "ed", "es", "s", "e")


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A crude stem that makes 'reduce', 'reduced', 'reduces' and 'reducing' meet."""
    w = word.lower()
    for suffix in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 4:
            w = w[:-len(suffix)]
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]
    return w


@dataclass(frozen=True)
class Lexicon:
    negation: frozenset[str]
    verb_negation: frozenset[str]
    ending_negation: frozenset[str]
    preventers: frozenset[str]
    prefixes: tuple[str, ...]
    min_stem: int
    exclusives: frozenset[str]
    antonyms: dict[str, frozenset[str]]
    """stem -> stems of its antonyms."""
    scales: dict[str, float]
    percent: frozenset[str]
    currency: dict[str, str]
    points: frozenset[str]
    rate_words: frozenset[str]
    periods: frozenset[str]
    rate_adverbs: dict[str, str]
    rate_reach: int
    multiples: dict[str, float]
    """Words that are a count of times ('twice')."""
    modality: dict[str, dict[str, int]]
    """scale name -> word or phrase -> level."""
    after_article: str
    """A scale word after 'a' counts at this word's level ('a few' = 'several')."""
    unreached: frozenset[str]
    """Status words whose dropped hedge is a conflict ('proposed dredging' -> 'dredged')."""
    span_markers: frozenset[str]
    """Answer words right before a confident modality shift that `detect` names with it."""
    span_reach: int
    share_scale: str
    shares: dict[str, float]
    """fraction word -> its denominator ('thirds' -> 3)."""
    share_levels: tuple[tuple[float, int], ...]
    """(highest share, level of share_scale) in rising order."""
    polar_scales: frozenset[str]
    idioms: tuple[tuple[str, ...], ...]
    """Phrases that hold a scale word but state no level ('each other', 'the most')."""
    belief_scale: str
    belief: frozenset[str]
    clause_hedges: dict[str, int]
    """Word before 'that' (or 'be that') -> the belief_scale level it caps its clause at ('it is
    possible that X will', 'there is a chance that', 'it may be that')."""
    """Verbs of belief that take one level off a word of belief_scale after them ('believes it will')."""
    reporting: frozenset[str]
    attribution: frozenset[str]
    auxiliaries: frozenset[str]
    cue_reach: int
    clause_breaks: frozenset[str]
    comparisons: frozenset[str]
    conjunctions: frozenset[str]
    light_verbs: frozenset[str]
    bounds: frozenset[str]
    range_opener: str
    prepositions: frozenset[str]
    exact: frozenset[str]
    relative: frozenset[str]
    fronted: frozenset[str]
    trailing: frozenset[str]
    max_homes: int
    clause_frame: tuple[float, int]
    """(min_frame, min_frame_words) of cues.toml [clauses]."""
    confidence: dict[str, float]
    """The thresholds of `confidence.mark_confident` (cues.toml [confidence])."""
    pair_cues: frozenset[tuple[str, str]] = frozenset()
    subject_cues: frozenset[str] = frozenset()
    comparative_cues: frozenset[str] = frozenset()
    comparison: frozenset[str] = frozenset()
    """Words joining a comparison's two arguments ('than', 'before', 'after')."""
    event_order: frozenset[str] = frozenset()
    """Of those, the words that order two events ('before', 'after')."""
    ordering: frozenset[str] = frozenset()
    """Other words that order events ('following', 'prior')."""
    persistence: frozenset[str] = frozenset()
    privatives: dict[str, str] = field(default_factory=dict)
    """Words asserting a state goes on ('still'), the answer's side of a 'no longer' flip."""
    delay: tuple[frozenset[str], frozenset[str], frozenset[str]] = (frozenset(), frozenset(), frozenset())
    """('until', ...) after a negation, the words after 'only' that state the same delay, and those
    that state it alone ('after')."""
    relations: dict[tuple[str, ...], str] = field(default_factory=dict)
    """A relation's form (its words) -> its group (cues.toml [roles.relations])."""
    converses: dict[str, frozenset[str]] = field(default_factory=dict)
    symmetric: frozenset[str] = frozenset()
    synonyms: dict[str, frozenset[str]] = field(default_factory=dict)
    """stem -> stems of its near-synonyms (data/synonyms.tsv): a negation of one denies the other."""
    verb_relations: dict[str, frozenset[str]] = field(default_factory=dict)
    """verb stem -> stems of the verbs stating its relation with the parties in the same places
    (data/relations.tsv: 'bought' / 'acquired'), for the dependency role and flip readers."""
    coordination: tuple[frozenset[str], int] = (frozenset(), 0)
    """(auxiliaries, reach) of cues.toml [polarity]: the verb that 'neither ... nor' negates."""
    strengthened_only: frozenset[str] = frozenset()
    """Scales on which only a stronger answer is a conflict ('may' -> 'will', not 'will' -> 'may')."""
    min_steps: dict[str, int] = field(default_factory=dict)
    """Scale -> the fewest levels a confident shift climbs (1 where not listed)."""
    participles: frozenset[str] = frozenset()
    """Past participles that end in neither -ed nor -en ('led by', 'won by')."""
    floating: frozenset[str] = frozenset()
    """Auxiliaries after which a quantifier floats off its subject ('have all replaced')."""
    floaters: frozenset[str] = frozenset()
    governors: frozenset[str] = frozenset()
    """Lemmas of heads whose complement is an event not real ('propose', 'order'): cues.toml [irrealis]."""
    intentions: frozenset[str] = frozenset()
    """Governors that a 'will' in the answer restates ('plan', 'expect')."""
    governor_stems: dict[str, str] = field(default_factory=dict)
    """stem -> governor lemma."""
    after_be: frozenset[str] = frozenset()
    """Governors that govern only right after a form of 'be' ('is set to open')."""
    object_governors: frozenset[str] = frozenset()
    """Governors whose noun object is an event to come ('proposed a congestion charge')."""
    fulfilled: frozenset[str] = frozenset()
    """Words before a governor that make its event real ('fulfilling his pledge to appoint')."""
    realising: frozenset[str] = frozenset()
    hedges: frozenset[str] = frozenset()
    conditionals: frozenset[tuple[str, ...]] = frozenset()
    """Words that open a clause stating a condition, not a fact ('if', 'unless', 'provided that')."""
    comma_conditionals: frozenset[str] = frozenset()
    """Words that open a condition after a comma (', provided a buyer is found')."""
    clausal: frozenset[str] = frozenset()
    """Governors whose that-clause is an event not real ('recommended that the hospital close')."""
    subject_reach: int = 0
    """Tokens after a noun within which the 'be' of its passive is looked for (`irrealis.passive_after`)."""

    def with_synonyms(self, keys: frozenset[str]) -> frozenset[str]:
        """`keys` and the stems of their near-synonyms (data/synonyms.tsv): 'left' also 'depart'."""
        return keys.union(*(self.synonyms.get(x, frozenset()) for x in keys))

    @cached_property
    def idioms_by_first(self) -> dict[str, tuple[tuple[str, ...], ...]]:
        """`idioms` by their first word, each list in `idioms`' order."""
        return _by_first(self.idioms)

    @cached_property
    def conditionals_by_first(self) -> dict[str, tuple[tuple[str, ...], ...]]:
        return _by_first(sorted(self.conditionals))

    @cached_property
    def universals(self) -> frozenset[str]:
        """The single words at the top of the quantifier scale ('all', 'every', 'each')."""
        scale = self.modality[self.share_scale]
        top = max(scale.values())
        return frozenset(w for w, level in scale.items() if level == top and " " not in w)

    @cached_property
    def scale_words(self) -> frozenset[str]:
        """Every word and phrase of every modality scale."""
        return frozenset(w for scale in self.modality.values() for w in scale)


def _by_first(phrases) -> dict[str, tuple[tuple[str, ...], ...]]:
    out: dict[str, list[tuple[str, ...]]] = {}
    for words in phrases:
        out.setdefault(words[0], []).append(words)
    return {k: tuple(v) for k, v in out.items()}


def _read(name: str) -> str:
    return resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")


def _is_scale(value) -> bool:
    """A list of levels, each a list of words (not a setting of the [modality] table)."""
    return isinstance(value, list) and all(isinstance(x, list) and all(isinstance(w, str) for w in x) for x in value)


@cache
def lexicon() -> Lexicon:
    cues = tomllib.loads(_read("cues.toml"))
    pairs = [tuple(p) for p in cues["antonyms"]["pairs"]]
    ignore = set(cues["antonyms"]["ignore"])
    for name in ("antonyms.tsv", "opposites.tsv"):  # WordNet's pairs (less `ignore`), then the project's own
        for line in _read(name).splitlines():
            if line.startswith("#") or line.startswith("word\t") or not line.strip():
                continue
            a, b = line.split("\t")[:2]
            if name == "opposites.tsv" or (a not in ignore and b not in ignore):
                pairs.append((a, b))
    antonyms: dict[str, set[str]] = {}
    for a, b in pairs:
        sa, sb = stem(a), stem(b)
        if sa != sb:
            antonyms.setdefault(sa, set()).add(sb)
            antonyms.setdefault(sb, set()).add(sa)
    for a, b in cues["antonyms"]["unstemmed"]:
        antonyms.setdefault(a, set()).add(b)
        antonyms.setdefault(b, set()).add(a)
    pol, q = cues["polarity"], cues["quantities"]
    mod = cues["modality"]
    modality = {name: {w: level for level, words in enumerate(levels) for w in words}
                for name, levels in mod.items() if _is_scale(levels)}
    return Lexicon(
        negation=frozenset(pol["cues"]), verb_negation=frozenset(pol["verb_cues"]),
        ending_negation=frozenset(pol["ending_cues"]), preventers=frozenset(pol["preventers"]),
        prefixes=tuple(sorted(pol["prefixes"], key=len, reverse=True)), min_stem=int(pol["min_stem"]),
        exclusives=frozenset(pol["exclusives"]),
        antonyms={k: frozenset(v) for k, v in antonyms.items()},
        scales={k: float(v) for k, v in q["scales"].items()}, percent=frozenset(q["percent"]),
        currency=dict(q["currency"]), points=frozenset(q["points"]), rate_words=frozenset(q["rate_words"]),
        periods=frozenset(q["periods"]), rate_adverbs=dict(q["rate_adverbs"]), rate_reach=int(q["rate_reach"]),
        multiples={k: float(v) for k, v in q["multiples"].items()},
        modality=modality,
        after_article=str(cues["modality"]["after_article"]),
        unreached=frozenset(cues["modality"]["unreached"]),
        span_markers=frozenset(cues["modality"]["span_markers"]), span_reach=int(cues["modality"]["span_reach"]),
        share_scale=str(mod["share_scale"]), shares={k: float(v) for k, v in mod["shares"].items()},
        share_levels=tuple((float(b), modality[mod["share_scale"]][w]) for b, w in mod["share_levels"]),
        polar_scales=frozenset(mod["polar_scales"]),
        idioms=tuple(sorted((tuple(p.split()) for p in mod["skip"]), key=len, reverse=True)),
        belief_scale=str(mod["belief_scale"]), belief=frozenset(mod["belief"]),
        clause_hedges={w: modality[mod["belief_scale"]][x] for w, x in mod["clause_hedges"].items()},
        reporting=frozenset(cues["scope"]["reporting"]), attribution=frozenset(cues["scope"]["attribution"]),
        auxiliaries=frozenset(cues["scope"]["auxiliaries"]), cue_reach=int(cues["scope"]["cue_reach"]),
        clause_breaks=frozenset(cues["clauses"]["breaks"]), comparisons=frozenset(cues["clauses"]["comparisons"]),
        conjunctions=frozenset(cues["clauses"]["conjunctions"]),
        light_verbs=frozenset(cues["clauses"]["light_verbs"]),
        bounds=frozenset(cues["clauses"]["bounds"]), exact=frozenset(cues["clauses"]["exact"]),
        range_opener=str(cues["clauses"]["range_opener"]), prepositions=frozenset(cues["clauses"]["prepositions"]),
        relative=frozenset(cues["clauses"]["relative"]), fronted=frozenset(cues["clauses"]["fronted"]),
        trailing=frozenset(cues["clauses"]["trailing"]),
        max_homes=int(cues["clauses"]["max_homes"]),
        clause_frame=(float(cues["clauses"]["min_frame"]), int(cues["clauses"]["min_frame_words"])),
        confidence={k: float(v) for k, v in cues["confidence"].items()},
        pair_cues=frozenset(tuple(p) for p in pol["pair_cues"]), subject_cues=frozenset(pol["subject_cues"]),
        comparative_cues=frozenset(pol["comparative_cues"]), comparison=frozenset(pol["comparison"]),
        event_order=frozenset(pol["event_order"]), ordering=frozenset(pol["ordering"]),
        persistence=frozenset(pol["persistence"]), privatives=dict(pol["privatives"]), delay=(frozenset(pol["delay"]), frozenset(pol["only_then"]), frozenset(pol["then_alone"])),
        synonyms=_synonyms(), verb_relations=_synonyms("relations.tsv"), coordination=(frozenset(pol["auxiliaries"]), int(pol["coordination_reach"])),
        floating=frozenset(mod["floating"]), floaters=frozenset(mod["floaters"]),
        strengthened_only=frozenset(mod["strengthened_only"]), min_steps={k: int(v) for k, v in mod["min_steps"].items()},
        **_irrealis(cues["irrealis"]), **_roles(cues["roles"]))


def _synonyms(name: str = "synonyms.tsv") -> dict[str, frozenset[str]]:
    """Each word's stem -> the stems of the other words of its rows in data/NAME."""
    out: dict[str, set[str]] = {}
    for line in _read(name).splitlines():
        if line.startswith("#") or not line.strip():
            continue
        stems = {stem(w.strip().lower()) for w in line.split("\t") if w.strip()}
        for s in stems:
            out.setdefault(s, set()).update(stems - {s})
    return {k: frozenset(v) for k, v in out.items()}


def _irrealis(table: dict) -> dict:
    every = [*table["governors"], *table["intentions"]]
    return {"governors": frozenset(every), "governor_stems": {stem(w): w for w in every},
            "intentions": frozenset(table["intentions"]), "after_be": frozenset(table["after_be"]),
            "object_governors": frozenset(table["object_governors"]), "fulfilled": frozenset(table["fulfilled"]),
            "realising": frozenset(table["realising"]),
            "hedges": frozenset(table["hedges"]),
            "conditionals": frozenset(tuple(w.split()) for w in table["conditionals"]), "clausal": frozenset(table["clausal"]),
            "comma_conditionals": frozenset(table["comma_conditionals"]),
            "subject_reach": int(table["subject_reach"])}


def _roles(roles: dict) -> dict:
    """The relation forms, converse groups and symmetric relations of cues.toml [roles]."""
    relations = {tuple(form.split()): group for group, forms in roles["relations"].items() for form in forms}
    converses: dict[str, set[str]] = {}
    for a, b in roles["pairs"]["converses"]:
        converses.setdefault(a, set()).add(b)
        converses.setdefault(b, set()).add(a)
    return {"relations": relations, "converses": {k: frozenset(v) for k, v in converses.items()},
            "symmetric": frozenset(roles["pairs"]["symmetric"]), "participles": frozenset(roles["participles"])}
