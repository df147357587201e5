"""The parse cache's memory bound: dropped parses are read from the file again, parses still in
use are never decoded twice, and results do not depend on the bound."""
from __future__ import annotations

import gc
import pickle
from pathlib import Path

import pytest
from pandas.testing import assert_frame_equal

from evidencechain.data.halueval import load_halueval_corpus
from evidencechain.features import FeatureConfig, FeatureExtractor
from evidencechain.text import cache as cache_module
from evidencechain.text import parse as parse_module
from evidencechain.text.parse import ParseCache, parse_texts, pipeline_name

FIXTURE = Path(__file__).parent / "fixtures" / "halueval"
TEXTS = ["The library cost $18 million.", "It opens in 2027!", "Trains cross the old bridge daily."]


def _refuse_spacy(monkeypatch):
    def refuse(kind):
        raise AssertionError("spaCy was loaded for a cached text")

    monkeypatch.setattr(parse_module, "load_pipeline", refuse)


def test_a_bounded_cache_shares_live_parses_and_rereads_dropped_ones(tmp_path, monkeypatch):
    cache = ParseCache(tmp_path / "parse.sqlite", memory_chars=1)
    first = parse_texts(TEXTS, pipeline="blank", cache=cache, progress=False)
    expected = [(p.text, p.starts.tolist(), p.lower, p.sentences) for p in first]
    _refuse_spacy(monkeypatch)
    again = parse_texts(TEXTS, pipeline="blank", cache=cache, progress=False)
    assert all(a is b for a, b in zip(first, again))  # alive elsewhere: the same object
    del first, again
    gc.collect()
    reread = parse_texts(TEXTS, pipeline="blank", cache=cache, progress=False)
    assert [(p.text, p.starts.tolist(), p.lower, p.sentences) for p in reread] == expected


def test_a_cache_without_a_file_keeps_every_parse(monkeypatch):
    cache = ParseCache(None, memory_chars=1)
    parse_texts(TEXTS, pipeline="blank", cache=cache, progress=False)
    gc.collect()
    _refuse_spacy(monkeypatch)
    keys = [ParseCache.key(pipeline_name("blank"), t) for t in TEXTS]
    assert set(cache.get_many(keys)) == set(keys)


def test_interned_tokens_share_one_tuple_when_lemmas_are_the_words(tmp_path):
    path = tmp_path / "parse.sqlite"
    parse_texts(TEXTS, pipeline="blank", cache=ParseCache(path), progress=False)
    decoded = parse_texts(TEXTS * 2, pipeline="blank", cache=ParseCache(path, memory_chars=1), progress=False)
    assert all(p.lemma is p.lower for p in decoded)
    assert decoded[0].lower[1] is decoded[3].lower[1]  # one string object per distinct token


def _tables(cache: ParseCache):
    corpus = load_halueval_corpus(FIXTURE, subsets=["qa", "summarization"])
    config = FeatureConfig(pipeline="blank", response_features=True, claims=True)
    extractor = FeatureExtractor(config, cache=cache).fit(corpus, progress=False)
    return extractor.transform(corpus, progress=False), extractor.transform(corpus, progress=False)


def test_features_do_not_depend_on_the_memory_bound(tmp_path, monkeypatch):
    roomy = _tables(ParseCache(tmp_path / "a.sqlite"))
    monkeypatch.setattr(cache_module, "MEMORY_CHARS", 1)
    tight = _tables(ParseCache(tmp_path / "b.sqlite"))
    for a, b in zip(roomy, tight):
        assert_frame_equal(a.sentences, b.sentences)
        assert_frame_equal(a.tokens, b.tokens)
        if a.claims is not None or b.claims is not None:
            assert_frame_equal(a.claims, b.claims)
    assert len(roomy[0].sentences) > 10


@pytest.mark.parametrize("memory_chars", [1, 10**9])
def test_memory_bound_keeps_the_parse_cache_file_complete(tmp_path, memory_chars):
    cache = ParseCache(tmp_path / "parse.sqlite", memory_chars=memory_chars)
    parse_texts(TEXTS, pipeline="blank", cache=cache, progress=False)
    cache.close()
    keys = [ParseCache.key(pipeline_name("blank"), t) for t in TEXTS]
    assert set(ParseCache(tmp_path / "parse.sqlite").get_many(keys)) == set(keys)


def test_a_memory_cache_pickles_with_its_parses(monkeypatch):
    cache = ParseCache(None)
    first = parse_texts(TEXTS, pipeline="blank", cache=cache, progress=False)
    copy = pickle.loads(pickle.dumps(cache))
    _refuse_spacy(monkeypatch)
    again = parse_texts(TEXTS, pipeline="blank", cache=copy, progress=False)
    assert [p.lower for p in again] == [p.lower for p in first]
