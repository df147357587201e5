"""The self-contained HTML report of `detect --html`: no network resource, no external file.

Each answer is an <article> with its verdict; its text has the spans highlighted by confidence
(<mark class="span cN">, N = 1..4 for confidence below .25, .5, .75 and above), each followed by
the evidence words it was compared with (numbers or names of the sentence's evidence chunk, or
"not in the evidence"). Every sentence links to the evidence chunk it rests on (`sN -> PM`, an
anchor to the chunk inside the answer's evidence list; "no evidence" where it rests on none), and
in that list every chunk a sentence rests on is marked, with links back to its sentences.
Passages and sentences are numbered from 0, as in the JSON output (P0 is context[0]). Filter
buttons show one verdict at a time. The page is `templates/report.html` with its slots filled
here; every text is escaped.
"""
from __future__ import annotations

import html
import re
import time
from importlib import resources

from ..features.numeric import ORDINALS, WORD_NUMBERS
from ..results import DetectionResult
from ..version import __version__

VERDICT_CLASS = {"hallucinated": "hallucinated", "supported": "supported", "nothing to check": "nothing"}


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def confidence_class(confidence: float) -> str:
    return f"c{min(4, int(max(0.0, confidence) * 4) + 1)}"


NUMBER = re.compile(r"\b(?:\d(?:[\d,.]*\d)?|" + "|".join(sorted({**WORD_NUMBERS, **ORDINALS}, key=len, reverse=True))
                    + r")\b", re.I)
NAME = re.compile(r"\b[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*")
MAX_COMPARED = 6


def compared_words(span_text: str, evidence: str | None, sentence: str = "") -> list[str]:
    """The words of the evidence chunk a flagged span is compared with: its numbers (digits or
    words) for a span holding a number, its names for a span holding a name, else none (the
    words are absent). Words the answer's sentence shares with the evidence are left out."""
    if not evidence:
        return []
    pattern = NUMBER if NUMBER.search(span_text) else NAME if NAME.search(span_text) else None
    found = pattern.findall(evidence) if pattern else []
    shared = {w for w in found if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", f"{span_text} {sentence}")}
    return list(dict.fromkeys(w for w in found if w not in shared))[:MAX_COMPARED]


def template() -> str:
    return resources.files("evidencechain.detect").joinpath("templates/report.html").read_text("utf-8")


class HtmlReport:
    """Collects rendered answers as results arrive; `render` returns the whole page."""

    def __init__(self, title: str = "evidencechain report"):
        self.title = title
        self.articles: list[str] = []
        self.counts = {v: 0 for v in VERDICT_CLASS}
        self.detectors: set[str] = set()
        self.models: set[str] = set()

    def add(self, result: DetectionResult) -> None:
        self.counts[result.verdict] = self.counts.get(result.verdict, 0) + 1
        self.detectors.add(result.detector)
        self.models.add(result.model)
        self.articles.append(article(result, len(self.articles)))

    def render(self, source: str = "") -> str:
        n = len(self.articles)
        buttons = [f'<button type="button" data-filter="all" aria-pressed="true">All ({n})</button>']
        for verdict in VERDICT_CLASS:
            buttons.append(f'<button type="button" data-filter="{_e(verdict)}" aria-pressed="false">'
                           f'{_e(verdict.capitalize())} ({self.counts.get(verdict, 0)})</button>')
        legend = " ".join(f'<mark class="span {c}">{label}</mark>' for c, label in
                          (("c1", "&lt; .25"), ("c2", ".25-.5"), ("c3", ".5-.75"), ("c4", "&ge; .75")))
        header = (f"<h1>{_e(self.title)}</h1>\n"
                  f'<p class="meta">{n} answer(s){" from " + _e(source) if source else ""} &middot; detector '
                  f'{_e(", ".join(sorted(self.detectors)) or "-")} &middot; model '
                  f'{_e(", ".join(sorted(self.models)) or "-")}</p>\n'
                  f'<div class="bar"><nav class="filters" aria-label="Filter by verdict">{"".join(buttons)}'
                  f'</nav><p class="legend">span confidence: {legend}</p></div>')
        intro = ('<p class="intro">Flagged words are highlighted by confidence (dashed: named because the '
                 'answer is flagged, below the word threshold), each followed by the evidence words it was '
                 'compared with. <b>s0&#8594;P1</b> after a sentence links to the evidence it rests on '
                 '(sentences and passages are numbered from 0, as in the JSON output); in the evidence, '
                 'the passages sentences rest on are marked with their sentence numbers.</p>')
        footer = (f"evidencechain {_e(__version__)} &middot; written {_e(time.strftime('%Y-%m-%d %H:%M'))} "
                  f"&middot; an offline check: every flag rests on the evidence shown, not on world knowledge")
        body = intro + "\n" + ("\n".join(self.articles) or '<p class="empty">No answers.</p>')
        page = template()
        for slot, value in (("TITLE", _e(self.title)), ("HEADER", header), ("ANSWERS", body), ("FOOTER", footer)):
            page = page.replace(f"<!--@{slot}@-->", value, 1)
        return page


def article(result: DetectionResult, n: int) -> str:
    aid = f"a{n}"
    verdict = VERDICT_CLASS.get(result.verdict, "nothing")
    parts = [f'<article class="answer" id="{aid}" data-verdict="{_e(result.verdict)}">',
             f'<header><h2>{_e(result.id)}</h2><span class="badge {verdict}">{_e(result.verdict)}</span>'
             f'<span class="risk">risk {result.risk:.2f} (threshold {result.threshold:.2f})</span></header>']
    if result.question:
        parts.append(f'<p class="question">Q: {_e(result.question)}</p>')
    parts.append(f'<div class="text">{answer_html(result, aid)}</div>')
    if result.note:
        parts.append(f'<p class="note">{_e(result.note)}</p>')
    parts.append(evidence_html(result, aid))
    parts.append("</article>")
    return "\n".join(parts)


def answer_html(result: DetectionResult, aid: str) -> str:
    """The answer, sentences wrapped and linked to their evidence, spans marked."""
    text = result.answer
    if not text.strip():
        return '<span class="empty">(empty answer: nothing to check)</span>'
    out, at = [], 0
    for s in result.sentences:
        out.append(_e(text[at:s.start]))
        cls = "sent unsupported" if s.verdict == "unsupported" else "sent"
        out.append(f'<span class="{cls}" id="{aid}-s{s.index}" title="sentence risk {s.risk:.2f}">')
        out.append(_marked(text, s.start, s.end, result))
        out.append("</span>")
        if s.evidence is None:
            out.append(f'<span class="noev">s{s.index} no evidence</span>')
        else:
            ev = s.evidence
            label = f"P{ev.passage}" if ev.passage is not None else f"C{ev.chunk}"
            out.append(f'<a class="ev" href="#{aid}-c{ev.chunk}" title="sentence {s.index} rests on '
                       f'{_e(label)} (score {ev.score:.2f})">s{s.index}&#8594;{_e(label)}</a>')
        at = s.end
    out.append(_e(text[at:]))
    return "".join(out)


def _marked(text: str, lo: int, hi: int, result: DetectionResult) -> str:
    out, at = [], lo
    sentences = {s.index: s for s in result.sentences}
    for span in result.spans:
        a, b = max(span.start, lo), min(span.end, hi)
        if b <= a or a < at:
            continue
        out.append(_e(text[at:a]))
        kind = f", {span.type}" if span.type else ""
        if span.error_class:
            kind += f": {span.error_class}; evidence: {span.evidence_words}"
        out.append(f'<mark class="span {confidence_class(span.confidence)} level-{span.level}" '
                   f'data-start="{span.start}" data-end="{span.end}" '
                   f'title="confidence {span.confidence:.2f} ({span.level}{kind})">{_e(text[a:b])}</mark>')
        if span.level == "word" and b == span.end:
            sentence = sentences.get(span.sentence)
            out.append(_compared(span.text, sentence.evidence.text if sentence and sentence.evidence else None,
                                 sentence.text if sentence else ""))
        at = b
    out.append(_e(text[at:hi]))
    return "".join(out)


def _compared(span_text: str, evidence: str | None, sentence: str) -> str:
    words = compared_words(span_text, evidence, sentence)
    if words:
        return f'<span class="vs">evidence: {_e(", ".join(words))}</span>'
    return f'<span class="vs">{"not in the evidence" if evidence else "no evidence"}</span>'


def evidence_html(result: DetectionResult, aid: str) -> str:
    """The evidence texts with every chunk an anchor (the targets of the sentence links); a chunk
    that sentences rest on is marked `rested`, with links back to those sentences."""
    if not result.passages:
        return ""
    resting: dict[int, list[int]] = {}
    for s in result.sentences:
        if s.evidence is not None:
            resting.setdefault(s.evidence.chunk, []).append(s.index)
    by_passage: dict[int, list[tuple[int, int, int]]] = {}
    for k, (passage, start, end) in enumerate(result.chunks):
        by_passage.setdefault(passage or 0, []).append((start, end, k))
    items = []
    for p, text in enumerate(result.passages):
        out, at = [], 0
        for start, end, k in sorted(by_passage.get(p, [])):
            if start < at:
                continue
            out.append(_e(text[at:start]))
            by = resting.get(k)
            if by:
                links = "".join(f'<a class="by" href="#{aid}-s{i}">s{i}</a>' for i in by)
                out.append(f'<span class="rests" aria-label="sentences resting here">{links}&#8594;</span>')
            out.append(f'<span class="chunk{" rested" if by else ""}" id="{aid}-c{k}">{_e(text[start:end])}</span>')
            at = end
        out.append(_e(text[at:]))
        items.append(f'<li id="{aid}-p{p}" value="{p}">{"".join(out)}</li>')
    label = f"{len(result.passages)} passages, P0-P{len(result.passages) - 1}" if len(result.passages) > 1 \
        else "context"
    return (f'<details open><summary>Evidence: {label}</summary><ol class="passages" start="0">{"".join(items)}'
            f'</ol></details>')
