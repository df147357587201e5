"""The failures a user can fix. The CLI prints each as one `error: ...` line and exits 2.

Every module raises these (or a subclass) for bad input, configuration, models, run
directories and outputs; anything else reaching the CLI is a bug and keeps its traceback
under `--verbose`.
"""
from __future__ import annotations


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
