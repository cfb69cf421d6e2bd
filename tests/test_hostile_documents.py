"""Hostile documents from a pull request (the config file, the event payload, a ledger artifact):
an alias bomb, deep nesting or a huge file is a one-line error in bounded time and memory, and no
message quotes the whole of what it refuses."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from evidence_gate.documents import MAX_DEPTH, MAX_QUOTED
from evidence_gate.event import MAX_EVENT_BYTES
from evidence_gate.ledger.document import MAX_LEDGER_BYTES, to_document
from evidence_gate.ledger.model import Ledger, Verdict
from evidence_gate.settings import MAX_CONFIG_BYTES

from .conftest import CliResult

BILLION_LAUGHS = (
    "".join(
        f"{name}: &{name} [{', '.join([f'*{previous}'] * 9) if previous else ', '.join(['lol'] * 9)}]\n"
        for previous, name in zip(["", *"abcdefgh"], "abcdefghi", strict=True)
    )
    + "reports: *i\n"
)


def config_run(cli: Callable[..., CliResult], tmp_path: Path, content: str | bytes) -> CliResult:
    path = tmp_path / "evidence-gate.yml"
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    started = time.monotonic()
    result = cli("run", "--repo", tmp_path, "--config", path)
    assert time.monotonic() - started < 10
    return result


def assert_one_line_error(result: CliResult, *phrases: str) -> None:
    assert result.code == 2
    assert result.err.startswith("evidence-gate: error: ")
    assert len(result.err.strip().splitlines()) == 1
    assert len(result.err) < 1_000
    for phrase in phrases:
        assert phrase in result.err


def test_a_yaml_alias_bomb_in_the_config_is_refused_at_once(tmp_path: Path, cli: Callable[..., CliResult]) -> None:
    result = config_run(cli, tmp_path, BILLION_LAUGHS)
    assert_one_line_error(result, "anchors and aliases (& and *) are not allowed here")


def test_a_single_anchor_in_the_config_is_refused(tmp_path: Path, cli: Callable[..., CliResult]) -> None:
    result = config_run(cli, tmp_path, "reports: &globs\n  - build/*.xml\n")
    assert_one_line_error(result, "anchors and aliases")


@pytest.mark.parametrize(
    "nesting", ["reports: " + "[" * 10_000, "reports: " + "{a: " * 10_000, "reports:\n" + "- " * 10_000]
)
def test_deeply_nested_yaml_in_the_config_is_a_one_line_error(
    tmp_path: Path, cli: Callable[..., CliResult], nesting: str
) -> None:
    result = config_run(cli, tmp_path, nesting + "x\n")
    assert_one_line_error(result, f"nested deeper than {MAX_DEPTH} levels")


def test_a_config_larger_than_the_cap_is_refused_unread(tmp_path: Path, cli: Callable[..., CliResult]) -> None:
    result = config_run(cli, tmp_path, "# padding\n" * (MAX_CONFIG_BYTES // 10 + 1))
    assert_one_line_error(result, f"larger than {MAX_CONFIG_BYTES:,} bytes")


def test_a_schema_error_quotes_only_the_start_of_a_huge_value(tmp_path: Path, cli: Callable[..., CliResult]) -> None:
    result = config_run(cli, tmp_path, "reports: " + "x" * 60_000 + "\n")
    assert_one_line_error(result, "reports: 'xxxx", "more characters) is not of type 'array'")
    assert "x" * (MAX_QUOTED + 1) not in result.err


def test_a_config_that_is_not_utf8_is_a_one_line_error(tmp_path: Path, cli: Callable[..., CliResult]) -> None:
    result = config_run(cli, tmp_path, b"reports: [\xff]\n")
    assert_one_line_error(result, "not UTF-8")


def event_run(
    cli: Callable[..., CliResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, event: bytes
) -> CliResult:
    """A repository command under pull_request_target: the event payload is read to decide."""
    monkeypatch.setenv("GITHUB_REPOSITORY", "octo-org/shop")
    monkeypatch.setenv("GITHUB_EVENT_NAME", "pull_request_target")
    path = tmp_path / "event.json"
    path.write_bytes(event)
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(path))
    return cli("criteria", "--story", "S-1", "--count", "1", "--command", "env TAG={tag} true", "--repo", tmp_path)


def test_a_deeply_nested_event_payload_is_a_one_line_error(
    tmp_path: Path, cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    result = event_run(cli, tmp_path, monkeypatch, b'{"pull_request": ' + b"[" * 100_000)
    assert_one_line_error(result, "the event payload", f"nested deeper than {MAX_DEPTH} levels")


def test_an_event_payload_nested_just_past_the_cap_is_refused(
    tmp_path: Path, cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    depth = MAX_DEPTH + 1
    result = event_run(cli, tmp_path, monkeypatch, b"[" * depth + b"]" * depth)
    assert_one_line_error(result, f"nested deeper than {MAX_DEPTH} levels")


def test_an_event_payload_larger_than_githubs_cap_is_refused_unread(
    tmp_path: Path, cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    result = event_run(cli, tmp_path, monkeypatch, b" " * (MAX_EVENT_BYTES + 1))
    assert_one_line_error(result, "the event payload is larger than")


def test_an_event_payload_with_a_number_of_5000_digits_is_a_one_line_error(
    tmp_path: Path, cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Valid JSON, but past the 4,300 digits Python's int() reads from text: a ValueError, not a JSON error."""
    result = event_run(cli, tmp_path, monkeypatch, b'{"number": ' + b"1" * 5_000 + b"}")
    assert_one_line_error(result, "the event payload: cannot read its JSON", "4300 digits")


def merge_ledger(cli: Callable[..., CliResult], tmp_path: Path, content: bytes) -> CliResult:
    path = tmp_path / "shard.json"
    path.write_bytes(content)
    return cli("merge", path, "-o", tmp_path / "merged.json")


def test_a_deeply_nested_ledger_is_a_one_line_error(tmp_path: Path, cli: Callable[..., CliResult]) -> None:
    result = merge_ledger(cli, tmp_path, b'{"gates": ' + b"[" * 100_000)
    assert_one_line_error(result, f"nested deeper than {MAX_DEPTH} levels")


def test_a_ledger_with_a_number_of_5000_digits_is_a_one_line_error(
    tmp_path: Path, cli: Callable[..., CliResult]
) -> None:
    result = merge_ledger(cli, tmp_path, b'{"version": ' + b"3" * 5_000 + b"}")
    assert_one_line_error(result, "cannot read its JSON")


def test_a_ledger_larger_than_the_cap_is_refused_unread(tmp_path: Path, cli: Callable[..., CliResult]) -> None:
    path = tmp_path / "shard.json"
    with path.open("wb") as handle:
        handle.truncate(MAX_LEDGER_BYTES + 1)
    result = cli("merge", path, "-o", tmp_path / "merged.json")
    assert_one_line_error(result, "the ledger is larger than")


def test_a_ledger_schema_error_quotes_only_the_start_of_a_huge_value(
    tmp_path: Path, cli: Callable[..., CliResult]
) -> None:
    document = to_document(Ledger(verdict=Verdict.STAGNATION, head=None, base=None, stack="v" * 100_000, counts=None))
    result = merge_ledger(cli, tmp_path, json.dumps(document).encode())
    assert_one_line_error(result, "not a valid ledger: stack: 'vvv", "more characters) is too long")
    assert "v" * (MAX_QUOTED + 1) not in result.err


@pytest.mark.parametrize(
    ("value", "phrase"),
    [
        ("1" * 5_000, "a number of 5,000 characters"),
        (":".join(["1"] * 30_000), "a number of 59,999 characters"),  # sexagesimal: quadratic to read
        ("2001-13-45", "month must be in 1..12"),
    ],
)
def test_a_config_value_python_cannot_read_is_a_one_line_error(
    tmp_path: Path, cli: Callable[..., CliResult], value: str, phrase: str
) -> None:
    result = config_run(cli, tmp_path, f"reports: {value}\n")
    assert_one_line_error(result, "evidence-gate.yml", phrase)
