"""Settings from three places, most specific first: CLI flags, the action's `INPUT_*` environment,
and the repository's `.github/evidence-gate.yml` (validated: an unknown key or a wrong type is an
error naming the key). Then the defaults. `reports` globs given as flags or inputs are the user's
and may name files outside the repository; the config file's may not.

In a pull request the work tree is the pull request's, so its config file would let it configure
its own gate (`fail-on: never`). There every key of the file is read as the base commit has it:
each one decides the verdict (`fail-on`, `reports`, `stack`, `story`, `base`, `head`, `gates-off`,
`fail-on-tags`, the `strength-*` keys, among them the command that runs the tests, the `coverage-*`
thresholds, `stage`, `baseline`, `scope`, `logs` and the commands of the checks: `type-check-command`,
`lint-command`, `test-command`, `smoke`), names the
required check (`check-name`) or decides what reviewers see and where the result goes
(`comment-mode`, `check-run`, `pr-body`, `job-summary`, `templates-dir`,
`ledger-out`). A pull request's change to the file is noted and
applies once merged.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import Any

import jsonschema

from evidence_gate.documents import clipped, load_yaml, read_capped, schema_message
from evidence_gate.errors import ConfigError, UsageError
from evidence_gate.ledger.quality_record import Stage
from evidence_gate.model import parse_shard
from evidence_gate.stacks.commands import parse_template
from evidence_gate.workspace import Refused, Workspace

CONFIG_FILE = Path(".github") / "evidence-gate.yml"
MAX_CONFIG_BYTES = 64 * 1024  # a config is a few lines; this is far more than any needs
DEFAULT_CHECK_NAME = "Evidence Gate"


class CommentMode(StrEnum):
    ALWAYS = "always"  # create or update the comment on every run
    CHANGES = "changes"  # write only when the verdict differs from the one the comment shows
    FAILURES = "failures"  # write when the verdict is not PASS, and update one that exists
    OFF = "off"


class CoverageFailOn(StrEnum):
    MINIMUM = "minimum"  # the coverage gate fails below the minimum (unless `coverage:override`)
    TARGET = "target"  # ... and below the target (unless `coverage:accept-risk` or `coverage:intentional`)
    NEVER = "never"  # it reports, and never fails


class FailOn(StrEnum):
    STAGNATION = "stagnation"  # BLOCKED and STAGNATION fail the check run
    BLOCKED = "blocked"  # the same: STAGNATION is a BLOCKED verdict that repeated (kept for the configs that name it)
    NEVER = "never"  # report only: the check run is neutral unless PASS


KEYS = (
    "reports",
    "base",
    "head",
    "stack",
    "story",
    "check-name",
    "comment-mode",
    "fail-on",
    "templates-dir",
    "ledger-out",
    "api-wait-seconds",
    "check-run",
    "pr-body",
    "job-summary",
    "gates-off",
    "fail-on-tags",
    "strength-command",
    "strength-timeout-ms",
    "strength-jobs",
    "strength-shard",
    "strength-install",
    "coverage-minimum",
    "coverage-target",
    "coverage-min-changed-lines",
    "coverage-fail-on",
    "coverage-value-weighting",
    "stage",
    "baseline",
    "scope",
    "smoke",
    "type-check-command",
    "lint-command",
    "test-command",
    "logs",
    "command-timeout-seconds",
)
SWITCHES = ("check-run", "pr-body", "job-summary")  # each publishing surface can be switched off on its own
LIST_KEYS = ("reports", "gates-off", "fail-on-tags", "scope")  # an input of one item a line
LINE_KEYS = ("smoke",)  # an input of one command a line (commas are the commands' own)
MAP_KEYS = ("logs",)  # an input of one `key: value` a line
LOG_CHECKS = ("type-check", "lint", "smoke")
GATES_OFF_BY = "by the configuration (`gates-off`)"


@dataclass(frozen=True, kw_only=True)
class Settings:
    repo: Path
    reports: tuple[str, ...] = ()
    reports_may_leave: bool = False  # the globs are the user's (a flag, the action's input), not the config file's
    base: str | None = None
    head: str | None = None
    stack: str | None = None
    story: str | None = None
    check_name: str = DEFAULT_CHECK_NAME
    comment_mode: CommentMode = CommentMode.ALWAYS
    fail_on: FailOn = FailOn.STAGNATION
    templates_dir: Path | None = None
    ledger_out: Path | None = None
    api_wait_seconds: int = 60  # the most a run waits on GitHub's API, retries and timeouts included
    check_run: bool = True
    pr_body: bool = True
    job_summary: bool = True
    gates_off: tuple[str, ...] = ()  # gate ids switched off: each is shown as off, never silently absent
    gates_off_by: str = GATES_OFF_BY  # who switched them off, as each one's headline says it
    fail_on_tags: tuple[str, ...] = ()  # gate-integrity tags (RH-n) that fail the gate, not only ask for review
    strength_command: str | None = None  # one test file's shell command, {file} {dir} {stem}; else the stack's
    strength_timeout_ms: int = 600_000  # per run of one test file
    strength_jobs: int = 1  # worktrees run side by side
    strength_shard: str | None = None  # `I/N`: this job judges the I-th of N stable parts of the changed tests
    strength_install: str | None = None  # a shell command run once in each worktree before its tests (`npm ci`)
    coverage_minimum: int = 60  # percent: below it the change is critically under-tested
    coverage_target: int = 80  # percent: at or above it the coverage gate passes outright
    coverage_min_changed_lines: int = 0  # fewer executable changed lines: the coverage gate only informs
    coverage_fail_on: CoverageFailOn = CoverageFailOn.MINIMUM
    coverage_value_weighting: bool = True  # count only lines run by tests strength found able to fail
    stage: Stage = Stage.PRE_PR
    baseline: str | None = None  # a baseline file, relative to the repository, or `base`
    scope: tuple[str, ...] = ()  # globs of the files the change may touch (check 5)
    smoke: tuple[str, ...] = ()  # smoke-test commands (check 8)
    type_check_command: str | None = None
    lint_command: str | None = None
    test_command: str | None = None
    logs: Mapping[str, str] = field(default_factory=dict)  # check -> glob of the log a step wrote
    command_timeout_seconds: int = 900
    github_token: str = field(default="", repr=False)  # never printed, not even in a crash report
    notes: tuple[str, ...] = ()  # what the run says about where its settings came from


@dataclass(frozen=True, kw_only=True)
class BaseConfig:
    """The pull request's base commit, whose config file applies to the pull request."""

    commit: str
    read: Callable[[PurePosixPath], bytes | None]  # a file (relative to the repo) at the commit; None: absent
    names: Callable[[PurePosixPath], tuple[str, ...]] = lambda folder: ()  # regular files in a folder at the commit


def inputs_from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    """The action's inputs: GitHub passes `INPUT_<NAME>` with the name upper-cased and hyphens kept
    (`INPUT_CHECK-NAME`); an empty value is an input left at its default."""
    found: dict[str, Any] = {}
    for key in KEYS:
        value = environ.get(f"INPUT_{key.upper()}", "").strip()
        if not value:
            continue
        if key in LIST_KEYS:
            found[key] = _lines(value)
        elif key in LINE_KEYS:
            found[key] = [
                line.strip() for line in value.splitlines() if line.strip() and not line.lstrip().startswith("#")
            ]
        elif key in MAP_KEYS:
            found[key] = _pairs(key, value)
        else:
            found[key] = value
    return found


def _pairs(key: str, value: str) -> dict[str, str]:
    """A map input: `name: value` a line, blank lines and `#` comments ignored."""
    pairs: dict[str, str] = {}
    for line in value.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, colon, rest = line.partition(":")
        if not colon or not rest.strip():
            raise UsageError(f"{key}: {clipped(repr(line.strip()))} is not a `name: value` line")
        pairs[name.strip()] = rest.strip()
    return pairs


def _lines(value: str) -> list[str]:
    """A multi-line input: one glob a line (commas too), blank lines and `#` comments ignored."""
    return [
        part.strip()
        for line in value.splitlines()
        for part in line.split(",")
        if part.strip() and not part.strip().startswith("#")
    ]


def read_config(path: Path, required: bool, repo: Path) -> dict[str, Any]:
    """The work tree's config file. It is the repository's, so it must not lead outside it."""
    if not path.is_file():
        if required:
            raise UsageError(f"{path}: no such config file")
        return {}
    Workspace.at(repo).check(path)
    return parse_config(read_capped(path, MAX_CONFIG_BYTES, ConfigError, "the config"), str(path))


def parse_config(data: bytes, source: str) -> dict[str, Any]:
    """A config file's settings, validated. Hostile content (an alias bomb, deep nesting, a huge
    value) is a one-line ConfigError in bounded time: see documents.py."""
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{source}: the config is larger than {MAX_CONFIG_BYTES:,} bytes; refusing to read it")
    document = load_yaml(data, source, ConfigError)
    document = {} if document is None else document
    schema = json.loads(resources.files("evidence_gate.schemas").joinpath("config.schema.json").read_text("utf-8"))
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(document), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        key = "/".join(str(part) for part in first.absolute_path)
        unknown = sorted(str(name) for name in set(document) - set(KEYS)) if isinstance(document, dict) else []
        if first.validator == "additionalProperties" and unknown:
            raise ConfigError(f"{source}: unknown key {clipped(repr(unknown[0]))} (known: {', '.join(KEYS)})")
        raise ConfigError(f"{source}: {clipped(key) or '(top level)'}: {schema_message(first)}")
    return dict(document)


def resolve(
    repo: Path,
    flags: Mapping[str, Any],
    environ: Mapping[str, str],
    config: Path | None,
    base: BaseConfig | None = None,
    ledger_base: Path | None = None,
) -> Settings:
    """Settings for a run in `repo`: flags over `INPUT_*` over the config file over defaults. With
    `base` (a pull request), the config file is the base commit's. `ledger-out` is relative to
    `ledger_base` (the action's workspace, whatever its `working-directory`), else to `repo`."""
    merged: dict[str, Any] = {}
    if base is not None and (config is None or not config.is_absolute()):
        from_file, notes = _config_at_base(repo, config, base)
    else:
        path = repo / (config or CONFIG_FILE) if config is None or not config.is_absolute() else config
        from_file, notes = read_config(path, config is not None, repo), ()
    inputs = inputs_from_environment(environ)
    given = dict(inputs)
    given.update({key: value for key, value in flags.items() if value not in (None, [], ())})
    merged.update(from_file)
    merged.update(given)
    try:
        comment_mode = CommentMode(merged.get("comment-mode", CommentMode.ALWAYS))
        fail_on = FailOn(merged.get("fail-on", FailOn.STAGNATION))
        coverage_fail_on = CoverageFailOn(merged.get("coverage-fail-on", CoverageFailOn.MINIMUM))
        stage = Stage(merged.get("stage", Stage.PRE_PR))
    except ValueError as error:
        raise UsageError(str(error)) from error
    api_wait = str(merged.get("api-wait-seconds", 60)).strip()
    if not re.fullmatch("[0-9]{1,4}", api_wait) or not 1 <= int(api_wait) <= 3600:
        raise UsageError(f"api-wait-seconds: {api_wait[:20]!r} is not a whole number of seconds from 1 to 3600")
    check_run, pr_body, job_summary = (_switch(key, merged.get(key, True)) for key in SWITCHES)
    minimum = _whole("coverage-minimum", merged.get("coverage-minimum", 60), 0, 100)
    target = _whole("coverage-target", merged.get("coverage-target", 80), 0, 100)
    if target < minimum:
        raise UsageError(f"coverage-target ({target}) is below coverage-minimum ({minimum})")
    templates = merged.get("templates-dir")
    ledger_out = merged.get("ledger-out")
    return Settings(
        repo=repo,
        reports=tuple(merged.get("reports", ())),
        reports_may_leave="reports" in given,
        base=merged.get("base"),
        head=merged.get("head"),
        stack=merged.get("stack"),
        story=merged.get("story"),
        check_name=merged.get("check-name", DEFAULT_CHECK_NAME),
        comment_mode=comment_mode,
        fail_on=fail_on,
        templates_dir=(repo / templates) if templates else None,
        ledger_out=(ledger_base or repo) / ledger_out if ledger_out else None,
        api_wait_seconds=int(api_wait),
        check_run=check_run,
        pr_body=pr_body,
        job_summary=job_summary,
        gates_off=tuple(dict.fromkeys(merged.get("gates-off", ()))),
        gates_off_by=_gates_off_by(flags, inputs, config, base),
        fail_on_tags=_tags(merged.get("fail-on-tags", ())),
        strength_command=_strength_command(merged.get("strength-command")),
        strength_timeout_ms=_whole(
            "strength-timeout-ms", merged.get("strength-timeout-ms", 600_000), 1_000, 86_400_000
        ),
        strength_jobs=_whole("strength-jobs", merged.get("strength-jobs", 1), 1, 64),
        strength_shard=parse_shard(str(merged["strength-shard"])).text if merged.get("strength-shard") else None,
        strength_install=str(merged["strength-install"]) if merged.get("strength-install") else None,
        coverage_minimum=minimum,
        coverage_target=target,
        coverage_min_changed_lines=_whole(
            "coverage-min-changed-lines", merged.get("coverage-min-changed-lines", 0), 0, 1_000_000
        ),
        coverage_fail_on=coverage_fail_on,
        coverage_value_weighting=_switch("coverage-value-weighting", merged.get("coverage-value-weighting", True)),
        stage=stage,
        baseline=str(merged["baseline"]) if merged.get("baseline") else None,
        scope=tuple(merged.get("scope", ())),
        smoke=tuple(merged.get("smoke", ())),
        type_check_command=merged.get("type-check-command"),
        lint_command=merged.get("lint-command"),
        test_command=merged.get("test-command"),
        logs=_logs(merged.get("logs", {})),
        command_timeout_seconds=_whole(
            "command-timeout-seconds", merged.get("command-timeout-seconds", 900), 1, 86_400
        ),
        github_token=environ.get("INPUT_GITHUB-TOKEN", "") or environ.get("GITHUB_TOKEN", ""),
        notes=notes,
    )


def _gates_off_by(
    flags: Mapping[str, Any], inputs: Mapping[str, Any], config: Path | None, base: BaseConfig | None
) -> str:
    """Who switched the gates off: the command line, the workflow's input, or the config file, which
    in a pull request is the base commit's: the maintainer's choice, which a pull request cannot make."""
    if flags.get("gates-off") not in (None, [], ()):
        return "on the command line (`--gates-off`)"
    if "gates-off" in inputs:
        return "by the workflow's `gates-off` input"
    file = PurePosixPath(os.path.normpath(config or CONFIG_FILE).replace(os.sep, "/"))
    if base is not None and (config is None or not config.is_absolute()):
        return f"by the maintainer (gates-off in {file} at the base commit)"
    return f"by the configuration (gates-off in {file})"


_TAG = re.compile(r"RH-(1[0-5]|[1-9])")


def _tags(values: object) -> tuple[str, ...]:
    """`fail-on-tags`: gate-integrity tag ids, `RH-1` to `RH-15`; a misspelt one would fail nothing."""
    tags = tuple(dict.fromkeys(str(value).strip() for value in values)) if isinstance(values, list | tuple) else ()
    wrong = [tag for tag in tags if not _TAG.fullmatch(tag)]
    if wrong:
        raise UsageError(f"fail-on-tags: {wrong[0][:20]!r} is not a tag id (RH-1 to RH-15, see docs/integrity.md)")
    return tags


def _logs(value: Mapping[str, str]) -> dict[str, str]:
    """`logs`: a check's name to the glob of its log; a misspelt check would read nothing, silently."""
    unknown = [name for name in value if name not in LOG_CHECKS]
    if unknown:
        raise UsageError(f"logs: unknown check {clipped(repr(unknown[0]))} (known: {', '.join(LOG_CHECKS)})")
    return {name: str(glob) for name, glob in value.items()}


def _whole(key: str, value: object, least: int, most: int) -> int:
    text = str(value).strip()
    if not re.fullmatch("[0-9]{1,9}", text) or not least <= int(text) <= most:
        raise UsageError(f"{key}: {text[:20]!r} is not a whole number from {least:,} to {most:,}")
    return int(text)


def _strength_command(value: object) -> str | None:
    """The template is checked now, so a bad one is a one-line error before any test runs."""
    if value is None:
        return None
    parse_template(str(value), "strength-command")
    return str(value)


def _switch(key: str, value: object) -> bool:
    """A boolean setting: a YAML boolean from the config file, or the string an input holds, spelt
    as the Actions toolkit's `getBooleanInput` accepts it (`true`, `True`, `TRUE`, and so for false)."""
    if isinstance(value, bool):
        return value
    text = str(value).strip()
    if text in {"true", "True", "TRUE"}:
        return True
    if text in {"false", "False", "FALSE"}:
        return False
    raise UsageError(f"{key}: {text[:20]!r} is neither true nor false")


def _config_at_base(repo: Path, config: Path | None, base: BaseConfig) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The base commit's config file (the defaults when it has none), and a note when the pull
    request's work tree holds a different one. The work tree's file is compared, never parsed."""
    relative = PurePosixPath(os.path.normpath(config or CONFIG_FILE).replace(os.sep, "/"))
    at_base = base.read(relative)
    in_tree = repo / relative
    if at_base is None and config is not None and not in_tree.is_file():
        raise UsageError(f"{in_tree}: no such config file")
    settings = {} if at_base is None else parse_config(at_base, f"{relative} at the base commit {base.commit[:12]}")
    change = _change(repo, in_tree, at_base)
    if change is None:
        return settings, ()
    if change == "removes":
        return settings, (f"the pull request removes {relative}: the base commit's settings apply until it is merged",)
    return settings, (f"the pull request {change} {relative}: its settings apply once merged",)


def _change(repo: Path, in_tree: Path, at_base: bytes | None) -> str | None:
    """How the work tree's file differs from the base commit's: adds, changes, removes, or None.
    It is read only to compare, and only one byte past the cap (a larger file is a change)."""
    if not in_tree.is_file():
        return None if at_base is None else "removes"
    if at_base is None:
        return "adds"
    try:
        # The pull request's file is only compared, and never through a link leaving the checkout.
        with Workspace.at(repo).open(in_tree) as handle:
            content = handle.read(MAX_CONFIG_BYTES + 1)
    except Refused:
        return "changes"
    return None if content == at_base else "changes"
