"""RAGHalu's tier 1: is an answer sentence VERIFIABLE, or NO-INFO (nothing to verify)?

NO-INFO sentences are small talk, greetings, offers of help, questions back to the user, and
hedges or refusals with no factual content ("I hope this helps!", "Unable to answer based on
the given passages."). Tier 2 scores only VERIFIABLE sentences (`detectors.twotier`).

`tier_features` gives surface features per sentence (no spaCy): punctuation, pronouns, counts
of greeting / closing / hedge / refusal / question cues (vocabularies in
`data/tiers.toml`), digits, capitalised non-initial words (a proxy for named entities),
content words and length. `TierClassifier` is a logistic regression (balanced classes) over
those features, standardised, plus word and character n-gram TF-IDF fitted on the training
sentences only. Everything is deterministic for a given `random_state`.

`TiersFamily` adds each sentence's gold tier (`no_info_gold`: 1 NO-INFO, 0 verifiable, -1 no
sentence gold), which tier 1 is fitted on.
"""
from __future__ import annotations

import math
import re
import tomllib
from functools import cache
from importlib import resources

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

from ..records import SentenceGold
from .family import FamilyContext, FeatureFamily, WorkTables
from .sentences import VIEWS, gold_sentence

TIERS: tuple[str, ...] = SentenceGold.TIERS
"""("verifiable", "no_info"): class 0 and class 1 of `TierClassifier`."""

CUE_FAMILIES = ("greeting", "closing", "hedge", "refusal", "question")
FEATURES = (
    "ends_question", "question_marks", "exclamations", "second_person", "first_person",
    "first_plural", *(f"{family}_cues" for family in CUE_FAMILIES), "all_cues", "digits", "capitalised",
    "content_words", "content_share", "words", "chars",
)
"""The columns of `tier_features`, in order: `ends_question` is 0/1; the pronoun columns are
log(1 + count) / (1 + content words); `content_share` is a share of the words; every other
column is log(1 + count). `all_cues` counts the cues of every family together, so that a kind
of NO-INFO sentence rare in training still gains from the others. Content words are words of three letters or more outside the
function-word list and outside every cue phrase."""

_WORD = re.compile(r"[A-Za-z]+(?:['-][A-Za-z]+)*|\d+(?:[.,:]\d+)*")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})


@cache
def _vocabulary() -> dict:
    text = resources.files(__package__).joinpath("data/tiers.toml").read_text("utf-8")
    return tomllib.loads(text)


def _alternation(cues) -> str:
    cues = sorted({c.lower() for c in cues}, key=lambda c: (-len(c), c))
    return "|".join(r"\s+".join(re.escape(w) for w in cue.split()) for cue in cues)


@cache
def _cue_patterns() -> dict[str, re.Pattern]:
    """One alternation per cue family: whole words, any case, longest phrase first, spaces
    flexible; `cues_at_start` only after leading punctuation and spaces."""
    vocab = _vocabulary()
    patterns = {}
    for family in CUE_FAMILIES:
        parts = [rf"(?<![\w'-])(?:{_alternation(vocab['cues'][family])})(?![\w'-])"]
        at_start = vocab.get("cues_at_start", {}).get(family)
        if at_start:
            parts.append(rf"^[\W_]*(?:{_alternation(at_start)})(?![\w'-])")
        patterns[family] = re.compile("|".join(parts), re.IGNORECASE)
    return patterns


@cache
def _word_sets() -> dict[str, frozenset[str]]:
    vocab = _vocabulary()
    return {"second": frozenset(vocab["pronouns"]["second"]), "first": frozenset(vocab["pronouns"]["first"]),
            "first_plural": frozenset(vocab["pronouns"]["first_plural"]),
            "function": frozenset(vocab["words"]["function"])}


def _normalise(text: str) -> str:
    return text.translate(_APOSTROPHES)


def _row(text: str) -> list[float]:
    text = _normalise(text)
    stripped = text.rstrip(" \t\n\"')]")
    sets = _word_sets()
    cues, covered = [], np.zeros(len(text), dtype=bool)
    for family in CUE_FAMILIES:
        found = list(_cue_patterns()[family].finditer(text))
        cues.append(len(found))
        for m in found:
            covered[m.start():m.end()] = True
    words = [(m.group(), m.start()) for m in _WORD.finditer(text)]
    lowered = [w.lower() for w, _ in words]
    alpha = [w for w, _ in words if w[0].isalpha()]
    capitalised = sum(1 for i, w in enumerate(alpha)
                      if i > 0 and w[0].isupper() and w != "I" and not w.startswith("I'"))
    # Content words: not function words, at least three letters, outside every cue phrase.
    content = [w for (w, start), lw in zip(words, lowered)
               if w[0].isalpha() and len(w) >= 3 and lw not in sets["function"] and not covered[start]]
    # Pronouns address the user in small talk ("Let me know if you need anything"), but an
    # instruction full of content ("Rinse your hair with warm water") is verifiable: their
    # counts are discounted by the content words beside them.
    discount = 1.0 + len(content)
    pronouns = [math.log1p(sum(w in sets[kind] for w in lowered)) / discount
                for kind in ("second", "first", "first_plural")]
    counts = [*cues, sum(cues), sum(w[0].isdigit() for w, _ in words), capitalised, len(content)]
    return [float(stripped.endswith("?")), math.log1p(text.count("?")), math.log1p(text.count("!")),
            *pronouns, *(math.log1p(n) for n in counts),
            len(content) / len(words) if words else 0.0, math.log1p(len(words)), math.log1p(len(text))]


def tier_features(texts: list[str]) -> pd.DataFrame:
    """Surface features of each sentence (columns `FEATURES`, one row per text, float)."""
    rows = [_row(str(t)) for t in texts]
    return pd.DataFrame(np.array(rows, dtype=float).reshape(len(rows), len(FEATURES)),
                        columns=list(FEATURES))


def _ngram_text(text: str) -> str:
    """Text for the n-gram vectorisers: lower case, curly apostrophes straightened, every digit
    a 0 (a number says 'verifiable', its value nothing)."""
    return re.sub(r"\d", "0", _normalise(text).lower())


class TierClassifier:
    """Tier 1 of RAGHalu: P(no_info) of each sentence (scikit-learn conventions).

    A logistic regression (class_weight balanced, liblinear) over standardised
    `tier_features` and word (1-2) and character (2-5, within words) n-gram TF-IDF, the
    vocabularies fitted on the training sentences only. `predict_proba` column 1 is
    P(no_info); `predict` gives 1 for no_info.
    """

    def __init__(self, random_state: int = 17, C: float = 1.0):
        self.random_state = random_state
        self.C = C

    def _design(self, texts: list[str], fit: bool) -> sp.csr_matrix:
        prepared = [_ngram_text(str(t)) for t in texts]
        surface = tier_features(texts).to_numpy()
        if fit:
            self.scaler_ = StandardScaler().fit(surface)
            self.words_ = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, lowercase=False,
                                          token_pattern=r"(?u)\b\w[\w']*\b|[?!]").fit(prepared)
            self.chars_ = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True,
                                          lowercase=False, min_df=2).fit(prepared)
        return sp.hstack([sp.csr_matrix(self.scaler_.transform(surface)), self.words_.transform(prepared),
                          self.chars_.transform(prepared)], format="csr")

    def fit(self, texts: list[str], tiers: list[str]) -> TierClassifier:
        texts, tiers = list(texts), list(tiers)
        if len(texts) != len(tiers):
            raise ValueError(f"{len(texts)} texts but {len(tiers)} tiers")
        unknown = sorted({t for t in tiers if t not in TIERS})
        if unknown:
            raise ValueError(f"unknown tier(s) {unknown}; expected one of {TIERS}")
        y = np.array([TIERS.index(t) for t in tiers], dtype=int)
        if len(set(y.tolist())) < 2:
            raise ValueError(f"TierClassifier needs sentences of both tiers {TIERS} to fit")
        x = self._design(texts, fit=True)
        self.model_ = LogisticRegression(C=self.C, class_weight="balanced", solver="liblinear",
                                         max_iter=1000, random_state=self.random_state).fit(x, y)
        self.classes_ = np.array(TIERS)
        return self

    def predict_proba(self, texts: list[str]) -> np.ndarray:
        """Shape (n, 2): P(verifiable), P(no_info)."""
        if not hasattr(self, "model_"):
            raise RuntimeError("TierClassifier is not fitted")
        texts = list(texts)
        if not texts:
            return np.zeros((0, 2))
        return self.model_.predict_proba(self._design(texts, fit=False))

    def predict(self, texts: list[str], threshold: float = 0.5) -> np.ndarray:
        """1 where P(no_info) >= `threshold`, else 0."""
        return (self.predict_proba(texts)[:, 1] >= threshold).astype(int)

    def __repr__(self) -> str:
        return f"TierClassifier(random_state={self.random_state}, C={self.C})"


class TiersFamily(FeatureFamily):
    name = "tiers"
    columns = ("no_info_gold",)
    needs = ("sentence gold with tiers (the audit corpus); -1 elsewhere",)
    core = True

    def add(self, tables: WorkTables, context: FamilyContext) -> None:
        column = []
        for view in context.scratch[VIEWS]:
            for start, end in view.spans:
                gold = gold_sentence(view.response, start, end)
                column.append(-1 if gold is None else int(getattr(gold, "tier", "verifiable") == "no_info"))
        tables.sentences["no_info_gold"] = column
