"""The learned checker as a feature family: each answer sentence against its best windows of
its own source (see `checker.settings.InferSettings` for the aggregation).

Sentence columns: `nli_support`, `nli_conflict`, `nli_baseless` (the verdict of the window
that supports the sentence best), `nli_conflict_max` (the highest conflict over the windows)
and `nli_window` (the window's text). Token column: `nli_token`, the token head's probability
that the word is unsupported (the highest over the word pieces inside the token), from the
same window. Scores are cached by (model, window, sentence) in the parse cache.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from ..checker.settings import InferSettings, describe_scorer, scorer_device
from ..text.parse import ParseCache
from ..text.windows import candidate_windows
from ..torch_support import require_installed
from .evidence import EvidenceIndex
from .family import RUNS, FamilyContext, FeatureFamily, WorkTables

CHECKER_COLUMNS = ["nli_support", "nli_conflict", "nli_baseless", "nli_conflict_max"]
TOKEN_COLUMN = "nli_token"
MODEL_FILE = "checker.json"


def model_key(path: str | Path) -> str:
    """Identity of a trained checker: the hash of its checker.json (which holds the weights' sha256)."""
    return hashlib.sha256((Path(path) / MODEL_FILE).read_bytes()).hexdigest()[:32]


class CheckerFeatures:
    """The checker's scores of (window, sentence) pairs. torch and the model are loaded at the
    first pair not in the cache: a rerun whose pairs are all cached loads neither."""

    def __init__(self, path: str | Path, settings: InferSettings | None = None, device: str = "auto"):
        self.path = Path(path)
        self.settings = settings or InferSettings()
        self.key = model_key(self.path)
        self.device = device
        s = self.settings
        self.scorer_description = describe_scorer(self.path, scorer_device(device, s.quantize, s.batch_size),
                                                  s.quantize, s.batch_size)
        self._scorer = None
        if s.quantize == "onnx":  # the export is checked against torch when loaded: fail now
            self.scorer  # noqa: B018

    @property
    def scorer(self):
        if self._scorer is None:
            from ..checker.infer import CheckerScorer

            self._scorer = CheckerScorer.load(self.path, device=self.device, quantize=self.settings.quantize,
                                              batch_size=self.settings.batch_size)
        return self._scorer

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_scorer"] = None
        return state

    def __setstate__(self, state):
        state.pop("scorer", None)  # pickled before the scorer was loaded lazily
        self.__dict__.update({"device": "auto", **state, "_scorer": None})
        if "scorer_description" not in state:
            s = self.settings
            self.scorer_description = describe_scorer(
                self.path, scorer_device(self.device, s.quantize, s.batch_size), s.quantize, s.batch_size)

    def describe(self) -> str:
        s = self.settings
        return (f"learned checker {self.path} ({self.scorer_description}); best of {s.windows} windows of "
                f"<= {s.max_premise_words} words per sentence")

    def _cache_key(self, premise: str, claim: str) -> str:
        text = f"checker\0{self.key}\0{self.settings.quantize}\0{self.scorer_description}\0{premise}\0{claim}"
        return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()

    def score_pairs(self, premises: list[str], claims: list[str], cache: ParseCache | None,
                    progress: bool = False) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """(probs[3], piece offsets, piece probs) per pair, computed once per (model, pair)."""
        keys = [self._cache_key(p, c) for p, c in zip(premises, claims)]
        found = cache.get_many(list(dict.fromkeys(keys))) if cache is not None else {}
        todo = {k: i for i, k in enumerate(keys) if k not in found}
        if todo:
            idx = list(todo.values())
            scores = self.scorer.score([premises[i] for i in idx], [claims[i] for i in idx], progress=progress)
            fresh = {}
            for j, (k, _) in enumerate(todo.items()):
                offsets, probs = scores.token_spans[j]
                fresh[k] = (np.asarray(scores.probs[j], dtype=np.float32), np.asarray(offsets, dtype=np.int32),
                            np.asarray(probs, dtype=np.float32))
            if cache is not None:
                cache.put_many(fresh)
            found = {**found, **fresh}
        return [found[k] for k in keys]

    def add(self, sentences: pd.DataFrame, tokens: pd.DataFrame | None, indices: dict[str, EvidenceIndex],
            cache: ParseCache | None, progress: bool = False) -> None:
        owners, premises, claims = [], [], []
        split: dict[str, list[str]] = {}
        for row, (sid, text) in enumerate(zip(sentences["source_id"], sentences["text"])):
            if sid not in split:
                evidence = indices[sid].parsed
                split[sid] = [evidence.text[a:b] for a, b in evidence.sentences] or [evidence.text]
            for window in candidate_windows(split[sid], text, self.settings.windows,
                                            self.settings.max_premise_words):
                owners.append(row)
                premises.append(window)
                claims.append(text)
        scored = self.score_pairs(premises, claims, cache, progress)
        n = len(sentences)
        best = np.full(n, -1)
        support = np.full(n, -1.0)
        conflict_max = np.zeros(n)
        for k, (row, (probs, _, _)) in enumerate(zip(owners, scored)):
            conflict_max[row] = max(conflict_max[row], float(probs[1]))
            if probs[0] > support[row]:
                support[row], best[row] = float(probs[0]), k
        verdict = np.array([scored[k][0] if k >= 0 else np.array([1.0, 0.0, 0.0]) for k in best]).reshape(n, 3)
        sentences["nli_support"] = verdict[:, 0]
        sentences["nli_conflict"] = verdict[:, 1]
        sentences["nli_baseless"] = verdict[:, 2]
        sentences["nli_conflict_max"] = conflict_max
        sentences["nli_window"] = [premises[k] if k >= 0 else "" for k in best]
        if tokens is not None and len(tokens):
            tokens[TOKEN_COLUMN] = token_column(tokens, sentences, [scored[k] if k >= 0 else None for k in best])


def token_column(tokens: pd.DataFrame, sentences: pd.DataFrame, scored: list) -> np.ndarray:
    """Each token's highest word-piece probability (pieces mapped by character offsets)."""
    out = np.zeros(len(tokens))
    position = {(r, s): i for i, (r, s) in enumerate(zip(sentences["response_id"], sentences["sentence_index"]))}
    starts = sentences["start"].to_numpy()
    groups = tokens.groupby(["response_id", "sentence_index"], sort=False).indices
    t_start, t_end = tokens["start"].to_numpy(), tokens["end"].to_numpy()
    for key, rows in groups.items():
        i = position.get(key)
        if i is None or scored[i] is None:
            continue
        _, offsets, probs = scored[i]
        if not len(probs):
            continue
        a = offsets[:, 0] + starts[i]
        b = offsets[:, 1] + starts[i]
        hit = (a[None, :] < t_end[rows, None]) & (b[None, :] > t_start[rows, None])
        out[rows] = np.where(hit, probs[None, :], 0.0).max(axis=1)
    return out


class CheckerFamily(FeatureFamily):
    """The learned checker's verdict per sentence (`[features] checker`: a trained model)."""

    name = "checker"
    columns = (*CHECKER_COLUMNS, "nli_window")
    token_columns = (TOKEN_COLUMN,)
    groups = {"checker": tuple(CHECKER_COLUMNS)}
    needs = ("the neural extra", "trained checker weights (make checker)")

    def state(self, extractor) -> str:
        return RUNS if extractor.checker is not None else getattr(extractor, "checker_status", "absent")

    def switch_on(self, config):
        return config  # runs when a model is configured: nothing to switch

    def fit(self, extractor, context: FamilyContext) -> None:
        self.restore(extractor)

    def restore(self, extractor) -> None:
        extractor.checker, extractor.checker_status = load_checker_features(extractor.config)

    def add(self, tables: WorkTables, context: FamilyContext) -> None:
        context.extractor.checker.add(tables.sentences, tables.tokens, context.indices, context.cache,
                                      context.progress)


def checker_absent_reason(path: str | None) -> str | None:
    """Why the configured checker cannot be used (None: it can)."""
    if not path:
        return "absent: not configured"
    if not (Path(path) / MODEL_FILE).is_file():
        return f"absent: no trained checker at {path} (make checker)"
    from ..torch_support import NeuralUnavailable

    try:
        require_installed("torch", "transformers")
    except NeuralUnavailable:
        return "absent: torch / transformers not installed (pip install -e '.[neural]')"
    return None


def load_checker_features(config) -> tuple[CheckerFeatures | None, str]:
    """(features or None, status line for run.json) from a FeatureConfig."""
    from ..torch_support import NeuralUnavailable

    reason = checker_absent_reason(config.checker)
    if reason:
        return None, reason
    try:
        features = _loaded(str(config.checker), model_key(config.checker), config.checker_windows,
                           config.checker_quantize)
    except NeuralUnavailable as exc:
        return None, f"absent: {exc}"
    return features, f"present: {features.describe()}"


@lru_cache(maxsize=2)
def _loaded(path: str, key: str, windows: int, quantize: str) -> CheckerFeatures:
    """One loaded checker per (model, settings) in a process: every extractor of a run shares it
    (`key` changes when the model directory is retrained)."""
    return CheckerFeatures(path, InferSettings(windows=windows, quantize=quantize))
