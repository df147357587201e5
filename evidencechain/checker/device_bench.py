"""The learned checker timed on a GPU machine that has neither the corpora nor the spaCy model (a
lent accelerator reached over a small transfer). `export` writes, here, the pairs that `make bench`
times (`bench.throughput_pairs`), a copy of the checker with half-precision weights (half the
bytes; scored in float32 on the CPU, bfloat16 on the GPU, as `infer.predict` does) and the
copy's CPU probabilities on the pairs. `measure`, run there, times the copy on the GPU at a few
batch sizes (after a whole untimed pass) and counts the pairs whose verdict (the likeliest label) is the CPU's.
`python -m evidencechain.bench checker-export / checker-device / record-device` run them."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

from ..io import atomic_write_text, sha256_file
from .model import CHECKER_FILE, read_meta, torch

PAIRS = "pairs.json"
COPIED = ("config.json", "tokenizer.json", "tokenizer_config.json")
"""Files of a checker directory the copy needs besides its weights and `CHECKER_FILE`."""


def export(checker_dir: str | Path, premises: list[str], claims: list[str], out: str | Path) -> Path:
    """Write `out/checker` (half-precision weights) and `out/pairs.json` (the pairs and the copy's
    CPU probabilities); return `out`."""
    from safetensors.torch import load_file, save_file

    from .infer import CheckerScorer

    source, out = Path(checker_dir), Path(out)
    meta = read_meta(source)
    copy = out / "checker"
    copy.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        if (source / name).is_file():
            shutil.copyfile(source / name, copy / name)
    state = load_file(str(source / meta["weights"]))
    half = {k: v.half() if v.is_floating_point() else v for k, v in state.items()}
    save_file(half, str(copy / "model.safetensors"))
    meta = {**meta, "weights": "model.safetensors", "sha256": sha256_file(copy / "model.safetensors"),
            "note": f"half-precision copy of {source} for timing on another machine"}
    atomic_write_text(copy / CHECKER_FILE, json.dumps(meta, indent=2, sort_keys=True) + "\n")
    probs = CheckerScorer.load(copy, device="cpu").score(premises, claims).probs
    atomic_write_text(out / PAIRS, json.dumps({"checker": str(source), "premises": premises, "claims": claims,
                                               "cpu_probs": np.round(probs, 6).tolist()}) + "\n")
    return out


def measure(exported: str | Path, batch_sizes: tuple[int, ...] = (64, 256), device: str = "cuda") -> dict:
    """Pairs per second of the exported checker on the GPU (`device`) at each batch size, and how many
    of its verdicts are the CPU's (with the largest difference of a probability)."""
    from .infer import CheckerScorer, throughput

    exported = Path(exported)
    data = json.loads((exported / PAIRS).read_text("utf-8"))
    premises, claims, cpu = data["premises"], data["claims"], np.asarray(data["cpu_probs"], dtype=np.float32)
    rows, probs = [], None
    for size in batch_sizes:
        scorer = CheckerScorer.load(exported / "checker", device=device, batch_size=size)
        scorer.score(premises, claims)  # a whole pass first: each padded length's kernels are chosen once
        rows.append({"label": f"{device} {'bf16' if device == 'cuda' else 'fp32'}, batch {size}",
                     "pairs_per_s": round(throughput(scorer, premises, claims), 1)})
        probs = scorer.score(premises, claims).probs
    name = torch.cuda.get_device_name(0) if device == "cuda" else device
    return {"device": name, "torch": torch.__version__, "cuda": torch.version.cuda,
            "pairs": len(claims), "rows": rows,
            "verdicts_agree": int((probs.argmax(1) == cpu.argmax(1)).sum()),
            "max_probability_difference": round(float(np.abs(probs - cpu).max()), 4)}
