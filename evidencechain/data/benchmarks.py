"""The registry of corpus formats and real-data benchmarks.

A *format* reads a `[corpora.NAME]` table into a `Corpus` (`format = "..."` in a config); a
*benchmark* is a real-data run reported beside published numbers: its config is
`experiments/NAME.toml`, its results `results/NAME/`, its tables `paper/tables/NAME*.md`, its
published rows `report/data/published.toml` [NAME] and its report texts (captions, the
manuscript's paragraphs, headline and abstract lines) `report/data/sections.toml` [NAME], or
both given with its entry. Each module named in `benchmarks.toml` registers its entries
when imported; loading, config validation, the reports, the CLI and the Makefile read them here.
"""
from __future__ import annotations

import importlib
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..records import Corpus

Read = Callable[[Any, str, int], Corpus]
"""(the corpus's config table as a `CorpusConfig`, the corpus name, the seed) -> the corpus."""


@dataclass(frozen=True)
class Format:
    """How `[corpora.NAME] format = name` is read."""

    name: str
    read: Read
    subsets: tuple[str, ...] = ()
    """Allowed values of `subsets` (empty: the format has none)."""
    needs_path: bool = True
    """Whether `path` must be given."""
    loader: Callable[..., Corpus] | None = None
    """The public `load_*` function (exported by `evidencechain.data`)."""


@dataclass(frozen=True)
class Benchmark:
    """A real-data benchmark run, reported beside published rows."""

    name: str
    format: str
    title: str
    """How a reader names it ('RAGTruth QA')."""
    section: str
    """The report's table kind (`evidencechain.report.benchmarks.SECTIONS`)."""
    texts: Mapping[str, Any] | None = None
    """Its report texts; None: `report/data/sections.toml` [NAME]."""
    published: Any = None
    """Its published rows; None: `report/data/published.toml` [NAME]."""


_FORMATS: dict[str, Format] = {}
_BENCHMARKS: dict[str, Benchmark] = {}
_LOADED: list[bool] = []


def spec_path(spec) -> Path | None:
    """A corpus table's `path`, user-expanded (None when not given)."""
    return Path(spec.path).expanduser() if spec.path else None


def register_format(fmt: Format) -> Format:
    _FORMATS[fmt.name] = fmt
    return fmt


def register(benchmark: Benchmark) -> Benchmark:
    _BENCHMARKS[benchmark.name] = benchmark
    return benchmark


def unregister(name: str) -> None:
    """Remove a benchmark and the format of the same name (tests)."""
    _BENCHMARKS.pop(name, None)
    _FORMATS.pop(name, None)


def manifest() -> dict:
    return tomllib.loads(resources.files(__package__).joinpath("benchmarks.toml").read_text("utf-8"))


def _load() -> None:
    if _LOADED:
        return
    _LOADED.append(True)
    table = manifest()
    for module in [*table["format_modules"], *table["benchmarks"].values()]:
        importlib.import_module(module)


def formats() -> dict[str, Format]:
    _load()
    return dict(_FORMATS)


def benchmarks() -> dict[str, Benchmark]:
    """Registered benchmarks, in the manifest's order, then those registered at run time."""
    _load()
    order = list(manifest()["benchmarks"])
    return dict(sorted(_BENCHMARKS.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order)))


def extra_runs() -> tuple[str, ...]:
    return tuple(manifest()["extra_runs"])


class FormatNames:
    """A live view of the registered format names (config validation's allowed values)."""

    def __contains__(self, name: object) -> bool:
        return name in formats()

    def __iter__(self) -> Iterator[str]:
        return iter(formats())

    def __len__(self) -> int:
        return len(formats())

    def __repr__(self) -> str:
        return repr(tuple(self))
