"""The support checker on ONNX Runtime (CPU): `CheckerScorer.load(..., quantize="onnx")`.

The fp32 model is exported once to ONNX (TorchScript exporter, opset `OPSET`, dynamic batch and
sequence axes, logits out) and cached outside the read-only model directory, at `cache_dir()/onnx/<key>.onnx`: `cache_dir()` is `$EVIDENCECHAIN_CACHE_DIR`, else
`$XDG_CACHE_HOME/evidencechain`, else `~/.cache/evidencechain` (as for the default model), and
`<key>` hashes the weights' sha256, the encoder's config.json, the torch and transformers versions,
the opset and `EXPORT_FORMAT`. The file is written to a temporary file and renamed into place, so
concurrent loads never read half a file. Each export is checked against torch on a batch of
another shape before it is kept (a graph with a traced-in shape is refused, not cached).

`OnnxChecker` is called like the torch `SupportChecker` (keyword tensors in, (verdict, token)
logits out), so `infer.predict` scores with it unchanged: same batching, input order, softmax /
sigmoid and token spans.

onnxruntime and onnx (the exporter needs it; a cached export does not) come from the `neural`
extra; without them loading raises `NeuralUnavailable` saying what to install.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
import warnings
from pathlib import Path

from ..io import cache_dir, current_umask
from ..torch_support import NeuralUnavailable
from .model import encode_pairs, read_meta, torch
from .settings import ModelSettings

__all__ = ["EXPORT_FORMAT", "OPSET", "OnnxChecker", "cache_dir", "cache_path", "export_onnx", "load_onnx",
           "require_onnxruntime"]

OPSET = 17
EXPORT_FORMAT = 1
"""Bump when the exported graph changes (inputs, outputs, wrapper): old cache entries are ignored."""
OUTPUTS = ("verdict", "tokens")
INSTALL = "pip install -e '.[neural]' (or: pip install onnxruntime onnx)"
CHECK_TOLERANCE = 1e-3
_SAMPLE = (["the first premise is a longer sentence with several words in it .", "short ."],
           ["a claim .", "another claim that is somewhat longer ."])
_CHECK = (["one .", "a premise of middling length here .", "yet another premise , the longest of the three here ."],
          ["the claim is long enough to change the sequence length .", "x .", "a b c d"])


def require_onnxruntime():
    try:
        import onnxruntime
    except ImportError:
        raise NeuralUnavailable(f"checker quantize 'onnx' needs onnxruntime, which is not installed: {INSTALL}") \
            from None
    return onnxruntime


def cache_path(model_dir: str | Path) -> Path:
    """Where the ONNX export of this model directory is cached (see the module docstring)."""
    import transformers

    model_dir = Path(model_dir)
    meta = read_meta(model_dir)
    config = model_dir / "config.json"
    blob = json.dumps({"weights_sha256": meta["sha256"], "checker": meta.get("settings", {}),
                       "config_sha256": hashlib.sha256(config.read_bytes()).hexdigest() if config.is_file() else "",
                       "torch": torch.__version__, "transformers": transformers.__version__, "opset": OPSET,
                       "format": EXPORT_FORMAT}, sort_keys=True)
    return cache_dir() / "onnx" / f"{hashlib.sha256(blob.encode()).hexdigest()[:32]}.onnx"


class _Positional(torch.nn.Module):
    """The checker with positional inputs in `names` order (what the exporter traces)."""

    def __init__(self, model, names: list[str]):
        super().__init__()
        self.model, self.names = model, list(names)

    def forward(self, *tensors):
        return self.model(**dict(zip(self.names, tensors)))


def export_onnx(model, tokenizer, settings: ModelSettings, dest: str | Path) -> Path:
    """Export a SupportChecker (fp32, CPU) to `dest`: inputs named as its model inputs, outputs
    `verdict` [batch, 3] and `tokens` [batch, sequence] logits, dynamic batch and sequence axes."""
    try:
        import onnx  # noqa: F401 - torch's exporter needs it
    except ImportError:
        raise NeuralUnavailable(f"exporting the checker to ONNX needs the onnx package, which is not installed: "
                                f"{INSTALL}") from None
    model = model.to("cpu").float().eval()
    enc = encode_pairs(tokenizer, *_SAMPLE, settings.max_length).model_inputs()
    names = list(enc)
    axes = {name: {0: "batch", 1: "sequence"} for name in names}
    axes.update(verdict={0: "batch"}, tokens={0: "batch", 1: "sequence"})
    with warnings.catch_warnings(), torch.inference_mode(False), torch.no_grad():
        warnings.simplefilter("ignore")
        # the wrapper in eval mode too: the exporter restores the wrapper's mode recursively afterwards
        torch.onnx.export(_Positional(model, names).eval(), tuple(enc[n] for n in names), str(dest), dynamo=False,
                          input_names=names, output_names=list(OUTPUTS), dynamic_axes=axes, opset_version=OPSET,
                          do_constant_folding=True)
    model.eval()
    return Path(dest)


def _session(path: Path):
    ort = require_onnxruntime()
    options = ort.SessionOptions()
    options.intra_op_num_threads = max(1, torch.get_num_threads())
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    return ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])


class OnnxChecker:
    """An ONNX Runtime session called like a SupportChecker: keyword tensors in, (verdict logits
    [B, 3], token logits [B, L]) float32 CPU tensors out."""

    def __init__(self, session, path: Path):
        self.session, self.path = session, Path(path)
        self.input_names = [i.name for i in session.get_inputs()]

    def eval(self) -> OnnxChecker:
        return self

    def __call__(self, **inputs):
        feed = {name: inputs[name].detach().cpu().numpy() for name in self.input_names}
        verdict, tokens = self.session.run(list(OUTPUTS), feed)
        return torch.from_numpy(verdict), torch.from_numpy(tokens)


def _check(checker: OnnxChecker, model, tokenizer, settings: ModelSettings) -> None:
    """Refuse an export whose outputs differ from torch on a batch of another shape."""
    enc = encode_pairs(tokenizer, *_CHECK, settings.max_length).model_inputs()
    with torch.inference_mode():
        want = model(**enc)
    got = checker(**enc)
    diff = max(float((w.float() - g).abs().max()) for w, g in zip(want, got))
    if not diff <= CHECK_TOLERANCE:
        raise NeuralUnavailable(f"the ONNX export of the checker differs from torch by {diff:.3g} logits "
                                f"(> {CHECK_TOLERANCE}); use quantize 'none' or 'int8'")


def load_onnx(model, tokenizer, settings: ModelSettings, model_dir: str | Path) -> OnnxChecker:
    """The cached export of this checker on ONNX Runtime, exporting (and caching) it first when
    absent or unreadable. An unwritable cache directory exports to a temporary file instead."""
    require_onnxruntime()
    path = cache_path(model_dir)
    if path.is_file():
        try:
            return OnnxChecker(_session(path), path)
        except Exception:  # damaged cache entry (onnxruntime's own error types): export again
            pass
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        os.close(fd)
    except OSError as exc:
        warnings.warn(f"cannot cache the checker's ONNX export in {path.parent} ({exc}); exporting to a "
                      f"temporary file (set EVIDENCECHAIN_CACHE_DIR to a writable directory)", stacklevel=2)
        with tempfile.TemporaryDirectory() as tmpdir:
            checker = OnnxChecker(_session(export_onnx(model, tokenizer, settings, Path(tmpdir) / path.name)), path)
            _check(checker, model, tokenizer, settings)
            return checker
    try:
        export_onnx(model, tokenizer, settings, tmp)
        checker = OnnxChecker(_session(Path(tmp)), path)
        _check(checker, model, tokenizer, settings)
        os.chmod(tmp, 0o666 & ~current_umask())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return checker
