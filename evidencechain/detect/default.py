"""The default model: built on first use from the seeded audit corpus, cached by content hash.

Recipe (`RECIPE`): the audit corpus of seed 17 (generated in memory, nothing downloaded), plus
`planted` passages of the 'planted' corpus (`data.planted`: real passages shipped with the
package, with planted meaning errors of the semantic classes as conflict spans; 0 by default:
fitted on them the detectors lost answer F1 on real RAGTruth QA answers), split by source into train /
calibration / test (`split_corpus`, 20% of the train sources for calibration, seed 17); every
detector fitted on the train split with the lexical, retrieval, mismatch and semantic feature
groups (`features.semantic`) and the metadata feature group off (generator name, temperature and source collection describe a corpus, not an answer's
support, and do not transfer); thresholds on the calibration split, each answer threshold by the
mean of answer F1 and span F1 (`answer_span_cut`: the answer cut also decides spans, since a flagged
answer without a word over the word threshold names its unsupported words). The detector a `detect`
reports is chosen on the calibration split too (`choose_detector`). `conflict_rule`: whether `detect`
flags the words of confident semantic signals by rule (`features.semantic.confidence`; level
'rule') whatever the fitted detector says; on: the fitted detectors never saw these error classes
and let nearly all of them pass. Turned on by a decision rule fixed before its one look (README,
"Why on by default"); `detect --conflict-rule off` or `Detector.default(conflicts=False)` turns it
off. The audit test split is
scored once for the model card (`card.json`): a synthetic test bed, not a benchmark.

Why built and not shipped: the model is a skops file of scikit-learn estimators (about 2 MB),
which is not portable across scikit-learn versions; the recipe is deterministic and takes about
a minute on 2 cores (card.json: build_seconds), so every install builds its own copy.

Cache: `cache_dir()/models/default-<key>/`, where `cache_dir()` is `$EVIDENCECHAIN_CACHE_DIR`,
else `$XDG_CACHE_HOME/evidencechain`, else `~/.cache/evidencechain`, and `<key>` is a hash of
the package version, the recipe, the package's code (`source_digest`), the spaCy pipeline and the numpy /
scikit-learn versions: a change to any of them builds a new model beside the old one. The parse cache of `detect`
lives in the same directory (`parse.sqlite`), never in the current directory.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from ..errors import ModelError, OutputError
from ..gc_threshold import fewer_collections
from ..io import cache_dir

RECIPE = {
    "corpus": "audit", "seed": 17, "scale": 1, "quality": ["good"],
    "calibration_fraction": 0.2, "split_seed": 17,
    "detectors": ["Lexical", "BM25", "TFIDF", "NLI_Rules", "RefChecker", "EvidenceChain_LR", "RAGHalu",
                  "EvidenceChain_RF", "EvidenceChain_Token"],
    "groups": ["lexical", "retrieval", "mismatch", "semantic"],
    "planted": 0,
    "random_forest": {"n_estimators": 300, "max_depth": 8, "min_samples_leaf": 2},
    "response_aggregation": "max", "threshold_metric": "f1", "random_state": 17,
    "selection": "selection-v1",
    "answer_threshold": "answer+span",
    "conflict_rule": True,
}
SIMPLICITY = ("Lexical", "BM25", "TFIDF", "NLI_Rules", "RefChecker", "EvidenceChain_LR", "RAGHalu",
              "EvidenceChain_RF", "EvidenceChain_Token")
"""Detectors from the simplest (no fitted parameter) to the most complex; ties go to the first."""
TIE = 0.01
SELECTION_RULE = (f"highest mean of response F1 and span F1 on the calibration split (the output gives "
                  f"both a verdict and spans); detectors within {TIE} of the best count as tied and "
                  f"the simplest wins (order: {', '.join(SIMPLICITY)})")
CARD = "card.json"


def model_key(pipeline_name: str) -> str:
    import numpy
    import sklearn

    from ..model import FEATURE_SCHEMA
    from ..version import __version__

    blob = json.dumps({"evidencechain": __version__, "feature_schema": FEATURE_SCHEMA, "recipe": RECIPE,
                       "code": source_digest(), "spacy_pipeline": pipeline_name, "numpy": numpy.__version__,
                       "scikit-learn": sklearn.__version__}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


@functools.cache
def source_digest() -> str:
    """sha256 of the package's code and data files (report/ aside): an edited detector or
    feature builds a new default model instead of reusing one fitted by the old code."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for file in sorted(package.rglob("*")):
        rel = file.relative_to(package)
        if file.is_file() and rel.parts[0] != "report" and "__pycache__" not in rel.parts \
                and file.suffix in (".py", ".toml", ".md", ".json", ".csv", ".txt", ".html"):
            digest.update(rel.as_posix().encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()


def default_model_dir(pipeline: str = "auto", root: str | Path | None = None) -> Path:
    from ..text.parse import pipeline_name

    return Path(root or cache_dir()) / "models" / f"default-{model_key(pipeline_name(pipeline))}"


def ensure_default_model(pipeline: str = "auto", root: str | Path | None = None, quiet: bool = False) -> Path:
    """The directory of the default model, built first if absent (one line on stderr while it is).

    Concurrent first uses build it once (a lock file); a damaged cached copy is rebuilt.
    """
    target = default_model_dir(pipeline, root)
    if _complete(target):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with _lock(target.parent / f".{target.name}.lock"):
        if _complete(target):
            return target
        if not quiet:
            print(f"evidencechain: building the default model (first use only, about a minute): fitting the "
                  f"detectors on the seeded audit corpus into {target}", file=sys.stderr, flush=True)
        t0 = time.perf_counter()
        stage = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.partial-"))
        try:
            build_default_model(stage, pipeline)
            if target.exists():
                shutil.rmtree(target)
            os.replace(stage, target)
        finally:
            shutil.rmtree(stage, ignore_errors=True)
        if not quiet:
            print(f"evidencechain: default model built in {time.perf_counter() - t0:.1f} s "
                  f"(cached; later runs load it)", file=sys.stderr, flush=True)
    return target


def _complete(path: Path) -> bool:
    return (path / "model.json").is_file() and (path / CARD).is_file()


@contextlib.contextmanager
def _lock(path: Path):
    try:
        handle = open(path, "a+")
    except OSError as exc:
        raise OutputError(f"cannot write to the cache directory {path.parent}: {exc.strerror} "
                          f"(set EVIDENCECHAIN_CACHE_DIR to a writable directory)") from exc
    with handle:
        try:
            import fcntl
            fcntl.flock(handle, fcntl.LOCK_EX)
        except (ImportError, OSError):
            pass
        yield


def build_default_model(out: str | Path, pipeline: str = "auto") -> Path:
    """Fit the default model into `out` (model.skops, model.json with checksums, card.json)."""
    with fewer_collections():
        return _build(Path(out), pipeline)


def _build(out: Path, pipeline: str) -> Path:
    from ..data.audit import generate_audit_corpus
    from ..data.planted.corpus import generate_planted_corpus, merged
    from ..data.splits import split_corpus
    from ..features import FeatureConfig
    from ..model import EvidenceChain
    from ..text.parallel import at_most, fork_later, one_openmp_thread, workers
    from ..text.parse import ParseCache, pipeline_name

    t0 = time.perf_counter()
    r = RECIPE
    corpus = generate_audit_corpus(r["seed"], r["scale"])
    if r["planted"]:  # how many of the planted corpus's passages join the audit corpus
        corpus = merged(corpus, generate_planted_corpus(r["seed"], limit=r["planted"]), "audit+planted")
    parts = split_corpus(corpus, r["calibration_fraction"], r["split_seed"])
    groups = tuple(r["groups"])
    params = {"EvidenceChain_LR": {"groups": groups}, "EvidenceChain_Token": {"groups": groups},
              "EvidenceChain_RF": {"groups": groups, **r["random_forest"]}}
    features = FeatureConfig(pipeline=pipeline, semantic="semantic" in groups)
    model = EvidenceChain(tuple(r["detectors"]), "EvidenceChain_RF", features,
                          r["random_state"], r["response_aggregation"], params, ParseCache(None),
                          threshold_metric=r["threshold_metric"])
    with one_openmp_thread():
        extractor = model.fit_extractor(parts["train"], progress=False)
        # the features of the other splits need only the extractor: made by one forked worker
        # meanwhile, while this process makes the training features with the other cores
        later = fork_later(functools.partial(_split_tables, extractor, parts["calibration"], parts["test"]))
        split = functools.cache(later.get)  # (calibration tables, test tables)
        try:
            with at_most(workers() - 1 if later.forked else workers()):
                tables = model.fit_corpora(parts["train"], parts["calibration"], progress=False,
                                           extractor=extractor, calibration_tables=lambda: split()[0])
            calibration_scored = model.score_tables(tables, parts["calibration"])
            for name in model.detector_names:
                model.thresholds[name]["response"] = answer_span_cut(model, name, parts["calibration"],
                                                                     calibration_scored)
            # the test split's metrics do not depend on the chosen detector: made meanwhile
            test_metrics = fork_later(functools.partial(_level_metrics, model, parts["test"], split()[1]))
            try:
                calibration = _level_metrics(model, parts["calibration"], scored=calibration_scored)
                chosen = choose_detector(calibration)
                model.primary = chosen
                test = test_metrics.get()
            finally:
                test_metrics.close()
        finally:
            later.close()
    card = {
        "name": "default", "key": model_key(pipeline_name(pipeline)), "recipe": RECIPE,
        "spacy_pipeline": pipeline_name(pipeline), "detector": chosen, "selection_rule": SELECTION_RULE,
        "calibration_metrics": calibration, "audit_test_metrics": test,
        "answers": {k: len(v.responses) for k, v in parts.items()},
        "learned_checker": "not used: the default model is fitted without the learned checker's features "
                           "(evidencechain.checker, trained by `make checker`); a run configured with "
                           "[features] checker saves a model that uses them (detect --model RUN/model)",
        "note": "metrics on the synthetic audit corpus (a test bed, not a benchmark); see the README "
                "for measured results on real data",
        "build_seconds": round(time.perf_counter() - t0, 1),
    }
    out.mkdir(parents=True, exist_ok=True)
    (out / CARD).write_text(json.dumps(card, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    model.save(out)  # checksums in model.json cover card.json too
    return out


def _split_tables(extractor, calibration, test) -> tuple:
    """The feature tables of the calibration and test splits (word rows where words are labelled)."""
    return tuple(extractor.transform(part, False, with_tokens=part.span_labels) for part in (calibration, test))


def _level_metrics(model, corpus, tables=None, scored=None) -> dict[str, dict[str, float]]:
    """Response F1 and span F1 (as `detect` reports spans) of every detector on a labelled split
    (`tables`: its feature tables when already computed; `scored`: its scored tables)."""
    from ..metrics import binary_metrics, span_f1
    from ..results import results_from_scored

    if scored is None:
        scored = model.score(corpus, progress=False) if tables is None else model.score_tables(tables, corpus)
    out = {}
    for name in model.detector_names:
        resp = binary_metrics(scored.responses["label"], scored.responses[f"risk_{name}"],
                              model.thresholds[name]["response"])
        results = results_from_scored(model, name, corpus, scored)
        out[name] = {"response_f1": round(resp["f1"], 4),
                     "span_f1": round(span_f1(corpus, results), 4)}
    return out


def answer_span_cut(model, name: str, corpus, scored) -> float:
    """The answer threshold of detector `name` that maximises the mean of answer F1 and span F1
    (spans as `detect` gives them) on a labelled split; ties go to the highest cut (`joint_cut`)."""

    cuts = model.thresholds[name]
    on, off = flagged_span_counts(model, name, corpus, scored, cuts)
    rows = scored.responses.set_index("response_id").loc[[r.id for r in corpus.responses]]
    risk, label = rows[f"risk_{name}"].to_numpy(float), rows["label"].to_numpy(int).astype(bool)
    return joint_cut(risk, label, on, off, float(cuts["response"]))[1]


def flagged_span_counts(model, name: str, corpus, scored, levels: dict, rule: dict | None = None):
    """Per answer of `corpus`, the (overlapping, predicted, gold) characters of `detect`'s spans when
    the answer is flagged and when it is not, under word `levels` (and span `rule`, if given).

    An answer's spans depend on the answer cut only through whether the answer is flagged (a flagged
    answer without word spans names its unsupported words instead), so two passes give every cut.
    The words named are those `levels` and the rule give (`pred_<name>` made again from the word
    risks), whatever thresholds `scored` was scored with."""
    import dataclasses

    import numpy as np

    from ..metrics import span_counts
    from ..results import results_from_scored
    from ..wordlevel import refine_word_mask

    saved, saved_rule = model.thresholds[name], model.span_rules.get(name)
    if "word" in levels and len(scored.tokens):
        tokens = scored.tokens
        words = refine_word_mask(tokens, tokens[f"risk_{name}"].to_numpy() >= levels["word"],
                                 **(rule or saved_rule or {"gap": 0, "drop_function_only": False}))
        scored = dataclasses.replace(scored, tokens=tokens.assign(**{f"pred_{name}": words.astype(np.int8)}))
    counts = []
    try:
        if rule is not None:
            model.span_rules[name] = rule
        for cut in (-np.inf, np.inf):  # every answer flagged, then none
            model.thresholds[name] = {**saved, **levels, "response": cut}
            counts.append(np.array([span_counts(r.response, [(lab.start, lab.end) for lab in r.labels],
                                                [(s.start, s.end) for s in res.spans])
                                    for r, res in zip(corpus.responses,
                                                      results_from_scored(model, name, corpus, scored))],
                                   float).reshape(-1, 3))
    finally:
        model.thresholds[name] = saved
        if saved_rule is None:
            model.span_rules.pop(name, None)
        else:
            model.span_rules[name] = saved_rule
    return counts[0], counts[1]


def joint_cut(risk, label, on, off, default: float, forced=None) -> tuple[float, float]:
    """(score, cut): the answer cut maximising the mean of answer F1 and span F1, ties to the highest.
    `on` / `off` are per-answer span counts when flagged / not (`flagged_span_counts`); `forced`
    marks answers flagged whatever the cut (through their words), when the verdict counts them."""
    import numpy as np

    forced = np.zeros(len(risk), bool) if forced is None else forced
    best, best_cut = -1.0, float(default)
    for cut in sorted(set(risk.tolist()), reverse=True):
        flagged = risk >= cut
        verdict = flagged | forced
        tp, fp = int((verdict & label).sum()), int((verdict & ~label).sum())
        answer_f1 = 2 * tp / (2 * tp + fp + int((~verdict & label).sum())) if label.any() else 0.0
        overlap, predicted, gold = np.where(flagged[:, None], on, off).sum(axis=0)
        p, r = (overlap / predicted if predicted else 0.0), (overlap / gold if gold else 0.0)
        score = (answer_f1 + (2 * p * r / (p + r) if p + r else 0.0)) / 2
        if score > best + 1e-12:
            best, best_cut = score, cut
    return best, float(best_cut)


def choose_detector(metrics: dict[str, dict[str, float]]) -> str:
    """The detector `detect` reports, by `SELECTION_RULE` on calibration metrics."""
    score = {n: (m["response_f1"] + m["span_f1"]) / 2 for n, m in metrics.items()}
    best = max(score.values())
    return next(n for n in SIMPLICITY if n in score and score[n] >= best - TIE - 1e-12)


def read_card(model_dir: str | Path) -> dict:
    """card.json of a default model or of one `calibrate` wrote ({} for other models)."""
    file = Path(model_dir) / CARD
    if not file.is_file():
        return {}
    try:
        card = json.loads(file.read_text("utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise ModelError(f"{file} is damaged ({exc}); delete {Path(model_dir)} to rebuild it") from exc
    return card if isinstance(card, dict) else {}
