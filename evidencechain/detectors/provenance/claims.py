"""Claims: the query and the answer joined into one sentence to fact-check."""
from __future__ import annotations

from dataclasses import dataclass

CLAIM_TEMPLATES = {
    "QA": "The answer to question {query} is {answer}.",
    "Dialogue": "The reply to the conversation {query} is: {answer}.",
    "Summary": "A summary of the document is: {answer}.",
}
DEFAULT_TEMPLATE = "Given the context, {answer}."


@dataclass(frozen=True)
class Claim:
    text: str
    query: str | None
    answer: str


def make_claim(task_type: str, query: str | None, answer: str) -> Claim:
    """Join query and answer into one claim sentence (see CLAIM_TEMPLATES)."""
    a = answer.strip().rstrip(".")
    q = " ".join((query or "").split())
    template = CLAIM_TEMPLATES.get(task_type, DEFAULT_TEMPLATE)
    if not q and "{query}" in template:
        template = CLAIM_TEMPLATES["Summary"] if task_type == "Summary" else DEFAULT_TEMPLATE
    return Claim(template.format(query=q, answer=a), query, answer)

