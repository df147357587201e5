"""Text layer: evidence chunks with offsets, parsing and its cache, span <-> token mapping."""
from __future__ import annotations

import json
import math
import string
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evidencechain.data import Source, load_ragtruth
from evidencechain.text import (
    ParseCache,
    build_evidence,
    load_pipeline,
    parse_texts,
    pipeline_name,
    render_value,
    token_labels,
    tokens_to_spans,
)
from evidencechain.text import parse as parse_module
from evidencechain.text.chunks import SUMMARY_MAX_PARAGRAPH_CHARS, SUMMARY_WINDOW_SENTENCES

PROPERTY = settings(max_examples=50, deadline=None)


def assert_chunks_slice(ev) -> None:
    """Chunks reproduce their text from the canonical evidence, in order, without overlap."""
    assert ev.chunks, "no chunks"
    prev_end = 0
    for i, c in enumerate(ev.chunks):
        assert c.index == i
        assert ev.text[c.start:c.end] == c.text
        assert c.text and c.text == c.text.strip()
        assert c.start >= prev_end
        prev_end = c.end


# -------------------------------------------------------------------------------- chunks


@pytest.fixture
def fixture_sources(ragtruth_paths) -> dict[str, Source]:
    return load_ragtruth(*ragtruth_paths, quality=None).sources


def test_every_fixture_source_chunks_slice_the_evidence(fixture_sources):
    for source in fixture_sources.values():
        ev = build_evidence(source)
        assert ev.source_id == source.source_id
        assert_chunks_slice(ev)


def test_qa_passage_string_one_chunk_per_passage(fixture_sources):
    source = fixture_sources["15501"]
    ev = build_evidence(source)
    assert ev.text == source.source_info["passages"]
    assert ev.query == source.source_info["question"]
    assert [c.kind for c in ev.chunks] == ["passage"] * 3
    assert ev.chunks[0].text.startswith("For soft-boiled eggs")
    assert ev.chunks[2].text.endswith("peel more easily after boiling.")
    assert not any("passage" in c.text.lower() for c in ev.chunks)


def test_qa_passage_marks_with_spaces_and_case():
    info = {"question": "q?", "passages": "Passage 1: First one.\nPassage 2 : Second\none.\n\n"
                                          "passage 10:Tenth."}
    ev = build_evidence(Source("q", "QA", "MARCO", info, "p"))
    assert_chunks_slice(ev)
    assert [c.text for c in ev.chunks] == ["First one.", "Second\none.", "Tenth."]


def test_qa_without_marks_splits_on_blank_lines():
    info = {"question": "q?", "passages": "Alpha text.\n\n  Beta text.\n \nGamma."}
    ev = build_evidence(Source("q", "QA", "MARCO", info, "p"))
    assert_chunks_slice(ev)
    assert [c.text for c in ev.chunks] == ["Alpha text.", "Beta text.", "Gamma."]


def test_qa_list_of_passages():
    info = {"question": "who wrote it?", "passages": [
        "  The novel was written in 1851. ",
        {"passage_text": "Herman Melville wrote Moby-Dick.", "is_selected": 1,
         "url": "https://example.org"},
        "",
        {"title": "Whales", "body": 3},
    ]}
    ev = build_evidence(Source("l", "QA", "MARCO", info, "p"))
    assert_chunks_slice(ev)
    assert ev.query == "who wrote it?"
    assert [c.text for c in ev.chunks] == ["The novel was written in 1851.",
                                          "Herman Melville wrote Moby-Dick.",
                                          "title: Whales; body: 3"]
    assert ev.text == "\n\n".join(c.text for c in ev.chunks)


def test_summary_paragraph_chunks(fixture_sources):
    source = fixture_sources["15503"]
    ev = build_evidence(source)
    assert ev.text == source.source_info
    assert ev.query is None
    assert len(ev.chunks) == 4 and {c.kind for c in ev.chunks} == {"paragraph"}
    assert ev.chunks[0].text.startswith("(CNN) --")


def test_long_single_paragraph_is_cut_into_sentence_windows():
    sentences = [f"Sentence number {i} reports that the council met on day {i} of the month."
                 for i in range(1, 15)]
    sentences[3] = 'The mayor said "We will build it." Then she left.'
    article = "  " + " ".join(sentences) + "\n"
    assert len(article) > SUMMARY_MAX_PARAGRAPH_CHARS
    ev = build_evidence(Source("long", "Summary", "CNN/DM", article, "p"))
    assert_chunks_slice(ev)
    n_sentences = len(sentences) + 1  # the quoted sentence splits in two
    assert len(ev.chunks) == math.ceil(n_sentences / SUMMARY_WINDOW_SENTENCES)
    for c in ev.chunks:
        assert c.text.endswith(".")
        assert c.text[0].isupper() or c.text[0] == '"'
    # windows cover every sentence, in order, separated by whitespace only
    gaps = [ev.text[a.end:b.start] for a, b in pairwise(ev.chunks)]
    assert all(g.isspace() for g in gaps)
    assert ev.chunks[0].start == 2 and ev.chunks[-1].end == len(article) - 1
    assert ev.chunks[0].text.startswith("Sentence number 1 reports")
    assert ev.chunks[1].text.startswith('The mayor said "We will build it." Then she left. '
                                        "Sentence number 5 reports")


def test_data2txt_chunks(fixture_sources):
    source = fixture_sources["15504"]
    ev = build_evidence(source)
    assert [c.kind for c in ev.chunks] == ["profile", "hours", "attributes", "review", "review"]
    profile, hours, attributes, review, _ = (c.text for c in ev.chunks)
    assert "Blue Door Cafe" in profile and "business stars: 4.5" in profile
    assert "Friday 7:0-16:0" in hours
    assert "OutdoorSeating: none" in attributes and "garage: False" in attributes
    assert "Best breakfast burrito in town" in review and "review stars: 5.0" in review
    assert ev.query is None


def test_data2txt_python_literal_attributes_and_json_string_record():
    record = {"name": "Taco Stand", "hours": None,
              "attributes": {"WiFi": "u'no'", "BusinessParking": "{'garage': False, 'lot': True}",
                             "Ambience": "{'romantic': None}"},
              "categories": ["Mexican", "Tacos"], "review_info": [{"review_text": "Tasty."}]}
    ev = build_evidence(Source("d", "Data2txt", "Yelp", json.dumps(record), "p"))
    assert_chunks_slice(ev)
    assert [c.kind for c in ev.chunks] == ["profile", "attributes", "review", "categories"]
    attributes = ev.chunks[1].text
    assert "WiFi: no" in attributes
    assert "BusinessParking: garage: False; lot: True" in attributes
    assert "romantic: none" in attributes
    assert "hours: none" in ev.chunks[0].text
    assert ev.chunks[3].text == "categories: Mexican, Tacos."


@pytest.mark.parametrize("value, text", [
    ("  plain  ", "plain"), ("It's {fine}", "It's {fine}"), ("{not json}", "{not json}"),
    ('{"a": 1}', "a: 1"), ("u'free'", "free"), (None, "none"), (3.5, "3.5"),
    ({"a_b": [1, {"c": True}]}, "a b: 1, c: True"),
])
def test_render_value(value, text):
    assert render_value(value) == text


_sentence = st.builds(
    lambda words, end: " ".join(words).capitalize() + end,
    st.lists(st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=9),
             min_size=1, max_size=14),
    st.sampled_from([".", "!", "?", '."', ".)"]))
_paragraph = st.lists(_sentence, min_size=1, max_size=12).map(" ".join)
_article = st.builds(lambda paras, seps, lead: lead + "".join(
    p + seps[i % len(seps)] for i, p in enumerate(paras)),
    st.lists(_paragraph, min_size=1, max_size=6),
    st.lists(st.sampled_from(["\n", "\n\n", " \n \n", "\n\n\n"]), min_size=1, max_size=3),
    st.sampled_from(["", " ", "\n"]))


@PROPERTY
@given(_article)
def test_summary_chunks_property(article):
    ev = build_evidence(Source("h", "Summary", "CNN/DM", article, "p"))
    assert_chunks_slice(ev)
    # every non-whitespace character lies in exactly one chunk
    covered = np.zeros(len(article), dtype=int)
    for c in ev.chunks:
        covered[c.start:c.end] += 1
    for i, ch in enumerate(article):
        assert covered[i] == 1 or (ch.isspace() and covered[i] == 0)
    # chunks never cross a line break; only long paragraphs are cut into windows
    paragraphs = [p.strip() for p in article.split("\n") if p.strip()]
    for c in ev.chunks:
        assert "\n" not in c.text
        if c.text not in paragraphs:
            assert any(c.text in p and len(p) > SUMMARY_MAX_PARAGRAPH_CHARS for p in paragraphs)


# ------------------------------------------------------------------------------- parsing


def test_blank_pipeline_has_no_entities():
    _, name = load_pipeline("blank")
    assert name.startswith("blank-en-") and pipeline_name("blank") == name
    for parsed in parse_texts(["Apple opened an office in Paris in 2020.", "", "   "],
                              pipeline="blank", progress=False):
        assert parsed.entities is None


def test_parse_texts_sentences_and_tokens_slice_the_text():
    texts = ["Hello, world! How are you today?", "  Leading space. Trailing space.  ",
             'He said "stop." Then he left.\n\nNew paragraph here.', "", "one"]
    for text, parsed in zip(texts, parse_texts(texts, pipeline="blank", progress=False)):
        assert parsed.text == text
        prev = 0
        for a, b in parsed.sentences:
            assert prev <= a < b <= len(text)
            assert text[a:b] == text[a:b].strip()
            prev = b
        for i in range(len(parsed)):
            tok = parsed.token_text(i)
            assert tok and not tok.isspace()
            assert text[parsed.starts[i]:parsed.ends[i]] == tok
        assert len(parsed.lower) == len(parsed.lemma) == len(parsed)
    first = parse_texts(texts[:1], pipeline="blank", progress=False)[0]
    assert len(first.sentences) == 2
    assert list(first.tokens_in(0, 6)) == [0, 1]


def _assert_same_parse(a, b) -> None:
    assert a.text == b.text
    for name in ("starts", "ends", "is_punct", "is_stop", "like_num"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    assert (a.lower, a.lemma, a.sentences, a.entities) == (b.lower, b.lemma, b.sentences,
                                                           b.entities)


class _NoSpacy:
    """Stands in for the spaCy pipeline: any call to parse fails the test."""

    calls = 0
    pipe_names = ()

    def pipe(self, texts, batch_size=64):
        _NoSpacy.calls += 1
        raise AssertionError("spaCy was called for a cached text")


def test_parse_cache_round_trips_through_sqlite(tmp_path, monkeypatch):
    texts = ["The library cost $18 million.", "It opens in 2027!", "The library cost $18 million."]
    path = tmp_path / "cache" / "parse.sqlite"
    first_cache = ParseCache(path)
    first = parse_texts(texts, pipeline="blank", cache=first_cache, progress=False)
    first_cache.close()
    assert first[0] is first[2]  # duplicates parsed once

    name = pipeline_name("blank")
    keys = [ParseCache.key(name, t) for t in texts]
    cache = ParseCache(path)  # fresh process view: nothing in memory
    found = cache.get_many(keys)
    assert set(found) == set(keys)
    for text, parsed in zip(texts, first):
        _assert_same_parse(found[ParseCache.key(name, text)], parsed)

    monkeypatch.setattr(parse_module, "load_pipeline", lambda kind: (_NoSpacy(), name))
    again = parse_texts(texts, pipeline="blank", cache=ParseCache(path), progress=False)
    for a, b in zip(first, again):
        _assert_same_parse(a, b)
    assert _NoSpacy.calls == 0
    with pytest.raises(AssertionError, match="spaCy was called"):
        parse_texts(["A text never seen."], pipeline="blank", cache=ParseCache(path),
                    progress=False)
    cache.close()


def test_parse_cache_keys_depend_on_pipeline_and_text():
    assert ParseCache.key("a", "x") != ParseCache.key("b", "x")
    assert ParseCache.key("a", "x") != ParseCache.key("a", "y")
    assert ParseCache.key("a", "x") == ParseCache.key("a", "x")


def test_default_memory_cache_reuses_results():
    text = "Memory cache check sentence number one."
    first = parse_texts([text], pipeline="blank", progress=False)[0]
    assert parse_texts([text], pipeline="blank", progress=False)[0] is first


# --------------------------------------------------------------------------- span mapping

_SEPARATORS = [" ", "  ", ", ", ". ", "; ", " - ", "! ", "? ", ": ", " (", ") ", "\n", ' "',
               '" ', "...", " & ", "/"]
_word = st.text(alphabet=string.ascii_letters + string.digits, min_size=1, max_size=8)


@st.composite
def _text_and_spans(draw):
    words = draw(st.lists(_word, min_size=1, max_size=25))
    seps = draw(st.lists(st.sampled_from(_SEPARATORS), min_size=len(words), max_size=len(words)))
    lead = draw(st.sampled_from(["", " ", '"']))
    text = lead + "".join(w + s for w, s in zip(words, seps))
    n = len(text)
    spans = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(1, n)).map(
        lambda ab: (min(ab), max(ab))).filter(lambda ab: ab[0] < ab[1]), max_size=4))
    return text, spans


def _token_of_char(parsed) -> np.ndarray:
    owner = np.full(len(parsed.text), -1)
    for i in range(len(parsed)):
        owner[parsed.starts[i]:parsed.ends[i]] = i
    return owner


@PROPERTY
@given(_text_and_spans())
def test_span_token_round_trip_property(case):
    text, spans = case
    parsed = parse_texts([text], pipeline="blank", progress=False)[0]
    owner = _token_of_char(parsed)
    labels = token_labels(parsed, spans)
    assert labels.shape == (len(parsed),)

    labelled_chars = np.zeros(len(text), dtype=bool)
    for a, b in spans:
        labelled_chars[a:b] = True
    # non-whitespace characters are exactly the characters of tokens
    assert all((owner[i] >= 0) == (not ch.isspace()) for i, ch in enumerate(text))
    # every labelled character maps to a labelled token, and only those tokens are labelled
    hit = {int(owner[i]) for i in np.flatnonzero(labelled_chars) if owner[i] >= 0}
    assert set(np.flatnonzero(labels).tolist()) == hit

    out = tokens_to_spans(parsed, labels)
    covered = np.zeros(len(text), dtype=bool)
    prev_end = -1
    for s, e, score in out:
        assert prev_end <= s < e and score == 1.0
        prev_end = e
        covered[s:e] = True
        inside = parsed.tokens_in(s, e)
        assert labels[inside[0]] and labels[inside[-1]]
        assert parsed.starts[inside[0]] == s and parsed.ends[inside[-1]] == e
        # only labelled tokens, plus punctuation between them
        assert all(labels[i] or parsed.is_punct[i] for i in inside)
    # covers every labelled non-whitespace character, and all of each labelled token
    for i in np.flatnonzero(labelled_chars):
        if not text[i].isspace():
            assert covered[i]
    for i in np.flatnonzero(labels):
        assert covered[parsed.starts[i]:parsed.ends[i]].all()
    # characters covered are whitespace or belong to labelled/punctuation tokens
    for i in np.flatnonzero(covered):
        tok = owner[i]
        assert tok < 0 or labels[tok] or parsed.is_punct[tok]
    # spans are maximal: two neighbours are parted by an unlabelled word or a sentence end
    sentence_of = np.full(len(text), -1)
    for k, (a, b) in enumerate(parsed.sentences):
        sentence_of[a:b] = k
    for (_, e1, _), (s2, _, _) in pairwise(out):
        between = parsed.tokens_in(e1, s2)
        assert (any(not labels[i] and not parsed.is_punct[i] for i in between)
                or sentence_of[e1 - 1] != sentence_of[s2])
    assert not tokens_to_spans(parsed, np.zeros(len(parsed), dtype=bool))


@PROPERTY
@given(_text_and_spans())
def test_punctuation_tokens_are_marked(case):
    text, _ = case
    parsed = parse_texts([text], pipeline="blank", progress=False)[0]
    for i in range(len(parsed)):
        tok = parsed.token_text(i)
        assert bool(parsed.is_punct[i]) == (not any(ch.isalnum() for ch in tok)), tok
    # and the sentences slice the text
    for a, b in parsed.sentences:
        assert text[a:b] and text[a:b] == text[a:b].strip()


def test_tokens_to_spans_joins_punctuation_within_a_sentence_only():
    text = "Paris, France is big. Rome is old."
    parsed = parse_texts([text], pipeline="blank", progress=False)[0]
    words = [parsed.token_text(i) for i in range(len(parsed))]
    mask = np.isin(words, ["Paris", "France", "big", "Rome"])
    scores = np.linspace(0.1, 0.9, len(parsed))
    spans = tokens_to_spans(parsed, mask, scores)
    assert [text[s:e] for s, e, _ in spans] == ["Paris, France", "big", "Rome"]
    assert spans[0][2] == pytest.approx(scores[words.index("France")])
    # a punctuation token after the last flagged one is not included
    assert text[slice(*spans[1][:2])] == "big"
    assert token_labels(parsed, [(0, 3)]).tolist()[:2] == [1, 0]
    assert token_labels(parsed, []).sum() == 0


def test_pipeline_name_and_components_from_package_files_are_the_loaded_pipelines():
    from evidencechain.text.nlp import enabled_components, load_pipeline, pipeline_name

    for kind in ("auto", "blank"):
        nlp, name = load_pipeline(kind)
        assert (pipeline_name(kind), enabled_components(kind)) == (name, nlp.pipe_names)
        assert parse_module.rule_pipeline(kind) == (nlp.pipe_names == ["sentencizer"])


def test_cached_texts_are_read_without_loading_the_pipeline(tmp_path, monkeypatch):
    texts = ["Warm runs load no pipeline.", "The second text, 2027."]
    first = parse_texts(texts, cache=ParseCache(tmp_path / "p.sqlite"), progress=False)

    def refuse(kind):
        raise AssertionError("pipeline loaded")

    monkeypatch.setattr(parse_module, "load_pipeline", refuse)
    for a, b in zip(first, parse_texts(texts, cache=ParseCache(tmp_path / "p.sqlite"), progress=False)):
        _assert_same_parse(a, b)
    with pytest.raises(AssertionError, match="pipeline loaded"):
        parse_texts(["A text never seen."], cache=ParseCache(tmp_path / "p.sqlite"), progress=False)


def test_dependency_name_and_vocabulary_from_package_files_are_the_parsers():
    from evidencechain.text.dependency import (
        DependencyParse,
        dependency_pipeline_name,
        dependency_vocab,
        load_dependency_pipeline,
    )

    nlp = load_dependency_pipeline()
    if nlp is None:
        pytest.skip("no spaCy model with a parser installed")
    meta = nlp.meta
    assert dependency_pipeline_name() == f"dep:{meta['lang']}_{meta['name']}-{meta['version']}"
    parse = DependencyParse.from_doc(nlp("The Eiffel Tower, finished in 1889, isn't 330 metres tall in Lyon."))

    def rows(doc):
        return [(t.text, t.lower_, t.norm_, t.is_stop, t.is_alpha, t.is_punct, t.like_num, t.shape_, t.tag_,
                 t.pos_, t.dep_, t.head.i, t.is_sent_start) for t in doc]

    assert rows(parse.doc(dependency_vocab())) == rows(parse.doc(nlp.vocab))
