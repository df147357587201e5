"""What keeps `detect` and the default model's build light: spaCy imported without its command line
(and without torch), one OpenMP thread in the contexts that ask for it, fewer workers while a
forked one keeps a core busy."""
from __future__ import annotations

import subprocess
import sys

from threadpoolctl import threadpool_info

from evidencechain.text.parallel import one_openmp_thread


def test_spacy_is_imported_without_its_command_line_which_still_works_on_demand():
    code = ("import sys\n"
            "from evidencechain.text.spacy_import import import_spacy_lightly\n"
            "import_spacy_lightly()\n"
            "import spacy\n"
            "print('spacy.cli' in sys.modules, 'requests' in sys.modules, 'torch' in sys.modules)\n"
            "print('spacy_version' in spacy.info(silent=True))\n"
            "import spacy.cli\n"
            "print(callable(spacy.cli.info), spacy.blank('en')('A test.').text)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["False False False", "True", "True A test."]


def test_every_entry_point_imports_spacy_without_torch():
    code = ("import sys\nimport evidencechain.config, evidencechain.runner\n"
            "print('spacy' in sys.modules, 'torch' in sys.modules, 'spacy.cli' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False", "False"]


def _openmp_threads() -> set[int]:
    return {p["num_threads"] for p in threadpool_info() if p["user_api"] == "openmp"}


def test_one_openmp_thread_limits_openmp_inside_and_restores_it_after():
    import sklearn.ensemble  # noqa: F401  (loads scikit-learn's OpenMP runtime)

    before = _openmp_threads()
    assert before
    with one_openmp_thread():
        assert _openmp_threads() == {1}
    assert _openmp_threads() == before


def test_at_most_caps_the_workers_inside_only(monkeypatch):
    from evidencechain.text.parallel import at_most, workers

    monkeypatch.setenv("EVIDENCECHAIN_WORKERS", "4")
    with at_most(2):
        assert workers() == 2
        with at_most(0):
            assert workers() == 1
        with at_most(8):
            assert workers() == 2
    assert workers() == 4
