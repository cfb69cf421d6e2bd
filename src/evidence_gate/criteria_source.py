"""Acceptance criteria from a pull request body (the checklist under an "Acceptance criteria"
heading), and the tests and test sources that carry their tags.

The body is untrusted text. It is read, never rendered or executed here; only the checklist items'
order (criterion 1, 2, ...) and their text are kept.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from evidence_gate.changes import PathClassifier
from evidence_gate.errors import UsageError
from evidence_gate.git import Git
from evidence_gate.ledger.payloads.criteria import Criterion
from evidence_gate.model import FileKind
from evidence_gate.summary.base import CaseResult
from evidence_gate.workspace import read_at_most

_TASK = re.compile(r"^\[[ xX]\]\s+(?P<text>.*\S)\s*$")
_TITLE = "acceptance criteria"
_MARKDOWN = MarkdownIt("commonmark")
MAX_CRITERIA = 200
MAX_EVENT_BYTES = 32 * 1024 * 1024
MAX_BODY_CHARACTERS = 262_144  # GitHub keeps 65,536; a file given to the CLI may be larger, not this large


class TooManyCriteria(UsageError):
    """More criteria than are read: a failure of the criteria check, never a reason to skip it."""


def criteria_from_count(count: int) -> tuple[Criterion, ...]:
    if not 1 <= count <= MAX_CRITERIA:
        raise UsageError(f"--count {count}: give a number from 1 to {MAX_CRITERIA}")
    return tuple(Criterion(number=number, text=None) for number in range(1, count + 1))


def read_body(path: Path) -> str:
    """The PR body from a GitHub event payload (`pull_request.body`), or the file's text as it is."""
    try:
        with path.open("rb") as handle:
            data = read_at_most(handle, MAX_EVENT_BYTES + 1)
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"--from-pr-body {path}: cannot read ({error})") from error
    if len(data) > MAX_EVENT_BYTES:
        raise UsageError(f"--from-pr-body {path}: over {MAX_EVENT_BYTES:,} bytes; give the event payload or the body")
    if text.lstrip().startswith("{"):
        try:
            event = json.loads(text)
        except json.JSONDecodeError as error:
            raise UsageError(f"--from-pr-body {path}: not valid JSON ({error})") from error
        except ValueError as error:  # an integer past the 4,300 digits Python reads from text
            raise UsageError(f"--from-pr-body {path}: cannot read its JSON ({str(error)[:200]})") from error
        except RecursionError as error:
            raise UsageError(f"--from-pr-body {path}: JSON nested too deeply to be an event payload") from error
        pull_request = event.get("pull_request") if isinstance(event, dict) else None
        body = pull_request.get("body") if isinstance(pull_request, dict) else None
        if pull_request is None:
            raise UsageError(f"--from-pr-body {path}: a JSON file, but not a pull_request event payload")
        return body if isinstance(body, str) else ""
    return text


def criteria_from_body(body: str, source: str) -> tuple[Criterion, ...]:
    """The task-list items under the first "Acceptance criteria" heading, up to the next heading of
    the same or a higher level, as GitHub renders the body: it is parsed as CommonMark, so a heading
    or an item inside a code block, an HTML comment or a mismatched fence is what GitHub shows it as.
    The items under a `Later` or `Parked` heading nested in that section are parked work, not
    criteria (`parked_items` reads them)."""
    if len(body) > MAX_BODY_CHARACTERS:
        raise UsageError(f"{source}: {len(body):,} characters; more than a pull request body holds")
    tokens = _MARKDOWN.parse(body)
    level: int | None = None
    parked: int | None = None  # the level of the nested `Later` heading the items are under, if any
    found: list[Criterion] = []
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            heading_level = int(token.tag[1:])
            if level is not None and heading_level <= level:
                break
            title = tokens[index + 1].content.strip().rstrip(":").strip().lower()
            if level is None and title == _TITLE:
                level = heading_level
            elif level is not None and (parked is None or heading_level <= parked):
                parked = heading_level if title in _LATER else None
        elif level is not None and parked is None and token.type == "inline" and _opens_list_item(tokens, index):
            item = _TASK.match(token.content.split("\n", 1)[0])
            if item:
                found.append(Criterion(number=len(found) + 1, text=item.group("text")))
    if level is None:
        raise UsageError(f"{source}: no '## Acceptance criteria' heading in the pull request body")
    if not found:
        raise UsageError(f"{source}: no checklist items ('- [ ] ...') under '## Acceptance criteria'")
    if len(found) > MAX_CRITERIA:
        raise TooManyCriteria(f"{source}: {len(found)} acceptance criteria; at most {MAX_CRITERIA} are read")
    return tuple(found)


_LATER = frozenset({"later", "parked"})


def parked_items(body: str) -> tuple[str, ...]:
    """The list items under a `Later` or `Parked` heading, up to the next heading of the same or a
    higher level (the plan's parked work), as GitHub renders the body; a task box is dropped."""
    if len(body) > MAX_BODY_CHARACTERS:
        return ()
    tokens = _MARKDOWN.parse(body)
    level: int | None = None
    found: list[str] = []
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            heading_level = int(token.tag[1:])
            if level is not None and heading_level <= level:
                level = None
            title = tokens[index + 1].content.strip().rstrip(":").strip().lower()
            if level is None and title in _LATER:
                level = heading_level
        elif level is not None and token.type == "inline" and _opens_list_item(tokens, index):
            first = token.content.split("\n", 1)[0]
            item = _TASK.match(first)
            found.append(item.group("text") if item else first.strip())
    return tuple(found[:MAX_CRITERIA])


def _opens_list_item(tokens: list[Token], index: int) -> bool:
    """Whether the inline token at `index` is the first paragraph of a list item."""
    return index >= 2 and tokens[index - 1].type == "paragraph_open" and tokens[index - 2].type == "list_item_open"


def tagged_sources(
    story: str, criteria: tuple[Criterion, ...], git: Git | None, classifier: PathClassifier
) -> dict[str, list[str]]:
    """Where each tag stands (`path:line`) in the checkout's test files, committed or not yet (a new
    test file on a laptop): a README or a doc that names a tag is not a test that failed to load.
    Nothing without a checkout."""
    if git is None:
        return {}
    lines = [line for line in git.grep_fixed(f"[{story}#") if classifier.kind(line[0]) is FileKind.TEST]
    found: dict[str, list[str]] = {}
    for criterion in criteria:
        tag = f"[{story}#{criterion.number}]"
        places = [f"{path}:{number}" for path, number, text in lines if tag in text]
        if places:
            found[tag] = places
    return found


MAX_NAMED_PER_TAG = 20  # test names kept per tag for the report; every test is still counted


@dataclass
class TagTally:
    """The tests that carry one tag: how many, how many did not pass, and the first names of each."""

    total: int = 0
    unproven: int = 0
    passed_names: list[str] = field(default_factory=list)
    unproven_names: list[tuple[str, str]] = field(default_factory=list)  # (name, outcome)


class TaggedTests:
    """The test cases that carry a story's tags, tallied as they stream past: a report may hold
    thousands of tagged cases (or names of a megabyte), and only counts and a few names are kept."""

    def __init__(self, story: str) -> None:
        self._tags = re.compile(rf"\[{re.escape(story)}#\d{{1,3}}\]")
        self.by_tag: dict[str, TagTally] = {}

    def __call__(self, case: CaseResult) -> None:
        for tag in dict.fromkeys(self._tags.findall(f"{case.classname}\n{case.name}")):
            tally = self.by_tag.setdefault(tag, TagTally())
            tally.total += 1
            if case.outcome != "passed":
                tally.unproven += 1
                if len(tally.unproven_names) < MAX_NAMED_PER_TAG:
                    tally.unproven_names.append((case.display_name, case.outcome))
            elif len(tally.passed_names) < MAX_NAMED_PER_TAG:
                tally.passed_names.append(case.display_name)
