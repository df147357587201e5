"""What the corpus contains: tasks and their source counts, generator labels and their rates."""
from __future__ import annotations

import math
from dataclasses import dataclass

MODELS = (
    "gpt-3.5-turbo-0613", "gpt-4-0613", "llama-2-7b-chat", "llama-2-13b-chat",
    "llama-2-70b-chat", "mistral-7B-instruct",
)
MODEL_RATES = {  # target share of responses with at least one hallucinated span
    "gpt-4-0613": 0.11, "gpt-3.5-turbo-0613": 0.15, "llama-2-70b-chat": 0.46,
    "llama-2-13b-chat": 0.49, "mistral-7B-instruct": 0.53, "llama-2-7b-chat": 0.64,
}
TASK_RATES = {"Data2txt": 0.65, "QA": 0.23, "Summary": 0.28}
TEMPERATURES = (0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0)


@dataclass(frozen=True)
class TaskPlan:
    task_type: str
    source: str
    prefix: str
    sources: int
    test: int


TASK_PLAN = (
    TaskPlan("Data2txt", "Yelp", "yelp", 50, 15),
    TaskPlan("QA", "MARCO", "marco", 45, 13),
    TaskPlan("Summary", "CNN/DM", "cnndm", 30, 9),
    TaskPlan("Summary", "Recent News", "news", 15, 5),
)


def _logit(p: float) -> float:
    return math.log(p / (1 - p))


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def cell_rates(task_counts: dict[str, int]) -> dict[tuple[str, str], float]:
    """Per (model, task) corruption probability whose margins match MODEL_RATES and TASK_RATES.

    Additive on the logit scale (model effect + task effect), fitted by alternating updates
    of the two sets of offsets until both weighted margins match.
    """
    a = {m: _logit(r) for m, r in MODEL_RATES.items()}
    b = {t: 0.0 for t in task_counts}
    total = sum(task_counts.values())
    for _ in range(100):
        for t in task_counts:
            mean = sum(_sigmoid(a[m] + b[t]) for m in MODELS) / len(MODELS)
            b[t] += _logit(TASK_RATES[t]) - _logit(mean)
        worst = 0.0
        for m in MODELS:
            mean = sum(_sigmoid(a[m] + b[t]) * n for t, n in task_counts.items()) / total
            step = _logit(MODEL_RATES[m]) - _logit(mean)
            a[m] += step
            worst = max(worst, abs(step))
        if worst < 1e-9:
            break
    return {(m, t): _sigmoid(a[m] + b[t]) for m in MODELS for t in task_counts}
