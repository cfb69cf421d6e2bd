"""The comparing tags on real diffs (removed lines weighed against added ones), the edits that must
carry no tag, relaxations of the kinds seen in public projects' history, and the ignore-comment
audit."""

from __future__ import annotations

import time
from collections.abc import Mapping

import pytest

from evidence_gate.integrity.configs import settings
from evidence_gate.integrity.idioms import default_idioms
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


CI_SCRIPT = "#!/bin/sh\nset -e\npytest -q\n"


@pytest.mark.parametrize(
    ("path", "after", "expected"),
    [
        ("ci/test.sh", CI_SCRIPT.replace("set -e", "set +e"), [("ci/test.sh", FileKind.CI, ("RH-9",))]),
        (
            ".github/scripts/tests.sh",
            CI_SCRIPT.replace("set -e", "set +e"),
            [(".github/scripts/tests.sh", FileKind.CI, ("RH-9",))],
        ),
        ("ci/test.sh", CI_SCRIPT.replace("pytest", "echo testing\npytest"), [("ci/test.sh", FileKind.CI, ())]),
        (  # a folder named ci inside the code: production, a change no test accompanies
            "shop/ci/run.sh",
            CI_SCRIPT.replace("set -e", "set +e"),
            [("shop/ci/run.sh", FileKind.PRODUCTION, ("RH-15?",))],
        ),
    ],
    ids=["set +e in ci/", "set +e in .github/scripts/", "control: an echo added", "control: the code's own ci folder"],
)
def test_set_plus_e_in_a_ci_script_is_tagged(
    repo: Repo, path: str, after: str, expected: list[tuple[str, FileKind, tuple[str, ...]]]
) -> None:
    """RH-9: the scripts a pipeline runs from a CI folder are CI files, so `set +e` makes them non-blocking."""
    found = inventory_of(repo, "python", {path: CI_SCRIPT, "tests/test_cart.py": PY_TEST}, {path: after})
    assert [(hunk.path, hunk.kind, hunk.tags) for hunk in found.hunks if hunk.path == path] == expected


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
    "python": {"pyproject.toml": "[project]\nname = 'shop'\n"},
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
        ("", "  testTimeout: 60000,\n", ("RH-13",)),
        ("", "  testTimeout: 2000,\n", ()),
        ("  testTimeout: 60000,\n", "", ()),
        ("  testTimeout: 60000,\n", "    testTimeout:  60000,\n", ()),
    ],
    ids=[
        "a raised testTimeout",
        "a raised jest.setTimeout",
        "a lowered one",
        "one added above jest's 5 s",
        "one added below it",
        "one removed: the 5 s is back",
        "one re-indented",
    ],
)
def test_a_raised_test_timeout_is_tagged(repo: Repo, before: str, after: str, expected: tuple[str, ...]) -> None:
    config = "module.exports = {\n{}};\n"
    found = inventory_of(
        repo, "node", {"jest.config.js": config.replace("{}", before)}, {"jest.config.js": config.replace("{}", after)}
    )
    assert [hunk_tags for _, hunk_tags in tags(found)] == [expected]


def path_tags(repo: Repo, project: Mapping[str, str], path: str, before: str, after: str) -> list[tuple[str, ...]]:
    """The tags of each hunk of `path`, in a real repository of `project` whose change turns `before` into `after`."""
    first = repo.commit("base", {**project, path: before})
    repo.commit("head", {path: after})
    return [hunk_tags for hunk_path, hunk_tags in tags(inventory_between(repo, first)) if hunk_path == path]


GITLAB_CI = "test:\n  script:\n    - bundle exec rspec\n"


@pytest.mark.parametrize(
    ("path", "before", "after", "expected"),
    [
        ("spec/cart_spec.rb", RSPEC, RSPEC.replace("it 'totals' do", "it 'totals', retry: 3 do"), ("RH-13",)),
        (
            "spec/cart_spec.rb",
            RSPEC,
            RSPEC.replace("    expect(1 + 1).to eq(2)\n", "    expect(1 + 1).to eq(2)\n    expect(2 + 2).to eq(4)\n"),
            (),
        ),
        (".gitlab-ci.yml", GITLAB_CI, GITLAB_CI + "  retry: 2\n", ("RH-13",)),
        (".gitlab-ci.yml", GITLAB_CI + "  retry: 3\n", GITLAB_CI + "  retry: 2\n", ()),
        (".gitlab-ci.yml", GITLAB_CI + "  retry: 2\n", "default:\n  retry: 2\n\n" + GITLAB_CI, ()),
    ],
    ids=[
        "an RSpec example given retry: 3",
        "control: an expectation added",
        "a GitLab CI job given retry: 2",
        "control: its retries lowered",
        "control: its retry moved to default:",
    ],
)
def test_retries_added_or_raised_are_tagged(
    repo: Repo, path: str, before: str, after: str, expected: tuple[str, ...]
) -> None:
    """RH-13: retries have a default of none, so a new `retry:` raises it; moved with its value, or
    lowered, it relaxes nothing."""
    found = path_tags(repo, LANGUAGES["ruby"], path, before, after)
    assert sorted({tag for hunk_tags in found for tag in hunk_tags}) == list(expected), found


SUREFIRE = (
    "<project>\n  <build>\n    <plugins>\n      <plugin>\n        <artifactId>maven-surefire-plugin</artifactId>\n"
    "        <configuration>\n          <excludes>\n            <exclude>**/SlowTest.java</exclude>\n"
    "          </excludes>\n        </configuration>\n      </plugin>\n    </plugins>\n  </build>\n</project>\n"
)
MAKEFILE = ".PHONY: test\ntest:\n\tgo test -race ./...\n"


@pytest.mark.parametrize(
    ("stack", "path", "before", "after", "expected"),
    [
        (
            "jvm",
            "pom.xml",
            SUREFIRE,
            SUREFIRE.replace(
                "SlowTest.java</exclude>\n", "SlowTest.java</exclude>\n            <exclude>**/*IT.java</exclude>\n"
            ),
            ("RH-12",),
        ),
        (
            "jvm",
            "pom.xml",
            SUREFIRE,
            SUREFIRE.replace("<configuration>", "<configuration>\n          <excludedGroups>slow</excludedGroups>"),
            ("RH-12",),
        ),
        (
            "jvm",
            "pom.xml",
            SUREFIRE,
            SUREFIRE.replace(
                "  </build>",
                "    <resources>\n      <resource>\n        <excludes>\n"
                "          <exclude>**/*.properties</exclude>\n        </excludes>\n"
                "      </resource>\n    </resources>\n  </build>",
            ),
            (),
        ),
        (
            "jvm",
            "pom.xml",
            SUREFIRE,
            SUREFIRE.replace("            <exclude>", "              <exclude>"),
            (),
        ),
        ("go", "Makefile", MAKEFILE, MAKEFILE.replace("-race", "-race -run 'TestCart'"), ("RH-12",)),
        ("go", "Makefile", MAKEFILE, MAKEFILE.replace("./...", "-skip TestSlow ./..."), ("RH-12",)),
        ("go", "Makefile", MAKEFILE, MAKEFILE.replace("-race", "-race -count=1"), ()),
        ("go", "Makefile", MAKEFILE, MAKEFILE.replace("./...", "./pkg/cart"), ("RH-12",)),
        ("go", "Makefile", MAKEFILE, MAKEFILE.replace("./...", "./...  # every package"), ()),
    ],
    ids=[
        "a Surefire exclude added",
        "Surefire's excludedGroups added",
        "control: a resource's exclude added",
        "control: the Surefire exclude re-indented",
        "go test given -run in a Makefile",
        "go test given -skip",
        "control: go test given -count=1",
        "go test ./... narrowed to one package",
        "control: a comment added after ./...",
    ],
)
def test_test_selection_narrowed_in_a_build_file_is_tagged(
    repo: Repo, stack: str, path: str, before: str, after: str, expected: tuple[str, ...]
) -> None:
    """RH-12: tests left out by the build (Surefire's excludes) or by the command that runs them."""
    assert path_tags(repo, LANGUAGES[stack], path, before, after) == [expected]


JEST_IGNORE = "module.exports = {\n  testEnvironment: 'node',\n  verbose: true,\n};\n"
COVERAGE_RUN = "[project]\nname = 'shop'\n\n[tool.coverage.run]\nbranch = true\n"
SIMPLECOV = "SimpleCov.start do\n  minimum_coverage 90\nend\n"
PACKAGE = '{\n  "name": "shop",\n  "main": "index.js",\n  "scripts": {\n    "lint": "eslint ."\n  }\n}\n'
TS_TARGET = '{\n  "compilerOptions": {\n    "target": "es2022"\n  }\n}\n'


@pytest.mark.parametrize(
    ("stack", "path", "before", "after", "expected"),
    [
        (
            "node",
            "jest.config.js",
            JEST_IGNORE,
            JEST_IGNORE.replace("  verbose", "  testPathIgnorePatterns: ['/slow/'],\n  verbose"),
            ("RH-12",),
        ),
        ("node", "jest.config.js", JEST_IGNORE, JEST_IGNORE.replace("true", "false"), ()),
        ("python", "pyproject.toml", COVERAGE_RUN, COVERAGE_RUN + 'omit = ["shop/payments.py"]\n', ("RH-7",)),
        (
            "python",
            "pyproject.toml",
            COVERAGE_RUN + 'omit = ["shop/payments.py"]\n',
            COVERAGE_RUN + 'omit = [\n    "shop/payments.py",\n]\n',
            (),
        ),
        ("ruby", ".simplecov", SIMPLECOV, SIMPLECOV.replace("90", "70"), ("RH-8",)),
        ("ruby", ".simplecov", SIMPLECOV, SIMPLECOV.replace("90", "95"), ()),
        (
            "node",
            "package.json",
            PACKAGE.replace("eslint .", "eslint . --max-warnings 0"),
            PACKAGE.replace("eslint .", "eslint . --max-warnings 50"),
            ("RH-8",),
        ),
        ("node", "package.json", PACKAGE, PACKAGE.replace("eslint .", "eslint . --max-warnings 50"), ()),
        (
            "node",
            "tsconfig.json",
            TS_TARGET,
            TS_TARGET.replace('"es2022"', '"es2022",\n    "strict": false'),
            ("RH-8",),
        ),
        ("node", "tsconfig.json", TS_TARGET, TS_TARGET.replace('"es2022"', '"es2022",\n    "strict": true'), ()),
    ],
    ids=[
        "jest testPathIgnorePatterns added",
        "control: jest verbose turned off",
        "coverage.py omit added under [tool.coverage.run]",
        "control: the omit list written over lines",
        "SimpleCov minimum_coverage lowered",
        "control: raised",
        "eslint --max-warnings 0 raised to 50 in a package.json script",
        "control: --max-warnings 50 added where no limit was",
        'tsconfig "strict": false added',
        'control: "strict": true added',
    ],
)
def test_config_relaxations_of_the_kinds_once_missed_are_tagged(
    repo: Repo, stack: str, path: str, before: str, after: str, expected: tuple[str, ...]
) -> None:
    project = {**LANGUAGES[stack], "index.js": "module.exports = 1;\n"} if stack == "node" else LANGUAGES[stack]
    assert path_tags(repo, project, path, before, after) == [expected]


def test_go_test_of_every_package_moved_from_the_makefile_to_a_workflow_is_no_tag(repo: Repo) -> None:
    """RH-12's scopes are compared across the whole change: `go test ./...` run by CI now, not make."""
    workflow = WORKFLOW.replace("pytest", "make lint")
    first = repo.commit("base", {**LANGUAGES["go"], "Makefile": MAKEFILE, ".github/workflows/test.yml": workflow})
    repo.commit(
        "head",
        {
            "Makefile": MAKEFILE.replace("go test -race ./...", "go vet ./..."),
            ".github/workflows/test.yml": workflow + "      - run: go test -race ./...\n",
        },
    )
    assert [hunk_tags for _, hunk_tags in tags(inventory_between(repo, first))] == [(), ()]


SETUP_CFG = "[metadata]\nname = shop\n\n[flake8]\nextend-ignore = E501\nmax-complexity = 10\n"
FLAKE8_LIST = "[flake8]\nextend-ignore =\n    E501,\n    W503\nmax-line-length = 100\n"
RUFF = '[project]\nname = "shop"\n\n[tool.ruff]\nline-length = 100\n\n[tool.ruff.lint]\nselect = ["E", "F", "B"]\n'
RUFF_PER_FILE = RUFF + '\n[tool.ruff.lint.per-file-ignores]\n"tests/*" = ["S101"]\n'
MYPY = "[project]\nname = 'shop'\n\n[tool.mypy]\nstrict = true\n"
PYRIGHT = '{\n  "typeCheckingMode": "strict"\n}\n'
COVERAGERC = "[run]\nbranch = true\nomit =\n    shop/_version.py\n"
ESLINT_FLAT = "export default [\n  {\n    rules: {\n      'no-console': 'error',\n    },\n  },\n];\n"
ESLINT_LIMITS = '{\n  "rules": {\n    "complexity": ["error", 10],\n    "max-len": ["error", { "code": 100 }]\n  }\n}\n'
GOLANGCI = "linters:\n  enable:\n    - errcheck\n    - govet\n  disable:\n    - lll\n"
CARGO = '[package]\nname = "shop"\nversion = "0.1.0"\n\n[lints.clippy]\npedantic = "warn"\n'
CLIPPY = "too-many-arguments-threshold = 7\n"
PYLINTRC = "[MESSAGES CONTROL]\ndisable=missing-docstring\n\n[FORMAT]\nmax-line-length=100\n"

CONFIG_CASES = [
    # A list that switches rules off or leaves code out, gaining an entry.
    (
        "flake8 extend-ignore gains F821",
        "python",
        {"setup.cfg": SETUP_CFG},
        {"setup.cfg": SETUP_CFG.replace("E501", "E501,F821")},
        ("RH-8",),
    ),
    (
        "flake8 extend-ignore, a list, gains F821",
        "python",
        {".flake8": FLAKE8_LIST},
        {".flake8": FLAKE8_LIST.replace("    W503\n", "    W503,\n    F821\n")},
        ("RH-8",),
    ),
    (
        "control: extend-ignore moved from setup.cfg to .flake8",
        "python",
        {"setup.cfg": SETUP_CFG},
        {"setup.cfg": "[metadata]\nname = shop\n", ".flake8": "[flake8]\nextend-ignore = E501\nmax-complexity = 10\n"},
        (),
    ),
    (
        "control: extend-ignore loses E501, re-written as a list",
        "python",
        {"setup.cfg": SETUP_CFG.replace("E501", "E501,W503")},
        {"setup.cfg": SETUP_CFG.replace("extend-ignore = E501", "extend-ignore =\n    W503")},
        (),
    ),
    (
        "ruff per-file-ignores gains S105",
        "python",
        {"pyproject.toml": RUFF_PER_FILE},
        {"pyproject.toml": RUFF_PER_FILE.replace('["S101"]', '["S101", "S105"]')},
        ("RH-8",),
    ),
    (
        "control: ruff per-file-ignores re-formatted",
        "python",
        {"pyproject.toml": RUFF_PER_FILE},
        {"pyproject.toml": RUFF_PER_FILE.replace('["S101"]', '[\n    "S101",\n]')},
        (),
    ),
    (
        "ruff select loses B",
        "python",
        {"pyproject.toml": RUFF},
        {"pyproject.toml": RUFF.replace(', "B"', "")},
        ("RH-8",),
    ),
    (
        "control: ruff select gains UP",
        "python",
        {"pyproject.toml": RUFF},
        {"pyproject.toml": RUFF.replace('"B"]', '"B", "UP"]')},
        (),
    ),
    (
        "pylint disable gains too-many-arguments",
        "python",
        {".pylintrc": PYLINTRC},
        {".pylintrc": PYLINTRC.replace("missing-docstring", "missing-docstring,too-many-arguments")},
        ("RH-8",),
    ),
    (
        "golangci disable gains errcheck",
        "go",
        {".golangci.yml": GOLANGCI},
        {
            ".golangci.yml": GOLANGCI.replace("    - errcheck\n", "").replace(
                "    - lll\n", "    - lll\n    - errcheck\n"
            )
        },
        ("RH-8",),
    ),
    (
        "control: golangci enable gains gosec",
        "go",
        {".golangci.yml": GOLANGCI},
        {".golangci.yml": GOLANGCI.replace("    - govet\n", "    - govet\n    - gosec\n")},
        (),
    ),
    (
        "coverage omit gains a module",
        "python",
        {".coveragerc": COVERAGERC},
        {".coveragerc": COVERAGERC + "    shop/payments.py\n"},
        ("RH-7",),
    ),
    # A limit raised or removed.
    (
        "max-complexity = 10 removed",
        "python",
        {"setup.cfg": SETUP_CFG},
        {"setup.cfg": SETUP_CFG.replace("max-complexity = 10\n", "")},
        ("RH-8",),
    ),
    (
        "control: max-complexity tightened",
        "python",
        {"setup.cfg": SETUP_CFG},
        {"setup.cfg": SETUP_CFG.replace("= 10", "= 8")},
        (),
    ),
    (
        "control: max-complexity re-indented",
        "python",
        {"setup.cfg": SETUP_CFG},
        {"setup.cfg": SETUP_CFG.replace("max-complexity = 10", "max-complexity  =  10")},
        (),
    ),
    (
        "ruff line-length 100 -> 140",
        "python",
        {"pyproject.toml": RUFF},
        {"pyproject.toml": RUFF.replace("line-length = 100", "line-length = 140")},
        ("RH-8",),
    ),
    (
        "control: ruff line-length 100 -> 88",
        "python",
        {"pyproject.toml": RUFF},
        {"pyproject.toml": RUFF.replace("line-length = 100", "line-length = 88")},
        (),
    ),
    (
        "control: ruff line-length moved to ruff.toml",
        "python",
        {"pyproject.toml": RUFF},
        {"pyproject.toml": RUFF.replace("line-length = 100\n", ""), "ruff.toml": "line-length = 100\n"},
        (),
    ),
    (
        "pylint max-line-length raised",
        "python",
        {".pylintrc": PYLINTRC},
        {".pylintrc": PYLINTRC.replace("=100", "=120")},
        ("RH-8",),
    ),
    (
        "eslint complexity raised",
        "node",
        {".eslintrc.json": ESLINT_LIMITS},
        {".eslintrc.json": ESLINT_LIMITS.replace('"error", 10]', '"error", 25]')},
        ("RH-8",),
    ),
    (
        "eslint max-len raised",
        "node",
        {".eslintrc.json": ESLINT_LIMITS},
        {".eslintrc.json": ESLINT_LIMITS.replace('"code": 100', '"code": 160')},
        ("RH-8",),
    ),
    ("clippy threshold raised", "rust", {"clippy.toml": CLIPPY}, {"clippy.toml": CLIPPY.replace("7", "12")}, ("RH-8",)),
    # A rule turned off, strict switched off.
    (
        "eslint rule set to off",
        "node",
        {"eslint.config.js": ESLINT_FLAT},
        {"eslint.config.js": ESLINT_FLAT.replace("'error'", "'off'")},
        ("RH-8",),
    ),
    (
        "eslint rule added as off",
        "node",
        {"eslint.config.js": ESLINT_FLAT},
        {"eslint.config.js": ESLINT_FLAT.replace("'error',\n", "'error',\n      eqeqeq: 'off',\n")},
        ("RH-8",),
    ),
    (
        "control: eslint rule off moved to its own config block",
        "node",
        {"eslint.config.js": ESLINT_FLAT.replace("'error'", "'off'")},
        {
            "eslint.config.js": ESLINT_FLAT.replace("'error'", "'off'").replace(
                "    rules: {", "    files: ['src/**'],\n    rules: {"
            )
        },
        (),
    ),
    (
        "control: eslint rule off to error",
        "node",
        {"eslint.config.js": ESLINT_FLAT.replace("'error'", "'off'")},
        {"eslint.config.js": ESLINT_FLAT},
        (),
    ),
    (
        "clippy.toml allows unwrap in tests",
        "rust",
        {"clippy.toml": CLIPPY},
        {"clippy.toml": CLIPPY + "allow-unwrap-in-tests = true\n"},
        ("RH-8",),
    ),
    (
        "control: an allow- setting of another tool",
        "python",
        {"pyproject.toml": RUFF},
        {"pyproject.toml": RUFF + "\n[tool.hatch.metadata]\nallow-direct-references = true\n"},
        (),
    ),
    (
        "clippy lint allowed in Cargo.toml",
        "rust",
        {"Cargo.toml": CARGO},
        {"Cargo.toml": CARGO + 'unreadable_literal = "allow"\n'},
        ("RH-8",),
    ),
    (
        "tsconfig strict true -> false",
        "node",
        {"tsconfig.json": TSCONFIG},
        {"tsconfig.json": TSCONFIG.replace("true", "false")},
        ("RH-8",),
    ),
    (
        "tsconfig strict removed",
        "node",
        {"tsconfig.json": TSCONFIG},
        {"tsconfig.json": TSCONFIG.replace('    "strict": true\n', '    "target": "es2022"\n')},
        ("RH-8",),
    ),
    (
        "control: tsconfig strict re-indented",
        "node",
        {"tsconfig.json": TSCONFIG},
        {"tsconfig.json": TSCONFIG.replace('    "strict": true\n', '      "strict": true,\n    "target": "es2022"\n')},
        (),
    ),
    (
        "mypy strict removed",
        "python",
        {"pyproject.toml": MYPY},
        {"pyproject.toml": MYPY.replace("strict = true\n", "python_version = '3.12'\n")},
        ("RH-8",),
    ),
    (
        "control: mypy strict moved to mypy.ini",
        "python",
        {"pyproject.toml": MYPY},
        {"pyproject.toml": MYPY.replace("\n[tool.mypy]\nstrict = true\n", ""), "mypy.ini": "[mypy]\nstrict = True\n"},
        (),
    ),
    (
        "pyright strict -> basic",
        "python",
        {"pyrightconfig.json": PYRIGHT},
        {"pyrightconfig.json": PYRIGHT.replace("strict", "basic")},
        ("RH-8",),
    ),
    (
        "control: pyright standard -> strict",
        "python",
        {"pyrightconfig.json": PYRIGHT.replace("strict", "standard")},
        {"pyrightconfig.json": PYRIGHT},
        (),
    ),
]


@pytest.mark.parametrize(
    ("case", "project", "base", "head", "expected"), CONFIG_CASES, ids=[c[0] for c in CONFIG_CASES]
)
def test_a_lint_type_or_coverage_config_loosened_is_tagged_and_its_control_is_not(
    repo: Repo, case: str, project: str, base: dict[str, str], head: dict[str, str | None], expected: tuple[str, ...]
) -> None:
    found = inventory_of(repo, project, base, head)
    assert sorted({tag for _, hunk_tags in tags(found) for tag in hunk_tags}) == list(expected), tags(found)


SEEDS = (
    "",
    "# noqa: ",
    "# type: ignore[",
    "#[allow(",
    "#[cfg_attr(test, ",
    "// eslint-disable-next-line ",
    "@Suppress(",
    "//nolint:",
    "// swiftlint:disable ",
    "# rubocop:disable ",
    "// @phpstan-ignore ",
    "#pragma warning disable ",
    '[SuppressMessage("',
    '"complexity": ["error", {',
    "max-line-length = ",
    "fail_under = ",
    "needs: [",
)
FILLERS = (" ", "a", "E501,", "a-", "-", ":", "#", "[", '"', "a ")


def test_every_pattern_of_the_table_and_the_config_reader_runs_in_time_linear_in_the_line() -> None:
    """No pattern backtracks its way into quadratic time: each, on a 6,000-character line built to
    make it try hard, takes well under the time a quadratic search would need (some 36 million steps)."""
    idioms = default_idioms()
    patterns = [
        *(p for tag in idioms.tags for side in (tag.added, tag.removed) for ps in side.values() for p in ps),
        *(
            p
            for by in (idioms.definitions, idioms.assertions, idioms.vacuous, idioms.weak)
            for ps in by.values()
            for p in ps
        ),
        *(threshold.pattern for threshold in idioms.thresholds),
        *idioms.switched_off,
        *idioms.severity_error,
        *idioms.severity_lower,
        *idioms.ci_checks,
        *idioms.narrowed,
        idioms.audit.reason,
        *idioms.audit.within,
        *(rule.path for rule in idioms.configs.rules),
        *(rule.value for rule in idioms.configs.rules if rule.value is not None),
        *(pattern for pattern, _ in idioms.audit.fix_by_directive),
    ]
    lines = [seed + filler * (6_000 // len(filler)) for seed in SEEDS for filler in FILLERS]
    slow = []
    for pattern in patterns:
        for line in lines:
            started = time.process_time()
            pattern.search(line)
            if time.process_time() - started > 0.15:
                slow.append((pattern.pattern, line[:40]))
    for text in (*lines, "linters:\n  disable:\n" + "    - errcheck\n" * 3_000):
        started = time.process_time()
        settings(text + "\n" + text)
        if time.process_time() - started > 0.5:  # a quadratic reading of the 6,000 items takes seconds
            slow.append(("configs.settings", text[:40]))
    assert slow == []


PY_EXACT = "from shop import total\n\n\ndef test_total():\n    assert total([2, 3]) == 5\n"
JS_EXACT = "const { total } = require('../cart');\n\ntest('totals', () => {\n  expect(total([2, 3])).toBe(5);\n});\n"
GO_EXACT = (
    'package shop\n\nimport (\n\t"testing"\n\n\t"github.com/stretchr/testify/assert"\n)\n\n'
    "func TestTotal(t *testing.T) {\n\tassert.Equal(t, 5, Total(2, 3))\n}\n"
)
RS_EXACT = '#[test]\nfn totals() {\n    assert_eq!(shop::parse("5"), Some(5));\n}\n'
WEAKENED = [
    ("python", "tests/test_cart.py", PY_EXACT, ("== 5", " > 0"), ("RH-5",)),
    ("python", "tests/test_cart.py", PY_EXACT, ("total([2, 3]) == 5", "total([2, 3]) is not None"), ("RH-5",)),
    ("python", "tests/test_cart.py", PY_EXACT, ("assert total([2, 3]) == 5", "assert total([2, 3])"), ("RH-5",)),
    ("node", "test/cart.test.js", JS_EXACT, (".toBe(5)", ".toBeGreaterThan(0)"), ("RH-5",)),
    ("node", "test/cart.test.js", JS_EXACT, (".toBe(5)", ".toEqual(expect.any(Number))"), ("RH-5",)),
    ("go", "cart_test.go", GO_EXACT, ("assert.Equal(t, 5, ", "assert.Positive(t, "), ("RH-5",)),
    (
        "rust",
        "tests/parse.rs",
        RS_EXACT,
        ('assert_eq!(shop::parse("5"), Some(5))', 'assert!(shop::parse("5").is_some())'),
        ("RH-5",),
    ),
    ("jvm", "src/test/java/CartTest.java", JAVA, ("assertEquals(2, 1 + 1)", "assertNotNull(1 + 1)"), ("RH-5",)),
    ("ruby", "spec/cart_spec.rb", RSPEC, ("to eq(2)", "to be_truthy"), ("RH-5",)),
    ("php", "tests/CartTest.php", PHPUNIT, ("assertSame(2, 1 + 1)", "assertGreaterThan(0, 1 + 1)"), ("RH-5",)),
    ("dotnet", "tests/CartTests.cs", XUNIT, ("Assert.Equal(2, 1 + 1)", "Assert.True(1 + 1 > 0)"), ("RH-5",)),
    (
        "swift",
        "Tests/CartTests.swift",
        XCTEST,
        ("XCTAssertEqual(1 + 1, 2)", "XCTAssertGreaterThan(1 + 1, 0)"),
        ("RH-5",),
    ),
    # controls: an exact assertion kept in another exact form, and a weak one added beside the exact one
    ("node", "test/cart.test.js", JS_EXACT, (".toBe(5)", ".toEqual(5)"), ()),
    ("node", "test/cart.test.js", JS_EXACT, (".toBe(5);", ".toBe(5);\n  expect(total([])).toBeDefined();"), ()),
    ("python", "tests/test_cart.py", PY_EXACT, ("== 5\n", "== 5\n    assert total([1]) > 0\n"), ()),
    ("go", "cart_test.go", GO_EXACT, ("assert.Equal(t, 5, ", "assert.EqualValues(t, 5, "), ()),
]


@pytest.mark.parametrize(
    ("stack", "path", "before", "edit", "expected"),
    WEAKENED,
    ids=[f"{stack}: {old.strip()} -> {new.strip()}" for stack, _, _, (old, new), _ in WEAKENED],
)
def test_an_exact_expectation_given_way_to_a_weaker_one_is_tagged(
    repo: Repo, stack: str, path: str, before: str, edit: tuple[str, str], expected: tuple[str, ...]
) -> None:
    """RH-5: `toBe(5)` become `toBeGreaterThan(0)` checks less and still passes; an exact form kept,
    or a weak assertion added beside the exact one, is no relaxation. (A vacuous one added is RH-4.)"""
    old, new = edit
    assert old in before
    project = {"rust": {"Cargo.toml": '[package]\nname = "shop"\nversion = "0.1.0"\n'}}.get(stack) or LANGUAGES[stack]
    found = path_tags(repo, project, path, before, before.replace(old, new))
    assert sorted({tag for hunk_tags in found for tag in hunk_tags if tag != "RH-4"}) == list(expected), found


APPROVED = [
    ("go", "testdata/render.golden", "total 5\n", "total 6\n", ("RH-11",)),
    ("python", "tests/test_cart.test_total.approved.txt", "5\n", "6\n", ("RH-11",)),
    (
        "node",
        "test/__snapshots__/cart.test.js.snap",
        "exports[`total 1`] = `5`;\n",
        "exports[`total 1`] = `6`;\n",
        ("RH-11",),
    ),
    ("node", "test/cart.test.total.approved.txt", "5\n", "6\n", ("RH-11",)),
    ("jvm", "src/test/java/CartTest.totals.approved.txt", "5\n", "6\n", ("RH-11",)),
    ("dotnet", "tests/CartTests.Totals.approved.txt", "5\n", "6\n", ("RH-11",)),
    ("dotnet", "tests/CartTests.Totals.verified.txt", "5\n", "6\n", ("RH-11",)),
    ("ruby", "spec/fixtures/approvals/cart/totals.approved.txt", "5\n", "6\n", ("RH-11",)),
    ("php", "tests/CartTest.testTotal.approved.txt", "5\n", "6\n", ("RH-11",)),
]


@pytest.mark.parametrize(
    ("stack", "path", "before", "after", "expected"), APPROVED, ids=[f"{stack}: {path}" for stack, path, *_ in APPROVED]
)
def test_a_golden_or_approved_file_rewritten_is_tagged(
    repo: Repo, stack: str, path: str, before: str, after: str, expected: tuple[str, ...]
) -> None:
    """RH-11: the expected output of a golden, snapshot or approval test is the test's expectation;
    rewritten, the test passes against whatever the code now prints."""
    assert path_tags(repo, LANGUAGES[stack], path, before, after) == [expected]


def test_a_golden_file_added_beside_its_new_test_is_no_rewrite(repo: Repo) -> None:
    first = repo.commit("base", {**LANGUAGES["go"], "testdata/render.golden": "total 5\n"})
    repo.commit("head", {"testdata/refund.golden": "refund 5\n"})
    found = [hunk for path, hunk in tags(inventory_between(repo, first)) if path == "testdata/refund.golden"]
    assert found == [()]


RENAMED = [
    (
        "python",
        "tests/test_shop.py",
        "tests/test_cart.py",
        PY_EXACT + "    assert total([]) == 0\n",
        "    assert total([]) == 0\n",
    ),
    (
        "node",
        "test/shop.test.js",
        "test/cart.test.js",
        JS_EXACT.replace("(5);", "(5);\n  expect(total([])).toBe(0);"),
        "\n  expect(total([])).toBe(0);",
    ),
    (
        "go",
        "shop_test.go",
        "cart_test.go",
        GO_EXACT.replace("Total(2, 3))\n", "Total(2, 3))\n\tassert.Equal(t, 0, Total())\n"),
        "\tassert.Equal(t, 0, Total())\n",
    ),
]


@pytest.mark.parametrize(("stack", "old", "new", "test", "assertion"), RENAMED, ids=[r[0] for r in RENAMED])
def test_assertions_removed_from_a_test_renamed_in_the_same_commit_are_tagged(
    repo: Repo, stack: str, old: str, new: str, test: str, assertion: str
) -> None:
    """RH-4 follows the rename: the renamed file is compared with the file it was, not read as new."""
    assert assertion in test
    first = repo.commit("base", {**LANGUAGES[stack], old: test})
    (repo.path / old).unlink()
    repo.commit("head", {new: test.replace(assertion, "")})
    assert [hunk for path, hunk in tags(inventory_between(repo, first)) if path == new] == [("RH-4",)]
    # control: renamed with its assertions kept
    (repo.path / new).unlink()
    second = repo.commit("back", {old: test})
    (repo.path / old).unlink()
    repo.commit("renamed whole", {new: test})
    assert [hunk for _, hunk in tags(inventory_between(repo, second)) if hunk] == []
