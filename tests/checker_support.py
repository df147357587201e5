"""A tiny random BERT for checker tests: vocabulary from the given words, trained in seconds."""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def save_tiny_bert(words: Iterable[str], out: Path) -> Path:
    """Write a 2-layer, 32-wide random BERT and its word-level tokenizer to `out` (seeded)."""
    import torch
    from transformers import BertConfig, BertModel, BertTokenizer

    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted(set(words))]
    (out / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    torch.manual_seed(0)
    config = BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=64, max_position_embeddings=128)
    BertModel(config).save_pretrained(out)
    BertTokenizer(str(out / "vocab.txt")).save_pretrained(out)
    return out
