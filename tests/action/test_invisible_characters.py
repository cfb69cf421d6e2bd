"""A test name that hides its real reading behind invisible characters, end to end: the action shows
every such character by its code point wherever the name or its message appears on GitHub (the
comment, the check run and its annotations, the PR body's section, the job summary) and in the lines
it prints for the runner."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from evidence_gate.render import ZERO_WIDTH_SPACE
from tests.github_fake import FakeGitHub

from ..conftest import Repo
from .harness import PR, Run, event, make_repo, seed

DISGUISED = "test_\u202ednufer\u202c"  # reads as test_refund
MESSAGE = "expected\u200b 10\u2066 %\u2069 off\ufeff"
ANY_INVISIBLE = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
JUNIT = f"""<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="2" failures="1" errors="0" skipped="0">
<testcase classname="tests.test_cart" name="test_total" file="tests/test_cart.py" line="3"/>
<testcase classname="tests.test_cart" name="{DISGUISED}" file="tests/test_cart.py" line="6">
<failure message="{MESSAGE}">AssertionError: {MESSAGE}</failure></testcase>
</testsuite></testsuites>
"""


def shown(text: str) -> bool:
    """Nothing invisible but the zero-width spaces the escaping itself puts after `@` and `#`."""
    return not ANY_INVISIBLE.search(text.replace(ZERO_WIDTH_SPACE, ""))


def test_a_disguised_test_name_is_shown_for_what_it_is_everywhere(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    base, head = make_repo(repo, "def test_total():\n    assert True\n")
    seed(server, base, head)
    (repo.path / "build").mkdir()
    (repo.path / "build" / "junit.xml").write_text(JUNIT, encoding="utf-8")
    run = action(repo, event(tmp_path, base, head), head)
    assert run.outputs["verdict"] == "BLOCKED"
    (check_run,) = server.check_runs(head)
    (annotation,) = [note for note in check_run.annotations if (note.title or "").endswith(" failed")]
    (comment,) = server.comments(PR)
    texts = {
        "comment": comment.body,
        "check title": check_run.output_title or "",
        "check summary": check_run.output_summary or "",
        "check text": check_run.output_text or "",
        "annotation title": annotation.title or "",
        "annotation message": annotation.message,
        "pr body": server.pr_body(PR) or "",
        "job summary": run.summary,
        "log": run.stdout,
    }
    for name, text in texts.items():
        assert shown(text), name
    for name in ("comment", "check text", "annotation title", "pr body", "job summary"):
        assert "U+202E" in texts[name], name  # as Markdown escapes it: test\_&lt;U+202E&gt;dnufer&lt;U+202C&gt;
    assert annotation.title == "tests/test_cart.py::test_<U+202E>dnufer<U+202C> failed"
    assert "expected<U+200B> 10<U+2066> %<U+2069> off<U+FEFF>" in annotation.message


def test_a_workflow_command_line_shows_invisible_characters(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    from .harness import action_environ, run_entrypoint, runner_files

    base, head = make_repo(repo, "def test_total():\n    assert True\n")
    files = runner_files(tmp_path)
    environ = action_environ(server, repo, event(tmp_path, base, head), head, files, ledger=f"{DISGUISED}.json")
    result = run_entrypoint(environ)
    assert result.returncode == 2
    (line,) = [entry for entry in result.stdout.splitlines() if not entry.startswith("::add-mask::")]
    assert line.startswith("::error title=Evidence Gate::")
    assert f"{repo.path}/test_<U+202E>dnufer<U+202C>.json" in line
    assert shown(line)
