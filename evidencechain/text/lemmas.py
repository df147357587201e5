"""The rule lemmatizer's lemmas, looked up per distinct (word, part of speech, morphology).

spaCy's rule lemmatizer (`mode = "rule"`) gives a token without a lemma the first of
`lemmatize(token)`, a function of its text, coarse tag and morphology alone (spaCy's own cache
is keyed by them), but it builds the key and calls it token by token. `memo_lemmas` gives the
lemmatizer a `pipe` that reads those attributes as one array per text and sets the lemmas from a
memo of them: the lemmas are the lemmatizer's own. Calling the component on one Doc is unchanged.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from spacy.attrs import LEMMA, MORPH, ORTH, POS

MEMO_LIMIT = 1_000_000
"""Distinct (word, tag, morphology) keys remembered per lemmatizer (then forgotten and learnt again)."""


class LemmaMemo:
    """`Lemmatizer.pipe` for a rule lemmatizer that keeps lemmas already set (`overwrite` off)."""

    def __init__(self, lemmatizer):
        self.lemmatizer = lemmatizer
        self.memo: dict[tuple[int, int, int], int] = {}

    def lemmatize(self, doc):
        n = len(doc)
        if not n:
            return doc
        if len(self.memo) > MEMO_LIMIT:
            self.memo.clear()
        rows = doc.to_array([ORTH, POS, MORPH, LEMMA]).reshape(n, 4)
        todo = [i for i, lemma in enumerate(rows[:, 3].tolist()) if lemma == 0]
        if not todo:
            return doc
        memo, strings = self.memo, doc.vocab.strings
        lemmas = rows[:, 3].copy()
        for i, key in zip(todo, map(tuple, rows[todo, :3].tolist())):
            value = memo.get(key)
            if value is None:
                value = memo[key] = strings.add(self.lemmatizer.lemmatize(doc[i])[0])
            lemmas[i] = value
        doc.from_array([LEMMA], lemmas.reshape(n, 1))
        return doc

    def pipe(self, stream: Iterable, batch_size: int = 128) -> Iterator:
        """What the lemmatizer's own `pipe` yields (it calls the component on each Doc)."""
        lemmatizer = self.lemmatizer
        for doc in stream:
            if not getattr(lemmatizer, "_validated", False):  # its own call checks its tables first
                yield lemmatizer(doc)
                continue
            try:
                yield self.lemmatize(doc)
            except Exception as e:
                lemmatizer.get_error_handler()(lemmatizer.name, lemmatizer, [doc], e)
                yield None


def memo_lemmas(nlp) -> None:
    """Give each rule lemmatizer of `nlp` that keeps lemmas already set the memo's `pipe`."""
    for name in nlp.component_names:
        if nlp.get_pipe_meta(name).factory != "lemmatizer":
            continue
        lemmatizer = nlp.get_pipe(name)
        if getattr(lemmatizer, "mode", None) != "rule" or getattr(lemmatizer, "overwrite", True):
            continue
        if lemmatizer.lemmatize == lemmatizer.rule_lemmatize and "pipe" not in lemmatizer.__dict__:
            lemmatizer.pipe = LemmaMemo(lemmatizer).pipe
