"""The support checker network, its pair encoding and its model directory.

A pretrained encoder reads "[CLS] premise [SEP] claim [SEP]". The verdict head (LABELS
order) reads the [CLS] state concatenated with the mean of the claim tokens' states
(Linear 2H->H, GELU, dropout, Linear H->3); the token head gives one logit per token,
read on the claim tokens only (the probability that the word piece is unsupported).

A model directory holds the weights (`model.safetensors`, or `model.pt` without the
safetensors package), the encoder's `config.json`, the tokenizer files and `checker.json`
(settings, label names, the weights' sha256, checked before loading). Loading needs no
access to the base model.
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from ..io import atomic_write_text, current_umask, sha256_file
from ..torch_support import NeuralUnavailable, import_torch, resolve_model_path
from ..torch_support import device as _default_device
from .records import LABELS
from .settings import ModelSettings

torch = import_torch()
try:
    import transformers
    from transformers import AutoConfig, AutoModel, AutoTokenizer
except ImportError:
    raise NeuralUnavailable("transformers is not installed (pip install -e '.[neural]')") from None

__all__ = ["CHECKER_FILE", "EncodedPairs", "ModelSettings", "SupportChecker", "build", "encode_pairs", "load",
           "resolve_device", "save", "token_targets"]

CHECKER_FILE = "checker.json"
FORMAT = 1
MODEL_INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def resolve_device(name: str = "auto") -> str:
    """"auto": CUDA when present, else CPU; "cuda" without a GPU is an error."""
    if name == "auto":
        return _default_device()
    if name == "cuda" and not torch.cuda.is_available():
        raise NeuralUnavailable("device 'cuda' requested but torch sees no GPU")
    if name not in ("cpu", "cuda"):
        raise NeuralUnavailable(f"unknown device {name!r} (auto, cpu or cuda)")
    return name


class SupportChecker(torch.nn.Module):
    """Encoder + verdict head ([CLS] ++ mean of claim tokens) + per-token unsupported head."""

    def __init__(self, encoder, settings: ModelSettings):
        super().__init__()
        self.settings = settings
        self.encoder = encoder
        if getattr(encoder, "pooler", None) is not None:
            encoder.pooler = None
        hidden = encoder.config.hidden_size
        self.verdict_head = torch.nn.Sequential(
            torch.nn.Dropout(settings.dropout), torch.nn.Linear(2 * hidden, hidden), torch.nn.GELU(),
            torch.nn.Dropout(settings.dropout), torch.nn.Linear(hidden, len(LABELS)))
        self.token_head = torch.nn.Sequential(torch.nn.Dropout(settings.dropout), torch.nn.Linear(hidden, 1))
        self.freeze(settings.freeze_layers)

    def freeze(self, layers: int) -> None:
        """Freeze the embeddings and the first `layers` encoder layers (the rest trains)."""
        for p in self.encoder.parameters():
            p.requires_grad = True
        blocks = _encoder_layers(self.encoder)
        frozen = [self.encoder.get_input_embeddings()]
        if hasattr(self.encoder, "embeddings"):
            frozen.append(self.encoder.embeddings)
        frozen.extend(blocks[:layers])
        for module in frozen:
            for p in module.parameters():
                p.requires_grad = False

    def forward(self, input_ids, attention_mask, claim_mask, token_type_ids=None):
        """(verdict logits [B, 3], token logits [B, L])."""
        extra = {"token_type_ids": token_type_ids} if token_type_ids is not None else {}
        states = self.encoder(input_ids=input_ids, attention_mask=attention_mask, **extra).last_hidden_state
        weights = claim_mask.to(states.dtype).unsqueeze(-1)
        claim_mean = (states * weights).sum(1) / weights.sum(1).clamp(min=1.0)
        verdict = self.verdict_head(torch.cat([states[:, 0], claim_mean], dim=-1))
        return verdict, self.token_head(states).squeeze(-1)


def _encoder_layers(encoder) -> list:
    for path in ("encoder.layer", "layers", "transformer.layer", "layer"):
        module = encoder
        for part in path.split("."):
            module = getattr(module, part, None)
        if module is not None:
            return list(module)
    raise NeuralUnavailable(f"cannot find the layers of a {type(encoder).__name__} encoder to freeze")


@dataclass
class EncodedPairs:
    """Model inputs (dynamic padding), the claim-token mask and claim character offsets."""

    inputs: dict
    claim_mask: object
    """Bool [B, L]: tokens of the claim (the second segment)."""
    offsets: object
    """Long [B, L, 2]: character offsets in the claim of each claim token (0 elsewhere)."""

    def to(self, device: str) -> EncodedPairs:
        return EncodedPairs({k: v.to(device) for k, v in self.inputs.items()}, self.claim_mask.to(device),
                            self.offsets)

    def model_inputs(self) -> dict:
        return {**self.inputs, "claim_mask": self.claim_mask}


def encode_pairs(tokenizer, premises: list[str], claims: list[str], max_length: int) -> EncodedPairs:
    """Tokenize (premise, claim) pairs, cutting the premise only; a claim longer than
    max_length on its own is cut at a word-piece boundary (its offsets stay valid)."""
    if not getattr(tokenizer, "is_fast", False):
        raise NeuralUnavailable("the checker needs a fast (tokenizers) tokenizer for character offsets")
    budget = max_length - tokenizer.num_special_tokens_to_add(pair=True) - 1
    if budget < 1:
        raise NeuralUnavailable(f"max_length {max_length} leaves no room for a claim")
    alone = tokenizer(list(claims), add_special_tokens=False, return_offsets_mapping=True)["offset_mapping"]
    claims = [c if len(o) <= budget else c[:o[budget - 1][1]] for c, o in zip(claims, alone)]
    enc = tokenizer(list(premises), claims, truncation="only_first", max_length=max_length, padding="longest",
                    return_offsets_mapping=True, return_tensors="pt")
    n, length = enc["input_ids"].shape
    claim_mask = torch.zeros((n, length), dtype=torch.bool)
    for i in range(n):
        claim_mask[i] = torch.tensor([s == 1 for s in enc.sequence_ids(i)], dtype=torch.bool)
    offsets = enc["offset_mapping"].long() * claim_mask.unsqueeze(-1)
    return EncodedPairs({k: enc[k] for k in MODEL_INPUTS if k in enc}, claim_mask, offsets)


def token_targets(encoded: EncodedPairs, spans: list) -> object:
    """Float [B, L]: 1 for claim tokens overlapping an unsupported span, else 0 (premise,
    special and padding tokens are 0: mask them with `claim_mask`)."""
    out = torch.zeros(encoded.claim_mask.shape, dtype=torch.float32)
    for i, row in enumerate(spans):
        if not row:
            continue
        a, b = encoded.offsets[i, :, 0], encoded.offsets[i, :, 1]
        s = torch.tensor([x for x, _ in row]).unsqueeze(-1)
        e = torch.tensor([y for _, y in row]).unsqueeze(-1)
        hit = ((a.unsqueeze(0) < e) & (b.unsqueeze(0) > s)).any(0)
        out[i] = (hit & encoded.claim_mask[i]).float()
    return out


def build(settings: ModelSettings):
    """(SupportChecker with fresh heads on the pretrained base, tokenizer). Heads are
    initialised from torch's global RNG: seed it first for reproducible models."""
    path = resolve_model_path(settings.base)
    try:
        tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
        config = AutoConfig.from_pretrained(str(path), local_files_only=True)
        if hasattr(config, "hidden_dropout_prob"):
            config.hidden_dropout_prob = settings.dropout
        encoder = AutoModel.from_pretrained(str(path), config=config, local_files_only=True).float()
    except (OSError, ValueError) as exc:
        raise NeuralUnavailable(f"cannot load the checker's base encoder from {path}: {exc}") from None
    return SupportChecker(encoder, settings), tokenizer


def _weights_name() -> str:
    try:
        import safetensors.torch  # noqa: F401
    except ImportError:
        return "model.pt"
    return "model.safetensors"


def save(model: SupportChecker, tokenizer, settings: ModelSettings, out_dir: str | Path) -> Path:
    """Write the model directory (weights, encoder config, tokenizer, checker.json)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    state = {k: v.detach().to("cpu", copy=True).contiguous() for k, v in model.state_dict().items()}
    name = _weights_name()
    fd, tmp = tempfile.mkstemp(dir=out, prefix=f".{name}.", suffix=".tmp")
    os.close(fd)
    try:
        if name.endswith(".safetensors"):
            from safetensors.torch import save_file

            save_file(state, tmp, metadata={"format": "pt"})
        else:
            torch.save(state, tmp)
        os.chmod(tmp, 0o666 & ~current_umask())
        os.replace(tmp, out / name)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    model.encoder.config.save_pretrained(out)
    tokenizer.save_pretrained(out)
    meta = {"format": FORMAT, "settings": asdict(settings), "labels": list(LABELS), "weights": name,
            "sha256": sha256_file(out / name), "encoder": type(model.encoder).__name__,
            "transformers": transformers.__version__, "torch": torch.__version__,
            "heads": "verdict: [CLS] ++ mean(claim tokens) -> Linear-GELU-Linear -> 3; token: Linear -> 1"}
    atomic_write_text(out / CHECKER_FILE, json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return out


def read_meta(out_dir: str | Path) -> dict:
    """checker.json of a model directory (NeuralUnavailable when absent or unreadable)."""
    path = Path(out_dir) / CHECKER_FILE
    if not path.is_file():
        raise NeuralUnavailable(f"no trained checker at {out_dir}: {CHECKER_FILE} is missing")
    try:
        meta = json.loads(path.read_text("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise NeuralUnavailable(f"{path}: damaged ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or "sha256" not in meta:
        raise NeuralUnavailable(f"{path}: not a checker.json of format {FORMAT}")
    if tuple(meta.get("labels", ())) != LABELS:
        raise NeuralUnavailable(f"{path}: labels {meta.get('labels')} differ from {list(LABELS)}")
    return meta


def load(out_dir: str | Path, device: str = "auto"):
    """(SupportChecker in eval mode on the device, tokenizer, settings) from a model
    directory written by `save`, after checking the weights' sha256."""
    out = Path(out_dir)
    meta = read_meta(out)
    weights = out / str(meta.get("weights", ""))
    if not weights.is_file():
        raise NeuralUnavailable(f"checker at {out}: weights file {weights.name} is missing")
    if sha256_file(weights) != meta["sha256"]:
        raise NeuralUnavailable(f"checker at {out}: {weights.name} is corrupt (sha256 differs from {CHECKER_FILE})")
    known = {f.name for f in fields(ModelSettings)}
    settings = ModelSettings(**{k: v for k, v in meta.get("settings", {}).items() if k in known})
    try:
        config = AutoConfig.from_pretrained(str(out), local_files_only=True)
        tokenizer = AutoTokenizer.from_pretrained(str(out), local_files_only=True)
        model = SupportChecker(AutoModel.from_config(config), settings)
        if weights.suffix == ".safetensors":
            from safetensors.torch import load_file

            state = load_file(str(weights))
        else:
            state = torch.load(weights, map_location="cpu", weights_only=True)
        model.load_state_dict(state, strict=True)
    except ImportError:
        raise NeuralUnavailable(f"checker at {out}: safetensors is not installed to read {weights.name}") from None
    except (OSError, ValueError, RuntimeError, KeyError) as exc:
        raise NeuralUnavailable(f"checker at {out}: cannot load ({exc})") from None
    return model.to(resolve_device(device)).eval(), tokenizer, settings
