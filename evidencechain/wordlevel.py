"""Word-level risk: sentence risk spread over the tokens that carry unsupported content.

own evidence = 1.0 for a number or entity absent from the source or a word that a semantic
error class flags (when the 'semantic' family is computed), 0.8 for any other
content word absent from the source, 0 for supported words, stop words and punctuation.
token evidence = max(own, CONTEXT * mean own evidence of the previous and next token in
the same sentence): an unsupported clause is annotated as a whole, function words included,
so a word between two unsupported words inherits part of their evidence.
token risk = sentence risk * (FLOOR + (1 - FLOOR) * token evidence): a supported function
word in a risky sentence stays low, while FLOOR keeps the sentence ranking among tokens
with no evidence of their own. CONTEXT was chosen on a development corpus (seed 18), not
on the reported test split.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

FLOOR = 0.05
NOVEL_WEIGHT = 0.8
CONTEXT = 0.7


def token_evidence(tokens: pd.DataFrame) -> np.ndarray:
    own = NOVEL_WEIGHT * tokens["novelty"].to_numpy(dtype=float)
    mismatch = (tokens["number_absent"].to_numpy() > 0) | (tokens["entity_absent"].to_numpy() > 0)
    if "semantic_conflict" in tokens:  # a word that contradicts its evidence (features.semantic)
        mismatch |= tokens["semantic_conflict"].to_numpy() > 0
    punct = tokens["is_punct"].to_numpy() > 0
    own = np.where(punct, 0.0, np.where(mismatch, 1.0, own))
    series = pd.Series(own, index=tokens.index)
    groups = series.groupby([tokens["response_id"], tokens["sentence_index"]], sort=False)
    context = pd.concat([groups.shift(1), groups.shift(-1)], axis=1).mean(axis=1).fillna(0.0)
    return np.where(punct, 0.0, np.maximum(own, CONTEXT * context.to_numpy()))


def sentence_risk_per_token(tokens: pd.DataFrame, sentences: pd.DataFrame,
                            sentence_risk: np.ndarray) -> np.ndarray:
    """The risk of each token's sentence (0 for tokens outside any sentence)."""
    key = pd.MultiIndex.from_frame(sentences[["response_id", "sentence_index"]])
    lookup = pd.Series(np.asarray(sentence_risk, dtype=float), index=key)
    tok_key = pd.MultiIndex.from_frame(tokens[["response_id", "sentence_index"]])
    return lookup.reindex(tok_key).fillna(0.0).to_numpy()


def token_risk(tokens: pd.DataFrame, sentences: pd.DataFrame, sentence_risk: np.ndarray) -> np.ndarray:
    per_token = sentence_risk_per_token(tokens, sentences, sentence_risk)
    return per_token * (FLOOR + (1.0 - FLOOR) * token_evidence(tokens))


SPAN_GAPS = (0, 1, 2, 3)
"""Candidate widths (in function words) of the gaps a span may bridge; chosen on calibration."""


def sentence_rows(tokens: pd.DataFrame) -> list[np.ndarray]:
    """Row positions of each sentence's tokens, in token order (what `refine_word_mask` walks)."""
    order = tokens["token_index"].to_numpy()
    keys = tokens.groupby(["response_id", "sentence_index"], sort=False).indices
    return [rows[np.argsort(order[rows], kind="stable")] for rows in keys.values()]


def refine_word_mask(tokens: pd.DataFrame, mask: np.ndarray, gap: int, drop_function_only: bool,
                     rows_by_sentence: list[np.ndarray] | None = None) -> np.ndarray:
    """The span rule applied to flagged words, within each sentence.

    Up to `gap` unflagged function words (stop words; punctuation is always crossed) between
    two flagged words are flagged too, so a clause becomes one span; with `drop_function_only`,
    a run of flagged words made of stop words only is unflagged. Punctuation is never flagged.
    `rows_by_sentence`: `sentence_rows(tokens)`, when the caller applies several rules.
    """
    mask = np.asarray(mask, dtype=bool).copy()
    if not len(tokens):
        return mask
    punct = tokens["is_punct"].to_numpy() > 0
    if gap == 0 and not drop_function_only:
        return mask & ~punct
    function = (tokens["is_stop"].to_numpy() > 0) | punct
    for rows in rows_by_sentence if rows_by_sentence is not None else sentence_rows(tokens):
        flagged = rows[mask[rows]]
        if not len(flagged):
            continue
        pos = {r: k for k, r in enumerate(rows)}
        if gap:
            for a, b in zip(flagged[:-1], flagged[1:]):
                between = rows[pos[a] + 1:pos[b]]
                words = between[~punct[between]]
                if len(words) <= gap and function[between].all():
                    mask[words] = True
        if drop_function_only:
            run: list[int] = []
            for r in [*rows, None]:
                if r is not None and (mask[r] or (punct[r] and run)):
                    run.append(r)
                    continue
                words = [x for x in run if mask[x] and not punct[x]]
                if words and function[words].all():
                    mask[words] = False
                run = []
    mask[punct] = False
    return mask


def choose_span_rule(tokens: pd.DataFrame, risk: np.ndarray, threshold: float) -> dict:
    """The span rule with the best word F1 on (calibration) tokens at `threshold`; ties go to
    the simpler rule (smaller gap, no dropping)."""
    words = tokens["is_punct"].to_numpy() == 0
    y = tokens["label"].to_numpy()[words] > 0
    raw = np.asarray(risk, dtype=float) >= threshold
    best, best_f1 = {"gap": 0, "drop_function_only": False}, -1.0
    rows = sentence_rows(tokens) if len(tokens) else []
    for drop in (False, True):
        for gap in SPAN_GAPS:
            pred = refine_word_mask(tokens, raw, gap, drop, rows)[words]
            tp = float((pred & y).sum())
            f1 = 2 * tp / (pred.sum() + y.sum()) if pred.sum() + y.sum() else 0.0
            if f1 > best_f1 + 1e-12:
                best, best_f1 = {"gap": gap, "drop_function_only": drop}, f1
    return best


def mean_run_words(tokens: pd.DataFrame, mask) -> float:
    """Mean length in words of the runs of flagged words (a span; punctuation does not break
    a run, a sentence end does); NaN when nothing is flagged."""
    words = tokens["is_punct"].to_numpy() == 0
    frame = tokens.loc[words, ["response_id", "sentence_index", "token_index"]].assign(
        flag=np.asarray(mask, dtype=bool)[words])
    frame = frame.sort_values(["response_id", "sentence_index", "token_index"], kind="stable")
    flag = frame["flag"].to_numpy()
    same = ((frame["response_id"] == frame["response_id"].shift()) &
            (frame["sentence_index"] == frame["sentence_index"].shift())).to_numpy()
    starts = flag & ~(np.roll(flag, 1) & same)
    return float(flag.sum() / starts.sum()) if starts.sum() else float("nan")
