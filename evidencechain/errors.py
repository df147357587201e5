"""The failures a user can fix. The CLI prints each as one `error: ...` line and exits 2.

Every module raises these (or a subclass) for bad input, configuration, models, run
directories and outputs; anything else reaching the CLI is a bug and keeps its traceback
under `--verbose`.
"""
from __future__ import annotations

from difflib import get_close_matches


class EvidenceChainError(Exception):
    """Base class: an expected failure whose message names what and where."""


class ConfigError(EvidenceChainError, ValueError):
    """An experiment file or API argument is unreadable, mistyped or names unknown keys."""


class InputError(EvidenceChainError, ValueError):
    """An input file or record cannot be used (the message names file, line and field)."""


class OutputError(EvidenceChainError):
    """An output path is unsafe or unwritable (it would replace a user's files)."""


class ModelError(EvidenceChainError):
    """A model directory is missing, damaged, tampered with or incompatible."""


class ResultError(EvidenceChainError):
    """A run directory given to `report` is missing or damaged (a CSV named)."""


class MissingDependency(EvidenceChainError):
    """An optional component is requested but not installed (the message says what to install)."""


def did_you_mean(word: object, choices) -> str:
    """" (did you mean 'x'?)" for the closest choice, or "" when none is close.

    Case and '-' / '_' are ignored first ('EvidenceChain_lr' -> 'EvidenceChain_LR',
    'nli_rules' -> 'nli-rules'), then difflib's closest match is taken.
    """
    if not isinstance(word, str):
        return ""
    by_form = {str(c).lower().replace("_", "-"): str(c) for c in choices}
    form = word.lower().replace("_", "-")
    close = [form] if form in by_form else get_close_matches(form, list(by_form), n=1)
    return f" (did you mean {by_form[close[0]]!r}?)" if close else ""
