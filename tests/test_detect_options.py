"""`detect` reads its arguments once into a frozen `DetectOptions`: the mode, the defaults and every
output path are settled there, before any input is read, and the parsed arguments are left as
they were (issue 23)."""
from __future__ import annotations

import argparse
import dataclasses
import json

import pytest

from evidencechain import cli
from evidencechain.detect.command import LEGACY_REMOVAL, DetectOptions
from evidencechain.errors import ConfigError, OutputError

PARSER = cli.build_parser()


@pytest.fixture()
def files(tmp_path, monkeypatch):
    monkeypatch.setenv("EVIDENCECHAIN_CACHE_DIR", str(tmp_path / "cache"))
    plain = tmp_path / "answers.jsonl"
    plain.write_text(json.dumps({"context": "The sky is blue.", "answer": "It is blue."}) + "\n")
    response, source = tmp_path / "response.jsonl", tmp_path / "source_info.jsonl"
    response.write_text("")
    source.write_text("")
    return {"plain": str(plain), "pairs": ["--response-jsonl", str(response), "--source-info-jsonl", str(source)],
            "dir": tmp_path}


def _options(argv: list[str]) -> tuple[DetectOptions, dict]:
    args = PARSER.parse_args(["detect", *argv])
    before = dict(vars(args))
    options = DetectOptions.from_args(args)
    assert vars(args) == before  # the parsed arguments are never changed
    return options, before


def test_records_mode_with_defaults_and_a_frozen_result(files):
    options, _ = _options([files["plain"]])
    assert (options.mode, options.format, options.engine, options.parse_cache) == ("records", "jsonl", "local", True)
    assert options.inputs == (files["plain"],) and options.shown == files["plain"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.format = "pretty"


def test_streaming_turns_the_parse_cache_off_without_touching_the_arguments(files):
    options, before = _options([files["plain"], "--out-dir", str(files["dir"] / "parts")])
    assert options.mode == "stream" and not options.parse_cache and before["no_cache"] is False


@pytest.mark.parametrize("out, extra, mode", [("tables", [], "tables"), ("scores.jsonl", [], "records"),
                                              ("tables", ["--format", "jsonl"], "records")])
def test_the_deprecated_tables_form_is_recognised_as_before(files, out, extra, mode):
    options, _ = _options([*files["pairs"], "--out", str(files["dir"] / out), *extra])
    assert options.mode == mode


def test_every_output_is_checked_once_before_any_work(files, monkeypatch):
    import evidencechain.detect.output as output
    import evidencechain.io as io

    calls = []
    for module, name in ((io, "check_output_dir"), (output, "check_output_file")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda path, *a, _real=real, **k: calls.append(str(path)) or _real(path, *a, **k))
    out, html, tables = (str(files["dir"] / n) for n in ("r.jsonl", "r.html", "tables"))
    _options([files["plain"], "--out", out, "--html", html, "--tables", tables])
    assert calls == [out, html, tables]


def test_bad_combinations_and_outputs_are_refused_by_the_options(files):
    (files["dir"] / "taken.jsonl").write_text("mine\n")
    with pytest.raises(OutputError, match="taken.jsonl exists"):
        _options([files["plain"], "--out", str(files["dir"] / "taken.jsonl")])
    with pytest.raises(ConfigError, match="--html cannot be combined"):
        _options([files["plain"], "--out-dir", str(files["dir"] / "p"), "--html", str(files["dir"] / "r.html")])
    with pytest.raises(OutputError, match="input"):
        _options([*files["pairs"], "--out", str(files["dir"])])


def test_the_help_of_out_names_the_removal_date():
    commands = next(a for a in PARSER._actions if isinstance(a, argparse._SubParsersAction))
    out = next(a for a in commands.choices["detect"]._actions if "--out" in a.option_strings)
    assert f"deprecated, removed on {LEGACY_REMOVAL}" in out.help
