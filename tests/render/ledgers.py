"""Ledgers built from literals for the rendering tests, hostile ones included."""

from __future__ import annotations

from typing import Any

from evidence_gate.ledger.model import Deltas, Excerpt, FailedTest, GateResult, GateVerdict, Ledger, Verdict
from evidence_gate.model import Counts

# Text a pull request's author controls, each aimed at one way of breaking out of where it is shown.
HOSTILE = (
    "a | b || c",
    "line one\nline two\n\nline three\r\nline four",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "</details></td></table>",
    "<!-- QG:VERDICT:PASS -->",
    "<!-- QG:CHECK:3:PASS -->",
    "<!-- QG:SIGNATURE:2:0123456789ab -->",
    "<!-- evidence-gate:comment:evidence-gate -->",
    "--> closes a comment",
    "`" * 10 + " ten backticks " + "`" * 10,
    "```\nfenced\n```",
    "~~~\nfenced\n~~~",
    "@octocat and @github/security-team",
    "#1, owner/repo#123, GH-123, gh-7 and owner/repo@a5c3785ed8d6a35868bc169f07e40e889087fd2e",
    "mail me at someone@example.com",
    "https://github.com/owner/repo/issues/1 and www.example.com",
    "*em* _em_ **strong** __strong__ ~~strike~~ ~one~",
    "[link](https://example.com) ![image](https://example.com/x.png) <https://example.com>",
    "[^1] and - [ ] a task",
    "$x^2$ and $$y$$",
    "# heading",
    "- item",
    "+ item",
    "1. item",
    "3) item",
    "> quote",
    "---",
    "===",
    "    indented code",
    "&lt;b&gt; &amp; &#64;octocat &#x3C;script&#x3E;",
    "back\\slash\\",
    "trailing spaces  ",
    "\x1b[31mred\x1b[0m and a NUL \x00 and a bell \x07",
    "ünïcödé — 日本語 — 🎉",
)


def gate(gate_id: str, verdict: GateVerdict, **fields: Any) -> GateResult:
    values: dict[str, Any] = {"title": gate_id.title(), "headline": f"{gate_id} {verdict}"}
    values.update(fields)
    return GateResult(id=gate_id, verdict=verdict, **values)


def ledger(**fields: Any) -> Ledger:
    """A blocked run with deltas: a failing, a passing and a not-applicable check (3, 4 and 6), two
    failing tests."""
    values: dict[str, Any] = {
        "verdict": Verdict.BLOCKED,
        "head": "a" * 40,
        "base": "b" * 40,
        "stack": "python",
        "counts": Counts(passed=120, failed=2, skipped=3),
        "gates": (
            gate(
                "evidence",
                GateVerdict.FAIL,
                title="Tests ran",
                headline="2 tests failed",
                details=("tests/test_a.py failed", "tests/test_b.py failed"),
                excerpts=(Excerpt(source="pytest -q", exit_code=1, output="FAILED tests/test_a.py::test_one"),),
            ),
            gate(
                "coverage",
                GateVerdict.PASS,
                title="Changed code is tested",
                headline="3 changed files, all covered",
                excerpts=(Excerpt(source="coverage report", exit_code=0, output="TOTAL 91%"),),
            ),
            gate("criteria", GateVerdict.NOT_APPLICABLE, headline="no acceptance criteria"),
        ),
        "failed_tests": (
            FailedTest(name="tests/test_a.py::test_one", message="assert 1 == 2", path="tests/test_a.py", line=3),
            FailedTest(name="tests/test_b.py::test_two", message=None),
        ),
        "deltas": Deltas(executed=5, added=4, removed=3, newly_failing=2, newly_skipped=1),
    }
    values.update(fields)
    return Ledger(**values)


def hostile_ledger() -> Ledger:
    """Every hostile string wherever the ledger holds untrusted text."""
    return ledger(
        check_name="Evidence <b>Gate</b> | @octocat",
        stack="<script>x</script>",
        failed_tests=tuple(
            FailedTest(name=text, message=text, path=text, line=index) for index, text in enumerate(HOSTILE)
        ),
        gates=(
            *(
                gate(
                    f"hostile-{index}",
                    GateVerdict.FAIL if index % 2 else GateVerdict.PASS,
                    title=text,
                    headline=text,
                    details=(text, text),
                    excerpts=(Excerpt(source=text, exit_code=index, output=text),),
                )
                for index, text in enumerate(HOSTILE)
            ),
        ),
        deltas=None,
        baseline="no baseline: " + " ".join(HOSTILE),
    )
