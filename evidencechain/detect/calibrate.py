"""`evidencechain calibrate`: refit a model's thresholds on a user's own labelled answers.

    evidencechain calibrate labelled.jsonl --out my-model     # then: detect --model my-model

Input: the plain `detect` records plus `hallucinated` (true/false) and optional `spans`
(character offsets into the answer), or RAGTruth-format files. The base model (the default
model, or `--model`) keeps its features and fitted detectors. On the labelled answers only:
1. `EvidenceChain.calibrate` makes every detector's own calibration choices again;
2. per detector, two candidate word levels (sentence and word thresholds, span rule): the base
   model's, and, when some answers have spans, ones chosen on the answers whose words are
   labelled (spans given, or not hallucinated) by the project's rules (max F1, `choose_span_rule`);
3. per candidate, the answer threshold with the best objective: the F1 of `detect`'s verdict (an
   answer is flagged when its risk reaches the answer threshold or a word reaches the word
   threshold) or, when some answers have word labels, the mean of that F1 and the span F1 of
   `detect`'s spans -- the default model's own objective (`default.joint_cut`; `--objective answer`
   keeps verdict F1 alone); the candidate with
   the better objective is kept (word F1 breaks ties; then the base's);
4. the detector `detect` reports: the best objective over inner folds of the labelled answers
   (steps 2-3 on the other inner folds), within `default.TIE` the simplest;
5. the guard (`guard`): the base model as it is (with `--detector`, reporting that detector)
   competes with steps 1-4 by the same objective on inner folds of the labelled answers, steps
   1-4 run whole (detector choice included) on the other inner folds only, and is kept unchanged
   unless the calibration's mean is more than `default.TIE` above the base's (`--always-calibrate`:
   no guard);
6. with enough labels of both classes, a stacker over the model kept (`stack`).

The estimate: stratified k-fold by source (answers sharing a context stay in one fold; seed
17), steps 1-5 (and 6) on the other folds only, then `detect`'s verdicts and spans on the
held-out fold, before (the base model as it is), after (thresholds only, the guard's choice) and
stacked; mean and sd over folds; each fold records what the guard kept. The command itself is
`calibrate_command`.
"""
from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import InputError
from .guard import Guard, decide, f1, score_rows
from .stack import stack

MIN_PER_CLASS = 10
"""Fewest hallucinated and fewest supported answers calibrate accepts (and at least one per fold)."""
DEFAULT_FOLDS = 5
OBJECTIVES = ("joint", "answer")
"""What thresholds and the reported detector are chosen for, when spans are labelled: the default
model's mean of answer F1 and span F1, or answer (verdict) F1 alone."""
REPORT = "calibration.json"


@dataclass
class Labelled:
    """A labelled corpus, its feature tables under the base model, and what is known of it."""

    corpus: object
    tables: object
    word_known: set[str]
    """Answers whose word labels are known: spans given, or not hallucinated."""

    @property
    def ids(self) -> list[str]:
        return [r.id for r in self.corpus.responses]

    @property
    def labels(self) -> np.ndarray:
        return np.array([int(r.hallucinated) for r in self.corpus.responses])

    def has_spans(self, ids) -> bool:
        keep = set(ids) & self.word_known
        return any(r.labels for r in self.corpus.responses if r.id in keep)

    def subset(self, ids) -> Labelled:
        keep = set(ids)
        return Labelled(self.corpus.subset(response_ids=keep), subset_tables(self.tables, keep),
                        self.word_known & keep)


@dataclass
class Estimate:
    """Per-fold metrics of the reported detector, before and after calibration."""

    folds: int
    seed: int
    detector: str
    per_fold: list[dict] = field(default_factory=list)

    def summary(self, key: str) -> tuple[float, float, int]:
        """(mean, sd, folds counted) of one metric; folds where it is undefined are skipped."""
        values = np.array([f[key] for f in self.per_fold if f[key] is not None], dtype=float)
        if not len(values):
            return float("nan"), float("nan"), 0
        return float(values.mean()), float(values.std(ddof=1)) if len(values) > 1 else 0.0, len(values)


# -- input ------------------------------------------------------------------------------------

def read_labelled(path: str | Path | None = None, response_jsonl: str | Path | None = None,
                  source_info_jsonl: str | Path | None = None):
    """The labelled answers: a plain JSONL/CSV file, or RAGTruth-format files (their spans)."""
    if path is not None:
        from ..data.plain import load_plain

        path = Path(path).expanduser()
        if not path.is_file():
            raise InputError(f"{path}: no such file" if not path.exists() else
                             f"{path}: not a file; give a JSONL or CSV file of labelled answers")
        corpus = load_plain(path, split="calibration", require_label=True)
    else:
        from ..data.ragtruth import load_ragtruth

        corpus = load_ragtruth(response_jsonl, source_info_jsonl, quality=None)
    corpus.span_labels = True  # token tables for every answer; unknown word labels are masked
    return corpus


def check_counts(corpus, folds: int, shown: str) -> None:
    """Refuse (one line) too few labels of either class for `folds`-fold calibration."""
    need = max(MIN_PER_CLASS, folds)
    positive = sum(r.hallucinated for r in corpus.responses)
    negative = len(corpus.responses) - positive
    if positive < need or negative < need:
        raise InputError(f"{shown}: too few labelled answers to calibrate: at least {need} hallucinated and "
                         f"{need} supported answers are needed ({folds} folds), this file has {positive} "
                         f"hallucinated and {negative} supported; label more answers")
    sources = len({r.source_id for r in corpus.responses})
    if sources < folds:
        raise InputError(f"{shown}: the answers share only {sources} distinct contexts; answers with the same "
                         f"context stay in one fold, so --folds can be at most {sources}")


def featurize(model, corpus, progress: bool = False) -> Labelled:
    """Feature tables of the labelled answers under the base model (extracted once)."""
    known = {r.id for r in corpus.responses if r.labels or not r.hallucinated}
    return Labelled(corpus, model.transform(corpus, progress), known)


def subset_tables(tables, ids: set[str]):
    """The rows of `tables` that belong to the answers `ids` (indices and parses kept whole)."""
    def rows(frame):
        return frame if frame is None or not len(frame) else \
            frame[frame["response_id"].isin(ids)].reset_index(drop=True)

    return dataclasses.replace(tables, sentences=rows(tables.sentences), tokens=rows(tables.tokens),
                               responses=rows(tables.responses))


# -- refitting --------------------------------------------------------------------------------

def refit(model, data: Labelled, inner_folds: int = 5, seed: int = 17, detector: str | None = None,
          objective: str = "joint", keep_base: bool = True) -> tuple[object, Guard]:
    """Calibrate `model` on `data` (in place; see the module docstring) and return it with the
    guard's decision, or, when the guard keeps the base model, a deep copy of `model` as it was
    (with `detector`, reporting it). With `detector`, that detector is the one reported (no choice
    among them). `objective` "answer" chooses by verdict F1 alone even when spans are labelled
    (`OBJECTIVES`). `keep_base` False turns the guard off."""
    base = copy.deepcopy(model)
    base.primary = detector or base.primary
    scores = _calibrated(model, data, inner_folds, seed, detector, objective)

    def procedure(part: Labelled):
        fitted = copy.deepcopy(base)
        _calibrated(fitted, part, inner_folds, seed, detector, objective)
        return fitted

    split = folds_of(data, _fold_count(data.labels > 0, [r.source_id for r in data.corpus.responses], inner_folds),
                     seed)
    joint = objective == "joint" and data.has_spans(data.word_known)
    guard = decide(base, model, procedure, data, split, joint, scores, keep_base)
    return (base if guard.kept == "base" else model), guard


def _calibrated(model, data: Labelled, inner_folds: int, seed: int, detector: str | None,
                objective: str) -> dict[str, float]:
    """Steps 1-4 on `data`, in place: calibration choices, word levels and answer threshold per
    detector, the reported detector; returns every detector's mean objective over the inner folds."""
    from .default import flagged_span_counts

    base = {name: (dict(model.thresholds[name]), model.span_rules.get(name)) for name in model.detector_names}
    model.calibrate(data.tables, span_labels=False)
    with_spans = data.has_spans(data.word_known)
    fitted = _span_fitted(model, data) if with_spans else {}
    scored = model.score_tables(data.tables)
    position = {r.id: i for i, r in enumerate(data.corpus.responses)}
    order = [position[rid] for rid in scored.responses["response_id"]]
    joint = with_spans and objective == "joint"

    def counts_of(name):
        def counts(levels, rule):
            on, off = flagged_span_counts(model, name, data.corpus, scored, levels, rule)
            return on[order], off[order]
        return counts if joint else None

    choices = {}
    for name in model.detector_names:
        choices[name] = _Choices(scored, name, *base[name], fitted.get(name), data.word_known, counts_of(name))
    for name, choice in choices.items():
        levels, rule, cut = choice.best(np.arange(len(choice.y)))
        model.thresholds[name] = {**levels, "response": cut}
        if rule is not None:
            model.span_rules[name] = rule
    split = inner_split(choices, inner_folds, seed)
    scores = {name: float(np.mean([c.objective(b, a) for a, b in split])) for name, c in choices.items()}
    model.primary = detector or choose_reported(scores)
    return {detector: scores[detector]} if detector else scores


def _span_fitted(model, data: Labelled) -> dict[str, tuple[dict, dict]]:
    """Per detector, sentence and word thresholds and span rule chosen on the answers with word labels."""
    from ..detectors import choose_threshold
    from ..wordlevel import choose_span_rule

    scored = model.score_tables(subset_tables(data.tables, data.word_known))
    words = scored.tokens[scored.tokens["is_punct"] == 0]
    out = {}
    for name in model.detector_names:
        word = choose_threshold(words["label"], words[f"risk_{name}"], model.threshold_metric)
        out[name] = ({"sentence": choose_threshold(scored.sentences["label"], scored.sentences[f"risk_{name}"],
                                                   model.threshold_metric), "word": word},
                     choose_span_rule(scored.tokens, scored.tokens[f"risk_{name}"].to_numpy(), word))
    return out


class _Choices:
    """One detector's candidate word levels (the base model's; fitted on spans, when there are
    any) and, for each, which answers it flags through their words (`detect` flags an answer when
    its risk reaches the answer threshold or a word reaches the word threshold) and, when some
    answers have word labels, their span counts flagged and not (`default.flagged_span_counts`)."""

    def __init__(self, scored, name: str, base: dict, base_rule: dict | None, fitted, known: set[str],
                 span_counts=None):
        from ..wordlevel import refine_word_mask

        responses, tokens = scored.responses, scored.tokens
        self.y = responses["label"].to_numpy() > 0
        self.risk = np.minimum(responses[f"risk_{name}"].to_numpy(dtype=float), 1.0)
        self.groups = responses["source_id"].to_numpy()
        ids = responses["response_id"]
        self.known = ids.isin(known).to_numpy()
        words = tokens["is_punct"].to_numpy() == 0 if len(tokens) else np.zeros(0, bool)
        self.candidates, self.spans = [], [] if span_counts else None
        for levels, rule in [({k: base[k] for k in ("sentence", "word") if k in base}, base_rule), *([fitted] if fitted else [])]:
            if self.spans is not None:
                on, off = span_counts(levels, rule)
                self.spans.append((on * self.known[:, None], off * self.known[:, None]))
            if "word" not in levels or not len(tokens):
                self.candidates.append((levels, rule, np.zeros(len(ids), bool), 0.0))
                continue
            mask = refine_word_mask(tokens, tokens[f"risk_{name}"].to_numpy() >= levels["word"],
                                    **(rule or {"gap": 0, "drop_function_only": False}))
            flags = ids.isin(set(tokens.loc[mask, "response_id"])).to_numpy()
            known_words = tokens["response_id"].isin(known).to_numpy() & words
            word_f1 = f1(mask[known_words], tokens["label"].to_numpy()[known_words] > 0)
            self.candidates.append((levels, rule, flags, word_f1))

    def best(self, rows: np.ndarray) -> tuple[dict, dict | None, float]:
        """(word levels, span rule, answer threshold) chosen on `rows`: per candidate the answer
        threshold with the best objective -- verdict F1, or with word labels the mean of verdict F1
        and span F1 as the default model chooses (`default.joint_cut`); then the candidate with
        the better objective, word F1 breaking ties (the base model's unless the fitted one is
        strictly better)."""
        from ..detectors import choose_threshold
        from .default import joint_cut

        best = None
        for k, (levels, rule, flags, word_f1) in enumerate(self.candidates):
            y, risk, flag = self.y[rows], self.risk[rows], flags[rows]
            if self.spans is None:
                cut = min(choose_threshold(y, np.where(flag, 1.0, risk)), 1.0)
                objective = f1(flag | (risk >= cut), y)
            else:
                on, off = self.spans[k]
                objective, cut = joint_cut(risk, y, on[rows], off[rows], 1.0, forced=flag)
            score = (round(objective, 9), round(word_f1, 9))
            if best is None or score > best[0]:
                best = (score, levels, rule, float(cut))
        return best[1], best[2], best[3]

    def objective(self, rows: np.ndarray, fit_rows: np.ndarray) -> float:
        """The objective on `rows` of the choice made on `fit_rows`."""
        levels, rule, cut = self.best(fit_rows)
        k = next(i for i, c in enumerate(self.candidates) if c[0] is levels)
        flagged = self.risk[rows] >= cut
        verdict = self.candidates[k][2][rows] | flagged
        if self.spans is None:
            return score_rows(verdict, self.y[rows], None)
        on, off = self.spans[k]
        return score_rows(verdict, self.y[rows], np.where(flagged[:, None], on[rows], off[rows]))


def inner_split(choices: dict[str, _Choices], folds: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The inner folds (rows fitted on, rows scored) of the labelled answers: stratified, by context."""
    from sklearn.model_selection import StratifiedGroupKFold

    first = next(iter(choices.values()))
    y, groups = first.y, first.groups
    folds = _fold_count(y, groups, folds)
    return list(StratifiedGroupKFold(n_splits=folds, shuffle=True, random_state=seed).split(y, y, groups))


def _fold_count(y: np.ndarray, groups, folds: int) -> int:
    """At most `folds`, and no more than answers of either class or distinct contexts."""
    return min(folds, int(y.sum()), int((~y).sum()), len(set(groups)))


def choose_reported(scores: dict[str, float]) -> str:
    """The detector `detect` reports after calibration: the best mean objective over the inner
    folds (`_Choices.objective`: each fold's thresholds chosen on the others), detectors within
    `default.TIE` of the best counting as tied and the simplest winning (the default model's order)."""
    from .default import SIMPLICITY, TIE

    best = max(scores.values())
    order = [n for n in SIMPLICITY if n in scores] + sorted(n for n in scores if n not in SIMPLICITY)
    return next(n for n in order if scores[n] >= best - TIE - 1e-12)


def evaluate(model, detector: str, data: Labelled) -> dict:
    """`detect`'s verdict F1 on every answer of `data`, span F1 on those with known words."""
    from ..metrics import binary_metrics, span_f1
    from ..results import results_from_scored

    scored = model.score_tables(data.tables)
    results = results_from_scored(model, detector, data.corpus, scored)
    y = data.labels
    verdicts = np.array([r.hallucinated for r in results])
    out = {"response_f1": binary_metrics(y, verdicts.astype(float), 0.5)["f1"] if y.any() else None}
    known = [(resp, res) for resp, res in zip(data.corpus.responses, results) if resp.id in data.word_known]
    has_gold = any(resp.labels for resp, _ in known)
    out["span_f1"] = span_f1(_Responses([r for r, _ in known]), [x for _, x in known]) if has_gold else None
    return out


@dataclass
class _Responses:
    responses: list


def folds_of(data: Labelled, folds: int, seed: int) -> list[tuple[list[str], list[str]]]:
    """(training ids, held-out ids) per fold: stratified by label, grouped by source."""
    from sklearn.model_selection import StratifiedGroupKFold

    ids = np.array(data.ids)
    groups = [r.source_id for r in data.corpus.responses]
    split = StratifiedGroupKFold(n_splits=folds, shuffle=True, random_state=seed)
    return [(ids[a].tolist(), ids[b].tolist()) for a, b in split.split(ids, data.labels, groups)]


def cross_validate(base, detector: str, data: Labelled, folds: int = DEFAULT_FOLDS, seed: int = 17,
                   fixed: str | None = None, stacked: bool = False, objective: str = "joint",
                   keep_base: bool = True) -> Estimate:
    """Each fold: `refit` on the other folds (reporting `fixed` if given; with the guard unless
    `keep_base` is False), both models scored on the held-out fold (the base model with its
    `detector`), and what the guard kept recorded; with `stacked`, a stacker fitted on the same
    other folds over the refitted model (`stack.stack`) is scored there too."""
    estimate = Estimate(folds, seed, detector)
    for k, (train, test) in enumerate(folds_of(data, folds, seed)):
        part = data.subset(train)
        model, guard = refit(copy.deepcopy(base), part, folds, seed, fixed, objective, keep_base)
        held = data.subset(test)
        before, after = evaluate(base, detector, held), evaluate(model, model.primary, held)
        row = {"fold": k, "answers": len(test), "hallucinated": int(held.labels.sum()),
               "response_f1_before": before["response_f1"], "response_f1_after": after["response_f1"],
               "span_f1_before": before["span_f1"], "span_f1_after": after["span_f1"],
               "detector": model.primary, "thresholds": model.thresholds[model.primary], "guard": guard.describe()}
        if stacked:
            fitted = stack(copy.deepcopy(model), part, folds, seed)
            result = evaluate(fitted, fitted.primary, held)
            row |= {"response_f1_stacked": result["response_f1"], "span_f1_stacked": result["span_f1"],
                    "stacker_threshold": round(fitted.stacker.threshold, 6)}
        estimate.per_fold.append(row)
    return estimate


def labelled_example(seed: int = 18, sources: int = 10) -> list[dict]:
    """data/examples/my_labelled.jsonl: the QA answers of the first `sources` QA sources of the
    audit corpus of `seed` (invented facts; not the default model's seed 17), as labelled
    records; every third hallucinated answer is given without its spans, as a user may."""
    from ..data.audit import generate_audit_corpus

    corpus = generate_audit_corpus(seed)
    chosen = [s for s in corpus.sources.values() if s.task_type == "QA"][:sources]
    records, hallucinated = [], 0
    for source in chosen:
        for r in (r for r in corpus.responses if r.source_id == source.source_id):
            record = {"id": r.id, "question": source.source_info["question"],
                      "context": source.source_info["passages"], "answer": r.response,
                      "hallucinated": r.hallucinated}
            if r.hallucinated:
                hallucinated += 1
            if r.labels and hallucinated % 3:
                record["spans"] = [{"start": lab.start, "end": lab.end, "text": lab.text} for lab in r.labels]
            records.append(record)
    return records
