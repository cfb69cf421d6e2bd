"""Check 7, the ignore-comment audit, on real changes in real git repositories: one rule for every
language's suppressions and coverage exclusions (a reason on the line; a rule code is not one), and
the exact fix for each bare line, written in the line's own directive and its language's syntax."""

from __future__ import annotations

from pathlib import Path

import pytest

from evidence_gate.changes import PathClassifier, collect_changes
from evidence_gate.gates import integrity, suppressions
from evidence_gate.git import Git
from evidence_gate.integrity.idioms import default_idioms
from evidence_gate.integrity.survey import survey
from evidence_gate.ledger.model import GateResult, GateVerdict
from evidence_gate.ledger.payload import read, write
from evidence_gate.ledger.payloads.integrity import MAX_SUPPRESSIONS, IntegrityData
from evidence_gate.ledger.payloads.suppressions import AuditData
from evidence_gate.settings import Settings
from evidence_gate.stacks.detect import detect
from evidence_gate.stacks.table import default_table
from tests.conftest import Repo, local_environment

SETTINGS = Settings(repo=Path("/checkout"))
PROJECTS = {
    "python": ({"pyproject.toml": "[project]\nname = 'shop'\n"}, "shop.py", "tests/test_shop.py"),
    "node": ({"package.json": '{"name": "shop", "main": "index.js"}\n'}, "index.js", "index.test.js"),
    "go": ({"go.mod": "module example.com/shop\n\ngo 1.22\n"}, "shop.go", "shop_test.go"),
    "rust": ({"Cargo.toml": '[package]\nname = "shop"\nversion = "0.1.0"\n'}, "src/lib.rs", "tests/shop.rs"),
    "jvm": ({"pom.xml": "<project/>\n"}, "src/main/java/Shop.java", "src/test/java/ShopTest.java"),
    "ruby": ({"Gemfile": "source 'https://rubygems.org'\n"}, "lib/shop.rb", "spec/shop_spec.rb"),
    "php": ({"composer.json": "{}\n"}, "src/Shop.php", "tests/ShopTest.php"),
    "dotnet": ({"Shop.csproj": "<Project/>\n"}, "Shop/Cart.cs", "ShopTests/CartTests.cs"),
    "swift": ({"Package.swift": "// swift-tools-version:5.9\n"}, "Sources/Shop/Cart.swift", "Tests/CartTests.swift"),
}


def audit(repo: Repo, project: str, line: str) -> GateResult:
    """`line` added to the project's production file (its test edited beside it), then check 7."""
    files, source, test = PROJECTS[project]
    first = repo.commit("base", {**files, source: "first\n", test: "test\n"})
    repo.commit("head", {source: f"first\n{line}\n", test: "test\nmore\n"})
    table = default_table()
    classifier = PathClassifier(table=table, matches=detect(repo.path, table).matches)
    git = Git(repo.path, local_environment())
    change = collect_changes(git, first, "HEAD", classifier)
    inventory = integrity.judge(integrity.IntegrityFacts(survey=survey(git, change, default_idioms(), 200)), SETTINGS)
    assert isinstance(inventory.data, IntegrityData)
    data = inventory.data
    total, unjustified = data.suppressions_total, data.unjustified_total
    facts = suppressions.AuditFacts(lines=data.suppressions, total=total, unjustified=unjustified)
    return suppressions.judge(facts, SETTINGS)


BARE = [
    ("python", "x = f(y)  # type: ignore[arg-type]", "# type: ignore[arg-type]  # <why>"),
    ("python", "import shop  # noqa: F821", "# noqa: F821  # <why>"),
    ("python", "x = f(y)  # pyright: ignore[reportCallIssue]", "# pyright: ignore[reportCallIssue]  # <why>"),
    ("python", "x = 1  # pylint: disable=invalid-name", "# pylint: disable=invalid-name  # <why>"),
    ("python", "x = f(y)  # type: ignore[arg-type]  # noqa: E501", "# noqa: E501  # <why>"),
    ("python", "if x:  # pragma: no cover", "# pragma: no cover  # <why>"),
    ("rust", "#[allow(clippy::unreadable_literal)]", "#[allow(clippy::unreadable_literal)] // <why>"),
    ("rust", "#![allow(dead_code)]", "#![allow(dead_code)] // <why>"),
    ("node", "// eslint-disable-next-line no-console", "// eslint-disable-next-line no-console -- <why>"),
    ("node", "/* eslint-disable no-console */", "/* eslint-disable no-console -- <why> */"),
    ("node", "// @ts-ignore", "// @ts-ignore -- <why>"),
    ("node", "// @ts-expect-error", "// @ts-expect-error -- <why>"),
    ("node", "/* istanbul ignore next */", "/* istanbul ignore next -- <why> */"),
    ("node", "/* c8 ignore next 3 */", "/* c8 ignore next 3 -- <why> */"),
    ("go", "\tf() //nolint:errcheck", "//nolint:errcheck // <why>"),
    ("jvm", '    @SuppressWarnings("unchecked")', '@SuppressWarnings("unchecked") // <why>'),
    ("jvm", '    @Suppress("UNCHECKED_CAST")', '@Suppress("UNCHECKED_CAST") // <why>'),
    ("jvm", "    x = y; // NOSONAR", "// NOSONAR // <why>"),
    ("swift", "// swiftlint:disable:next force_cast", "// swiftlint:disable:next force_cast - <why>"),
    ("ruby", "# rubocop:disable Style/GuardClause", "# rubocop:disable Style/GuardClause -- <why>"),
    ("php", "// @phpstan-ignore argument.type", "// @phpstan-ignore argument.type (<why>)"),
    ("dotnet", "#pragma warning disable CA1822", "#pragma warning disable CA1822 // <why>"),
    ("dotnet", '[SuppressMessage("Performance", "CA1822")]', '[SuppressMessage("Performance", "CA1822")] // <why>'),
]


@pytest.mark.parametrize(("project", "line", "fix"), BARE, ids=[f"{case[0]}: {case[1].strip()}" for case in BARE])
def test_a_suppression_without_a_reason_fails_with_the_exact_fix(repo: Repo, project: str, line: str, fix: str) -> None:
    gate = audit(repo, project, line)
    assert gate.verdict is GateVerdict.FAIL
    assert gate.headline == "1 suppression added without a reason on its line (a rule code is not one)"
    assert [note.message for note in gate.annotations] == [
        f"a suppression or coverage exclusion added without a reason: add the reason on the same line: `{fix}`"
    ]
    assert gate.details == (f"{PROJECTS[project][1]}:2: {line.strip()} -> add the reason on the same line: `{fix}`",)


REASONED = [
    ("python", "x = f(y)  # type: ignore[arg-type]  # the stub is wrong"),
    ("python", "u = 'https://example.com/a/long/path'  # noqa: E501 -- generated URL"),
    ("python", "import shop  # noqa: F821  # defined by the plugin loader"),
    ("python", "if x:  # pragma: no cover - only on Windows"),
    ("python", "x = f(y)  # type: ignore[arg-type]  # noqa: E501  # a generated call"),
    ("rust", "#[allow(clippy::unreadable_literal)] // a hardware register's layout"),
    ("rust", '#[allow(clippy::unreadable_literal, reason = "a register layout")]'),
    ("node", "// eslint-disable-next-line no-console -- CLI output"),
    ("node", "/* istanbul ignore next -- only in the browser */"),
    ("node", "// @ts-expect-error: the types lag the runtime"),
    ("go", "\tf() //nolint:errcheck // a best-effort close"),
    ("jvm", '    @SuppressWarnings("unchecked") // the legacy API returns a raw List'),
    ("swift", "// swiftlint:disable:next force_cast - the API returns Any"),
    ("ruby", "# rubocop:disable Style/GuardClause -- reads better here"),
    ("php", "// @phpstan-ignore argument.type (the stub is wrong)"),
    ("dotnet", '[SuppressMessage("Performance", "CA1822", Justification = "public API")]'),
]


@pytest.mark.parametrize(("project", "line"), REASONED, ids=[f"{case[0]}: {case[1].strip()}" for case in REASONED])
def test_a_suppression_with_its_reason_passes(repo: Repo, project: str, line: str) -> None:
    gate = audit(repo, project, line)
    assert (gate.verdict, gate.headline) == (GateVerdict.PASS, "1 suppression added, each with its reason")


def test_a_comment_that_names_no_directive_is_not_audited(repo: Repo) -> None:
    gate = audit(repo, "rust", "// allow the caller to retry")
    assert gate.verdict is GateVerdict.NOT_APPLICABLE


JUSTIFIED = "x = 1  # noqa: E501 -- a generated table"


@pytest.mark.parametrize("before", [5, MAX_SUPPRESSIONS], ids=["after 5", "after the listing cap"])
def test_a_bare_suppression_fails_however_many_justified_ones_come_before_it(repo: Repo, before: int) -> None:
    gate = audit(repo, "python", "\n".join([JUSTIFIED] * before + ["y = 2  # noqa"]))
    assert gate.verdict is GateVerdict.FAIL
    assert gate.headline.startswith("1 suppression added without a reason")
    assert [item.line for item in gate.annotations] == [before + 2]  # after the file's first line


def test_past_the_listing_cap_every_suppression_is_counted_and_the_rest_said_unlisted(repo: Repo) -> None:
    over = MAX_SUPPRESSIONS + 3
    gate = audit(repo, "python", "\n".join([JUSTIFIED] * over))
    assert (gate.verdict, gate.headline) == (GateVerdict.PASS, f"{over:,} suppressions added, each with its reason")
    assert isinstance(gate.data, AuditData)
    assert (len(gate.data.lines), gate.data.total) == (MAX_SUPPRESSIONS, over)
    assert gate.details[-1] == "\N{HORIZONTAL ELLIPSIS} 3 more suppressions not listed"
    assert read(AuditData, write(gate.data)) == gate.data


def test_past_the_listing_cap_the_bare_suppressions_are_listed_before_the_justified_ones(repo: Repo) -> None:
    lines = [JUSTIFIED] * MAX_SUPPRESSIONS + ["y = 2  # noqa"] * 2
    gate = audit(repo, "python", "\n".join(lines))
    assert (gate.verdict, gate.headline.split(" added")[0]) == (GateVerdict.FAIL, "2 suppressions")
    assert isinstance(gate.data, AuditData)
    assert sum(1 for line in gate.data.lines if not line.justified) == 2
    assert len(gate.data.lines) == MAX_SUPPRESSIONS
