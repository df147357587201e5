"""The checker on ONNX Runtime (`quantize="onnx"`): same outputs as fp32 torch, exported once and
cached outside the model directory, a one-line error without onnxruntime. A tiny random BERT
trained for a few steps stands in for MiniLM (seconds)."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.neural
torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("onnxruntime")

from checker_support import save_tiny_bert  # noqa: E402

from evidencechain.checker import onnx_runtime  # noqa: E402
from evidencechain.checker.infer import CheckerScorer  # noqa: E402
from evidencechain.checker.model import ModelSettings  # noqa: E402
from evidencechain.checker.records import Pair  # noqa: E402
from evidencechain.checker.train import TrainSettings, train  # noqa: E402
from evidencechain.config import config_from_dict  # noqa: E402
from evidencechain.errors import ConfigError, EvidenceChainError  # noqa: E402
from evidencechain.features.neural import NeuralUnavailable  # noqa: E402

CITIES = [("paris", "france", "seine"), ("berlin", "germany", "spree"), ("rome", "italy", "tiber"),
          ("madrid", "spain", "manzanares")]
EXTRA = "the city has a large old tower and many people visit it every year in summer"


def _pairs() -> list[Pair]:
    out = []
    for i, (city, country, river) in enumerate(CITIES):
        other = CITIES[(i + 1) % len(CITIES)]
        premise = f"{city} is the capital of {country} . the river {river} flows through {city} . {EXTRA} ."
        if i % 2:
            premise = f"{premise} {EXTRA} . {EXTRA} ."
        for claim, label, word in [
            (f"{city} is the capital of {country} .", "supported", None),
            (f"the river {other[2]} flows through {city} .", "conflict", other[2]),
            (f"{city} is the largest city in {country} .", "baseless", "largest"),
            (f"many people visit {city} every year in winter .", "baseless", "winter"),
        ]:
            spans = ((claim.index(word), claim.index(word) + len(word)),) if word else ()
            out.append(Pair(premise, claim, label, spans, token_labels=True, source="tiny", group=city))
    return out


PAIRS = _pairs()


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory) -> Path:
    words = (w for p in PAIRS for w in f"{p.premise} {p.claim}".split())
    base = save_tiny_bert(words, tmp_path_factory.mktemp("tiny-bert"))
    settings = ModelSettings(base=str(base), max_length=48, freeze_layers=1, dropout=0.1)
    fast = TrainSettings(epochs=2, batch_size=8, lr=1e-3, head_lr=5e-3, threads=1, checkpoint_every=100)
    out = tmp_path_factory.mktemp("checker")
    train(PAIRS[:12], PAIRS[12:], settings, fast, out, 7, progress=False)
    return out


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("EVIDENCECHAIN_CACHE_DIR", str(root))
    return root


@pytest.fixture
def exports(monkeypatch) -> list[Path]:
    """Every ONNX export of the test, by destination."""
    calls: list[Path] = []
    real = onnx_runtime.export_onnx

    def counting(model, tokenizer, settings, dest):
        calls.append(Path(dest))
        return real(model, tokenizer, settings, dest)

    monkeypatch.setattr(onnx_runtime, "export_onnx", counting)
    return calls


def _inputs() -> tuple[list[str], list[str]]:
    """Pairs of many lengths (one premise cut at max_length), shuffled so batches are mixed."""
    premises, claims = [p.premise for p in PAIRS], [p.claim for p in PAIRS]
    premises += [" ".join(["paris"] * 120), "rome ."]
    claims += ["the river seine flows through paris .", "rome"]
    order = np.random.default_rng(1).permutation(len(claims))
    return [premises[i] for i in order], [claims[i] for i in order]


def _snapshot(path: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(path)): (p.stat().st_size, p.stat().st_mtime_ns) for p in path.rglob("*")}


def test_onnx_matches_fp32_torch_in_input_order(model_dir, cache, exports):
    before = _snapshot(model_dir)
    premises, claims = _inputs()
    fp32 = CheckerScorer.load(model_dir, device="cpu", batch_size=5).score(premises, claims)
    scorer = CheckerScorer.load(model_dir, quantize="onnx", batch_size=5)
    assert scorer.device == "cpu" and "onnxruntime" in scorer.describe()
    onnx = scorer.score(premises, claims)
    assert onnx.probs.shape == fp32.probs.shape == (len(claims), 3) and onnx.probs.dtype == np.float32
    assert np.abs(onnx.probs - fp32.probs).max() < 1e-4
    assert np.allclose(onnx.probs.sum(1), 1.0, atol=1e-5)
    assert fp32.probs.std(0).max() > 1e-3, "the tiny checker should not score every pair alike"
    for claim, (offsets, probs), (want_offsets, want_probs) in zip(claims, onnx.token_spans, fp32.token_spans):
        assert offsets.dtype == np.int32 and probs.dtype == np.float32
        assert np.array_equal(offsets, want_offsets)
        assert [claim[a:b] for a, b in offsets] == claim.split()
        assert np.abs(probs - want_probs).max() < 1e-4
    for k in (0, len(claims) - 1):  # one pair alone: no padding, another sequence length
        alone = scorer.score([premises[k]], [claims[k]])
        assert np.abs(alone.probs[0] - fp32.probs[k]).max() < 1e-4
        assert np.array_equal(alone.token_spans[0][0], fp32.token_spans[k][0])
    empty = scorer.score([], [])
    assert empty.probs.shape == (0, 3) and empty.token_spans == []
    assert len(exports) == 1
    assert _snapshot(model_dir) == before, "the model directory is read-only input"
    cached = sorted(p.relative_to(cache) for p in cache.rglob("*") if p.is_file())
    assert cached == [Path("onnx") / scorer.model.path.name] and scorer.model.path.suffix == ".onnx"


def test_the_export_is_cached_and_a_damaged_entry_is_redone(model_dir, cache, exports):
    first = CheckerScorer.load(model_dir, quantize="onnx")
    path = first.model.path
    assert path.parent == cache / "onnx" and path.is_file() and len(exports) == 1
    assert exports[0].parent == path.parent and exports[0] != path, "exported to a temporary file, then renamed"
    assert not [p for p in path.parent.iterdir() if p != path], "no temporary file left behind"
    mtime = path.stat().st_mtime_ns
    second = CheckerScorer.load(model_dir, quantize="onnx")
    assert second.model.path == path and len(exports) == 1 and path.stat().st_mtime_ns == mtime
    premises, claims = _inputs()
    assert np.array_equal(first.score(premises, claims).probs, second.score(premises, claims).probs)
    path.write_bytes(b"not an onnx model")
    third = CheckerScorer.load(model_dir, quantize="onnx")
    assert len(exports) == 2 and path.stat().st_size > 1000
    assert np.abs(third.score(premises, claims).probs - first.score(premises, claims).probs).max() < 1e-6


def test_a_cached_export_needs_no_onnx_package(model_dir, cache, exports, monkeypatch):
    CheckerScorer.load(model_dir, quantize="onnx")
    monkeypatch.setitem(sys.modules, "onnx", None)
    assert CheckerScorer.load(model_dir, quantize="onnx").model.path.is_file() and len(exports) == 1
    for entry in (cache / "onnx").iterdir():
        entry.unlink()
    with pytest.raises(NeuralUnavailable, match=r"needs the onnx package.*pip install") as info:
        CheckerScorer.load(model_dir, quantize="onnx")
    assert "\n" not in str(info.value)
    assert not list((cache / "onnx").iterdir()), "a failed export leaves nothing in the cache"


def test_an_unwritable_cache_exports_to_a_temporary_file(model_dir, tmp_path, monkeypatch, exports):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("EVIDENCECHAIN_CACHE_DIR", str(blocker / "cache"))
    with pytest.warns(UserWarning, match="EVIDENCECHAIN_CACHE_DIR"):
        scorer = CheckerScorer.load(model_dir, quantize="onnx")
    assert len(exports) == 1 and not exports[0].exists()
    assert scorer.score([PAIRS[0].premise], [PAIRS[0].claim]).probs.shape == (1, 3)


def test_without_onnxruntime_onnx_fails_with_one_line_saying_what_to_install(model_dir, cache, exports,
                                                                              monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    with pytest.raises(NeuralUnavailable) as info:
        CheckerScorer.load(model_dir, quantize="onnx")
    message = str(info.value)
    assert isinstance(info.value, EvidenceChainError) and "\n" not in message
    assert "onnxruntime" in message and "pip install" in message
    assert not exports and not cache.exists()
    assert CheckerScorer.load(model_dir, quantize="none").quantize == "none", "other paths need no onnxruntime"


def test_onnx_is_a_cpu_option_everywhere_quantize_is_checked(model_dir, cache):
    with pytest.raises(ConfigError, match="runs on CPU only"):
        CheckerScorer.load(model_dir, device="cuda", quantize="onnx")
    with pytest.raises(ConfigError, match="'onnx'"):
        CheckerScorer.load(model_dir, quantize="int4")
    base = {"corpora": {"a": {"format": "cliff", "path": "x"}}, "evaluations": [{"fit": "a", "test": ["a"]}]}
    assert config_from_dict({**base, "features": {"checker_quantize": "onnx"}}).features.checker_quantize == "onnx"
    with pytest.raises(ConfigError, match="checker_quantize.*'onnx'"):
        config_from_dict({**base, "features": {"checker_quantize": "ort"}})


def test_cache_location_follows_the_environment(model_dir, tmp_path, monkeypatch):
    monkeypatch.delenv("EVIDENCECHAIN_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    path = onnx_runtime.cache_path(model_dir)
    assert path.parent == tmp_path / "xdg" / "evidencechain" / "onnx" and path.suffix == ".onnx"
    monkeypatch.setenv("EVIDENCECHAIN_CACHE_DIR", str(tmp_path / "mine"))
    assert onnx_runtime.cache_path(model_dir) == tmp_path / "mine" / "onnx" / path.name
    monkeypatch.setattr(torch, "__version__", "0.0.0-other")
    assert onnx_runtime.cache_path(model_dir).name != path.name, "another torch exports again"


def test_export_leaves_the_torch_model_in_eval_mode(model_dir, tmp_path):
    from evidencechain.checker.model import load

    model, tokenizer, settings = load(model_dir, "cpu")
    onnx_runtime.export_onnx(model, tokenizer, settings, tmp_path / "m.onnx")
    assert not any(m.training for m in model.modules()), "dropout after export would make scores random"
    names = [i.name for i in onnx_runtime._session(tmp_path / "m.onnx").get_inputs()]
    assert names == ["input_ids", "attention_mask", "token_type_ids", "claim_mask"]
