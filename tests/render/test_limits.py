"""GitHub's size limits hold whatever the ledger holds: detail is dropped from the data in the
planned order, never cut from the rendered text, and what was dropped is counted on a "… N more"
line."""

from __future__ import annotations

import pytest

from evidence_gate.ledger.model import Annotation, Excerpt, FailedTest, GateVerdict, Ledger
from evidence_gate.render import (
    ANNOTATION_MESSAGE_LIMIT,
    CHECK_RUN_LIMIT,
    COMMENT_LIMIT,
    JOB_SUMMARY_LIMIT,
    LimitError,
    fit_annotation,
    render_check_run,
    render_comment,
    render_job_summary,
    render_pr_section,
    render_report,
)
from tests.render.checks import check_structure, find, more_lines, quality_markers, result_rows, seen, unnumbered_rows
from tests.render.gfm import to_html
from tests.render.ledgers import HOSTILE, gate, ledger

# Its tests share a module-scoped run: in a parallel run they go to one worker (`--dist=loadgroup`).
pytestmark = pytest.mark.xdist_group("render.test_limits")

# Four UTF-8 bytes for some characters, two or three for others: bytes are not characters here.
WIDE = "ässert ✗ 日本語 🎉 "
MESSAGE = (WIDE * 1_000)[:10_000]
LOG = "\n".join(f"{index} {WIDE}" * 8 for index in range(20_000))[: 2 * 1024 * 1024]


@pytest.fixture(scope="module")
def huge() -> Ledger:
    """5,000 failing tests with 10 KB messages, and a 2 MB log in a failing and a passing gate."""
    return ledger(
        check_name="Evidence Gate 日本",
        failed_tests=tuple(
            FailedTest(name=f"test_{index} {HOSTILE[index % len(HOSTILE)]}", message=MESSAGE, path="t.py", line=index)
            for index in range(5_000)
        ),
        gates=(
            gate(
                "evidence",
                GateVerdict.FAIL,
                details=("5,000 failed",) * 30,
                excerpts=(Excerpt(source="pytest", exit_code=1, output=LOG),),
            ),
            gate("coverage", GateVerdict.PASS, excerpts=(Excerpt(source="coverage", exit_code=0, output=LOG),)),
        ),
    )


def test_every_output_of_a_huge_ledger_is_within_its_limit(huge: Ledger) -> None:
    check_run = render_check_run(huge, reserve=1_000)
    section = render_pr_section(huge, 20_000)
    rendered = {
        "comment": render_comment(huge),
        "check summary": check_run.summary,
        "check text": check_run.text,
        "pr section": section,
        "job summary": render_job_summary(huge),
    }
    assert len(rendered["comment"]) <= COMMENT_LIMIT
    assert len(rendered["check summary"].encode()) <= CHECK_RUN_LIMIT - 1_000
    assert len(rendered["check text"].encode()) <= CHECK_RUN_LIMIT
    assert len(section) <= 20_000
    assert len(rendered["job summary"].encode()) <= JOB_SUMMARY_LIMIT
    for (name, text), html in zip(rendered.items(), to_html(*rendered.values()), strict=True):
        root = check_structure(text, quality_markers(huge, name), html)
        assert len(result_rows(root)) == 9
        if name in ("check summary", "check text"):
            continue
        more = more_lines(text, root)
        failing = next(
            block for block in root.iter("details") if seen(find(block, "summary")).startswith("Failing tests")
        )
        shown_tests = len(failing.findall("p/strong"))
        assert shown_tests + more["failing tests"] == 5_000, name
        if name != "pr section":
            shown_messages = len(failing.findall("pre"))
            assert shown_messages + more["failure messages not shown"] == shown_tests, name
            assert more["command output"] == 1, name  # the passing gate's log went first
            assert shown_messages > 0, name


def test_the_comment_drops_passing_gates_evidence_before_failure_messages() -> None:
    subject = ledger(
        gates=(
            gate("evidence", GateVerdict.FAIL, excerpts=(Excerpt(source="pytest", exit_code=1, output="E" * 2_500),)),
            gate(
                "coverage",
                GateVerdict.PASS,
                excerpts=tuple(Excerpt(source=f"c{index}", exit_code=0, output="x" * 2_900) for index in range(30)),
                details=tuple(f"file {index}" for index in range(10)),
            ),
        ),
        failed_tests=tuple(FailedTest(name=f"t{index}", message="m" * 1_000) for index in range(5)),
    )
    comment = render_comment(subject)
    root = check_structure(comment, quality_markers(subject, "comment"))
    _, failing, _, evidence = root.findall("details")  # results, failing tests, toolchain, evidence
    assert len(failing.findall("pre")) == 5
    more = more_lines(comment, root)
    assert 0 < more["command outputs"] < 30
    assert len(evidence.findall("pre")) + more["command outputs"] == 1 + 30  # the failing check's log is kept
    assert "details" not in more  # evidence goes before details
    assert "failure messages not shown" not in more


def test_failure_messages_go_before_failing_gates_evidence_last_first() -> None:
    subject = ledger(
        gates=(
            gate(
                "evidence",
                GateVerdict.FAIL,
                excerpts=tuple(Excerpt(source=f"run {index}", exit_code=1, output="E" * 2_900) for index in range(8)),
            ),
        ),
        failed_tests=tuple(FailedTest(name=f"t{index}", message=f"{index} " + "m" * 1_400) for index in range(60)),
    )
    comment = render_comment(subject)
    root = check_structure(comment, quality_markers(subject, "comment"))
    _, failing, _, evidence = root.findall("details")  # results, failing tests, toolchain, evidence
    more = more_lines(comment, root)
    assert len(evidence.findall("pre")) == 8
    shown = [seen(code) for code in failing.iter("code")]
    assert 0 < more["failure messages not shown"] < 60
    assert [message.split()[0] for message in shown] == [str(index) for index in range(len(shown))]


def test_rows_go_last_failing_tests_before_gates() -> None:
    subject = ledger(
        gates=tuple(gate(f"gate-{index}", GateVerdict.FAIL, headline="s" * 150) for index in range(30)),
        failed_tests=tuple(FailedTest(name=f"test {index} " + "n" * 150, message="m") for index in range(50)),
    )
    roomy = render_pr_section(subject, 14_000)
    root = check_structure(roomy, quality_markers(subject, "pr section"))
    more = more_lines(roomy, root)
    assert len(unnumbered_rows(root)) == 30 and "gates" not in more
    assert len(find(root, "details").findall("p/strong")) + more["failing tests"] == 50
    tight = render_pr_section(subject, 4_000)
    root = check_structure(tight, quality_markers(subject, "pr section"))
    more = more_lines(tight, root)
    assert more["failing tests"] == 50
    assert len(unnumbered_rows(root)) + more["gates"] == 30
    assert len(tight) <= 4_000


def test_a_section_with_no_room_is_refused_with_the_reason() -> None:
    with pytest.raises(LimitError, match="leaves 100 characters for the Test Coverage section"):
        render_pr_section(ledger(), 100)


def test_the_report_keeps_everything(huge: Ledger) -> None:
    report = render_report(huge)
    assert report.count("pytest: exit code 1:\n\n```\n" + LOG + "\n```") == 1
    assert report.count(MESSAGE) == 5_000
    assert "… " not in report.replace(WIDE, "")


def test_annotations_fit_github_limits() -> None:
    note = Annotation(path="a.py", line=1, end_line=1, level="failure", message=WIDE * 20_000, title="t" * 1_000)
    fitted = fit_annotation(note)
    assert fitted.title is not None and len(fitted.title) == 255
    assert len(fitted.message.encode()) <= ANNOTATION_MESSAGE_LIMIT
    kept, more = fitted.message.rsplit("\n… ", 1)
    assert note.message.startswith(kept)
    assert more == f"{len(note.message) - len(kept):,} more characters"
    small = Annotation(path="a.py", line=1, end_line=2, level="notice", message="short", title=None)
    assert fit_annotation(small) == small
