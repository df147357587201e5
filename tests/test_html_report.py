"""The HTML report's pieces that need no browser: what a flagged word is compared with, the
marks on the passages sentences rest on, one numbering (tests/test_detect_browser.py drives the
page itself)."""
from __future__ import annotations

from evidencechain.detect.html import answer_html, compared_words, evidence_html
from evidencechain.results import DetectionResult, EvidenceRef, SentenceResult, Span


def test_a_flagged_number_is_compared_with_the_evidence_numbers_and_a_name_with_its_names():
    evidence = "The council will build it in two years for 4.2 million euros, Mayor Anna Berg said."
    assert compared_words("five", evidence, "It takes five years.") == ["two", "4.2"]
    assert compared_words("1808", "opened in 1800, moved in 1885", "It opened in 1808.") == ["1800", "1885"]
    assert compared_words("Krakow", "Marie Curie was born in Warsaw.", "Marie Curie was born in Krakow.") == ["Warsaw"]
    assert compared_words("blue", evidence, "The roof is blue.") == []
    assert compared_words("1808", None) == []


def _result() -> DetectionResult:
    answer = "It opened in 1808. It has a garden."
    ev = EvidenceRef(chunk=1, passage=1, start=0, end=20, text="It opened in 1800.", score=0.8)
    sentences = [SentenceResult(0, 0, 18, "It opened in 1808.", 0.9, "unsupported", ev),
                 SentenceResult(1, 19, 35, "It has a garden.", 0.1, "supported", None, "no evidence")]
    result = DetectionResult("x", answer, "hallucinated", 0.9, 0.5, "D", "m", sentences,
                             [Span(13, 17, "1808", 0.9, "conflict", "word", 0)])
    result.passages = ["A museum.", "It opened in 1800."]
    result.chunks = [(0, 0, 9), (1, 0, 18)]
    return result


def test_sentences_link_to_their_passage_and_the_passage_is_marked_with_its_sentences():
    result = _result()
    text = answer_html(result, "a0")
    assert '<a class="ev" href="#a0-c1"' in text and "s0&#8594;P1</a>" in text and "s1 no evidence" in text
    assert '<span class="vs">evidence: 1800</span>' in text
    ev = evidence_html(result, "a0")
    assert '<ol class="passages" start="0">' in ev and '<li id="a0-p1" value="1">' in ev
    assert '<a class="by" href="#a0-s0">s0</a>' in ev and 'class="chunk rested" id="a0-c1"' in ev
    assert 'class="chunk" id="a0-c0"' in ev  # a passage no sentence rests on is not marked
