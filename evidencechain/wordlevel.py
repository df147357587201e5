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
    rows = rows_by_sentence if rows_by_sentence is not None else sentence_rows(tokens)
    if not rows:
        mask[punct] = False
        return mask
    order = np.concatenate(rows)  # every sentence's token rows, in token order, one after another
    sentence = np.repeat(np.arange(len(rows)), [len(r) for r in rows])
    same = np.concatenate([[False], sentence[1:] == sentence[:-1]])  # continues the previous row's sentence
    p_punct, p_function = punct[order], function[order]
    if gap:
        mask[order[_bridged(mask[order], p_punct, p_function, sentence, gap)]] = True
    if drop_function_only:
        mask[order[_function_only_runs(mask[order], p_punct, p_function, same)]] = False
    mask[punct] = False
    return mask


def _bridged(flag: np.ndarray, punct: np.ndarray, function: np.ndarray, sentence: np.ndarray,
             gap: int) -> np.ndarray:
    """Positions (in sentence order) of the words between two consecutive flagged positions of a
    sentence when at most `gap` words lie between and every token between is a function word."""
    at = np.flatnonzero(flag)
    a, b = at[:-1], at[1:]
    words = np.concatenate([[0], np.cumsum(~punct)])
    other = np.concatenate([[0], np.cumsum(~function)])
    ok = (sentence[a] == sentence[b]) & (words[b] - words[a + 1] <= gap) & (other[b] == other[a + 1])
    inside = np.zeros(len(flag) + 1, dtype=np.int64)
    np.add.at(inside, a[ok] + 1, 1)
    np.add.at(inside, b[ok], -1)
    return (np.cumsum(inside)[:-1] > 0) & ~punct


def _function_only_runs(flag: np.ndarray, punct: np.ndarray, function: np.ndarray,
                        same: np.ndarray) -> np.ndarray:
    """Positions of the flagged words of runs made of function words only. A run is flagged
    tokens, punctuation included once the run has started, within one sentence."""
    n = len(flag)
    anchor = flag | ~punct  # a token that starts, or ends, a run by itself
    start_of_sentence = ~same
    last = np.where(anchor | start_of_sentence, np.arange(n), -1)
    last = np.maximum.accumulate(last)
    in_run = flag | (punct & ~(anchor | start_of_sentence) & flag[last] & anchor[last])
    starts = in_run & ~(np.concatenate([[False], in_run[:-1]]) & same)
    run = np.cumsum(starts) - 1
    words = in_run & flag & ~punct
    ids = run[words]
    total = np.bincount(ids, minlength=int(run.max()) + 1 if n else 0)
    content = np.bincount(ids, weights=~function[words], minlength=len(total))
    drop = np.zeros(n, dtype=bool)
    drop[words] = (total[ids] > 0) & (content[ids] == 0)
    return drop


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
