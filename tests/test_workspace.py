"""Workspace confinement: what a pull request's files can make the tool read, search or write."""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path

import pytest

from evidence_gate.errors import UsageError
from evidence_gate.summary.excerpt import excerpt
from evidence_gate.workspace import (
    READ_PIECE_BYTES,
    Refused,
    Workspace,
    display,
    open_regular,
    read_at_most,
    write_user_file,
)

from .conftest import write_tree


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    (tmp_path / "ws").mkdir()
    return Workspace.at(tmp_path / "ws", (tmp_path / "temp",))


def test_a_symlink_leading_outside_the_workspace_is_refused(tmp_path: Path, workspace: Workspace) -> None:
    (tmp_path / "secret.txt").write_text("the runner's secret\n")
    link = workspace.root / "junit.xml"
    link.symlink_to(tmp_path / "secret.txt")
    with pytest.raises(Refused, match="a symlink leading outside the workspace"):
        workspace.open(link)


def test_a_symlink_to_the_process_environment_is_refused(workspace: Workspace) -> None:
    link = workspace.root / "env.log"
    link.symlink_to("/proc/self/environ")
    assert workspace.refusal(link) == "a symlink leading outside the workspace; refused, nothing of it was read"


def test_a_symlink_into_git_is_refused(workspace: Workspace) -> None:
    write_tree(workspace.root, {".git/config": "[http]\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n"})
    link = workspace.root / "report.log"
    link.symlink_to(workspace.root / ".git" / "config")
    with pytest.raises(Refused, match=r"inside a \.git directory"):
        workspace.open(link)


def test_a_symlink_that_stays_inside_is_followed(workspace: Workspace) -> None:
    write_tree(workspace.root, {"build/real.log": "5 passed\n"})
    (workspace.root / "link.log").symlink_to(workspace.root / "build" / "real.log")
    with workspace.open(workspace.root / "link.log") as handle:
        assert handle.read() == b"5 passed\n"


def test_a_fifo_is_refused_without_blocking(workspace: Workspace) -> None:
    fifo = workspace.root / "junit.xml"
    os.mkfifo(fifo)
    with pytest.raises(Refused, match="a FIFO, not a regular file"):
        workspace.open(fifo)


def test_a_device_is_refused(workspace: Workspace) -> None:
    with pytest.raises(Refused, match="a device, not a regular file"):
        open_regular(Path("/dev/zero"))


def test_a_directory_is_refused(workspace: Workspace) -> None:
    (workspace.root / "report.xml").mkdir()
    with pytest.raises(Refused, match="a directory, not a regular file"):
        workspace.open(workspace.root / "report.xml")


def test_a_path_the_user_named_outside_the_workspace_is_theirs(tmp_path: Path, workspace: Workspace) -> None:
    (tmp_path / "mine.log").write_text("1 passed\n")
    assert workspace.refusal(tmp_path / "mine.log") is None


def test_the_glob_matches_as_pathlib_does_below_the_root(workspace: Workspace) -> None:
    write_tree(
        workspace.root,
        {
            "build/junit.xml": "",
            "build/.hidden.xml": "",
            "build/deep/more.xml": "",
            "build/notes.txt": "",
            "other/a.xml": "",
            "top.xml": "",
        },
    )
    for pattern in ("build/*.xml", "build/**/*.xml", "**/*.xml", "*.xml", "build/*", "b?ild/[jm]*.xml"):
        ours = [path.relative_to(workspace.root) for path in workspace.glob(pattern)]
        theirs = sorted(path.relative_to(workspace.root) for path in workspace.root.glob(pattern) if path.is_file())
        assert ours == theirs, pattern


def test_a_trailing_double_star_matches_every_file_below(workspace: Workspace) -> None:
    write_tree(workspace.root, {"build/a.log": "", "build/deep/b.xml": "", "c.log": ""})
    assert [p.relative_to(workspace.root).as_posix() for p in workspace.glob("build/**")] == [
        "build/a.log",
        "build/deep/b.xml",
    ]


def test_the_glob_never_enters_a_symlinked_directory(workspace: Workspace) -> None:
    (workspace.root / "evidence").mkdir()
    (workspace.root / "evidence" / "root").symlink_to("/", target_is_directory=True)
    assert workspace.glob("evidence/**/*.log") == []


def test_the_glob_never_searches_git(workspace: Workspace) -> None:
    write_tree(workspace.root, {".git/logs/HEAD.log": "", "build/run.log": ""})
    assert [p.name for p in workspace.glob("**/*.log")] == ["run.log"]


def test_a_glob_starting_in_a_symlinked_directory_is_refused(tmp_path: Path, workspace: Workspace) -> None:
    (tmp_path / "elsewhere").mkdir()
    (workspace.root / "evidence").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    with pytest.raises(Refused, match="outside the workspace"):
        workspace.glob("evidence/*.log")


@pytest.mark.parametrize("pattern", ["**.xml", "build/a**", "/etc/*.xml", "../*.xml", ""])
def test_an_invalid_glob_is_a_one_line_error(workspace: Workspace, pattern: str) -> None:
    with pytest.raises(UsageError, match="reports: "):
        workspace.glob(pattern)


def test_the_users_glob_may_leave_the_workspace(tmp_path: Path, workspace: Workspace) -> None:
    write_tree(tmp_path, {"elsewhere/run.log": "", "elsewhere/other.txt": ""})
    assert workspace.glob(f"{tmp_path}/elsewhere/*.log", may_leave=True) == [tmp_path / "elsewhere" / "run.log"]
    assert workspace.glob("../elsewhere/*.log", may_leave=True) == [workspace.root / ".." / "elsewhere" / "run.log"]


def test_dotdot_after_a_wildcard_is_an_error_even_in_the_users_glob(workspace: Workspace) -> None:
    with pytest.raises(UsageError, match=r"'\.\.' may only come before the first wildcard"):
        workspace.glob("build/*/../run.log", may_leave=True)


def test_an_output_through_a_committed_symlink_is_refused(tmp_path: Path, workspace: Workspace) -> None:
    (tmp_path / "runner").mkdir()
    (workspace.root / "out").symlink_to(tmp_path / "runner", target_is_directory=True)
    with pytest.raises(Refused, match="outside the workspace and RUNNER_TEMP"):
        workspace.write_text(workspace.root / "out" / "ledger.json", "{}")
    assert list((tmp_path / "runner").iterdir()) == []


def test_an_output_that_is_a_symlink_is_never_written_through(tmp_path: Path, workspace: Workspace) -> None:
    (tmp_path / "bashrc").write_text("original\n")
    (workspace.root / "ledger.json").symlink_to(tmp_path / "bashrc")
    with pytest.raises(Refused, match="a symlink; outputs are never written through one"):
        workspace.write_text(workspace.root / "ledger.json", "{}")
    assert (tmp_path / "bashrc").read_text() == "original\n"


def test_an_output_into_git_is_refused(workspace: Workspace) -> None:
    (workspace.root / ".git" / "hooks").mkdir(parents=True)
    with pytest.raises(Refused, match=r"inside a \.git directory"):
        workspace.write_text(workspace.root / ".git" / "hooks" / "post-checkout", "#!/bin/sh\n")


def test_an_output_in_the_scratch_folder_is_allowed(tmp_path: Path, workspace: Workspace) -> None:
    (tmp_path / "temp").mkdir()
    assert workspace.write_text(tmp_path / "temp" / "ledger.json", "{}").read_text() == "{}"


def test_an_output_that_is_a_directory_is_a_clear_error(tmp_path: Path, workspace: Workspace) -> None:
    (workspace.root / "ledger.json").mkdir()
    with pytest.raises(UsageError, match="a directory; give a file name"):
        workspace.write_text(workspace.root / "ledger.json", "{}")
    with pytest.raises(UsageError, match="a directory; give a file name"):
        write_user_file(workspace.root / "ledger.json", "{}")


def test_a_file_name_that_is_not_utf8_displays_with_a_replacement(tmp_path: Path) -> None:
    name = os.fsdecode(b"report-\xff.log")
    assert display(tmp_path / name).endswith("report-\ufffd.log")
    assert display(tmp_path / name).encode("utf-8")


def test_the_excerpt_of_a_single_line_log_is_read_in_bounded_memory(tmp_path: Path) -> None:
    log = tmp_path / "one-line.log"
    with log.open("wb") as handle:
        for _ in range(64):
            handle.write(b"x" * (1 << 20))
    tracemalloc.start()
    try:
        text = excerpt(log)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * (1 << 20)
    assert text.endswith(f"… {64 * (1 << 20) - 2_000:,} more bytes")


@pytest.mark.parametrize("size", [0, 10, READ_PIECE_BYTES, 3 * READ_PIECE_BYTES + 5])
def test_a_capped_read_costs_what_the_file_holds_not_the_cap(tmp_path: Path, size: int) -> None:
    """`handle.read(cap)` set aside the whole cap first: 256 MiB to read an empty coverage JSON."""
    path = tmp_path / "report.json"
    path.write_bytes(b"x" * size)
    tracemalloc.start()
    try:
        with open_regular(path) as handle:
            data = read_at_most(handle, 256 * 1024 * 1024)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert data == b"x" * size
    assert peak < 2 * size + 2 * READ_PIECE_BYTES + 65_536, f"{peak:,} bytes to read {size:,}"
    with open_regular(path) as handle:
        assert read_at_most(handle, size // 2) == b"x" * (size // 2)
