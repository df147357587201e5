"""The HaluEval experiment: every detector and the Provenance grid, response level, per subset.

For each subset (QA, dialogue, summarization):

1. load it (`data.halueval`), split by source with the seed: test = `test_fraction` of
   the records (grouped by evidence text), calibration = `calibration_fraction` of the
   rest, train = the remainder (defaults 0.3 and 0.2: 56% / 14% / 30%);
2. compute the sentence feature tables with the config's pipeline (fitted on train);
3. score calibration and test responses with
   - the unsupervised baselines (Lexical, BM25, TFIDF, NLI_Rules),
   - EvidenceChain_LR / _RF trained on the HaluEval train split,
   - the same two trained on the audit corpus only (transfer; same feature pipeline, the
     audit TF-IDF vocabulary),
   - the Provenance grid (relevance scorer x selection x aggregation x fact checker),
   - a length-only diagnostic (number of words), to show how much a dataset artefact gives;
4. per method, choose the sentence-to-response aggregation (max / mean / noisy-or, when
   `detectors.response_aggregation = "auto"`) and the max-F1 threshold on calibration
   only, then score the test split once: ROC-AUC, PR-AUC, accuracy, F1.

Outputs: CSVs under `results/halueval/` (byte-identical for one seed), the comparison
tables under `paper/tables/`, the ROC figure under `figures/`, and `run.json` (config,
seed, versions, input hashes, present/absent components, timings).
"""
from __future__ import annotations

import json
import logging
import platform
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.metrics import roc_curve
from tqdm.auto import tqdm

from . import __version__
from .aggregate import AGGREGATIONS as RESPONSE_AGGREGATIONS
from .aggregate import response_risk
from .config import ExperimentConfig
from .data.halueval import SPECS, SPLIT_RULE, halueval_file, load_halueval_corpus
from .data.splits import split_corpus
from .detectors import DETECTORS, make_detector, max_f1_threshold
from .detectors import provenance as prov
from .detectors.provenance import ProvenanceSettings
from .experiment import Stopwatch, _versions
from .features import FeatureExtractor, FeatureTables
from .features.neural import NeuralUnavailable
from .features.retrieval import tfidf_columns
from .io import atomic_write_text, sha256_file, write_csv
from .metrics import METRIC_COLUMNS, binary_metrics
from .text.nlp import load_pipeline
from .text.parse import ParseCache

log = logging.getLogger(__name__)

SUBSET_TITLES = {"qa": "QA", "dialogue": "Dialogue", "summarization": "Summarization"}
PUBLISHED = [  # (subset, system, metric, value, reference)
    ("qa", "Provenance", "roc_auc", 0.74, "Sankararaman et al. 2024, Table 3"),
    ("dialogue", "Provenance", "roc_auc", 0.69, "Sankararaman et al. 2024, Table 3"),
    ("summarization", "Provenance", "roc_auc", 0.66, "Sankararaman et al. 2024, Table 3"),
    ("qa", "Provenance", "accuracy", 0.6748, "Sankararaman et al. 2024, Table 6"),
    ("dialogue", "Provenance", "accuracy", 0.6297, "Sankararaman et al. 2024, Table 6"),
    ("summarization", "Provenance", "accuracy", 0.6227, "Sankararaman et al. 2024, Table 6"),
    ("qa", "HALT-RAG", "f1", 0.9786, "arXiv 2509.07475"),
    ("dialogue", "HALT-RAG", "f1", 0.7391, "arXiv 2509.07475"),
    ("summarization", "HALT-RAG", "f1", 0.7756, "arXiv 2509.07475"),
]
UNSUPERVISED = ("Lexical", "BM25", "TFIDF", "NLI_Rules")
SUPERVISED = ("EvidenceChain_LR", "EvidenceChain_RF")
DEFAULT_GROUPS = ("lexical", "retrieval", "mismatch", "response")
TRANSFER_SUFFIX = " (audit transfer)"
BEST_PROVENANCE = "Provenance (ours, best on calibration)"
LENGTH = "Length only (diagnostic)"
FAMILY_ORDER = ("unsupervised", "supervised", "transfer", "provenance", "diagnostic")
METRICS_COLUMNS = ["subset", "method", "family", "aggregation", *METRIC_COLUMNS]


@dataclass
class Component:
    component: str
    kind: str
    subset: str
    status: str
    detail: str


# ---------------------------------------------------------------------------------------
# scoring helpers


def _labels(tables: FeatureTables) -> pd.Series:
    return tables.sentences.groupby("response_id", sort=False)["response_label"].first()


def _aggregations(config: ExperimentConfig) -> tuple[str, ...]:
    how = config.detectors.response_aggregation
    if how == "auto":
        return RESPONSE_AGGREGATIONS
    if how not in RESPONSE_AGGREGATIONS:
        raise ValueError(f"detectors.response_aggregation must be 'auto' or one of {RESPONSE_AGGREGATIONS}")
    return (how,)


@dataclass
class Scored:
    """Calibration and test response risks of one method (per candidate aggregation)."""

    method: str
    family: str
    calibration: dict[str, pd.Series]
    test: dict[str, pd.Series]


def _sentence_method(name: str, family: str, detector, cal: FeatureTables, test: FeatureTables,
                     aggregations: tuple[str, ...]) -> Scored:
    out = Scored(name, family, {}, {})
    for tables, target in ((cal, out.calibration), (test, out.test)):
        risk = detector.score_sentences(tables.sentences)
        index = _labels(tables).index
        for how in aggregations:
            target[how] = response_risk(tables.sentences, risk, how).reindex(index)
    return out


def _evaluate(scored: Scored, labels: dict[str, pd.Series], subset: str) -> tuple[dict, pd.Series]:
    """Aggregation and threshold chosen on calibration; metrics on test."""
    y_cal, y_test = labels["calibration"], labels["test"]
    best, best_auc = None, -1.0
    for how, risk in scored.calibration.items():
        auc = binary_metrics(y_cal, risk.to_numpy(), 0.5)["roc_auc"]
        auc = -1.0 if np.isnan(auc) else auc
        if auc > best_auc + 1e-12:
            best, best_auc = how, auc
    cal = scored.calibration[best].to_numpy()
    threshold = max_f1_threshold(y_cal.to_numpy(), cal)
    test = scored.test[best]
    m = binary_metrics(y_test.to_numpy(), test.to_numpy(), threshold)
    row = {"subset": subset, "method": scored.method, "family": scored.family, "aggregation": best,
           **m, "calibration_roc_auc": best_auc}
    return row, test


def _transfer_tables(tables: FeatureTables, extractor: FeatureExtractor) -> FeatureTables:
    """The same sentence table with TF-IDF recomputed in the audit extractor's vocabulary."""
    sentences = tables.sentences.copy()
    sentences["tfidf_max"], sentences["tfidf_chunk"] = tfidf_columns(extractor.vectorizer, sentences,
                                                                     tables.indices)
    return FeatureTables(sentences, tables.tokens, tables.indices, tables.parsed)


# ---------------------------------------------------------------------------------------
# the experiment


def _detector_params(config: ExperimentConfig, name: str) -> dict:
    params = dict(config.detectors.params.get(name, {}))
    if name in SUPERVISED:
        params["groups"] = tuple(params.get("groups", DEFAULT_GROUPS))
    return params


def _train_transfer(config: ExperimentConfig, cache: ParseCache | None, progress: bool,
                    components: list[Component]) -> tuple[dict, FeatureExtractor | None, dict]:
    """EvidenceChain_LR/_RF fitted on the audit corpus's train split (same feature pipeline)."""
    from .data.ragtruth import load_ragtruth

    resp, src = config.resolve(config.data.response_jsonl), config.resolve(config.data.source_info_jsonl)
    names = [n for n in config.detectors.names if n in SUPERVISED]
    if not names:
        return {}, None, {}
    if not (resp.is_file() and src.is_file()):
        reason = f"audit corpus not found ({resp}, {src}); run `make data`"
        for n in names:
            components.append(Component(n + TRANSFER_SUFFIX, "transfer model", "all", "absent", reason))
        return {}, None, {}
    audit = load_ragtruth(resp, src, quality=config.data.quality or None)
    parts = split_corpus(audit, config.data.calibration_fraction, config.seed)
    extractor = FeatureExtractor(replace(config.features), cache=cache).fit(parts["train"], progress)
    train = extractor.transform(parts["train"], progress, with_tokens=False)
    models = {}
    for n in names:
        models[n] = make_detector(n, config.seed, **_detector_params(config, n)).fit(train.sentences)
        components.append(Component(n + TRANSFER_SUFFIX, "transfer model", "all", "present",
                                    f"fitted on {len(parts['train'].responses)} audit train responses "
                                    f"({len(train.sentences)} sentences), groups {list(models[n].groups)}"))
    info = {"responses": len(audit.responses), "train_responses": len(parts["train"].responses),
            "train_sentences": len(train.sentences), "files": [str(resp), str(src)]}
    return models, extractor, info


def _relevance_scorers(settings: ProvenanceSettings, subset: str, train_examples: list[prov.Example],
                       config: ExperimentConfig, store: prov.EmbeddingStore,
                       loaded: dict, components: list[Component]) -> list[prov.RelevanceScorer]:
    temps = settings.temperatures
    out: list[prov.RelevanceScorer] = []
    for name in settings.relevance:
        t = float(temps.get(name, prov.LOGIT_TEMPERATURE if name == "cross-encoder"
                            else prov.SIMILARITY_TEMPERATURE))
        if name == "bm25":
            f = config.features
            scorer = prov.BM25Relevance(f.bm25_k1, f.bm25_b, f.bm25_delta, temperature=t)
        elif name == "tfidf":
            scorer = prov.TfidfRelevance(config.features.tfidf_ngram_max, temperature=t).fit(
                [x for ex in train_examples for x in (ex.relevance_query, *ex.items)])
        elif name == "minilm":
            if subset not in settings.embedding_subsets:
                components.append(Component("minilm", "relevance", subset, "skipped",
                                            f"not in embedding_subsets {settings.embedding_subsets} "
                                            "(CPU cost); add the subset to run it"))
                continue
            if "minilm" not in loaded:
                try:
                    loaded["minilm"] = prov.EmbeddingRelevance(settings.embedding_model, store=store,
                                                               temperature=t)
                except NeuralUnavailable as exc:
                    loaded["minilm"] = exc
            scorer = loaded["minilm"]
            if isinstance(scorer, Exception):
                components.append(Component("minilm", "relevance", subset, "absent", str(scorer)))
                continue
        elif name == "cross-encoder":
            if not settings.reranker_model:
                components.append(Component("cross-encoder", "relevance", subset, "absent",
                                            "not configured: no reranker weights are installed here "
                                            "(set reranker_model to a local directory)"))
                continue
            if "cross-encoder" not in loaded:
                try:
                    loaded["cross-encoder"] = prov.CrossEncoderRelevance(
                        settings.reranker_model, temperature=t, batch_size=settings.batch_size)
                except NeuralUnavailable as exc:
                    loaded["cross-encoder"] = exc
            scorer = loaded["cross-encoder"]
            if isinstance(scorer, Exception):
                components.append(Component("cross-encoder", "relevance", subset, "absent", str(scorer)))
                continue
        else:
            raise ValueError(f"unknown relevance scorer {name!r}; known: bm25, tfidf, minilm, cross-encoder")
        components.append(Component(name, "relevance", subset, "present", scorer.describe()))
        out.append(scorer)
    return out


def _checkers(settings: ProvenanceSettings, subset: str, train: FeatureTables, config: ExperimentConfig,
              loaded: dict, components: list[Component]) -> list[prov.FactChecker]:
    out: list[prov.FactChecker] = []
    for name in settings.checkers:
        if name == "evidencechain":
            params = {**config.detectors.params.get(settings.checker_model, {}),
                      "groups": tuple(settings.checker_groups)}
            det = make_detector(settings.checker_model, config.seed, **params).fit(train.sentences)
            checker = prov.evidencechain_checker(det)
        elif name == "nli-rules":
            checker = prov.nli_rules_checker()
        elif name == "nli-cross-encoder":
            if not settings.nli_model:
                components.append(Component(name, "fact checker", subset, "absent",
                                            "not configured: no NLI weights are installed here "
                                            "(set nli_model to a local directory)"))
                continue
            if name not in loaded:
                try:
                    loaded[name] = prov.NLICrossEncoderChecker(settings.nli_model, settings.batch_size)
                except NeuralUnavailable as exc:
                    loaded[name] = exc
            checker = loaded[name]
            if isinstance(checker, Exception):
                components.append(Component(name, "fact checker", subset, "absent", str(checker)))
                continue
        else:
            raise ValueError(f"unknown fact checker {name!r}; known: nli-cross-encoder, evidencechain, nli-rules")
        components.append(Component(name, "fact checker", subset, "present", checker.describe()))
        out.append(checker)
    return out


def _grid_rows(settings: ProvenanceSettings, subset: str, components: list[Component],
               grid: prov.GridResult, cal_ids: list[str], test_ids: list[str],
               labels: dict[str, pd.Series]) -> tuple[list[dict], dict[str, pd.Series], str | None]:
    """Metrics of every grid configuration (absent ones listed with their reason)."""
    absent = {(c.kind, c.component): f"{c.status}: {c.detail}" for c in components
              if c.subset == subset and c.status != "present" and c.kind in ("relevance", "fact checker")}
    by_name = {c["name"]: c for c in grid.configs}
    selectors = [f"top_k={settings.top_k}", f"top_p={settings.top_p:g}"]
    rows, test_risk = [], {}
    best, best_auc = None, -1.0
    n_cal = len(cal_ids)
    for rel in settings.relevance:
        for sel in selectors:
            for how in settings.aggregations:
                for chk in settings.checkers:
                    name = prov.config_name(rel, sel, how, chk)
                    base = {"subset": subset, "relevance": rel, "selection": sel, "aggregation": how,
                            "checker": chk, "method": name}
                    reason = absent.get(("relevance", rel)) or absent.get(("fact checker", chk))
                    if name not in by_name:
                        rows.append({**base, "status": reason or "absent", "mean_selected": np.nan})
                        continue
                    f = grid.factuality[name]
                    risk = np.where(np.isnan(f), 1.0, 1.0 - f)
                    cal = pd.Series(risk[:n_cal], index=cal_ids)
                    test = pd.Series(risk[n_cal:], index=test_ids)
                    scored = Scored(name, "provenance", {"own": cal}, {"own": test})
                    row, _ = _evaluate(scored, labels, subset)
                    row.pop("family"), row.pop("aggregation")
                    rows.append({**base, "status": "present", "mean_selected": by_name[name]["mean_selected"],
                                 **{k: v for k, v in row.items() if k not in base}})
                    test_risk[name] = test
                    if row["calibration_roc_auc"] > best_auc + 1e-12:
                        best, best_auc = name, row["calibration_roc_auc"]
    return rows, test_risk, best


def _run_subset(subset: str, config: ExperimentConfig, settings: ProvenanceSettings,
                cache: ParseCache | None, store: prov.EmbeddingStore, transfer: dict,
                transfer_extractor: FeatureExtractor | None, loaded: dict,
                components: list[Component], watch: Stopwatch, progress: bool) -> dict:
    d = config.data
    with watch(f"{subset}: load"):
        corpus = load_halueval_corpus(config.resolve(d.halueval_dir), subsets=[subset], limit=d.limit,
                                      seed=config.seed, test_fraction=d.test_fraction)
        parts = split_corpus(corpus, d.calibration_fraction, config.seed)
        for name, part in parts.items():
            if not part.responses:
                raise ValueError(f"HaluEval {subset}: the {name} split is empty (limit={d.limit})")
    with watch(f"{subset}: features"):
        extractor = FeatureExtractor(replace(config.features), cache=cache).fit(parts["train"], progress)
        tables = {name: extractor.transform(part, progress, with_tokens=False) for name, part in parts.items()}
    labels = {s: _labels(tables[s]) for s in ("calibration", "test")}
    aggregations = _aggregations(config)
    scored: list[Scored] = []
    with watch(f"{subset}: detectors"):
        for name in config.detectors.names:
            det = make_detector(name, config.seed, **_detector_params(config, name))
            if det.supervised:
                det.fit(tables["train"].sentences)
            family = "supervised" if det.supervised else "unsupervised"
            scored.append(_sentence_method(name, family, det, tables["calibration"], tables["test"],
                                           aggregations))
        for name, det in transfer.items():
            cal = _transfer_tables(tables["calibration"], transfer_extractor)
            test = _transfer_tables(tables["test"], transfer_extractor)
            scored.append(_sentence_method(name + TRANSFER_SUFFIX, "transfer", det, cal, test, aggregations))
        words = {s: tables[s].sentences.groupby("response_id", sort=False)["n_tokens"].sum()
                 .reindex(labels[s].index).astype(float) for s in ("calibration", "test")}
        scored.append(Scored(LENGTH, "diagnostic", {"sum": words["calibration"]}, {"sum": words["test"]}))
    rows, test_scores = [], {}
    for s in scored:
        row, test = _evaluate(s, labels, subset)
        rows.append(row)
        test_scores[s.method] = test
    with watch(f"{subset}: provenance"):
        train_examples = prov.examples_from_tables(parts["train"], tables["train"],
                                                   pipeline=config.features.pipeline, cache=cache)
        scorers = _relevance_scorers(settings, subset, train_examples, config, store, loaded, components)
        checkers = _checkers(settings, subset, tables["train"], config, loaded, components)
        examples = [ex for s in ("calibration", "test") for ex in prov.examples_from_tables(
            parts[s], tables[s], pipeline=config.features.pipeline, cache=cache)]
        f = config.features
        featurizer = prov.PairFeaturizer(extractor.vectorizer, f.bm25_k1, f.bm25_b, f.bm25_delta)
        grid = prov.run_grid(examples, scorers, [prov.TopK(settings.top_k), prov.TopP(settings.top_p)],
                             checkers, settings.aggregations, featurizer=featurizer, progress=progress)
        cal_ids = [r.id for r in parts["calibration"].responses]
        test_ids = [r.id for r in parts["test"].responses]
        grid_rows, grid_test, best = _grid_rows(settings, subset, components, grid, cal_ids, test_ids, labels)
    if best is not None:
        best_row = next(r for r in grid_rows if r["method"] == best)
        rows.append({"subset": subset, "method": BEST_PROVENANCE, "family": "provenance",
                     "aggregation": best_row["aggregation"],
                     **{k: best_row[k] for k in METRIC_COLUMNS}, "calibration_roc_auc": best_row["calibration_roc_auc"],
                     "configuration": best})
        test_scores[BEST_PROVENANCE] = grid_test[best]
    for r in rows:
        r.setdefault("configuration", "")
    splits = [{"subset": subset, "split": name, "sources": len(part.sources), "responses": len(part.responses),
               "hallucinated_responses": sum(int(r.hallucinated) for r in part.responses)}
              for name, part in parts.items()]
    response_scores = pd.DataFrame({"subset": subset, "response_id": labels["test"].index,
                                    "label": labels["test"].to_numpy()})
    for method, risk in test_scores.items():
        response_scores[method] = risk.reindex(labels["test"].index).to_numpy()
    roc = []
    for method, risk in test_scores.items():
        fpr, tpr, _ = roc_curve(labels["test"].to_numpy(), risk.to_numpy())
        roc.append(pd.DataFrame({"subset": subset, "method": method, "fpr": fpr, "tpr": tpr}))
    return {
        "metrics": rows, "grid": grid_rows, "splits": splits, "scores": response_scores,
        "roc": pd.concat(roc, ignore_index=True),
        "corpus": {"records": len(corpus.sources), "responses": len(corpus.responses),
                   "filtered": corpus.filtered, "span_labels": corpus.span_labels,
                   "pairs_checked": grid.pairs_checked, "best_provenance": best},
    }


# ---------------------------------------------------------------------------------------
# tables and figure


def published_frame() -> pd.DataFrame:
    return pd.DataFrame(PUBLISHED, columns=["subset", "system", "metric", "value", "reference"])


def best_frame(metrics: pd.DataFrame, subsets: list[str]) -> pd.DataFrame:
    """Per subset, our method with the best calibration ROC-AUC (diagnostics excluded), its test
    numbers, and whether it beats the published Provenance ROC-AUC."""
    pub = published_frame()
    rows = []
    for s in subsets:
        part = metrics[(metrics["subset"] == s) & (metrics["family"] != "diagnostic")]
        if part.empty:
            continue
        row = part.loc[part["calibration_roc_auc"].fillna(-1).idxmax()]
        hit = pub[(pub["system"] == "Provenance") & (pub["subset"] == s) & (pub["metric"] == "roc_auc")]
        published = float(hit["value"].iloc[0]) if len(hit) else float("nan")
        rows.append({"subset": s, "method": row["method"], "calibration_roc_auc": row["calibration_roc_auc"],
                     "test_roc_auc": row["roc_auc"], "test_accuracy": row["accuracy"], "test_f1": row["f1"],
                     "published_provenance_roc_auc": published,
                     "beats_published_provenance": bool(row["roc_auc"] > published)})
    return pd.DataFrame(rows)


def comparison_frame(metrics: pd.DataFrame, subsets: list[str]) -> pd.DataFrame:
    """Wide table: one row per method, ROC-AUC / accuracy / F1 per subset, published rows last."""
    order = [*UNSUPERVISED, *SUPERVISED, *(n + TRANSFER_SUFFIX for n in SUPERVISED), BEST_PROVENANCE, LENGTH]
    methods = [m for m in order if m in set(metrics["method"])]
    methods += [m for m in dict.fromkeys(metrics["method"]) if m not in methods]
    rows = []
    for m in methods:
        part = metrics[metrics["method"] == m].set_index("subset")
        row = {"method": m}
        for s in subsets:
            for metric in ("roc_auc", "accuracy", "f1"):
                row[f"{s}_{metric}"] = float(part.loc[s, metric]) if s in part.index else np.nan
        rows.append(row)
    pub = published_frame()
    for system in ("Provenance", "HALT-RAG"):
        row = {"method": f"{system} (published)"}
        for s in subsets:
            for metric in ("roc_auc", "accuracy", "f1"):
                hit = pub[(pub["system"] == system) & (pub["subset"] == s) & (pub["metric"] == metric)]
                row[f"{s}_{metric}"] = float(hit["value"].iloc[0]) if len(hit) else np.nan
        rows.append(row)
    return pd.DataFrame(rows)


def _titles(subsets: list[str]) -> dict[str, str]:
    names = {"roc_auc": "ROC-AUC", "accuracy": "Acc.", "f1": "F1"}
    return {f"{s}_{m}": f"{SUBSET_TITLES.get(s, s)} {t}" for s in subsets for m, t in names.items()}


def _markdown(frame: pd.DataFrame, titles: dict[str, str], caption: str) -> str:
    def cell(v) -> str:
        if isinstance(v, float):
            return "—" if np.isnan(v) else f"{v:.3f}"
        return str(v).replace("|", "\\|")

    header = [titles.get(c, c.capitalize()) for c in frame.columns]
    numeric = [pd.api.types.is_numeric_dtype(frame[c]) for c in frame.columns]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---:" if n else "---" for n in numeric) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return f"**{caption}**\n\n" + "\n".join(lines) + "\n"


_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
          "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "—": "---",
          "|": r"\textbar{}", "<": r"\textless{}", ">": r"\textgreater{}"}


def _latex(frame: pd.DataFrame, titles: dict[str, str], caption: str, label: str) -> str:
    def esc(text: str) -> str:
        return "".join(_LATEX.get(ch, ch) for ch in text)

    def cell(v) -> str:
        if isinstance(v, float):
            return "---" if np.isnan(v) else f"{v:.3f}"
        return esc(str(v))

    spec = "".join("r" if pd.api.types.is_numeric_dtype(frame[c]) else "l" for c in frame.columns)
    wide = len(frame.columns) > 7  # scaled to the line width (needs \usepackage{graphicx})
    lines = [r"\begin{table}[t]", r"\centering", r"\small", rf"\caption{{{esc(caption)}}}",
             rf"\label{{tab:{label}}}", *([r"\resizebox{\linewidth}{!}{%"] if wide else []),
             rf"\begin{{tabular}}{{{spec}}}", r"\toprule",
             " & ".join(esc(titles.get(c, c.capitalize())) for c in frame.columns) + r" \\", r"\midrule"]
    lines += [" & ".join(cell(v) for v in row) + r" \\" for row in frame.itertuples(index=False)]
    lines += [r"\bottomrule", r"\end{tabular}" + ("}" if wide else ""), r"\end{table}"]
    return "\n".join(lines) + "\n"


def write_table(frame: pd.DataFrame, out_dir: Path, name: str, caption: str, titles: dict[str, str]) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    return [write_csv(frame, out_dir / f"{name}.csv"),
            atomic_write_text(out_dir / f"{name}.md", _markdown(frame, titles, caption)),
            atomic_write_text(out_dir / f"{name}.tex", _latex(frame, titles, caption, name))]


COMPARISON_CAPTION = (
    "HaluEval, response level, test split (30% of records, seeded, grouped by evidence). Thresholds "
    "and aggregations chosen on the calibration split; accuracy and F1 at the max-F1 calibration "
    "threshold. Supervised rows are trained on the HaluEval train split, transfer rows on the audit "
    "corpus only. Published rows are copied from the papers (their own protocols: Provenance is "
    "zero-shot with NLI and reranker models on all 20,000 responses per subset; HALT-RAG reports F1 "
    "only). The length-only row is a diagnostic of a dataset artefact, not a detector.")
GRID_CAPTION = (
    "Provenance grid on HaluEval test splits (ROC-AUC): relevance scorer x selection x aggregation x "
    "fact checker. '—': component absent or skipped (see provenance_components.csv and run.json).")

# Okabe-Ito palette: distinguishable with the common colour-vision deficiencies.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"]
FIGURE_METHODS = ["EvidenceChain_RF", "EvidenceChain_RF" + TRANSFER_SUFFIX, BEST_PROVENANCE,
                  "NLI_Rules", "Lexical", LENGTH]


def roc_figure(roc: pd.DataFrame, metrics: pd.DataFrame, subsets: list[str]):
    """One panel per subset: test ROC curves of the main methods, drawn from the CSVs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pub = published_frame()
    style = {"font.size": 9, "axes.titlesize": 10, "legend.fontsize": 7.5, "axes.spines.top": False,
             "axes.spines.right": False, "font.family": "DejaVu Sans", "pdf.fonttype": 42,
             "svg.hashsalt": "evidencechain", "path.simplify": False}
    with plt.rc_context(style):
        fig, axes = plt.subplots(1, len(subsets), figsize=(3.3 * len(subsets), 4.6), squeeze=False,
                                 layout="constrained")
        for ax, subset in zip(axes[0], subsets):
            ax.plot([0, 1], [0, 1], color="#999999", lw=0.8, ls=":", label="chance")
            for k, method in enumerate(FIGURE_METHODS):
                part = roc[(roc["subset"] == subset) & (roc["method"] == method)]
                if part.empty:
                    continue
                m = metrics[(metrics["subset"] == subset) & (metrics["method"] == method)]
                auc = float(m["roc_auc"].iloc[0]) if len(m) else float("nan")
                ls = "--" if method == LENGTH else ("-." if TRANSFER_SUFFIX in method else "-")
                label = method.replace(" (ours, best on calibration)", " (ours)")
                ax.plot(part["fpr"], part["tpr"], color=PALETTE[k % len(PALETTE)], lw=1.4, ls=ls,
                        label=f"{label} ({auc:.3f})")
            hit = pub[(pub["system"] == "Provenance") & (pub["subset"] == subset) & (pub["metric"] == "roc_auc")]
            title = SUBSET_TITLES.get(subset, subset)
            if len(hit):
                title += f"\n(published Provenance ROC-AUC {float(hit['value'].iloc[0]):.2f})"
            ax.set_title(title, fontsize=9)
            ax.set_xlabel("False positive rate")
            ax.set_ylabel("True positive rate")
            ax.set_xlim(0, 1)
            ax.set_ylim(0, 1.01)
            ax.set_aspect("equal")
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), frameon=False,
                      title="method (test ROC-AUC)", title_fontsize=7.5)
    return fig


def save_figure(fig, out_dir: Path, name: str) -> list[Path]:
    """PNG and PDF without time stamps or software versions (byte-stable rebuilds)."""
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / f"{name}.png", out_dir / f"{name}.pdf"]
    fig.savefig(paths[0], dpi=200, bbox_inches="tight", pad_inches=0.05, metadata={"Software": None})
    fig.savefig(paths[1], bbox_inches="tight", pad_inches=0.05,
                metadata={"Creator": None, "Producer": None, "CreationDate": None})
    plt.close(fig)
    return paths


def write_reports(out: Path, tables_dir: Path, figures_dir: Path, subsets: list[str]) -> list[Path]:
    """Comparison tables and ROC figure, computed only from the run's CSV files."""
    metrics = pd.read_csv(out / "metrics_response.csv")
    roc = pd.read_csv(out / "roc_points.csv")
    grid = pd.read_csv(out / "provenance_grid.csv", keep_default_na=False, na_values=[""])
    written = []
    comparison = comparison_frame(metrics, subsets)
    written += write_table(comparison, tables_dir, "halueval_comparison", COMPARISON_CAPTION,
                           {"method": "Method", **_titles(subsets)})
    wide = grid.pivot_table(index=["relevance", "selection", "aggregation", "checker"], columns="subset",
                            values="roc_auc", aggfunc="first", dropna=False, sort=False)
    keys = grid[["relevance", "selection", "aggregation", "checker"]].drop_duplicates()
    wide = wide.reindex(pd.MultiIndex.from_frame(keys))
    wide = wide.reindex(columns=[s for s in subsets if s in wide.columns]).reset_index()
    wide.columns = [str(c) for c in wide.columns]
    for s in subsets:
        if s in wide.columns:
            wide[s] = wide[s].astype(float)
    written += write_table(wide, tables_dir, "halueval_provenance_grid", GRID_CAPTION,
                           {"relevance": "Relevance", "selection": "Selection", "aggregation": "Aggregation",
                            "checker": "Fact checker",
                            **{s: f"{SUBSET_TITLES.get(s, s)} ROC-AUC" for s in subsets}})
    written += save_figure(roc_figure(roc, metrics, subsets), figures_dir, "halueval_roc")
    return written


def run_halueval(config: ExperimentConfig, out_dir: str | Path | None = None, progress: bool = True,
                 tables_dir: str | Path | None = None, figures_dir: str | Path | None = None) -> Path:
    """Run the HaluEval experiment from its config; returns the results directory.

    Tables and the figure go to `paper/tables/` and `figures/` when the run writes to the
    config's own output directory, else (a quick `--out` run) to `<out>/tables` and
    `<out>/figures`, so a trial run never overwrites the paper's inputs.
    """
    if config.data.format != "halueval":
        raise ValueError(f"run_halueval needs data.format = 'halueval', got {config.data.format!r}")
    out = Path(out_dir or config.output_dir)
    canonical = out.resolve() == Path(config.output_dir).resolve()
    tables_dir = Path(tables_dir or ("paper/tables" if canonical else out / "tables"))
    figures_dir = Path(figures_dir or ("figures" if canonical else out / "figures"))
    out.mkdir(parents=True, exist_ok=True)
    started = time.time()
    watch = Stopwatch()
    settings = ProvenanceSettings.from_params(config.detectors.params.get("Provenance"))
    unknown = [n for n in config.detectors.names if n not in DETECTORS]
    if unknown:
        raise ValueError(f"unknown detector(s) {unknown}; known: {sorted(DETECTORS)}")
    subsets = list(config.data.halueval_subsets)
    bad = [s for s in subsets if s not in SPECS]
    if bad:
        raise ValueError(f"unknown HaluEval subset(s) {bad}; known: {list(SPECS)}")
    base = config.resolve(config.data.halueval_dir)
    inputs = {str(halueval_file(base, s)): sha256_file(halueval_file(base, s)) for s in subsets}
    cache_dir = Path(config.cache_dir) if config.cache_dir else None
    cache = ParseCache(cache_dir / "parse.sqlite") if cache_dir else None
    store = prov.EmbeddingStore(cache_dir / "embeddings.sqlite" if cache_dir else None)
    components: list[Component] = []
    loaded: dict = {}
    with watch("transfer: audit features and fit"):
        transfer, transfer_extractor, transfer_info = _train_transfer(config, cache, progress, components)
    for f in transfer_info.get("files", []):
        inputs[f] = sha256_file(f)
    results = {}
    for subset in tqdm(subsets, desc="HaluEval subsets", disable=not progress, unit="subset"):
        log.info("HaluEval %s", subset)
        results[subset] = _run_subset(subset, config, settings, cache, store, transfer, transfer_extractor,
                                      loaded, components, watch, progress)
    metrics = pd.DataFrame([r for s in subsets for r in results[s]["metrics"]])
    metrics = metrics[[*METRICS_COLUMNS, "calibration_roc_auc", "configuration"]]
    grid = pd.DataFrame([r for s in subsets for r in results[s]["grid"]])
    grid_cols = ["subset", "relevance", "selection", "aggregation", "checker", "status", "mean_selected",
                 *METRIC_COLUMNS, "calibration_roc_auc", "method"]
    grid = grid.reindex(columns=grid_cols)
    grid[["n", "positives"]] = grid[["n", "positives"]].astype("Int64")
    comps = pd.DataFrame([asdict(c) for c in components]).drop_duplicates(ignore_index=True)
    write_csv(metrics, out / "metrics_response.csv")
    write_csv(grid, out / "provenance_grid.csv")
    write_csv(comps, out / "provenance_components.csv")
    write_csv(published_frame(), out / "published.csv", float_format="%.4f")
    write_csv(pd.DataFrame([r for s in subsets for r in results[s]["splits"]]), out / "split_summary.csv")
    write_csv(pd.concat([results[s]["scores"] for s in subsets], ignore_index=True), out / "scores_test.csv")
    write_csv(pd.concat([results[s]["roc"] for s in subsets], ignore_index=True), out / "roc_points.csv")
    write_csv(comparison_frame(metrics, subsets), out / "comparison.csv")
    best = best_frame(metrics, subsets)
    write_csv(best, out / "best_by_calibration.csv")
    with watch("report"):
        reports = write_reports(out, tables_dir, figures_dir, subsets)
    _, pipeline = load_pipeline(config.features.pipeline)
    store.close()
    if cache is not None:
        cache.close()
    run = {
        "name": config.name,
        "seed": config.seed,
        "config": config.to_dict(),
        "provenance_settings": asdict(settings),
        "evidencechain_version": __version__,
        "python": platform.python_version(),
        "packages": _versions(),
        "inputs": inputs,
        "split_rule": SPLIT_RULE,
        "split_fractions": {"test": config.data.test_fraction,
                            "calibration": round((1 - config.data.test_fraction)
                                                 * config.data.calibration_fraction, 6),
                            "train": round((1 - config.data.test_fraction)
                                           * (1 - config.data.calibration_fraction), 6)},
        "components": {
            "spacy_pipeline": pipeline,
            "entity_recognition": "rule fallback (no NER model)" if pipeline.startswith("blank")
                                  else f"spaCy NER ({pipeline})",
            "provenance": comps.to_dict("records"),
        },
        "transfer": transfer_info or "absent",
        "span_labels": False,
        "skipped_metrics": "word- and span-level metrics: HaluEval has response-level labels only",
        "subsets": {s: results[s]["corpus"] for s in subsets},
        "best_by_calibration": best.to_dict("records"),
        "stage_seconds": {k: round(v, 3) for k, v in watch.seconds.items()},
        "wall_seconds": round(time.time() - started, 3),
        "outputs": sorted({p.name for p in out.iterdir() if p.is_file()} | {"run.json"}),
        "reports": [str(p) for p in reports],
    }
    atomic_write_text(out / "run.json", json.dumps(run, indent=2, sort_keys=True, default=str) + "\n")
    return out
