"""A bug in the action, end to end: entrypoint.py in a real process meets an exception nothing
expected, and still writes the step outputs and a job summary, prints one line that names the bug
and the version, and exits 2, never a bare traceback."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from evidence_gate import __version__
from evidence_gate.ledger.model import Verdict
from tests.github_fake import FakeGitHub

from ..conftest import Repo
from .harness import PR, Run, event, pull_request

# A template that grows a dict while it loops over it: Python raises RuntimeError, which nothing in
# the action expects. (A template asking for more memory than there is was the example once; the
# sandbox now refuses that as a template error.)
MUTATING_REPORT = (
    "{% set seen = {'a': 1} %}{% for key in seen %}{% set _ = seen.update({key ~ 'x': 1}) %}{% endfor %}\n"
)


def test_an_unexpected_exception_is_one_line_naming_the_bug_and_the_results_are_still_written(
    tmp_path: Path, repo: Repo, server: FakeGitHub, action: Callable[..., Run]
) -> None:
    repo.write(
        {"templates/report.md.j2": MUTATING_REPORT}
    )  # in the base commit: a pull request's own templates do not render
    base, head = pull_request(repo, server)
    run = action(repo, event(tmp_path, base, head), head, templates_dir="templates")
    bug = "RuntimeError: dictionary changed size during iteration"
    line = f"internal error in evidence-gate {__version__}: {bug} — please report it"
    assert run.code == 2
    assert run.stdout.splitlines()[-1] == f"::error title=Evidence Gate::{line}"
    assert [entry for entry in run.stdout.splitlines() if not entry.startswith("::add-mask::")] == [
        f"::error title=Evidence Gate::{line}"
    ]
    assert (run.outputs["verdict"], run.outputs["executed"]) == ("PASS", "2")
    assert run.ledger.verdict is Verdict.PASS
    assert run.summary == f"### Evidence Gate\n\nVerdict: **PASS**. The run stopped on an {line}.\n"
    assert server.comments(PR) == []
    assert server.check_runs(head) == []
