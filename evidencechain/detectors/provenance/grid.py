"""Running configurations: every (relevance, selection, checker, aggregation) combination at once,
and `Provenance`, one configuration of the pipeline."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

import numpy as np

from .aggregate import AGGREGATIONS, aggregate_support
from .checkers import FactChecker
from .examples import Example
from .pairs import PairBatch, PairFeaturizer
from .relevance import RelevanceScorer
from .selection import Selection, Selector


@dataclass
class Provenance:
    """One configuration of the pipeline: relevance, selection, checker, aggregation."""

    relevance: RelevanceScorer
    selector: Selector
    checker: FactChecker
    aggregation: str = "weighted"

    @property
    def name(self) -> str:
        return config_name(self.relevance.name, self.selector.name, self.aggregation, self.checker.name)

    def factuality(self, examples: Sequence[Example], progress: bool = False) -> np.ndarray:
        grid = run_grid(examples, [self.relevance], [self.selector], [self.checker],
                        [self.aggregation], progress=progress)
        return grid.factuality[self.name]

    def risk(self, examples: Sequence[Example], progress: bool = False) -> np.ndarray:
        """1 - factuality; an example without context items gets risk 1."""
        f = self.factuality(examples, progress)
        return np.where(np.isnan(f), 1.0, 1.0 - f)


def config_name(relevance: str, selection: str, aggregation: str, checker: str) -> str:
    return f"Provenance[{relevance}|{selection}|{aggregation}|{checker}]"


@dataclass
class GridResult:
    factuality: dict[str, np.ndarray]
    """Per configuration name: factuality per example (NaN without context items)."""
    configs: list[dict]
    """Per configuration: relevance, selection, aggregation, checker, name, mean_selected."""
    pairs_checked: int = 0


def run_grid(examples: Sequence[Example], scorers: Sequence[RelevanceScorer],
             selectors: Sequence[Selector], checkers: Sequence[FactChecker],
             aggregations: Sequence[str] = AGGREGATIONS, featurizer: PairFeaturizer | None = None,
             progress: bool = False) -> GridResult:
    """Every combination, computing each relevance score and each checked pair only once.

    Pairs are checked only for items that some (scorer, selector) combination selects.
    """
    selections: dict[tuple[str, str], list[Selection]] = {}
    needed: set[tuple[int, int]] = set()
    for scorer in scorers:
        scores = scorer.score(examples, progress=progress)
        for selector in selectors:
            sel = [selector.select(s, scorer.temperature) if len(s) else Selection(np.zeros(0, int), np.zeros(0))
                   for s in scores]
            selections[(scorer.name, selector.name)] = sel
            for e, s in enumerate(sel):
                needed.update((e, int(i)) for i in s.indices)
    pairs = sorted(needed)
    batch = PairBatch(examples, np.array([e for e, _ in pairs], dtype=int),
                      np.array([i for _, i in pairs], dtype=int), featurizer=featurizer)
    position = {p: k for k, p in enumerate(pairs)}
    support = {c.name: c.support(batch) for c in checkers}
    factuality: dict[str, np.ndarray] = {}
    configs = []
    for (rname, sname), sel in selections.items():
        lookup = [np.array([position[(e, int(i))] for i in s.indices], dtype=int) for e, s in enumerate(sel)]
        mean_selected = float(np.mean([len(s.indices) for s in sel])) if sel else 0.0
        for checker, how in product(checkers, aggregations):
            sup = support[checker.name]
            values = np.array([aggregate_support(sup[rows], s.weights, how) if len(rows) else np.nan
                               for rows, s in zip(lookup, sel)])
            name = config_name(rname, sname, how, checker.name)
            factuality[name] = values
            configs.append({"name": name, "relevance": rname, "selection": sname, "aggregation": how,
                            "checker": checker.name, "mean_selected": mean_selected})
    return GridResult(factuality, configs, len(pairs))
