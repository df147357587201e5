"""The registry of feature families (`features.family.FeatureFamily`), in the order they run.

`FeatureExtractor` fits and runs the families of this registry in order, so the columns of the
sentence and token tables follow it; `feature_groups` and `feature_columns` give detectors the
columns of each group; `configure` switches on the families that configured detectors need
(the detectors say which: `detectors.feature_families`). Adding a family: write its module with
a `FeatureFamily` subclass and `register` an instance (built-in ones are listed below).
"""
from __future__ import annotations

from dataclasses import replace

from .alignment import AlignmentFamily
from .checker import CheckerFamily
from .claims import ClaimsCheckerFamily, ClaimsFamily
from .family import FeatureFamily
from .metadata import MetadataFamily
from .neural import EmbeddingFamily
from .response import ResponseFamily
from .retrieval import TfidfFamily
from .semantic.table import SemanticFamily
from .sentences import LabelsFamily, LexicalFamily, MismatchFamily, RetrievalFamily, SentenceFamily
from .tiers import TiersFamily
from .word_prior import WordPriorFamily

FAMILIES: dict[str, FeatureFamily] = {}
"""Every registered family by name, in registry (= run and column) order."""
COVERAGE_ONLY = "coverage_only"
"""A pseudo-group for detectors: the `coverage` column alone."""


def register(family: FeatureFamily, after: str | None = None) -> FeatureFamily:
    """Add `family` to the registry, last or right after the family named `after`."""
    if not family.name:
        raise ValueError(f"{family!r} has no name")
    if family.name in FAMILIES:
        raise ValueError(f"feature family {family.name!r} is already registered")
    if after is not None and after not in FAMILIES:
        raise ValueError(f"unknown feature family {after!r}; known: {list(FAMILIES)}")
    names = list(FAMILIES)
    position = names.index(after) + 1 if after is not None else len(names)
    items = list(FAMILIES.items())
    items.insert(position, (family.name, family))
    FAMILIES.clear()
    FAMILIES.update(items)
    return family


def unregister(name: str) -> FeatureFamily:
    """Remove a family from the registry (built-in families are part of every table: refused)."""
    if name in BUILTIN:
        raise ValueError(f"feature family {name!r} is built in and cannot be unregistered")
    if name not in FAMILIES:
        raise ValueError(f"unknown feature family {name!r}; known: {list(FAMILIES)}")
    return FAMILIES.pop(name)


def feature_groups() -> tuple[str, ...]:
    """Every detector feature group the registered families provide, in registry order."""
    groups = {}
    for family in FAMILIES.values():
        groups.update(dict.fromkeys((*family.groups, *family.categorical)))
    return tuple(groups)


def group_columns() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(numeric, categorical) columns of each group, families in registry order."""
    numeric: dict[str, list[str]] = {}
    categorical: dict[str, list[str]] = {}
    for family in FAMILIES.values():
        for group, columns in family.groups.items():
            numeric.setdefault(group, []).extend(columns)
        for group, columns in family.categorical.items():
            categorical.setdefault(group, []).extend(columns)
    return numeric, categorical


def feature_columns(groups: list[str] | tuple[str, ...]) -> tuple[list[str], list[str]]:
    """(numeric, categorical) feature columns of the given groups."""
    known = feature_groups()
    unknown = set(groups) - set(known) - {COVERAGE_ONLY}
    if unknown:
        raise ValueError(f"unknown feature group(s) {sorted(unknown)}; known: {known}")
    if COVERAGE_ONLY in groups:
        return ["coverage"], []
    numeric, categorical = group_columns()
    return ([c for g in groups for c in numeric.get(g, [])],
            [c for g in groups for c in categorical.get(g, [])])


def providers(groups) -> set[str]:
    """Names of the families that provide the given feature groups."""
    wanted = set(groups)
    return {f.name for f in FAMILIES.values() if wanted & {*f.groups, *f.categorical}}


def configure(config, families) -> object:
    """A copy of the feature config with every named family switched on, and every family the
    config asks for switched on with what it builds on (claims_checker: claims too)."""
    config = replace(config)
    asked = [f.name for f in FAMILIES.values() if not f.core and f.switched_on(config)]
    for name in [*asked, *sorted(families)]:
        if name in FAMILIES:
            config = FAMILIES[name].switch_on(config)
    return config


for _family in (SentenceFamily(), LexicalFamily(), RetrievalFamily(), MismatchFamily(), LabelsFamily(),
                TiersFamily(), MetadataFamily(), TfidfFamily(), ResponseFamily(), EmbeddingFamily(),
                CheckerFamily(), SemanticFamily(), AlignmentFamily(), WordPriorFamily(), ClaimsFamily(), ClaimsCheckerFamily()):
    register(_family)
BUILTIN = frozenset(FAMILIES)
