"""Invented suites of meaning errors (tests/data/invented_suite*.jsonl): one case a line with
`id`, `class`, `kind` ('error' or 'paraphrase'), `evidence` (a string or a list of passages),
`answer` and `spans` (character offsets of the planted words in the answer)."""
from __future__ import annotations

import json
from pathlib import Path


def read_cases(path: Path) -> list[dict]:
    from ..errors import InputError

    cases = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            case = json.loads(line)
            for key in ("id", "class", "kind", "evidence", "answer", "spans"):
                case[key]  # noqa: B018 - a missing field is the error
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(f"{path}:{n}: not a suite case ({exc})") from exc
        cases.append(case)
    return cases
