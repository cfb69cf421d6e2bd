"""Every captured runner fixture reads as the exact counts its suite really had.

Each folder of tests/fixtures/stack-logs/ holds one runner's real output and an expected.json with
the truth for each file (see the folder's README for how it was captured). A file is read with no
hint first, so the format must be recognised from content, then with the parser named.

An entry may carry `"reads"` where the runner's own output cannot carry the truth (for example a
runner that never reports the tests behind a failed set-up hook): then the reading must match
`reads`. A reading may pass a run whose truth is not a pass only when the entry says so with
`"report_hides_failure": true` and its note explains what the report leaves out: a report that
drops a failing suite (jest-junit) reads as a pass alone, which is why the evidence gate reads the
runner's log first.

An entry may also carry `"failed_names"`: the failed tests the log names, as its runner prints them,
in the order the reading lists them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evidence_gate.summary.read import read_source
from evidence_gate.summary.registry import ALL_PARSERS

FIXTURES = Path(__file__).parent / "fixtures" / "stack-logs"
NOT_FIXTURES = {"README.md", "expected.json"}


def default_parser(folder: str, name: str) -> str:
    if name.endswith(".junit.xml"):
        return "junit"
    if folder == "go-test" and name.endswith(".json.log"):
        return "go-test-json"
    return folder


def cases() -> list[tuple[str, str, dict[str, Any]]]:
    found: list[tuple[str, str, dict[str, Any]]] = []
    for folder in sorted(path for path in FIXTURES.iterdir() if path.is_dir()):
        expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
        found.extend((folder.name, name, entry) for name, entry in sorted(expected.items()))
    return found


CASES = cases()


def test_the_fixture_folders_and_their_cases_are_there() -> None:
    """The parametrized tests below read nothing if the folders hold nothing."""
    assert CASES, f"no fixture recorded in an expected.json under {FIXTURES}"
    assert NAMED, "no fixture records the failed tests' names"


def fixture_folders() -> list[Path]:
    folders = sorted(FIXTURES.iterdir())
    assert folders, f"no fixture folder under {FIXTURES}"
    return folders


def test_every_fixture_file_has_its_truth_recorded() -> None:
    for folder in fixture_folders():
        expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
        files = {path.name for path in folder.iterdir()} - NOT_FIXTURES
        assert files == set(expected), folder.name


def test_every_folder_names_a_registered_parser() -> None:
    for folder in fixture_folders():
        assert folder.name in ALL_PARSERS or folder.name == "go-test", folder.name


def wanted(entry: dict[str, Any]) -> dict[str, Any]:
    reading = entry.get("reads", entry)
    if reading["status"] == "passed" and entry["status"] != "passed":
        assert entry.get("report_hides_failure") is True, "a reading kinder than the truth must say why"
    return {key: reading[key] for key in ("executed", "passed", "failed", "skipped", "status")}


@pytest.mark.parametrize(("folder", "name", "entry"), CASES, ids=[f"{f}/{n}" for f, n, _ in CASES])
def test_fixture_is_recognised_and_counted_from_content(folder: str, name: str, entry: dict[str, Any]) -> None:
    summary = read_source(FIXTURES / folder / name, ALL_PARSERS)
    document = summary.document()
    assert {key: document[key] for key in ("executed", "passed", "failed", "skipped", "status")} == wanted(entry)
    assert summary.parser == entry.get("parser", default_parser(folder, name))
    if summary.counts is None:
        assert summary.reason, "an unparsed result always says why"


@pytest.mark.parametrize(("folder", "name", "entry"), CASES, ids=[f"{f}/{n}" for f, n, _ in CASES])
def test_fixture_reads_the_same_with_its_parser_named(folder: str, name: str, entry: dict[str, Any]) -> None:
    parser = entry.get("parser", default_parser(folder, name))
    document = read_source(FIXTURES / folder / name, [parser]).document()
    assert {key: document[key] for key in ("executed", "passed", "failed", "skipped", "status")} == wanted(entry)


NAMED = [case for case in CASES if "failed_names" in case[2]]


@pytest.mark.parametrize(("folder", "name", "entry"), NAMED, ids=[f"{f}/{n}" for f, n, _ in NAMED])
def test_fixture_names_the_failed_tests_as_its_runner_prints_them(
    folder: str, name: str, entry: dict[str, Any]
) -> None:
    assert list(read_source(FIXTURES / folder / name, ALL_PARSERS).failed_tests) == entry["failed_names"]
