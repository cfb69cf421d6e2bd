"""The README's workflow is the Python example, which tests/workflows runs step by step on a real
project (its own steps, the runner step, the container step against the fake GitHub); docs/usage.md
shows the same workflow."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = "your-org/evidence-gate@<full-commit-sha>"
PLACEHOLDERS = (PLACEHOLDER, "your-org/evidence-gate/run@<full-commit-sha>")
PINNED = re.compile(r"[\w.-]+/[\w.-]+(/[^@\s]+)?@[0-9a-f]{40}")


def yaml_block_under(document: Path, heading: str) -> str:
    """The first YAML code block after the heading named `heading`."""
    tokens = MarkdownIt().parse(document.read_text(encoding="utf-8"))
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and tokens[index + 1].content == heading:
            block = next(t for t in tokens[index:] if t.type == "fence" and t.info.strip() == "yaml")
            return block.content
    raise AssertionError(f"{document.name} has no heading {heading!r}")


def readme_workflow() -> str:
    return yaml_block_under(ROOT / "README.md", "As a GitHub Action")


def job(workflow: str) -> dict[str, Any]:
    """The workflow's one job; a snippet of one job's keys (`steps:` at the top) is read as that job."""
    document: dict[str, Any] = yaml.safe_load(workflow)
    if "jobs" not in document:
        return document
    jobs: dict[str, dict[str, Any]] = document["jobs"]
    assert len(jobs) == 1
    return next(iter(jobs.values()))


def steps(workflow: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = job(workflow)["steps"]
    return found


def test_the_readme_and_the_usage_guide_show_the_same_workflow() -> None:
    assert readme_workflow() == yaml_block_under(ROOT / "docs" / "usage.md", "The recommended workflow")


def test_the_readme_shows_the_python_example_that_the_workflow_tests_run() -> None:
    example = (ROOT / "docs" / "examples" / "python.yml").read_text(encoding="utf-8")
    assert readme_workflow() == example[example.index("name: ") :]


def test_the_runner_step_and_the_container_step_read_the_same_reports() -> None:
    given = [step["with"]["reports"] for step in steps(readme_workflow()) if step.get("uses") in PLACEHOLDERS]
    assert len(given) == 2 and given[0] == given[1]


def test_every_action_in_the_workflow_is_pinned_to_a_full_commit_sha_or_is_this_one() -> None:
    uses = [step["uses"] for step in steps(readme_workflow()) if "uses" in step]
    assert set(PLACEHOLDERS) <= set(uses)
    assert [name for name in uses if name not in PLACEHOLDERS and not PINNED.fullmatch(name)] == []


def test_the_readme_says_what_the_placeholder_stands_for() -> None:
    tokens = MarkdownIt().parse((ROOT / "README.md").read_text(encoding="utf-8"))
    prose = [child for token in tokens if token.type == "inline" for child in token.children or []]
    assert any(child.type == "code_inline" and child.content == PLACEHOLDER for child in prose)
