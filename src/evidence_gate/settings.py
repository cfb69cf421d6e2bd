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

import functools
import os
import re
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path, PurePosixPath
from typing import Any

from evidence_gate import settings_table
from evidence_gate.documents import clipped, load_yaml, read_capped, schema_errors, schema_message
from evidence_gate.errors import ConfigError, UsageError
from evidence_gate.ledger.quality_record import Stage
from evidence_gate.model import parse_shard
from evidence_gate.stacks.commands import parse_template
from evidence_gate.workspace import Refused, Workspace

CONFIG_FILE = Path(".github") / "evidence-gate.yml"
MAX_CONFIG_BYTES = 64 * 1024  # a config is a few lines; this is far more than any needs


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


ROWS = settings_table.ROWS
ROW = {row.key: row for row in ROWS}
KEYS = tuple(row.key for row in ROWS if row.config)  # what the config file and `INPUT_*` may set
DEFAULTS: dict[str, Any] = {row.key: row.default for row in ROWS if row.in_settings}
DEFAULT_CHECK_NAME: str = DEFAULTS["check-name"]
LOG_CHECKS: tuple[str, ...] = tuple(ROW["logs"].schema["propertyNames"]["enum"])


def config_schema(rows: tuple[settings_table.Row, ...] = ROWS) -> dict[str, Any]:
    """The JSON Schema that checks `.github/evidence-gate.yml`: each row the config file may set."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Evidence Gate repository configuration (.github/evidence-gate.yml)",
        "description": "In a pull request this file is read as the base commit has it; "
        "the pull request's own change applies once merged.",
        "type": "object",
        "additionalProperties": False,
        "properties": {row.key: {"description": row.description} | row.schema for row in rows if row.config},
    }


GATES_OFF_BY = "by the configuration (`gates-off`)"


@dataclass(frozen=True, kw_only=True)
class Settings:
    """One field per row of settings.yaml that is a setting (named after its key, its default the
    row's), and the few the run derives from them."""

    repo: Path
    reports: tuple[str, ...] = DEFAULTS["reports"]
    reports_may_leave: bool = False  # the globs are the user's (a flag, the action's input), not the config file's
    base: str | None = DEFAULTS["base"]
    head: str | None = DEFAULTS["head"]
    stack: str | None = DEFAULTS["stack"]
    story: str | None = DEFAULTS["story"]
    check_name: str = DEFAULT_CHECK_NAME
    comment_mode: CommentMode = field(default=CommentMode(DEFAULTS["comment-mode"]))
    fail_on: FailOn = field(default=FailOn(DEFAULTS["fail-on"]))
    templates_dir: Path | None = DEFAULTS["templates-dir"]
    ledger_out: Path | None = DEFAULTS["ledger-out"]
    api_wait_seconds: int = DEFAULTS["api-wait-seconds"]  # the most a run waits on GitHub's API, retries included
    check_run: bool = DEFAULTS["check-run"]
    pr_body: bool = DEFAULTS["pr-body"]
    job_summary: bool = DEFAULTS["job-summary"]
    gates_off: tuple[str, ...] = DEFAULTS["gates-off"]  # gate ids switched off: each is shown as off
    gates_off_by: str = GATES_OFF_BY  # who switched them off, as each one's headline says it
    fail_on_tags: tuple[str, ...] = DEFAULTS["fail-on-tags"]  # gate-integrity tags (RH-n) that fail the gate
    strength_command: str | None = DEFAULTS["strength-command"]  # one test file's command; else the stack's
    strength_timeout_ms: int = DEFAULTS["strength-timeout-ms"]  # per run of one test file
    strength_jobs: int = DEFAULTS["strength-jobs"]  # worktrees run side by side
    strength_shard: str | None = DEFAULTS["strength-shard"]  # `I/N`: the I-th of N stable parts of the tests
    strength_install: str | None = DEFAULTS["strength-install"]  # run once in each worktree before its tests
    coverage_minimum: int = DEFAULTS["coverage-minimum"]  # percent: below it the change is critically under-tested
    coverage_target: int = DEFAULTS["coverage-target"]  # percent: at or above it the coverage gate passes
    coverage_min_changed_lines: int = DEFAULTS["coverage-min-changed-lines"]  # fewer: the gate only informs
    coverage_fail_on: CoverageFailOn = field(default=CoverageFailOn(DEFAULTS["coverage-fail-on"]))
    coverage_value_weighting: bool = DEFAULTS["coverage-value-weighting"]  # only lines run by tests able to fail
    stage: Stage = field(default=Stage(DEFAULTS["stage"]))
    baseline: str | None = DEFAULTS["baseline"]  # a baseline file, relative to the repository, or `base`
    scope: tuple[str, ...] = DEFAULTS["scope"]  # globs of the files the change may touch (check 5)
    smoke: tuple[str, ...] = DEFAULTS["smoke"]  # smoke-test commands (check 8)
    type_check_command: str | None = DEFAULTS["type-check-command"]
    lint_command: str | None = DEFAULTS["lint-command"]
    test_command: str | None = DEFAULTS["test-command"]
    logs: Mapping[str, str] = field(default_factory=dict)  # check -> glob of the log a step wrote
    command_timeout_seconds: int = DEFAULTS["command-timeout-seconds"]
    github_token: str = field(default=DEFAULTS["github-token"], repr=False)  # never printed, not even in a crash report
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
    for row in ROWS:
        value = environ.get(f"INPUT_{row.key.upper()}", "").strip()
        if not row.config or not value:
            continue
        if row.kind == "list":
            found[row.key] = _lines(value)
        elif row.kind == "lines":
            found[row.key] = [
                line.strip() for line in value.splitlines() if line.strip() and not line.lstrip().startswith("#")
            ]
        elif row.kind == "map":
            found[row.key] = _pairs(row.key, value)
        else:
            found[row.key] = value
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
    errors = schema_errors(config_schema(), document)
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
    plain = {row.name: _parsed(row, merged[row.key]) for row in ROWS if not row.own and row.key in merged}
    templates = merged.get("templates-dir")
    ledger_out = merged.get("ledger-out")
    settings = Settings(
        repo=repo,
        **plain,
        reports_may_leave="reports" in given,
        templates_dir=(repo / templates) if templates else None,
        ledger_out=(ledger_base or repo) / ledger_out if ledger_out else None,
        gates_off=tuple(dict.fromkeys(merged.get("gates-off", ()))),
        gates_off_by=_gates_off_by(flags, inputs, config, base),
        fail_on_tags=_tags(merged.get("fail-on-tags", ())),
        strength_command=_strength_command(merged.get("strength-command")),
        strength_shard=parse_shard(str(merged["strength-shard"])).text if merged.get("strength-shard") else None,
        logs=_logs(merged.get("logs", {})),
        github_token=environ.get("INPUT_GITHUB-TOKEN", "") or environ.get("GITHUB_TOKEN", ""),
        notes=notes,
    )
    if settings.coverage_target < settings.coverage_minimum:
        raise UsageError(
            f"coverage-target ({settings.coverage_target}) is below coverage-minimum ({settings.coverage_minimum})"
        )
    return settings


def _parsed(row: settings_table.Row, value: Any) -> Any:
    """A plain setting's value, read as its row's type says: from a flag, an input (a string) or the
    config file (checked by the schema)."""
    if row.kind == "whole":
        return _whole(row.key, value, row.schema["minimum"], row.schema["maximum"], row.unit)
    if row.kind == "switch":
        return _switch(row.key, value)
    if row.kind == "choice":
        try:
            return _field_types()[row.name](value)  # the field's StrEnum
        except ValueError as error:
            raise UsageError(str(error)) from error
    if row.kind in {"list", "lines"}:
        return tuple(str(item) for item in value)
    if row.kind == "map":
        return {str(name): str(item) for name, item in value.items()}
    return str(value) if value not in (None, "") else row.default


@functools.cache
def _field_types() -> dict[str, Any]:
    return typing.get_type_hints(Settings)


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


def _whole(key: str, value: object, least: int, most: int, unit: str = "") -> int:
    text = str(value).strip()
    if not re.fullmatch("[0-9]{1,9}", text) or not least <= int(text) <= most:
        number = f"a whole number of {unit}" if unit else "a whole number"
        raise UsageError(f"{key}: {text[:20]!r} is not {number} from {_figure(least)} to {_figure(most)}")
    return int(text)


def _figure(number: int) -> str:
    """A bound as the messages write it: 3600, 86,400."""
    return f"{number:,}" if number >= 10_000 else str(number)


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
