"""Settings from three places, most specific first: CLI flags, the action's `INPUT_*` environment,
and the repository's `.github/evidence-gate.yml` (validated: an unknown key or a wrong type is an
error naming the key). Then the defaults.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from evidence_gate.errors import ConfigError, UsageError

CONFIG_FILE = Path(".github") / "evidence-gate.yml"
DEFAULT_CHECK_NAME = "Evidence Gate"


class CommentMode(StrEnum):
    ALWAYS = "always"  # create or update the comment on every run
    CHANGES = "changes"  # write only when the verdict differs from the one the comment shows
    FAILURES = "failures"  # write when the verdict is not PASS, and update one that exists
    OFF = "off"


class FailOn(StrEnum):
    STAGNATION = "stagnation"  # BLOCKED and STAGNATION fail the check run (nothing proven is not green)
    BLOCKED = "blocked"  # only BLOCKED fails; STAGNATION is neutral
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
)


@dataclass(frozen=True, kw_only=True)
class Settings:
    repo: Path
    reports: tuple[str, ...] = ()
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
    github_token: str = field(default="", repr=False)  # never printed, not even in a crash report


def inputs_from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    """The action's inputs: GitHub passes `INPUT_<NAME>` with the name upper-cased and hyphens kept
    (`INPUT_CHECK-NAME`); an empty value is an input left at its default."""
    found: dict[str, Any] = {}
    for key in KEYS:
        value = environ.get(f"INPUT_{key.upper()}", "").strip()
        if value:
            found[key] = _lines(value) if key == "reports" else value
    return found


def _lines(value: str) -> list[str]:
    """A multi-line input: one glob a line (commas too), blank lines and `#` comments ignored."""
    return [
        part.strip()
        for line in value.splitlines()
        for part in line.split(",")
        if part.strip() and not part.strip().startswith("#")
    ]


def read_config(path: Path, required: bool) -> dict[str, Any]:
    if not path.is_file():
        if required:
            raise UsageError(f"{path}: no such config file")
        return {}
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read ({error})") from error
    except yaml.YAMLError as error:
        raise ConfigError(f"{path}: not valid YAML ({' '.join(str(error).split())})") from error
    document = {} if document is None else document
    schema = json.loads(resources.files("evidence_gate.schemas").joinpath("config.schema.json").read_text("utf-8"))
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(document), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        key = "/".join(str(part) for part in first.absolute_path)
        unknown = sorted(set(document) - set(KEYS)) if isinstance(document, dict) else []
        if first.validator == "additionalProperties" and unknown:
            raise ConfigError(f"{path}: unknown key {unknown[0]!r} (known: {', '.join(KEYS)})")
        raise ConfigError(f"{path}: {key or '(top level)'}: {first.message}")
    return dict(document)


def resolve(repo: Path, flags: Mapping[str, Any], environ: Mapping[str, str], config: Path | None) -> Settings:
    """Settings for a run in `repo`: flags over `INPUT_*` over the config file over defaults."""
    merged: dict[str, Any] = {}
    merged.update(
        read_config(
            repo / (config or CONFIG_FILE) if config is None or not config.is_absolute() else config, config is not None
        )
    )
    merged.update(inputs_from_environment(environ))
    merged.update({key: value for key, value in flags.items() if value not in (None, [], ())})
    try:
        comment_mode = CommentMode(merged.get("comment-mode", CommentMode.ALWAYS))
        fail_on = FailOn(merged.get("fail-on", FailOn.STAGNATION))
    except ValueError as error:
        raise UsageError(str(error)) from error
    api_wait = str(merged.get("api-wait-seconds", 60)).strip()
    if not re.fullmatch("[0-9]{1,4}", api_wait) or not 1 <= int(api_wait) <= 3600:
        raise UsageError(f"api-wait-seconds: {api_wait[:20]!r} is not a whole number of seconds from 1 to 3600")
    templates = merged.get("templates-dir")
    ledger_out = merged.get("ledger-out")
    return Settings(
        repo=repo,
        reports=tuple(merged.get("reports", ())),
        base=merged.get("base"),
        head=merged.get("head"),
        stack=merged.get("stack"),
        story=merged.get("story"),
        check_name=merged.get("check-name", DEFAULT_CHECK_NAME),
        comment_mode=comment_mode,
        fail_on=fail_on,
        templates_dir=(repo / templates) if templates else None,
        ledger_out=repo / ledger_out if ledger_out else None,
        api_wait_seconds=int(api_wait),
        github_token=environ.get("INPUT_GITHUB-TOKEN", "") or environ.get("GITHUB_TOKEN", ""),
    )
