"""Planning a run: the units (one fit / calibrate / score step each), the detectors and
parameters of each unit, the levels a unit cannot measure, and checks before any feature work."""
from __future__ import annotations

from dataclasses import dataclass

from .config import EvaluationSpec, ExperimentConfig
from .data.load import SplitCorpus
from .detectors import DETECTORS
from .errors import InputError
from .features.checker import checker_absent_reason
from .records import Corpus

UNIT_COLUMNS = ["unit", "fit", "calibrated_on", "test", "subset"]

@dataclass
class Unit:
    """One fit / calibrate / score step."""

    spec: EvaluationSpec
    fit: str
    test: str
    subset: str
    calibration: str
    fit_ids: list[str]
    calibration_ids: list[str]
    test_ids: list[str]

    @property
    def label(self) -> str:
        held = f"[-{self.subset}]" if self.spec.leave_subset_out else ""
        scored = f"{self.test}[{self.subset}]" if self.subset else self.test
        return f"{self.fit}{held} -> {scored}"

    @property
    def cross(self) -> bool:
        """Fit answers come from another corpus or another subset than the scored ones."""
        return self.fit != self.test or self.spec.leave_subset_out

    def row(self) -> dict:
        return {"unit": self.label, "fit": self.fit, "calibrated_on": self.calibration,
                "test": self.test, "subset": self.subset}


def plan_units(config: ExperimentConfig, corpora: dict[str, SplitCorpus]) -> list[Unit]:
    """Every unit of every evaluation; empty parts are errors naming the unit."""
    units = []
    for spec in config.evaluations:
        fit = corpora[spec.fit]
        for name in spec.test:
            test = corpora[name]
            for subset in (_subset_order(test, config.corpora[name].subsets) if spec.per_subset else [None]):
                own = spec.per_subset and spec.fit == name
                if spec.leave_subset_out:
                    fit_ids = fit.ids(exclude_subset=subset)
                else:
                    fit_ids = fit.ids(spec.fit_split, subset=subset if own else None)
                cal = fit if spec.calibrate == "fit" else test
                cal_subset = subset if (own or spec.calibrate == "test") else None
                unit = Unit(spec, spec.fit, name, subset or "", cal.name, fit_ids,
                            cal.ids("calibration", subset=cal_subset), test.ids("test", subset=subset))
                for part, ids in (("fit", unit.fit_ids), ("calibration", unit.calibration_ids),
                                  ("test", unit.test_ids)):
                    if not ids:
                        raise InputError(f"{config.path}: evaluation {unit.label}: the {part} split is empty "
                                         f"(corpus splits: {fit.name} {fit.counts()}, {test.name} {test.counts()})")
                seen = (set(unit.fit_ids) if unit.fit == name else set()) | \
                    (set(unit.calibration_ids) if unit.calibration == name else set())
                if seen & set(unit.test_ids):
                    raise InputError(f"evaluation {unit.label}: test answers overlap the fit or calibration answers")
                units.append(unit)
    return units


def _subset_order(corpus: SplitCorpus, configured: list[str]) -> list[str]:
    """The corpus's subsets in the order the config names them (others after, sorted)."""
    present = corpus.corpus.subsets
    return [s for s in configured if s in present] + [s for s in present if s not in configured]


def detector_params(config: ExperimentConfig, unit: Unit) -> dict:
    """Per-detector parameters; cross-corpus units drop the metadata group (see config)."""
    params = {k: dict(v) for k, v in config.detectors.params.items() if k in config.detectors.names}
    for name in config.detectors.names:
        if "groups" not in DETECTORS[name].param_names():
            continue
        p = params.setdefault(name, {})
        groups = tuple(p.get("groups") or DETECTORS[name].default_params()["groups"])
        if config.features.embedding_model and "neural" not in groups:
            groups += ("neural",)
        if checker_absent_reason(config.features.checker) is None and "checker" not in groups:
            groups += ("checker",)
        if unit.cross and not config.evaluation.cross_corpus_metadata:
            groups = tuple(g for g in groups if g != "metadata")
        p["groups"] = groups
    return params


def unit_detectors(config: ExperimentConfig, fit: Corpus) -> tuple[tuple[str, ...], str, list[str]]:
    """(detectors, primary, reasons): detectors fitted on word labels are skipped, with the
    reason, when the fit corpus has response-level labels only."""
    names = tuple(n for n in config.detectors.names if fit.span_labels or not DETECTORS[n].tags()["needs_tokens"])
    dropped = [f"{n}: not fitted, {fit.name} has no word labels" for n in config.detectors.names
               if n not in names]
    if any(DETECTORS[n].tags()["needs_tiers"] for n in names) and not _has_tiers(fit):
        dropped += [f"{n}: not fitted, {fit.name} has no NO-INFO sentence labels" for n in names
                    if DETECTORS[n].tags()["needs_tiers"]]
        names = tuple(n for n in names if not DETECTORS[n].tags()["needs_tiers"])
    absent = checker_absent_reason(config.features.checker)
    if absent:
        dropped += [f"{n}: not scored, the learned checker is {absent}" for n in names if DETECTORS[n].tags()["needs_checker"]]
        names = tuple(n for n in names if not DETECTORS[n].tags()["needs_checker"])
    primary = config.detectors.primary
    if primary not in names:
        supervised = [n for n in names if DETECTORS[n].tags()["supervised"]]
        primary = (supervised or list(names))[-1]
        dropped.append(f"primary detector for this unit: {primary}")
    return names, primary, dropped


def check_fit_classes(config: ExperimentConfig, corpora: dict, units: list) -> None:
    """Stop before any feature extraction when supervised detectors would be fitted on answers of
    one class only (every answer supported, or every one hallucinated without word labels)."""
    supervised = [n for n in config.detectors.names if DETECTORS[n].tags()["supervised"]]
    for unit in units if supervised else ():
        fit = corpora[unit.fit].corpus
        ids = set(unit.fit_ids)
        labels = {r.hallucinated for r in fit.responses if r.id in ids}
        if labels == {False} or (labels == {True} and not fit.span_labels):
            kind = "supported" if labels == {False} else "hallucinated (and there are no word labels)"
            unsupervised = [n for n in DETECTORS if not DETECTORS[n].tags()["supervised"]]
            raise InputError(f"training corpus {unit.fit!r} ({config.path}): every one of its {len(ids)} training "
                             f"answers is {kind}, so the supervised detectors ({', '.join(supervised)}) cannot "
                             f"be fitted; add answers of the other kind, or list only unsupervised detectors "
                             f"({', '.join(unsupervised)}) in [detectors] names")


def _has_tiers(corpus: Corpus) -> bool:
    """Whether some answer's sentence gold marks a NO-INFO sentence (the audit corpus does)."""
    return any(getattr(g, "tier", "verifiable") == "no_info"
               for r in corpus.responses for g in (r.sentence_meta or ()))


def skipped_levels(unit: Unit, corpora: dict[str, SplitCorpus]) -> dict[str, str]:
    """Levels without metrics in a unit, each with its reason."""
    test, cal = corpora[unit.test].corpus, corpora[unit.calibration].corpus
    if not test.span_labels:
        reason = f"{unit.test} has response-level labels only"
    elif not cal.span_labels:
        reason = (f"thresholds come from {unit.calibration}, which has response-level labels only: "
                  "no word or sentence threshold")
    else:
        return {}
    return {"sentence": reason, "word": reason, "span": reason}
