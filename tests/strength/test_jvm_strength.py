"""Test strength on real JVM projects. Maven: Surefire 3 and JUnit 5 from Maven Central, into the
user's local repository, as the example workflow's project has them. Gradle: Debian's, offline, with
Debian's JUnit 4 jars. Each file runs as its test class, named in full from its `package` line,
through the adapter table's own command."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from evidence_gate.ledger.payloads.strength import StrengthData
from evidence_gate.settings import Settings
from tests.tools import needs, needs_tools

from ..conftest import CliResult, Repo, judge_repo
from ..workflows.projects import MAVEN_JVM_CONFIG, POM
from .test_python_strength import strength, verdicts

pytestmark = needs_tools("mvn", "javac", hint="Debian's maven and default-jdk are installed by scripts/test.sh as root")

CART = "package com.example.shop;\n\npublic class Cart {\n    public int total(int price) {\n"
CART += "        return {body};\n    }\n}\n"
TEST = (
    "package com.example.shop;\n\nimport static org.junit.jupiter.api.Assertions.*;\n\n"
    "import org.junit.jupiter.api.Test;\n\n"
    "class {name} {\n    @Test\n    void check() {\n        {check};\n    }\n}\n"
)
JUNIT4_TEST = (
    "package com.example.shop;\n\nimport static org.junit.Assert.*;\n\nimport org.junit.Test;\n\n"
    "public class {name} {\n    @Test\n    public void check() {\n        {check};\n    }\n}\n"
)


def java(template: str, **slots: str) -> str:
    for key, value in slots.items():
        template = template.replace("{" + key + "}", value)
    return template


def test_maven_test_classes_are_judged_each_by_its_class(repo: Repo, cli: Callable[..., CliResult]) -> None:
    base = repo.commit(
        "base",
        {
            "pom.xml": POM,
            **MAVEN_JVM_CONFIG,
            ".gitignore": "target/\n",
            "src/main/java/com/example/shop/Cart.java": java(CART, body="price"),
        },
    )
    test_dir = "src/test/java/com/example/shop"
    repo.commit(
        "head",
        {
            "src/main/java/com/example/shop/Cart.java": java(CART, body="price * 12 / 10"),
            f"{test_dir}/TaxTest.java": java(TEST, name="TaxTest", check="assertEquals(12, new Cart().total(10))"),
            f"{test_dir}/CartTest.java": java(TEST, name="CartTest", check="assertNotNull(new Cart())"),
        },
    )
    code, document = strength(cli, repo, base, "--timeout-ms", "300000")
    assert verdicts(document) == {f"{test_dir}/CartTest.java": "still-green", f"{test_dir}/TaxTest.java": "red"}, (
        document
    )
    assert code == 1
    tax = next(test for test in document["tests"] if test["path"].endswith("TaxTest.java"))
    assert tax["scope"] == "the test class com.example.shop.TaxTest"
    assert (
        tax["base"]["command"]
        == 'mvn -B test -Dtest="com.example.shop.TaxTest" -Dsurefire.failIfNoSpecifiedTests=false'
    )
    assert tax["base"]["counts"] == {"passed": 0, "failed": 1, "skipped": 0}


def test_maven_failing_empty_hanging_unjudged_and_tests_only_changes(repo: Repo, cli: Callable[..., CliResult]) -> None:
    cart = "src/main/java/com/example/shop/Cart.java"
    base = repo.commit(
        "base",
        {
            "pom.xml": POM,
            **MAVEN_JVM_CONFIG,
            ".gitignore": "target/\n",
            cart: java(CART, body="price"),
        },
    )
    test_dir = "src/test/java/com/example/shop"
    empty = "package com.example.shop;\n\nclass EmptyTest {\n}\n"
    # waits between its checks, so the timeout it runs into costs no CPU
    hangs = "while (new Cart().total(10) != 12) { java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L); }"
    head = repo.commit(
        "head",
        {
            cart: java(CART, body="price * 12 / 10"),
            f"{test_dir}/BrokenTest.java": java(
                TEST, name="BrokenTest", check="assertEquals(99, new Cart().total(10))"
            ),
            f"{test_dir}/EmptyTest.java": empty,
            f"{test_dir}/HangsTest.java": java(TEST, name="HangsTest", check=hangs),
        },
    )
    code, document = strength(cli, repo, base, "--timeout-ms", "25000")
    reasons = {test["path"].rsplit("/", 1)[1]: (test["verdict"], test["reason"]) for test in document["tests"]}
    assert code == 4
    assert reasons["BrokenTest.java"][0] == "not-run" and "fails at the head" in reasons["BrokenTest.java"][1]
    assert reasons["EmptyTest.java"][0] == "not-run"
    assert "zero tests" in reasons["EmptyTest.java"][1] or "no test count" in reasons["EmptyTest.java"][1]
    assert reasons["HangsTest.java"][0] == "not-run"
    assert reasons["HangsTest.java"][1].startswith("timed out without the change")

    # A test of a method the change adds does not compile without it: unjudged, never red.
    discount = java(CART, body="price * 12 / 10").replace(
        "    }\n}\n", "    }\n\n    public int discount(int price) {\n        return price * 9 / 10;\n    }\n}\n"
    )
    new = java(TEST, name="DiscountTest", check="assertEquals(9, new Cart().discount(10))")
    later = repo.commit("discounts", {cart: discount, f"{test_dir}/DiscountTest.java": new})
    code, document = strength(cli, repo, head, "--timeout-ms", "120000")
    (judged,) = document["tests"]
    assert (judged["verdict"], code) == ("unjudged", 4), judged["reason"]
    repo.commit("tests only", {f"{test_dir}/MoreTest.java": java(TEST, name="MoreTest", check="assertTrue(true)")})
    code, document = strength(cli, repo, later)
    assert code == 4 and verdicts(document) == {f"{test_dir}/MoreTest.java": "not-run"}


def test_maven_surefire_reports_of_the_head_stand_for_each_classs_first_head_run(repo: Repo) -> None:
    """Surefire's reports name each case by its class alone: a changed test file is found in them by
    the class its `package` line names, and its first head run is left out."""
    test_dir = "src/test/java/com/example/shop"
    base = repo.commit(
        "base",
        {
            "pom.xml": POM,
            **MAVEN_JVM_CONFIG,
            ".gitignore": "target/\n",
            "src/main/java/com/example/shop/Cart.java": java(CART, body="price"),
        },
    )
    head = repo.commit(
        "head",
        {
            "src/main/java/com/example/shop/Cart.java": java(CART, body="price * 12 / 10"),
            f"{test_dir}/TaxTest.java": java(TEST, name="TaxTest", check="assertEquals(12, new Cart().total(10))"),
            f"{test_dir}/CartTest.java": java(TEST, name="CartTest", check="assertNotNull(new Cart())"),
        },
    )
    subprocess.run(["mvn", "-B", "-q", "test"], cwd=repo.path, capture_output=True, check=True, timeout=600)
    reports = ("target/surefire-reports/*.xml",)
    ledger = judge_repo(Settings(repo=repo.path, reports=reports, base=base, head=head), in_ci=True)
    strength = ledger.gate("strength")
    assert strength is not None and isinstance(strength.data, StrengthData), strength
    rows = {row.path.rsplit("/", 1)[1]: (row.verdict, row.runs) for row in strength.data.tests}
    skipped = "the job's reports of this head have its cases passing (1 passed)"
    assert rows == {
        "TaxTest.java": ("red", f"base, then head ({skipped})"),
        "CartTest.java": ("still-green", f"base, then head ({skipped})"),
    }


GRADLE = """apply plugin: 'java'

sourceCompatibility = 1.8
targetCompatibility = 1.8

dependencies {
    testImplementation files('/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar')
}
"""


@needs_tools("gradle", hint="Debian's gradle is installed by scripts/test.sh as root")
@needs(
    Path("/usr/share/java/junit4.jar").is_file(),
    "no JUnit 4 jars: Debian's junit4 is installed by scripts/test.sh as root",
)
def test_gradle_passing_runs_print_no_count_so_they_are_not_run_never_guessed(
    repo: Repo, cli: Callable[..., CliResult], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Debian's Gradle, offline, with JUnit 4 from Debian's jars, `--tests` naming the class in full.
    Gradle prints counts only when a test fails: a passing head run counts nothing, so the file is
    not-run with that reason, never taken for green."""
    monkeypatch.setenv("GRADLE_USER_HOME", str(tmp_path / "gradle-home"))
    cart = "src/main/java/com/example/shop/Cart.java"
    base = repo.commit(
        "base",
        {
            "settings.gradle": "rootProject.name = 'shop'\n",
            "build.gradle": GRADLE,
            ".gitignore": "build/\n.gradle/\n",
            cart: java(CART, body="price"),
        },
    )
    test_dir = "src/test/java/com/example/shop"
    tax = java(JUNIT4_TEST, name="TaxTest", check="assertEquals(12, new Cart().total(10))")
    repo.commit("head", {cart: java(CART, body="price * 12 / 10"), f"{test_dir}/TaxTest.java": tax})
    code, document = strength(cli, repo, base, "--timeout-ms", "300000")
    (test,) = document["tests"]
    assert (test["verdict"], code) == ("not-run", 4)
    assert test["reason"].startswith("no test count could be read at the head (Gradle prints test counts only")
    assert test["head"]["command"] == 'gradle test --console=plain --tests "com.example.shop.TaxTest"'
    assert test["head"]["exit_code"] == 0
