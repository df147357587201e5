"""SummEdits, CLIFF and plain-file adapters: fixtures in tmp_path, then the real data."""
from __future__ import annotations

import csv
import gzip
import json
from collections import Counter
from pathlib import Path

import pytest

from evidencechain.data import load_cliff, load_plain, load_summedits
from evidencechain.data.cliff import UNLOCATED, locate
from evidencechain.data.ragtruth import DataValidationError
from evidencechain.data.splits import assign_splits
from evidencechain.data.summedits import DOMAINS, summedits_available
from evidencechain.errors import ConfigError
from evidencechain.text.chunks import build_evidence

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def _write(path: Path, rows: list) -> Path:
    text = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows)
    if path.name.endswith(".gz"):
        with gzip.open(path, "wt", encoding="utf-8") as handle:
            handle.write(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def _problem_text(excinfo) -> str:
    return "\n".join(str(p) for p in excinfo.value.problems)


# -- SummEdits --------------------------------------------------------------------------------


def _sample(i: int, doc: str, label, split: str = "test", **kw) -> dict:
    row = {"id": f"doc_{i}", "doc": doc, "summary": f"Summary {i}.", "label": label,
           "original_summary": "Seed.", "edit_types": ["entity_modification"], "split": split}
    row.update(kw)
    return row


def test_summedits_mapping_and_label_variants(tmp_path):
    _write(tmp_path / "news.jsonl.gz", [
        _sample(0, "Doc A.", 1, "evaluation"), _sample(1, "Doc A.", 0, "evaluation"),
        _sample(2, "Doc B.", 1), _sample(3, "Doc B.", 0, edit_types="")])
    _write(tmp_path / "podcast.jsonl.gz", [_sample(0, "Doc C.", "1"), _sample(1, "Doc C.", " 0")])
    corpus = load_summedits(tmp_path, domains=["news", "podcast"])
    assert corpus.name == "summedits-news+podcast" and not corpus.span_labels and corpus.labelled
    got = {r.id: (r.response_label, r.split, r.subset) for r in corpus.responses}
    assert got == {
        "summedits-news-doc_0": (0, "calibration", "news"), "summedits-news-doc_1": (1, "calibration", "news"),
        "summedits-news-doc_2": (0, "test", "news"), "summedits-news-doc_3": (1, "test", "news"),
        "summedits-podcast-doc_0": (0, "test", "podcast"), "summedits-podcast-doc_1": (1, "test", "podcast")}
    assert sorted(corpus.sources) == ["summedits-news-d00", "summedits-news-d01", "summedits-podcast-d00"]
    src = corpus.sources["summedits-news-d01"]
    assert (src.task_type, src.source, src.source_info, src.prompt) == (
        "Summary", "SummEdits-news", "Doc B.", "Summarize the document.")
    r = corpus.responses[3]
    assert (r.model, r.temperature, r.labels, r.quality) == ("summedits", 0.0, (), "good")
    assert r.extra == {"edit_types": "", "original_summary": "Seed."}
    assert assign_splits(corpus) == {"summedits-news-d00": "calibration", "summedits-news-d01": "test",
                                     "summedits-podcast-d00": "test"}


def test_summedits_document_in_both_splits_becomes_two_sources(tmp_path):
    _write(tmp_path / "news.jsonl.gz", [_sample(0, "Doc A.", 1, "evaluation"), _sample(1, "Doc A.", 0)])
    corpus = load_summedits(tmp_path, domains=["news"])
    assert {r.source_id: r.split for r in corpus.responses} == {
        "summedits-news-d00-evaluation": "calibration", "summedits-news-d00-test": "test"}
    assert set(assign_splits(corpus).values()) == {"calibration", "test"}


def test_summedits_limit_and_filters(tmp_path):
    _write(tmp_path / "news.jsonl.gz", [
        _sample(0, "Doc A.", 1, "evaluation"), _sample(1, "Doc A.", 0, "evaluation"),
        _sample(2, "Doc B.", 1), _sample(3, "Doc B.", 0), _sample(4, "Doc B.", 0, summary=" ")])
    corpus = load_summedits(tmp_path, domains=["news"], limit=1)
    assert [r.id for r in corpus.responses] == ["summedits-news-doc_0", "summedits-news-doc_2"]
    assert corpus.filtered == {"news: empty summary": 1, "news: over limit (limit=1 per split)": 2}
    with pytest.raises(ConfigError, match="unknown SummEdits domain"):
        load_summedits(tmp_path, domains=["billsum"])


def test_summedits_validation_names_file_line_field(tmp_path):
    _write(tmp_path / "news.jsonl.gz", [
        _sample(0, "Doc A.", 1), _sample(1, "Doc A.", "yes"), "{not json",
        _sample(3, "Doc A.", True, split="train"), _sample(0, "Doc A.", 0)])
    with pytest.raises(DataValidationError) as excinfo:
        load_summedits(tmp_path, domains=["news"])
    text = _problem_text(excinfo)
    assert "news.jsonl.gz:2: field 'label'" in text and "'yes'" in text
    assert "news.jsonl.gz:3: field '-': malformed JSON" in text
    assert "news.jsonl.gz:4: field 'label'" in text and "news.jsonl.gz:4: field 'split'" in text
    assert "news.jsonl.gz:5: field 'id': duplicate id 'doc_0' (first on line 1)" in text


# -- CLIFF ------------------------------------------------------------------------------------


def _cliff(i: int, summ: str, error_type: str, spans: list[str] | str, cut: str = "val",
           model: str = "BART", origin: str = "xsum") -> dict:
    return {"dataset": "CLIFF", "origin": origin, "id": str(i), "doc": f"Article {i}.", "summ": summ,
            "model_name": model, "cut": cut, "error_type": error_type,
            "annotated_span": spans if isinstance(spans, str) else (str(spans) if spans else "")}


def test_cliff_locate_rules():
    summary = "The Cat sat. The cat ran to Paris (1 km) away."
    spans, missing = locate(summary, ["cat", "cat", "the CAT", "Paris ( 1 km)", "dog", "at"])
    # exact whole word, then case-insensitive; 'the CAT' only overlaps taken spans; no 'dog';
    # 'at' is no whole word, so its first occurrence inside a word not yet taken ('sat')
    assert [summary[s:e] for s, e in spans] == ["cat", "Cat", "Paris (1 km)", "at"] and missing == 2
    assert spans[0][0] == 17 and spans[-1][0] == summary.index("sat") + 1


def test_cliff_mapping_and_span_counting(tmp_path):
    path = _write(tmp_path / "cliff.jsonl.gz", [
        _cliff(1, "Ann Lee won the race in 2010 .", "['extrinsic-NP']", ["Ann Lee", "2010", "gold medal"]),
        _cliff(1, "Ann Lee lost .", "['intrinsic-predicate']", ["lost"], model="Pegasus"),
        _cliff(2, "A man was charged .", "correct", "", cut="test", origin="cnndm"),
        _cliff(2, "A woman was charged .", "['intrinsic-NP', 'extrinsic-NP']", ["woman"], cut="test",
               origin="cnndm", model="Pegasus"),
        _cliff(3, "Nothing matches .", "['extrinsic-NP']", ["elsewhere"], cut="test")])
    corpus = load_cliff(path)
    assert corpus.span_labels and corpus.labelled and corpus.name == "cliff"
    assert corpus.filtered == {UNLOCATED: 2}
    by_id = {r.id: r for r in corpus.responses}
    first = by_id["cliff-xsum-1-BART"]
    assert [(lab.text, lab.label_type, lab.meta) for lab in first.labels] == [
        ("Ann Lee", "Evident Baseless Info", "extrinsic-NP"), ("2010", "Evident Baseless Info", "extrinsic-NP")]
    assert first.labels[1].start == first.response.index("2010")
    assert [lab.label_type for lab in by_id["cliff-xsum-1-Pegasus"].labels] == ["Evident Conflict"]
    assert [lab.label_type for lab in by_id["cliff-cnndm-2-Pegasus"].labels] == ["Evident Baseless Info"]
    correct, unlocated = by_id["cliff-cnndm-2-BART"], by_id["cliff-xsum-3-BART"]
    assert (correct.response_label, correct.labels, correct.hallucinated) == (0, (), False)
    assert (unlocated.response_label, unlocated.labels, unlocated.hallucinated) == (1, (), True)
    assert (first.split, first.subset, first.model, correct.split) == ("calibration", "xsum", "BART", "test")
    src = corpus.sources["cliff-xsum-1"]
    assert (src.task_type, src.source, src.source_info) == ("Summary", "CLIFF-xsum", "Article 1.")
    assert set(assign_splits(corpus).values()) == {"calibration", "test"}
    given, moved = assign_splits(corpus), assign_splits(corpus, train_from_calibration=0.9)
    assert {s for s, v in given.items() if v == "test"} == {s for s, v in moved.items() if v == "test"}
    assert [moved[s] for s, v in given.items() if v == "calibration"] == ["train"]   # the one val document
    assert assign_splits(corpus, train_from_calibration=0.4) == given                # round(0.4 * 1) = 0
    with pytest.raises(ConfigError, match="train_from_calibration"):
        assign_splits(corpus, train_from_calibration=1.0)
    val = load_cliff(tmp_path, cuts=["val"])
    assert len(val) == 2 and val.filtered == {UNLOCATED: 1, "cut=test not loaded": 3}


def test_cliff_validation_names_file_line_field(tmp_path):
    path = _write(tmp_path / "cliff.jsonl.gz", [
        _cliff(1, "Ann won .", "['extrinsic-NP']", "not a list"),
        _cliff(2, "Ann won .", "['extrinsic-NP']", "['Ann', 3]"),
        _cliff(3, "Ann won .", "correct", ["Ann"]),
        _cliff(4, "Ann won .", "['wrong']", ["Ann"], cut="dev"),
        _cliff(5, "Ann won .", "['extrinsic-NP']", ["Ann"]), _cliff(5, "Ann won .", "correct", "")])
    with pytest.raises(DataValidationError) as excinfo:
        load_cliff(path)
    text = _problem_text(excinfo)
    assert "cliff.jsonl.gz:1: field 'annotated_span': expected a Python-style list of strings" in text
    assert "cliff.jsonl.gz:2: field 'annotated_span'" in text
    assert "cliff.jsonl.gz:3: field 'annotated_span': 1 span(s) on a summary marked 'correct'" in text
    assert "cliff.jsonl.gz:4: field 'cut'" in text and "cliff.jsonl.gz:4: field 'error_type'" in text
    assert "cliff.jsonl.gz:6: field 'id': duplicate summary 'cliff-xsum-5-BART' (first on line 5)" in text


# -- plain files ------------------------------------------------------------------------------


def test_plain_jsonl_mapping(tmp_path):
    path = _write(tmp_path / "mine.jsonl.gz", [
        {"id": "a", "question": "Where?", "context": "passage 1: Paris is in France.", "answer": "Paris.",
         "label": "true", "spans": [{"start": 0, "end": 5, "text": "Paris", "type": "conflict"}]},
        {"id": "b", "question": "Where?", "context": "passage 1: Paris is in France.", "answer": "",
         "label": 0, "spans": []},
        {"context": ["One passage.", "Two passage."], "answer": "One.", "spans": [{"start": 0, "end": 3}]},
        {"context": "An article.", "answer": "A summary.", "label": False, "spans": [],
         "model": "gpt", "temperature": 0.7}])
    corpus = load_plain(path)
    assert corpus.name == "mine" and corpus.labelled and corpus.span_labels
    assert [r.id for r in corpus.responses] == ["a", "b", "3", "4"]
    assert [r.response_label for r in corpus.responses] == [1, 0, 1, 0]
    assert corpus.responses[0].labels[0].label_type == "Evident Conflict"
    assert corpus.responses[2].labels[0].label_type == "Evident Baseless Info"
    assert corpus.responses[1].response == "" and corpus.responses[0].source_id == corpus.responses[1].source_id
    assert (corpus.responses[3].model, corpus.responses[3].temperature) == ("gpt", 0.7)
    tasks = {sid: s.task_type for sid, s in corpus.sources.items()}
    assert tasks == {"src-1": "QA", "src-3": "QA", "src-4": "Summary"}
    assert corpus.sources["src-3"].source_info == {"question": "", "passages": ["One passage.", "Two passage."]}
    assert [c.text for c in build_evidence(corpus.sources["src-3"]).chunks] == ["One passage.", "Two passage."]
    assert [c.text for c in build_evidence(corpus.sources["src-1"]).chunks] == ["Paris is in France."]
    assert set(assign_splits(corpus).values()) == {"test"}


def test_plain_label_flags(tmp_path):
    rows = [{"context": "C.", "answer": "A.", "label": 1}, {"context": "C.", "answer": "B."}]
    corpus = load_plain(_write(tmp_path / "x.jsonl", rows))
    assert not corpus.labelled and not corpus.span_labels and len(corpus.sources) == 1
    corpus = load_plain(_write(tmp_path / "y.jsonl", rows[:1]), name="mine", split="train")
    assert corpus.labelled and not corpus.span_labels and corpus.name == "mine"
    assert corpus.responses[0].split == "train" and corpus.responses[0].hallucinated


def test_plain_csv(tmp_path):
    path = tmp_path / "mine.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "question", "context", "answer", "label", "spans"])
        writer.writerow(["q1", "Who?", json.dumps(["Ann wrote it.", "Bob read it."]), "Bob\nwrote it.", "1",
                         json.dumps([{"start": 0, "end": 3, "text": "Bob"}])])
        writer.writerow(["q2", "", "An article.", "A summary.", "0", "[]"])
    corpus = load_plain(path)
    assert [r.hallucinated for r in corpus.responses] == [True, False] and corpus.span_labels
    assert [s.task_type for s in corpus.sources.values()] == ["QA", "Summary"]
    assert corpus.sources["src-2"].source_info["passages"] == ["Ann wrote it.", "Bob read it."]
    assert corpus.responses[1].source_id == "src-4"  # the first record spans lines 2-3


def test_plain_validation_names_file_line_field(tmp_path):
    path = _write(tmp_path / "bad.jsonl", [
        "{oops", {"context": "C."}, {"answer": "A.", "context": 3, "label": "maybe"},
        {"id": "x", "context": "C.", "answer": "Abc", "spans": [{"start": 1, "end": 9}]},
        {"id": "x", "context": "C.", "answer": "Abc", "spans": [{"start": 0, "end": 1, "text": "b"}]},
        {"context": "C.", "answer": "Abc", "label": 0, "spans": [{"start": 0, "end": 1, "type": "odd"}]},
        {"context": ["C.", 2], "answer": 5}])
    with pytest.raises(DataValidationError) as excinfo:
        load_plain(path)
    text = _problem_text(excinfo)
    for expected in ("bad.jsonl:1: field '-': malformed JSON", "bad.jsonl:2: field 'answer': missing",
                     "bad.jsonl:3: field 'context'", "bad.jsonl:3: field 'label'",
                     "bad.jsonl:4: field 'spans[0].start/end'", "bad.jsonl:5: field 'spans[0].text'",
                     "bad.jsonl:6: field 'spans[0].type'", "bad.jsonl:7: field 'answer': expected a string"):
        assert expected in text
    path = _write(tmp_path / "dup.jsonl", [{"id": 1, "context": "C.", "answer": "A."},
                                           {"id": "1", "context": "C.", "answer": "A."}])
    with pytest.raises(DataValidationError, match=r"dup.jsonl:2: field 'id': duplicate id '1'"):
        load_plain(path)
    with pytest.raises(DataValidationError, match=r"empty.jsonl: field '-': no records found"):
        load_plain(_write(tmp_path / "empty.jsonl", []))
    with pytest.raises(DataValidationError, match=r"missing.jsonl: field '-': cannot read file"):
        load_plain(tmp_path / "missing.jsonl")


def test_plain_csv_validation(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text('context,answer,spans\n"C.",A.,[{"start": 0\n"C.",A.,[],extra\n', encoding="utf-8")
    with pytest.raises(DataValidationError) as excinfo:
        load_plain(path)
    text = _problem_text(excinfo)
    assert "bad.csv:2: field 'spans': malformed JSON" in text
    assert "bad.csv:3: field '-': malformed CSV" in text


# -- real data --------------------------------------------------------------------------------

SUMMEDITS_TABLE = {  # domain: (evaluation inconsistent, consistent, test inconsistent, consistent)
    "ectsum": (71, 46, 355, 196), "news": (82, 51, 416, 270), "podcast": (69, 55, 268, 108),
    "qmsumm": (58, 55, 190, 128), "sales_call": (80, 51, 267, 122), "sales_email": (97, 35, 337, 144),
    "samsum": (73, 48, 349, 194), "scitldr": (87, 28, 234, 117)}


def test_real_summedits_counts():
    directory = DATA / "summedits"
    if not summedits_available(directory):
        pytest.skip(f"SummEdits data not found at {directory} (needs <domain>.jsonl.gz for {DOMAINS})")
    corpus = load_summedits(directory)
    counts = Counter((r.subset, r.split, r.response_label) for r in corpus.responses)
    for domain, (ev_bad, ev_ok, test_bad, test_ok) in SUMMEDITS_TABLE.items():
        assert (counts[domain, "calibration", 1], counts[domain, "calibration", 0],
                counts[domain, "test", 1], counts[domain, "test", 0]) == (ev_bad, ev_ok, test_bad, test_ok)
    assert len(corpus.sources) == 162 and corpus.filtered == {}
    assert not any(sid.endswith(("-evaluation", "-test")) for sid in corpus.sources)  # no straddling
    assert set(assign_splits(corpus).values()) == {"calibration", "test"}


def test_real_cliff_counts():
    path = DATA / "cliff" / "cliff.jsonl.gz"
    if not path.is_file():
        pytest.skip(f"CLIFF data not found at {path}")
    corpus = load_cliff(path)
    assert len(corpus) == 600 and len(corpus.sources) == 300
    assert Counter(r.split for r in corpus.responses) == {"calibration": 300, "test": 300}
    assert sum(r.hallucinated for r in corpus.responses) == 226
    unlocated = corpus.filtered.get(UNLOCATED, 0)
    located = sum(len(r.labels) for r in corpus.responses)
    print(f"CLIFF: {located} annotated spans located, {unlocated} not located")
    assert located + unlocated == 320 and unlocated <= 3
    assert set(assign_splits(corpus).values()) == {"calibration", "test"}
