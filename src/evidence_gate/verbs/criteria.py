"""`evidence-gate criteria`: is each acceptance criterion proven by a named, passing test?"""

from __future__ import annotations

import argparse
import re
import shlex
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from evidence_gate.changes import PathClassifier
from evidence_gate.criteria_source import (
    TaggedTests,
    criteria_from_body,
    criteria_from_count,
    read_body,
    tagged_sources,
)
from evidence_gate.effects import Effects, effects_for
from evidence_gate.errors import EXIT_CHECK_FAILED, EXIT_OK, UsageError
from evidence_gate.gates.criteria import (
    CommandOutcome,
    check_story,
    from_command,
    from_reports,
    regex_escaped,
    tag_of,
)
from evidence_gate.ledger.payload import write
from evidence_gate.ledger.payloads.criteria import Criterion, CriterionResult, CriterionStatus
from evidence_gate.stacks.detect import detect
from evidence_gate.stacks.table import AdapterTable
from evidence_gate.summary.read import read_source
from evidence_gate.summary.registry import ALL_PARSERS
from evidence_gate.verbs.common import EXIT_UNPARSED, existing_file, print_json, table

EPILOG = (
    "Criteria are tagged in test names as [<story-id>#<n>]. From JUnit reports a criterion is green when "
    "tests carry its tag and all passed, red when one did not pass (or the tag is in a test file, by the "
    "stack's test patterns, committed or not, but in no report: the suite did not load), missing when nothing"
    " carries it. With --command, one filtered test run per criterion: {tag} is replaced verbatim, {tagRegex}"
    " regex-escaped (valid in a JavaScript RegExp with the u flag too); green when it exits 0 and ran a test."
    " The template is split into arguments as a POSIX shell would split it, then run with no shell: no pipes,"
    " '&&', variables or globs, and the tag reaches the program as it is, quoted or not. Exit codes: 0 every "
    "criterion green; 1 one is red or missing; 2 usage error; 4 a report could not be read."
)
_TAG_SLOT = re.compile(r"\{(tag|tagRegex)\}")
DEFAULT_TIMEOUT = 1800.0


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--story", required=True, help="the story id in the tags, e.g. SHOP-12")
    count = parser.add_mutually_exclusive_group(required=True)
    count.add_argument("--count", type=int, help="the number of criteria")
    count.add_argument(
        "--from-pr-body",
        metavar="FILE",
        help="the checklist under '## Acceptance criteria' of the PR body (a GitHub event payload or a file)",
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--junit", action="append", metavar="F", help="a JUnit XML report")
    source.add_argument(
        "--command",
        metavar="TEMPLATE",
        help="a filtered test command with {tag} or {tagRegex}, run once per criterion as arguments, without a shell",
    )
    parser.add_argument("--repo", default=".", help="where the test sources are (default: .)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per command (default 1800)")


def run(args: argparse.Namespace, out: TextIO, environ: Mapping[str, str]) -> int:
    story = check_story(args.story)
    if args.count is not None:
        criteria = criteria_from_count(args.count)
    else:
        criteria = criteria_from_body(read_body(existing_file(args.from_pr_body, environ)), args.from_pr_body)
    effects = effects_for(Path(args.repo), environ)
    if args.junit:
        reports = [existing_file(name, environ) for name in args.junit]
        results, unread = _from_junit(story, criteria, reports, effects, table(args))
    else:
        results, unread = (
            results_from_commands(story, criteria, command_arguments(args.command), effects, args.timeout),
            [],
        )
    ok = not unread and all(result.status is CriterionStatus.GREEN for result in results)
    if args.json:
        document = {"story": story, "ok": ok, "criteria": [write(result) for result in results]}
        if unread:
            document["unread"] = unread
        print_json(document, out)
    else:
        for result in results:
            text = f" {result.criterion.text}" if result.criterion.text else ""
            out.write(f"{result.status:<7} {result.tag}{text}: {result.reason}\n")
        for line in unread:
            out.write(f"unread: {line}\n")
    if unread:
        return EXIT_UNPARSED
    return EXIT_OK if ok else EXIT_CHECK_FAILED


def _from_junit(
    story: str, criteria: tuple[Criterion, ...], reports: list[Path], effects: Effects, adapters: AdapterTable
) -> tuple[tuple[CriterionResult, ...], list[str]]:
    tagged = TaggedTests(story)
    unread: list[str] = []
    for report in reports:
        summary = read_source(report, ["junit"], on_case=tagged)
        if summary.counts is None:
            unread.append(f"{report}: {summary.reason}")
    classifier = PathClassifier(table=adapters, matches=detect(effects.top, adapters).matches)
    sources = tagged_sources(story, criteria, effects.git, classifier)
    return from_reports(story, criteria, tagged.by_tag, sources), unread


def command_arguments(template: str) -> tuple[str, ...]:
    """The template's arguments, split once: a template without a tag slot would run the same
    unfiltered command for every criterion, so it is refused before anything runs."""
    try:
        arguments = tuple(shlex.split(template))
    except ValueError as error:
        raise UsageError(f"--command {template!r}: cannot be split into arguments ({error})") from error
    if not any(_TAG_SLOT.search(argument) for argument in arguments):
        raise UsageError(
            f"--command {template!r}: has neither {{tag}} nor {{tagRegex}}, so every criterion would run the same"
            " unfiltered command"
        )
    return arguments


def _filtered(arguments: tuple[str, ...], tag: str) -> list[str]:
    """The command for one criterion: its slots filled in each argument, which stays one argument."""
    values = {"tag": tag, "tagRegex": regex_escaped(tag)}
    return [_TAG_SLOT.sub(lambda slot: values[slot.group(1)], argument) for argument in arguments]


def results_from_commands(
    story: str, criteria: tuple[Criterion, ...], arguments: tuple[str, ...], effects: Effects, timeout: float
) -> tuple[CriterionResult, ...]:
    results = []
    with tempfile.TemporaryDirectory(prefix="evidence-gate-criteria-") as scratch:
        for criterion in criteria:
            tag = tag_of(story, criterion.number)
            argv = _filtered(arguments, tag)
            run = effects.commands(argv, effects.repo, Path(scratch) / f"criterion-{criterion.number}.log", timeout)
            summary = read_source(run.output, ALL_PARSERS, label=run.command)
            outcome = CommandOutcome(command=run.command, exit_code=run.exit_code, summary=summary)
            results.append(from_command(criterion, tag, outcome))
    return tuple(results)
