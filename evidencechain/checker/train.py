"""Fine-tuning the support checker: deterministic, length-grouped, resumable.

Every epoch's batch order comes from a torch.Generator seeded by (random_state, epoch):
the pairs are shuffled, cut into mega-batches of 50 batches, sorted by length inside each
mega-batch, cut into batches (padded to their own longest pair) and the batches shuffled.
The loss is the class-weighted cross-entropy of the verdict plus `token_loss_weight` times
the BCE of the token head over the claim tokens of pairs whose spans are known.

On CPU, two trainings with the same inputs and `threads` give bit-identical weights
(deterministic algorithms, fixed thread count). On GPU the encoder runs under bf16
autocast, seeded but without the deterministic-algorithms guarantee.

Every `checkpoint_every` steps out_dir/checkpoint.pt is replaced atomically (model,
optimizer, scheduler, RNG states, step, input hash); `train` continues from it when its
input hash matches. `max_steps` stops the run at that global step without changing the
learning-rate schedule, so a later call continues exactly where it stopped; the model
is saved in either case and the checkpoint removed only once the schedule is complete.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import tempfile
import time
from collections import deque
from dataclasses import asdict
from pathlib import Path

import numpy as np

from ..errors import ConfigError
from .infer import autocast, predict
from .model import build, encode_pairs, resolve_device, save, token_targets, torch
from .records import LABELS, Pair
from .settings import ModelSettings, TrainSettings

__all__ = ["CHECKPOINT", "TrainSettings", "default_inputs_hash", "epoch_batches", "evaluate", "train"]

CHECKPOINT = "checkpoint.pt"
MEGA_BATCH = 50
LOSS_WINDOW = 50


def default_inputs_hash(train_pairs: list[Pair], validation_pairs: list[Pair], model_settings: ModelSettings,
                        train_settings: TrainSettings, random_state: int) -> str:
    """What decides the weights: the pairs, the settings (not checkpoint_every / max_steps), the seed."""
    digest = hashlib.sha256()
    keep = asdict(train_settings)
    keep.pop("checkpoint_every")
    keep.pop("max_steps")
    digest.update(json.dumps([asdict(model_settings), keep, random_state], sort_keys=True).encode())
    for part in (train_pairs, validation_pairs):
        for p in part:
            digest.update(json.dumps([p.premise, p.claim, p.label, p.spans, p.token_labels],
                                     ensure_ascii=False).encode() + b"\n")
        digest.update(b"\0")
    return digest.hexdigest()


def epoch_batches(lengths: np.ndarray, batch_size: int, random_state: int, epoch: int) -> list[np.ndarray]:
    """Length-grouped batches of indices for one epoch (a function of its arguments only)."""
    g = torch.Generator().manual_seed((random_state * 1_000_003 + epoch) % (1 << 63))
    perm = torch.randperm(len(lengths), generator=g).numpy()
    batches = []
    for m in range(0, len(perm), batch_size * MEGA_BATCH):
        chunk = perm[m:m + batch_size * MEGA_BATCH]
        chunk = chunk[np.argsort(-lengths[chunk], kind="stable")]
        batches.extend(chunk[i:i + batch_size] for i in range(0, len(chunk), batch_size))
    return [batches[i] for i in torch.randperm(len(batches), generator=g).tolist()]


def _class_weights(pairs: list[Pair], balance: bool):
    counts = np.array([sum(p.label == name for p in pairs) for name in LABELS], dtype=np.float64)
    if not balance:
        return None
    weights = np.where(counts > 0, counts.sum() / (len(LABELS) * np.maximum(counts, 1)), 0.0)
    return torch.tensor(weights, dtype=torch.float32)


def _optimizer(model, ts: TrainSettings):
    decay, plain, head = [], [], []
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        if not name.startswith("encoder."):
            head.append(p)
        else:
            (decay if p.ndim >= 2 else plain).append(p)
    groups = [{"params": decay, "lr": ts.lr, "weight_decay": ts.weight_decay},
              {"params": plain, "lr": ts.lr, "weight_decay": 0.0},
              {"params": head, "lr": ts.head_lr, "weight_decay": ts.weight_decay}]
    return torch.optim.AdamW([g for g in groups if g["params"]], lr=ts.lr)


def _scheduler(optimizer, total: int, warmup_fraction: float):
    warmup = int(round(total * warmup_fraction))

    def factor(step: int) -> float:
        if step < warmup:
            return (step + 1) / (warmup + 1)
        return max(0.0, (total - step) / max(1, total - warmup))

    return torch.optim.lr_scheduler.LambdaLR(optimizer, factor)


def _train_step(model, tokenizer, batch: list[Pair], ms: ModelSettings, ts: TrainSettings, device: str,
                class_weights, optimizer, scheduler) -> tuple[float, float]:
    enc = encode_pairs(tokenizer, [p.premise for p in batch], [p.claim for p in batch], ms.max_length)
    targets = token_targets(enc, [p.spans for p in batch])
    known = enc.claim_mask & torch.tensor([p.token_labels for p in batch]).unsqueeze(-1)
    labels = torch.tensor([LABELS.index(p.label) for p in batch], device=device)
    with autocast(device):
        verdict, tokens = model(**enc.to(device).model_inputs())
    weight = class_weights.to(device) if class_weights is not None else None
    loss_v = torch.nn.functional.cross_entropy(verdict.float(), labels, weight=weight)
    loss = loss_v
    loss_t = torch.zeros((), device=device)
    if bool(known.any()):
        known = known.to(device)
        loss_t = torch.nn.functional.binary_cross_entropy_with_logits(tokens.float()[known],
                                                                      targets.to(device)[known])
        loss = loss + ts.token_loss_weight * loss_t
    loss.backward()
    if ts.max_grad_norm > 0:
        torch.nn.utils.clip_grad_norm_([p for p in model.parameters() if p.requires_grad], ts.max_grad_norm)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)
    return float(loss_v.detach()), float(loss_t.detach())


def _rng_state(device: str) -> dict:
    kind, keys, pos, has_gauss, cached = np.random.get_state()
    return {"torch": torch.get_rng_state(), "cuda": torch.cuda.get_rng_state_all() if device == "cuda" else [],
            "python": random.getstate(), "numpy": [kind, keys.tolist(), pos, has_gauss, cached]}


def _set_rng_state(state: dict, device: str) -> None:
    torch.set_rng_state(state["torch"])
    if device == "cuda" and state["cuda"]:
        torch.cuda.set_rng_state_all(state["cuda"])
    random.setstate(_tuples(state["python"]))
    kind, keys, pos, has_gauss, cached = state["numpy"]
    np.random.set_state((kind, np.array(keys, dtype=np.uint32), pos, has_gauss, cached))


def _tuples(value):
    return tuple(_tuples(v) for v in value) if isinstance(value, list | tuple) else value


def _write_checkpoint(path: Path, state: dict) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            torch.save(state, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _read_checkpoint(path: Path, inputs_hash: str) -> dict | None:
    if not path.is_file():
        return None
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception:
        return None
    if not isinstance(state, dict) or state.get("format") != 1 or state.get("inputs_hash") != inputs_hash:
        return None
    return state


def train(train_pairs: list[Pair], validation_pairs: list[Pair], model_settings: ModelSettings,
          train_settings: TrainSettings, out_dir: str | Path, random_state: int, progress: bool = True,
          inputs_hash: str | None = None) -> dict:
    """Train a checker into `out_dir` (model files, see model.save) and return the metrics for
    its card. `inputs_hash` identifies the inputs for resuming (default: computed here)."""
    ms, ts = model_settings, train_settings
    if not train_pairs:
        raise ConfigError("checker training: no training pairs")
    if ts.batch_size <= 0 or ts.epochs <= 0 or ts.threads <= 0 or ts.checkpoint_every <= 0:
        raise ConfigError("checker training: epochs, batch_size, threads and checkpoint_every must be positive")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    key = inputs_hash or default_inputs_hash(train_pairs, validation_pairs, ms, ts, random_state)
    device = resolve_device(ts.device)
    saved = (torch.get_num_threads(), torch.are_deterministic_algorithms_enabled(),
             torch.is_deterministic_algorithms_warn_only_enabled())
    torch.set_num_threads(ts.threads)
    if device == "cpu":
        torch.use_deterministic_algorithms(True)
    try:
        return _run(train_pairs, validation_pairs, ms, ts, out, random_state, progress, key, device)
    finally:
        torch.set_num_threads(saved[0])
        torch.use_deterministic_algorithms(saved[1], warn_only=saved[2])


def _run(train_pairs: list[Pair], validation_pairs: list[Pair], ms: ModelSettings, ts: TrainSettings, out: Path,
         random_state: int, progress: bool, key: str, device: str) -> dict:
    random.seed(random_state)
    np.random.seed(random_state % (1 << 32))
    torch.manual_seed(random_state)
    model, tokenizer = build(ms)
    model.to(device).train()
    optimizer = _optimizer(model, ts)
    per_epoch = -(-len(train_pairs) // ts.batch_size)
    total = per_epoch * ts.epochs
    scheduler = _scheduler(optimizer, total, ts.warmup_fraction)
    class_weights = _class_weights(train_pairs, ts.class_balance)
    lengths = np.array([len(p.premise) + len(p.claim) for p in train_pairs], dtype=np.int64)
    path = out / CHECKPOINT
    step, elapsed, seen = 0, 0.0, 0
    losses: deque = deque(maxlen=LOSS_WINDOW)
    state = _read_checkpoint(path, key)
    if state is not None:
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        _set_rng_state(state["rng"], device)
        step, elapsed, seen = int(state["step"]), float(state["elapsed"]), int(state["seen"])
        losses.extend(tuple(x) for x in state["losses"])
    resumed_from = step
    stop = min(total, ts.max_steps) if ts.max_steps > 0 else total

    def checkpoint() -> None:
        _write_checkpoint(path, {"format": 1, "inputs_hash": key, "step": step, "model": model.state_dict(),
                                 "optimizer": optimizer.state_dict(), "scheduler": scheduler.state_dict(),
                                 "rng": _rng_state(device), "elapsed": elapsed + time.perf_counter() - t0,
                                 "seen": seen, "losses": [list(x) for x in losses]})

    from tqdm.auto import tqdm

    bar = tqdm(total=stop, initial=min(step, stop), desc="checker train", unit="step", disable=not progress)
    t0 = time.perf_counter()
    try:
        for epoch in range(step // per_epoch, ts.epochs):
            batches = epoch_batches(lengths, ts.batch_size, random_state, epoch)
            for idx in batches[step - epoch * per_epoch:]:
                if step >= stop:
                    break
                batch = [train_pairs[i] for i in idx]
                losses.append(_train_step(model, tokenizer, batch, ms, ts, device, class_weights, optimizer,
                                          scheduler))
                step += 1
                seen += len(batch)
                bar.update(1)
                if step % 10 == 0 or step == stop:
                    bar.set_postfix(loss=f"{np.mean([v for v, _ in losses]):.3f}", epoch=epoch + 1)
                if step % ts.checkpoint_every == 0 and step < total:
                    checkpoint()
            if step >= stop:
                break
        if step < total and (state is None or step != resumed_from) and step % ts.checkpoint_every:
            checkpoint()
    finally:
        bar.close()
    train_seconds = elapsed + time.perf_counter() - t0
    save(model, tokenizer, ms, out)
    t1 = time.perf_counter()
    metrics = evaluate(model, tokenizer, validation_pairs, ms, device, max(ts.batch_size * 4, 32))
    if step >= total and path.exists():
        path.unlink()
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    return {"steps": step, "schedule_steps": total, "complete": step >= total, "resumed_from_step": resumed_from,
            "epochs": ts.epochs, "train_pairs": len(train_pairs), "validation_pairs": len(validation_pairs),
            "device": device, "precision": "bf16 autocast" if device == "cuda" else "fp32",
            "threads": ts.threads, "trainable_parameters": trainable, "train_seconds": round(train_seconds, 2),
            "eval_seconds": round(time.perf_counter() - t1, 2),
            "wall_seconds": round(train_seconds + time.perf_counter() - t1, 2),
            "pairs_per_second": seen / train_seconds if train_seconds > 0 else 0.0,
            "final_loss_verdict": float(np.mean([v for v, _ in losses])) if losses else None,
            "final_loss_token": float(np.mean([t for _, t in losses])) if losses else None,
            **metrics}


def evaluate(model, tokenizer, pairs: list[Pair], ms: ModelSettings, device: str, batch_size: int = 64) -> dict:
    """Validation metrics: accuracy, balanced accuracy, per-class recall, ROC-AUC of
    P(supported) for supported vs not, token P/R/F1 (unsupported = positive) on the pairs
    with token labels. Undefined values are None."""
    if not pairs:
        return {"validation_accuracy": None}
    scores = predict(model, tokenizer, [p.premise for p in pairs], [p.claim for p in pairs], ms.max_length,
                     batch_size, device)
    y = np.array([LABELS.index(p.label) for p in pairs])
    pred = scores.probs.argmax(1)
    out: dict = {"validation_accuracy": float((pred == y).mean())}
    recalls = []
    for c, name in enumerate(LABELS):
        r = float((pred[y == c] == c).mean()) if (y == c).any() else None
        out[f"validation_recall_{name}"] = r
        if r is not None:
            recalls.append(r)
    out["validation_balanced_accuracy"] = float(np.mean(recalls))
    positive = y == 0
    auc = None
    if 0 < positive.sum() < len(y):
        from sklearn.metrics import roc_auc_score

        auc = float(roc_auc_score(positive, scores.probs[:, 0]))
    out["validation_roc_auc_supported"] = auc
    tp = fp = fn = 0
    labelled = 0
    for p, (offsets, probs) in zip(pairs, scores.token_spans):
        if not p.token_labels:
            continue
        labelled += 1
        gold = np.zeros(len(probs), dtype=bool)
        for s, e in p.spans:
            gold |= (offsets[:, 0] < e) & (offsets[:, 1] > s)
        hit = probs >= 0.5
        tp += int((hit & gold).sum())
        fp += int((hit & ~gold).sum())
        fn += int((~hit & gold).sum())
    out["validation_token_pairs"] = labelled
    precision = tp / (tp + fp) if tp + fp else (None if not labelled else 0.0)
    recall = tp / (tp + fn) if tp + fn else None
    f1 = (2 * precision * recall / (precision + recall) if precision and recall else
          (0.0 if precision is not None and recall is not None else None))
    out.update({"validation_token_precision": precision, "validation_token_recall": recall,
                "validation_token_f1": f1})
    return out
