"""The generator's data files: vocabularies (`vocab/*.toml`) and text templates (`templates/`)."""
from __future__ import annotations

import tomllib
from importlib.resources import files
from types import SimpleNamespace

_ROOT = files(__package__)


def _frozen(value):
    """TOML arrays as tuples, so that loaded data is as immutable as the code that samples it."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    return value


def load(folder: str, name: str) -> SimpleNamespace:
    """The top-level keys of `folder/name.toml` as attributes."""
    text = (_ROOT / folder / f"{name}.toml").read_text(encoding="utf-8")
    return SimpleNamespace(**_frozen(tomllib.loads(text)))


def template_text(name: str) -> str:
    return (_ROOT / "templates" / name).read_text(encoding="utf-8")


NAMES = load("vocab", "names")
PLACES = load("vocab", "places")
CALENDAR = load("vocab", "calendar")
BUSINESSES = load("vocab", "businesses")
QA_FACTS = load("vocab", "qa")
NEWS = load("vocab", "news")

YELP = load("templates", "yelp")
MARCO = load("templates", "marco")
STORIES = load("templates", "news")
BASELESS = load("templates", "baseless")
RESPONSES = load("templates", "responses")
