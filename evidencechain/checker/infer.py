"""Scoring (premise, claim) pairs with a trained support checker: verdict probabilities in
LABELS order and, per claim word piece, the probability that it is unsupported.

Pairs are scored in batches of similar length (longest first, so memory errors come early)
and returned in input order. On GPU the encoder runs under bf16 autocast; `quantize="int8"`
applies dynamic int8 quantization to the Linear layers and runs on CPU; `quantize="onnx"` runs
the fp32 model on ONNX Runtime (CPU), exported once and cached (see `onnx_runtime`).
"""
from __future__ import annotations

import contextlib
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import ConfigError
from .model import encode_pairs, load, torch
from .settings import ModelSettings, describe_scorer, scorer_device

__all__ = ["CheckerScorer", "CheckerScores", "autocast", "length_order", "predict", "throughput"]


@dataclass
class CheckerScores:
    probs: np.ndarray
    """[n, 3] float32, LABELS order."""
    token_spans: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)
    """Per claim: (int32 [k, 2] character offsets of its word pieces in the claim, float32 [k]
    probabilities that each piece is unsupported)."""


def autocast(device: str):
    if device == "cuda":
        return torch.autocast("cuda", dtype=torch.bfloat16)
    return contextlib.nullcontext()


def length_order(premises: list[str], claims: list[str]) -> np.ndarray:
    """Indices by decreasing character length (a proxy for token length), ties in input order."""
    lengths = np.array([len(p) + len(c) for p, c in zip(premises, claims)], dtype=np.int64)
    return np.argsort(-lengths, kind="stable")


def predict(model, tokenizer, premises: list[str], claims: list[str], max_length: int, batch_size: int,
            device: str, progress: bool = False) -> CheckerScores:
    """Score pairs with a SupportChecker (switched to eval mode) in length-sorted batches."""
    if len(premises) != len(claims):
        raise ConfigError(f"{len(premises)} premises but {len(claims)} claims")
    n = len(claims)
    probs = np.zeros((n, 3), dtype=np.float32)
    spans: list = [None] * n
    order = length_order(premises, claims)
    starts = range(0, n, batch_size)
    if progress:
        from tqdm.auto import tqdm

        starts = tqdm(starts, desc="checker", unit="batch", leave=False)
    model.eval()
    with torch.inference_mode():
        for start in starts:
            idx = order[start:start + batch_size]
            enc = encode_pairs(tokenizer, [premises[i] for i in idx], [claims[i] for i in idx], max_length)
            with autocast(device):
                verdict, tokens = model(**enc.to(device).model_inputs())
            p = torch.softmax(verdict.float(), dim=-1).cpu().numpy()
            t = torch.sigmoid(tokens.float()).cpu().numpy()
            mask, offsets = enc.claim_mask.numpy(), enc.offsets.numpy()
            for j, i in enumerate(idx):
                probs[i] = p[j]
                spans[i] = (offsets[j][mask[j]].astype(np.int32), t[j][mask[j]].astype(np.float32))
    return CheckerScores(probs, spans)


class CheckerScorer:
    """A trained checker ready to score pairs (see `load`)."""

    def __init__(self, model, tokenizer, settings: ModelSettings, path: Path, device: str, quantize: str,
                 batch_size: int):
        self.model, self.tokenizer, self.settings = model, tokenizer, settings
        self.path, self.device, self.quantize, self.batch_size = path, device, quantize, batch_size

    @classmethod
    def load(cls, path: str | Path, device: str = "auto", quantize: str = "none",
             batch_size: int = 64) -> CheckerScorer:
        """Load a model directory (sha256 checked). int8 and onnx run on CPU: with device "auto"
        they choose the CPU, with "cuda" it is an error."""
        device = scorer_device(device, quantize, batch_size)
        if quantize == "onnx":
            from .onnx_runtime import require_onnxruntime

            require_onnxruntime()  # fail before loading the model when onnxruntime is absent
        model, tokenizer, settings = load(path, device)
        if quantize == "int8":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                from torch.ao.quantization import quantize_dynamic

                model = quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
        elif quantize == "onnx":
            from .onnx_runtime import load_onnx

            model = load_onnx(model, tokenizer, settings, path)
        return cls(model, tokenizer, settings, Path(path), device, quantize, batch_size)

    def score(self, premises: list[str], claims: list[str], progress: bool = False) -> CheckerScores:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return predict(self.model, self.tokenizer, list(premises), list(claims), self.settings.max_length,
                           self.batch_size, self.device, progress)

    def describe(self) -> str:
        return describe_scorer(self.path, self.device, self.quantize, self.batch_size)


def throughput(scorer: CheckerScorer, premises: list[str], claims: list[str]) -> float:
    """Pairs per second of `scorer.score` on these pairs (after a one-batch warm-up)."""
    if not claims:
        return 0.0
    k = min(len(claims), scorer.batch_size)
    scorer.score(premises[:k], claims[:k])
    if scorer.device == "cuda":
        torch.cuda.synchronize()
    t0 = time.perf_counter()
    scorer.score(premises, claims)
    if scorer.device == "cuda":
        torch.cuda.synchronize()
    return len(claims) / max(time.perf_counter() - t0, 1e-9)
