"""Every command and flag of the CLI explains itself (issue 24): a description and examples per
command, help for every option, no hidden default."""
from __future__ import annotations

import argparse

import pytest

from evidencechain import cli
from evidencechain.report.readme_blocks import _leaves

PARSER = cli.build_parser()
COMMANDS = dict(_leaves(PARSER))


def _all_parsers(parser: argparse.ArgumentParser, prefix: str = "evidencechain"):
    yield prefix, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from _all_parsers(child, f"{prefix} {name}")


@pytest.mark.parametrize("command", [name for name, _ in _all_parsers(PARSER)][1:])
def test_every_command_has_a_description_and_examples(command):
    parser = dict(_all_parsers(PARSER))[command]
    assert parser.description and len(parser.description.split()) >= 8, command
    assert parser.epilog and parser.epilog.startswith("examples:"), command
    examples = [line.strip() for line in parser.epilog.splitlines()[1:] if line.strip()]
    assert examples and all("evidencechain " + command.split()[1] in e for e in examples), (command, examples)
    help_text = parser.format_help()
    assert parser.description.split()[0] in help_text and examples[0] in help_text


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_option_has_help(command):
    for action in COMMANDS[command]._actions:
        assert action.help and len(action.help.split()) >= 2, (command, action.option_strings or action.dest)


def test_no_hidden_default_and_no_stale_help():
    run = COMMANDS["evidencechain run"].format_help()
    assert "default experiments/audit.toml" in " ".join(run.split())
    detect = " ".join(COMMANDS["evidencechain detect"].format_help().split())
    assert "0.1" not in detect
    model = next(a for a in COMMANDS["evidencechain detect"]._actions if "--model" in a.option_strings)
    assert model.help.count("model directory") == 1 and "pickle" not in model.help  # the trust note is said once
    assert detect.count("runs no code from the files") == 1
    for command, parser in COMMANDS.items():
        for action in parser._actions:
            default = action.default
            if action.option_strings and isinstance(default, (str, int)) and not isinstance(default, bool) \
                    and default is not argparse.SUPPRESS:
                assert str(default) in action.help or "default" in action.help, (command, action.option_strings)
