"""Planted meaning-error pairs for the checker, the pairs file (built here, trained elsewhere),
and the checker's evaluation on the invented suites."""
from __future__ import annotations

import numpy as np
import pytest

from evidencechain import cli
from evidencechain.checker.pipeline import pairs_hash, read_pairs, write_pairs
from evidencechain.checker.planted_pairs import planted_pairs
from evidencechain.checker.records import Pair
from evidencechain.checker.suite_eval import choose_threshold, grid, pieces_to_spans
from evidencechain.errors import EvidenceChainError

DOCS = [
    ("plant", "The Harwick plant increased its output in 2019. Its owner, Delia Marsh, sold it to Orvane Steel "
              "in 2021. The plant employs 1,200 people and will open a second line. All of its workers are "
              "local. Profits rose by 30 percent that year."),
    ("trial", "The spray did not shorten colds in the Verrick trial. The trial enrolled 400 adults over two "
              "winters. Most volunteers were older than 40. The researchers may publish the results in May. "
              "Dr Ana Pell led the trial, and Tomas Reyes funded it."),
]


def _pairs(seed=3, n=40):
    return planted_pairs(DOCS, n, seed, "planted_test")


def test_planted_pairs_mark_the_planted_words_and_keep_paraphrases_supported():
    pairs = _pairs()
    assert pairs, "the documents offer edits"
    labels = {p.label for p in pairs}
    assert labels <= {"conflict", "supported"} and "conflict" in labels
    for p in pairs:
        assert p.token_labels and p.source == "planted_test" and p.group in ("plant", "trial")
        if p.label == "conflict":
            assert p.kind.startswith("planted_") and p.spans
            assert p.claim not in p.premise, "the edited sentence differs from the evidence"
            for a, b in p.spans:
                assert 0 <= a < b <= len(p.claim) and p.claim[a:b].strip()
        else:
            assert p.kind.startswith("paraphrase_") and p.spans == ()


def test_planted_pairs_are_seeded():
    assert pairs_hash(_pairs(seed=3)) == pairs_hash(_pairs(seed=3))
    assert pairs_hash(_pairs(seed=3)) != pairs_hash(_pairs(seed=4))


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz", ".jsonl.xz"])
def test_pairs_file_round_trips(tmp_path, suffix):
    train = [Pair("The sky is blue.", "The sky is not blue.", "conflict", ((11, 14),), True, "negation", "s", "d1")]
    validation = [Pair("Rain fell.", "It rained.", "supported", (), True, "synonym", "s", "d2")]
    path = write_pairs(tmp_path / f"pairs{suffix}", train, validation)
    assert read_pairs(path) == (train, validation)
    assert not list(tmp_path.glob("*.part*"))


def test_a_damaged_pairs_file_names_its_line(tmp_path):
    path = write_pairs(tmp_path / "pairs.jsonl", [Pair("a b", "a", "supported")], [])
    path.write_text(path.read_text() + '{"split": "train", "premise": "x"}\n')
    with pytest.raises(EvidenceChainError, match=r"pairs.jsonl:2"):
        read_pairs(path)


def test_checker_pairs_keeps_an_existing_file(tmp_path, capsys):
    out = tmp_path / "pairs.jsonl"
    out.write_text("mine\n")
    assert cli.main(["checker", "pairs", "--out", str(out)]) == 2
    assert out.read_text() == "mine\n" and "--force" in capsys.readouterr().err


def test_word_pieces_widen_to_words_and_merge():
    claim = "Sales fell by 30 percent."
    offsets = np.array([[0, 5], [6, 8], [8, 10], [11, 13], [14, 16], [17, 24]])
    probs = np.array([0.1, 0.9, 0.8, 0.2, 0.7, 0.6])
    assert pieces_to_spans(claim, offsets, probs) == [(6, 10, pytest.approx(0.9)), (14, 24, pytest.approx(0.7))]
    none = np.array([0.1, 0.3, 0.2, 0.1, 0.1, 0.1])
    assert pieces_to_spans(claim, offsets, none) == [(6, 10, pytest.approx(0.3))]


def test_threshold_is_chosen_by_caught_minus_flagged():
    rows = [("error", [(0.97, True)]), ("error", [(0.7, True), (0.2, False)]), ("error", [(0.9, False)]),
            ("paraphrase", [(0.6, False)]), ("paraphrase", [(0.1, False)])]
    table = {row["threshold"]: row for row in grid(rows)}
    assert table[0.5]["caught"] == 2 and table[0.5]["paraphrases_flagged"] == 1
    assert table[0.65]["caught"] == 2 and table[0.65]["paraphrases_flagged"] == 0
    assert choose_threshold(rows) == 0.7, "0.65 and 0.7 tie: the higher wins"
