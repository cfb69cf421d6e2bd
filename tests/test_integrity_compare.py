"""The comparing tags on real diffs (removed lines weighed against added ones), the edits that must
carry no tag, relaxations of the kinds seen in public projects' history, and the ignore-comment
audit."""

from __future__ import annotations

import pytest

from evidence_gate.model import FileKind

from .conftest import Repo
from .test_integrity_tagger import GO_TEST, JS_TEST, PY_TEST, WORKFLOW, inventory_between, inventory_of, tags

PY_TWO = PY_TEST + "\n\ndef test_refund():\n    assert -1 < 0\n    assert abs(-1) == 1\n"
PYPROJECT = "[project]\nname = 'shop'\n\n[tool.coverage.report]\nfail_under = 90\n"
JEST_CONFIG = (
    "module.exports = {\n  coverageThreshold: {\n    global: {\n"
    "      branches: 80,\n      lines: 90,\n    },\n  },\n};\n"
)
ESLINT = '{\n  "rules": {\n    "no-console": "error",\n    "eqeqeq": "error"\n  }\n}\n'
TSCONFIG = '{\n  "compilerOptions": {\n    "strict": true\n  }\n}\n'
TWO_JOBS = WORKFLOW + "  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ruff check .\n"
NEEDS = TWO_JOBS + "  deploy:\n    needs: [test, lint]\n    runs-on: ubuntu-latest\n    steps:\n      - run: ./deploy\n"

CASES = [
    # RH-3: a test case removed from a file that stays (a rename keeps the count).
    ("RH-3", "python", {"tests/test_cart.py": PY_TWO}, {"tests/test_cart.py": PY_TEST}, ("RH-3", "RH-4")),
    (
        "RH-3",
        "go",
        {"cart_test.go": GO_TEST + "\nfunc TestRefund(t *testing.T) {}\n"},
        {"cart_test.go": GO_TEST},
        ("RH-3",),
    ),
    (
        "RH-3 control: renamed",
        "python",
        {"tests/test_cart.py": PY_TEST},
        {"tests/test_cart.py": PY_TEST.replace("test_total", "test_total_of_two_items")},
        (),
    ),
    # RH-4: fewer assertions, or a vacuous one.
    (
        "RH-4",
        "python",
        {"tests/test_cart.py": PY_TWO},
        {"tests/test_cart.py": PY_TWO.replace("    assert abs(-1) == 1\n", "")},
        ("RH-4",),
    ),
    (
        "RH-4",
        "node",
        {"cart.test.js": JS_TEST},
        {"cart.test.js": JS_TEST.replace("expect(1 + 1).toBe(2);", "expect(true).toBe(true);")},
        ("RH-4",),
    ),
    (
        "RH-4 control: rewritten equivalently",
        "python",
        {"tests/test_cart.py": PY_TEST},
        {"tests/test_cart.py": PY_TEST.replace("assert 1 + 1 == 2", "assert sum([1, 1]) == 2")},
        (),
    ),
    # RH-5: the expected value changed, or a tolerance widened.
    (
        "RH-5",
        "python",
        {"tests/test_cart.py": PY_TEST},
        {"tests/test_cart.py": PY_TEST.replace("== 2", "== 3")},
        ("RH-5",),
    ),
    (
        "RH-5",
        "python",
        {"tests/test_cart.py": PY_TEST.replace("1 + 1 == 2", "0.1 + 0.2 == pytest.approx(0.3, abs=1e-9)")},
        {"tests/test_cart.py": PY_TEST.replace("1 + 1 == 2", "0.1 + 0.2 == pytest.approx(0.3, abs=0.1)")},
        ("RH-5",),
    ),
    (
        "RH-5 control: strengthened",
        "python",
        {"tests/test_cart.py": PY_TEST},
        {"tests/test_cart.py": PY_TEST.replace("assert 1 + 1 == 2", "assert 1 + 1 == 2\n    assert 2 + 2 == 4")},
        (),
    ),
    # RH-8: a threshold lowered or removed, a check switched off, a rule brought down from error.
    ("RH-8", "python", {"pyproject.toml": PYPROJECT}, {"pyproject.toml": PYPROJECT.replace("90", "75")}, ("RH-8",)),
    (
        "RH-8",
        "node",
        {"jest.config.js": JEST_CONFIG},
        {"jest.config.js": JEST_CONFIG.replace("branches: 80", "branches: 60")},
        ("RH-8",),
    ),
    ("RH-8", "node", {"tsconfig.json": TSCONFIG}, {"tsconfig.json": TSCONFIG.replace("true", "false")}, ("RH-8",)),
    (
        "RH-8",
        "node",
        {".eslintrc.json": ESLINT},
        {".eslintrc.json": ESLINT.replace('"no-console": "error"', '"no-console": "warn"')},
        ("RH-8",),
    ),
    (
        "RH-8 control: raised",
        "python",
        {"pyproject.toml": PYPROJECT},
        {"pyproject.toml": PYPROJECT.replace("90", "95")},
        (),
    ),
    # Controls of the idiom tags that the first list leaves out, and RH-11's CI update switch.
    (
        "RH-6 control: a comment",
        "python",
        {"shop.py": "def total(a, b):\n    return a + b\n"},
        {
            "shop.py": "def total(a, b):\n    # add them, noqa-style naming aside\n    return a + b\n",
            "tests/test_cart.py": PY_TEST,
        },
        (),
    ),
    (
        "RH-7 control: a comment",
        "python",
        {"shop.py": "def total(a, b):\n    return a + b\n"},
        {"shop.py": "def total(a, b):\n    # the tests cover this\n    return a + b\n", "tests/test_cart.py": PY_TEST},
        (),
    ),
    (
        "RH-11",
        "node",
        {".github/workflows/test.yml": WORKFLOW.replace("pytest", "npx jest --ci")},
        {".github/workflows/test.yml": WORKFLOW.replace("pytest", "npx jest --ci -u")},
        ("RH-11",),
    ),
    (
        "RH-11",
        "node",
        {".github/workflows/test.yml": WORKFLOW.replace("pytest", "npx jest --ci")},
        {".github/workflows/test.yml": WORKFLOW.replace("pytest", "npx jest --ci --updateSnapshot")},
        ("RH-11",),
    ),
    (
        "RH-11 control",
        "node",
        {".github/workflows/test.yml": WORKFLOW.replace("pytest", "npx jest --ci")},
        {".github/workflows/test.yml": WORKFLOW.replace("pytest", "npx jest --ci --coverage")},
        (),
    ),
    (
        "RH-12 control",
        "python",
        {"pytest.ini": "[pytest]\naddopts = -q\n"},
        {"pytest.ini": "[pytest]\naddopts = -q --strict-markers\n"},
        (),
    ),
    # RH-10: a check's step or job removed, or dropped from needs.
    (
        "RH-10",
        "python",
        {".github/workflows/test.yml": TWO_JOBS},
        {".github/workflows/test.yml": TWO_JOBS.replace("      - run: ruff check .\n", "      - run: echo skipped\n")},
        ("RH-10",),
    ),
    (
        "RH-10",
        "python",
        {".github/workflows/test.yml": NEEDS},
        {".github/workflows/test.yml": NEEDS.replace("needs: [test, lint]", "needs: [lint]")},
        ("RH-10",),
    ),
    (
        "RH-10 control: a check's options changed",
        "python",
        {".github/workflows/test.yml": WORKFLOW},
        {".github/workflows/test.yml": WORKFLOW.replace("run: pytest", "run: pytest -q")},
        (),
    ),
]


@pytest.mark.parametrize(("tag", "project", "base", "head", "expected"), CASES, ids=[case[0] for case in CASES])
def test_each_comparing_tag_marks_its_relaxation_and_not_its_control(
    repo: Repo, tag: str, project: str, base: dict[str, str], head: dict[str, str | None], expected: tuple[str, ...]
) -> None:
    path = next(iter(head))  # the edited file (a test file beside it pairs a production change)
    found = [hunk_tags for hunk_path, hunk_tags in tags(inventory_of(repo, project, base, head)) if hunk_path == path]
    if expected:
        assert found == [expected]
    else:  # listed untagged; or, in production code, not listed at all: no gate edit
        assert all(hunk_tags == () for hunk_tags in found)


def test_a_threshold_moved_from_a_noxfile_to_pyproject_with_its_value_is_no_tag(repo: Repo) -> None:
    noxfile = (
        'import nox\n\n\n@nox.session\ndef tests(session):\n    session.run("coverage", "report", "--fail-under=100")\n'
    )
    moved = noxfile.replace(', "--fail-under=100"', "")
    pyproject = "[project]\nname = 'shop'\n"
    found = inventory_of(
        repo,
        "python",
        {"noxfile.py": noxfile, "pyproject.toml": pyproject},
        {"noxfile.py": moved, "pyproject.toml": pyproject + "\n[tool.coverage.report]\nfail_under = 100\n"},
    )
    assert [hunk_tags for _, hunk_tags in tags(found)] == [(), ()]


def test_a_threshold_lowered_while_it_moves_is_tagged_where_it_went(repo: Repo) -> None:
    noxfile = (
        'import nox\n\n\n@nox.session\ndef tests(session):\n    session.run("coverage", "report", "--fail-under=100")\n'
    )
    pyproject = "[project]\nname = 'shop'\n"
    found = inventory_of(
        repo,
        "python",
        {"noxfile.py": noxfile, "pyproject.toml": pyproject},
        {
            "noxfile.py": noxfile.replace(', "--fail-under=100"', ""),
            "pyproject.toml": pyproject + "\n[tool.coverage.report]\nfail_under = 80\n",
        },
    )
    assert [hunk_tags for _, hunk_tags in tags(found)] == [("RH-8",), ("RH-8",)]


@pytest.mark.parametrize(
    ("base", "head"),
    [
        (
            {"tests/test_cart.py": PY_TEST},
            {"tests/test_cart.py": PY_TEST + "\n\ndef test_refund():\n    assert -1 < 0\n"},
        ),
        (
            {".github/workflows/test.yml": WORKFLOW},
            {".github/workflows/test.yml": WORKFLOW + "      - run: mypy --strict .\n"},
        ),
        (
            {"tests/test_cart.py": PY_TEST, "shop.py": "def total(a, b):\n    return a + b\n"},
            {
                "tests/test_cart.py": PY_TEST.replace("def test_total", "def test_total_adds"),
                "shop.py": "def total(a, b):\n    return b + a\n",
            },
        ),
    ],
    ids=["a new test", "a new CI step", "a clean refactor with its test"],
)
def test_edits_that_relax_nothing_carry_no_tag(repo: Repo, base: dict[str, str], head: dict[str, str | None]) -> None:
    found = inventory_of(repo, "python", base, head)
    assert all(hunk_tags == () for _, hunk_tags in tags(found)), tags(found)


def test_continue_on_error_in_a_new_workflow_is_tagged(repo: Repo) -> None:
    new = WORKFLOW.replace("      - run: pytest", "      - run: pytest\n        continue-on-error: true")
    found = inventory_of(repo, "python", {}, {".github/workflows/nightly.yml": new})
    assert tags(found) == [(".github/workflows/nightly.yml", ("RH-9",))]


def test_assertions_removed_from_a_test_while_its_name_changes_are_tagged(repo: Repo) -> None:
    head = PY_TWO.replace(
        "def test_refund():\n    assert -1 < 0\n    assert abs(-1) == 1\n", "def test_refund_is_fine():\n    pass\n"
    )
    found = inventory_of(repo, "python", {"tests/test_cart.py": PY_TWO}, {"tests/test_cart.py": head})
    assert tags(found) == [("tests/test_cart.py", ("RH-4",))]


@pytest.mark.parametrize(
    ("line", "justified"),
    [
        ("x = 1  # noqa", False),
        ("x = 1  # noqa: E501", False),
        ("x = 1  # noqa: E501 -- generated table", True),
        ("x = f()  # type: ignore[arg-type]  # the test's literal facts", True),
        ("x = f()  # type: ignore", False),
        ("if x:  # pragma: no cover -- only on Windows", True),
        ("if x:  # pragma: no cover", False),
    ],
)
def test_a_suppression_without_a_reason_on_its_line_is_unjustified(repo: Repo, line: str, justified: bool) -> None:
    base = {"shop.py": "def total(a, b):\n    return a + b\n", "tests/test_cart.py": PY_TEST}
    head = {"shop.py": f"def total(a, b):\n    {line}\n    return a + b\n", "tests/test_cart.py": PY_TEST + "\n"}
    (hunk,) = [hunk for hunk in inventory_of(repo, "python", base, head).hunks if hunk.path == "shop.py"]
    assert hunk.unjustified == (() if justified else (2,))


def test_only_the_suppressions_a_hunk_is_tagged_for_are_audited(repo: Repo) -> None:
    """RH-6 is not looked for in CI files: a shellcheck directive in a CI script is neither tagged nor audited."""
    script = "#!/bin/sh\n# shellcheck disable=SC2086\npytest $ARGS\n"
    found = inventory_of(repo, "python", {}, {".buildkite/run-tests.sh": script})
    assert [(hunk.path, hunk.kind, hunk.tags, hunk.unjustified) for hunk in found.hunks] == [
        (".buildkite/run-tests.sh", FileKind.CI, (), ())
    ]


def test_eslint_and_nolint_reasons_are_read_in_their_own_syntax(repo: Repo) -> None:
    source = (
        "console.log(1); // eslint-disable-line no-console -- CLI output\n"
        "console.log(2); // eslint-disable-line no-console\n"
    )
    found = inventory_of(repo, "node", {"index.js": "module.exports = 1;\n"}, {"index.js": source})
    (hunk,) = found.hunks
    assert hunk.unjustified == (2,)


JAVA = "class CartTest {\n    @Test\n    void totals() {\n        assertEquals(2, 1 + 1);\n    }\n}\n"
RSPEC = "describe Cart do\n  it 'totals' do\n    expect(1 + 1).to eq(2)\n  end\nend\n"
PHPUNIT = (
    "<?php\nclass CartTest extends TestCase {\n    public function testTotal() {\n"
    "        $this->assertSame(2, 1 + 1);\n    }\n}\n"
)
XUNIT = "public class CartTests {\n    [Fact]\n    public void Totals() {\n        Assert.Equal(2, 1 + 1);\n    }\n}\n"
XCTEST = (
    "final class CartTests: XCTestCase {\n    func testTotal() throws {\n        XCTAssertEqual(1 + 1, 2)\n    }\n}\n"
)
LANGUAGES = {
    "node": {"package.json": '{"name": "shop", "main": "index.js"}\n'},
    "go": {"go.mod": "module example.com/shop\n\ngo 1.22\n"},
    "jvm": {"pom.xml": "<project/>\n"},
    "ruby": {"Gemfile": "source 'https://rubygems.org'\n"},
    "php": {"composer.json": "{}\n"},
    "dotnet": {"Shop.csproj": "<Project/>\n"},
    "swift": {"Package.swift": "// swift-tools-version:5.9\n"},
}
MORE = [
    (
        "jvm",
        "src/test/java/CartTest.java",
        JAVA,
        JAVA.replace("    @Test\n", '    @Test\n    @Disabled("flaky")\n'),
        ("RH-1",),
    ),
    (
        "jvm",
        "src/test/java/CartTest.java",
        JAVA,
        JAVA.replace("assertEquals(2, 1 + 1)", "assertEquals(3, 1 + 1)"),
        ("RH-5",),
    ),
    ("ruby", "spec/cart_spec.rb", RSPEC, RSPEC.replace("  it 'totals'", "  xit 'totals'"), ("RH-1",)),
    (
        "node",
        "cart.test.js",
        JS_TEST,
        JS_TEST.replace("it('totals', () => {", "it('totals', { skip: true }, () => {"),
        ("RH-1",),
    ),
    ("go", "cart_test.go", GO_TEST, "//go:build slow\n\n" + GO_TEST, ("RH-1",)),
    ("ruby", "spec/cart_spec.rb", RSPEC, RSPEC.replace("  it 'totals'", "  fit 'totals'"), ("RH-2",)),
    (
        "php",
        "tests/CartTest.php",
        PHPUNIT,
        PHPUNIT.replace(
            "        $this->assertSame", "        $this->markTestSkipped('later');\n        $this->assertSame"
        ),
        ("RH-1",),
    ),
    ("dotnet", "ShopTests/CartTests.cs", XUNIT, XUNIT.replace("[Fact]", '[Fact(Skip = "flaky")]'), ("RH-1",)),
    ("dotnet", "ShopTests/CartTests.cs", XUNIT, XUNIT.replace("        Assert.Equal(2, 1 + 1);\n", ""), ("RH-4",)),
    (
        "swift",
        "Tests/CartTests.swift",
        XCTEST,
        XCTEST.replace("        XCTAssertEqual", '        throw XCTSkip("later")\n        XCTAssertEqual'),
        ("RH-1",),
    ),
    (
        "jvm",
        "src/test/java/CartTest.java",
        JAVA,
        JAVA.replace("    }\n}\n", "        assertTrue(1 < 2);\n    }\n}\n"),
        (),
    ),
]


@pytest.mark.parametrize(("stack", "path", "before", "after", "expected"), MORE, ids=[f"{m[0]} {m[4]}" for m in MORE])
def test_the_idioms_of_other_languages(
    repo: Repo, stack: str, path: str, before: str, after: str, expected: tuple[str, ...]
) -> None:
    first = repo.commit("base", {**LANGUAGES[stack], path: before})
    repo.commit("head", {path: after})
    found = inventory_between(repo, first)
    assert [hunk_tags for hunk_path, hunk_tags in tags(found) if hunk_path == path] == [expected]


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        ("  testTimeout: 5000,\n", "  testTimeout: 60000,\n", ("RH-13",)),
        ("jest.setTimeout(5000);\n", "jest.setTimeout(30000);\n", ("RH-13",)),
        ("  testTimeout: 5000,\n", "  testTimeout: 2000,\n", ()),
    ],
    ids=["a raised testTimeout", "a raised jest.setTimeout", "a lowered one"],
)
def test_a_raised_test_timeout_is_tagged(repo: Repo, before: str, after: str, expected: tuple[str, ...]) -> None:
    config = "module.exports = {\n{}};\n"
    found = inventory_of(
        repo, "node", {"jest.config.js": config.replace("{}", before)}, {"jest.config.js": config.replace("{}", after)}
    )
    assert [hunk_tags for _, hunk_tags in tags(found)] == [expected]
