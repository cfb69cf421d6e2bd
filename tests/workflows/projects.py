"""The fixture repositories the example workflows run on: one small project per stack, with a bug
on the base commit and three pull requests on top of it.

- `fix`: the bug fixed, with a regression test that fails without the fix (a healthy change);
- `frozen`: the base froze a red test (`.evidence-gate/red-tests.json`, as `evidence-gate freeze`
  writes it); the pull request implements the feature and rewrites that test to pass anyway;
- `skip`: the fix, and an existing test skipped.

Every project's tests start `probe.py` (its text is below), which looks for a token everywhere a
test process can read one and leaves a daemon behind, the usual way (`setsid`, a second fork,
`chdir /`), so the workflow's test proves both that no token is in reach and that the runner step
ends what its tests started.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

PROBE = '''"""Looks for a token wherever a test process can read one, and leaves a daemon behind."""

import os
import re
import sys
import time
from pathlib import Path

SHAPES = re.compile(rb"gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|(?i:authorization: basic)")


def parent(pid: str) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]
    except (OSError, IndexError):
        return "0"


def of_this_run(pid: str, root: str) -> bool:
    """Whether the process descends from the run's root (the workflow's runner): a process of
    another run on the same machine is not this workflow's to judge."""
    for _ in range(64):
        if pid == root:
            return True
        if pid in ("0", "1"):
            return False
        pid = parent(pid)
    return False


def places(root: str) -> list[Path]:
    found = [entry / "environ" for entry in Path("/proc").glob("[0-9]*") if of_this_run(entry.name, root)]
    return [*found, Path(".git/config")]


def main() -> None:
    log = os.environ["EVIDENCE_GATE_PROBE_LOG"]
    lines = [f"RAN {os.getcwd()}"]
    for place in places(os.environ["EVIDENCE_GATE_PROBE_ROOT"]):
        try:
            text = place.read_bytes()
        except OSError:
            continue
        if SHAPES.search(text):
            lines.append(f"FOUND {place}")
    if SHAPES.search("\\0".join(f"{k}={v}" for k, v in os.environ.items()).encode()):
        lines.append("FOUND os.environ")
    with open(log, "a", encoding="utf-8") as out:
        out.write("".join(f"{line}\\n" for line in lines))
    started_in = os.getcwd()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.chdir("/")
            with open(log, "a", encoding="utf-8") as out:
                out.write(f"DAEMON {os.getpid()} {started_in}\\n")
            devnull = os.open(os.devnull, os.O_RDWR)
            for descriptor in (0, 1, 2):
                os.dup2(devnull, descriptor)
            time.sleep(600)
        os._exit(0)
    os.wait()


if __name__ == "__main__":
    main()
    sys.exit(0)
'''


@dataclass(frozen=True, kw_only=True)
class Project:
    stack: str
    workflow: str  # docs/examples/<workflow>.yml
    base: dict[str, str]  # the base commit's files
    fix: dict[str, str]  # the bug fix with its regression test
    regression_test: str  # the fix's test file: strength must find it red
    frozen_test: str  # a red test the base froze
    frozen_test_text: str  # its text: red at the base
    feature: dict[str, str]  # what makes the frozen test green
    cheat: str  # the frozen test rewritten to pass without the feature
    skipped: dict[str, str]  # an existing test skipped
    tools: tuple[str, ...]  # programs the stack needs on PATH


def frozen_record(path: str, commit: str) -> str:
    return json.dumps({"version": 1, "frozen": [path], "commit": commit, "parked": []}, indent=2) + "\n"


PY_CART_BUGGY = '''"""The cart."""


def total(prices: list[int]) -> int:
    """The sum of the prices."""
    return sum(prices[1:])
'''
PY_CART_FIXED = PY_CART_BUGGY.replace("sum(prices[1:])", "sum(prices)")
PY_REFUND = '"""Refunds."""\n\n\ndef refund(amount: int) -> int:\n    """Not yet."""\n    return 0\n'
PY_CONFTEST = '''"""Every test run starts the probe first."""

import subprocess
import sys
from pathlib import Path

subprocess.run([sys.executable, str(Path(__file__).parent.parent / "probe.py")], check=True)
'''


def python() -> Project:
    refund_test = "from shop.refund import refund\n\n\ndef test_refund() -> None:\n    assert refund(5) == -5\n"
    return Project(
        stack="python",
        workflow="python",
        base={
            "pyproject.toml": (
                '[build-system]\nrequires = ["setuptools>=68"]\nbuild-backend = "setuptools.build_meta"\n\n'
                '[project]\nname = "shop"\nversion = "0.1.0"\n\n[project.optional-dependencies]\n'
                'test = ["pytest", "pytest-cov"]\n\n[tool.setuptools]\npackages = ["shop"]\n\n'
                "[tool.mypy]\nstrict = true\n\n[tool.ruff]\nline-length = 100\n"
            ),
            ".gitignore": "evidence/\n*.egg-info/\n__pycache__/\nevidence-gate-ledger.json\n",
            "probe.py": PROBE,
            "shop/__init__.py": '"""A shop."""\n',
            "shop/cart.py": PY_CART_BUGGY,
            "shop/refund.py": PY_REFUND,
            "tests/__init__.py": "",
            "tests/conftest.py": PY_CONFTEST,
            "tests/test_empty.py": (
                "from shop.cart import total\n\n\ndef test_nothing() -> None:\n    assert total([]) == 0\n\n\n"
                "def test_one() -> None:\n    assert total([0]) == 0\n"
            ),
        },
        fix={
            "shop/cart.py": PY_CART_FIXED,
            "tests/test_cart.py": (
                "from shop.cart import total\n\n\ndef test_total_counts_every_price() -> None:\n"
                "    assert total([2, 3]) == 5\n"
            ),
        },
        regression_test="tests/test_cart.py",
        frozen_test="tests/test_refund.py",
        frozen_test_text=refund_test,
        feature={"shop/refund.py": PY_REFUND.replace("Not yet", "A refund").replace("return 0", "return -amount")},
        cheat="def test_refund() -> None:\n    assert True\n",
        skipped={
            "tests/test_empty.py": (
                "import pytest\n\nfrom shop.cart import total\n\n\n"
                '@pytest.mark.skip(reason="flaky")\ndef test_nothing() -> None:\n    assert total([]) == 0\n\n\n'
                "def test_one() -> None:\n    assert total([0]) == 0\n"
            )
        },
        tools=("python3",),
    )


GO_TEST = 'package shop\n\nimport "testing"\n\n{body}'
GO_CART = (
    "package shop\n\n// Total sums the prices.\nfunc Total(prices []int) int {\n\tsum := 0\n"
    "\tfor i := 1; i < len(prices); i++ {\n\t\tsum += prices[i]\n\t}\n\treturn sum\n}\n"
)
GO_REFUND = (
    "package shop\n\n// Refund is what a refund of amount pays back.\nfunc Refund(amount int) int {\n\treturn 0\n}\n"
)
GO_EMPTY = GO_TEST.format(
    body='func TestNothing(t *testing.T) {\n\t{skip}if Total(nil) != 0 {\n\t\tt.Fatal("not 0")\n\t}\n}\n'
)


def go() -> Project:
    refund_test = GO_TEST.format(
        body='func TestRefund(t *testing.T) {\n\tif Refund(5) != -5 {\n\t\tt.Fatalf("got %d", Refund(5))\n\t}\n}\n'
    )
    return Project(
        stack="go",
        workflow="go",
        base={
            "go.mod": "module example.com/shop\n\ngo 1.22\n",
            ".gitignore": "evidence/\nevidence-gate-ledger.json\n",
            "probe.py": PROBE,
            "cart.go": GO_CART,
            "refund.go": GO_REFUND,
            "main_test.go": (
                'package shop\n\nimport (\n\t"os"\n\t"os/exec"\n\t"testing"\n)\n\n'
                "func TestMain(m *testing.M) {\n"
                '\tif err := exec.Command("python3", "probe.py").Run(); err != nil {\n\t\tpanic(err)\n\t}\n'
                "\tos.Exit(m.Run())\n}\n"
            ),
            "empty_test.go": GO_EMPTY.replace("{skip}", ""),
        },
        fix={
            "cart.go": GO_CART.replace("i := 1", "i := 0"),
            "cart_test.go": GO_TEST.format(
                body="func TestTotalCountsEveryPrice(t *testing.T) {\n"
                '\tif got := Total([]int{2, 3}); got != 5 {\n\t\tt.Fatalf("got %d", got)\n\t}\n}\n'
            ),
        },
        regression_test="cart_test.go",
        frozen_test="refund_test.go",
        frozen_test_text=refund_test,
        feature={"refund.go": GO_REFUND.replace("return 0", "return -amount")},
        cheat=GO_TEST.format(body="func TestRefund(t *testing.T) {\n\t_ = Refund(5)\n}\n"),
        skipped={"empty_test.go": GO_EMPTY.replace("{skip}", 't.Skip("flaky")\n\t')},
        tools=("go", "python3"),
    )


RUST_PROBE = (
    "pub fn probe() {\n"
    '    let status = std::process::Command::new("python3").arg("probe.py").status().expect("python3");\n'
    "    assert!(status.success());\n}\n"
)
RUST_CART = "/// The sum of the prices.\npub fn total(prices: &[i64]) -> i64 {\n    prices.iter().skip(1).sum()\n}\n"
RUST_REFUND = (
    "/// What a refund of `amount` pays back.\npub fn refund(amount: i64) -> i64 {\n    let _ = amount;\n    0\n}\n"
)
RUST_EMPTY = (
    "mod common;\n\n{skip}#[test]\nfn nothing() {\n    common::probe();\n"
    "    assert_eq!(shop::cart::total(&[]), 0);\n}\n"
)


def rust() -> Project:
    refund_test = (
        "mod common;\n\n#[test]\nfn refund_pays_back() {\n    common::probe();\n"
        "    assert_eq!(shop::refund::refund(5), -5);\n}\n"
    )
    return Project(
        stack="rust",
        workflow="rust",
        base={
            "Cargo.toml": '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n',
            ".gitignore": "/target\nevidence/\nevidence-gate-ledger.json\n",
            "probe.py": PROBE,
            "src/lib.rs": "//! A shop.\npub mod cart;\npub mod refund;\n",
            "src/cart.rs": RUST_CART,
            "src/refund.rs": RUST_REFUND,
            "tests/common/mod.rs": RUST_PROBE,
            "tests/empty.rs": RUST_EMPTY.replace("{skip}", ""),
        },
        fix={
            "src/cart.rs": RUST_CART.replace(".skip(1)", ""),
            "tests/cart.rs": (
                "mod common;\n\n#[test]\nfn total_counts_every_price() {\n    common::probe();\n"
                "    assert_eq!(shop::cart::total(&[2, 3]), 5);\n}\n"
            ),
        },
        regression_test="tests/cart.rs",
        frozen_test="tests/refund.rs",
        frozen_test_text=refund_test,
        feature={"src/refund.rs": RUST_REFUND.replace("let _ = amount;\n    0", "-amount")},
        cheat=refund_test.replace("assert_eq!(shop::refund::refund(5), -5);", "let _ = shop::refund::refund(5);"),
        skipped={"tests/empty.rs": RUST_EMPTY.replace("{skip}", '#[ignore = "flaky"]\n')},
        tools=("cargo", "cargo-llvm-cov", "python3"),
    )


NODE_PACKAGE = {
    "name": "shop",
    "version": "1.0.0",
    "main": "cart.js",
    "scripts": {"test": "jest", "lint": "eslint ."},
    "devDependencies": {"eslint": "9.39.1", "jest": "30.5.2"},
}
ESLINT_CONFIG = """module.exports = [
  {
    files: ["**/*.js"],
    languageOptions: {
      sourceType: "commonjs",
      globals: { require: "readonly", module: "writable", exports: "writable", test: "readonly",
                 expect: "readonly", beforeAll: "readonly" },
    },
    rules: { "no-unused-vars": "error", "no-undef": "error" },
  },
];
"""
NODE_TEST = (
    "const {{ execFileSync }} = require('node:child_process');\n{imports}\n\n"
    "beforeAll(() => execFileSync('python3', ['probe.py']));\n\n{body}"
)
NODE_CART = "exports.total = (prices) => prices.slice(1).reduce((sum, price) => sum + price, 0);\n"
NODE_REFUND = "exports.refund = () => 0;\n"
NODE_EMPTY = NODE_TEST.format(
    imports="const { total } = require('../cart.js');", body="test{skip}('nothing', () => expect(total([])).toBe(0));\n"
)


def node(lockfile: str) -> Project:
    """`lockfile`: package-lock.json for NODE_PACKAGE, which `npm ci` needs (made once per run)."""
    refund_test = NODE_TEST.format(
        imports="const { refund } = require('../refund.js');",
        body="test('refund', () => expect(refund(5)).toBe(-5));\n",
    )
    return Project(
        stack="backend-node",
        workflow="node",
        base={
            "package.json": json.dumps(NODE_PACKAGE, indent=2) + "\n",
            "package-lock.json": lockfile,
            "eslint.config.js": ESLINT_CONFIG,
            ".gitignore": "node_modules/\nevidence/\nevidence-gate-ledger.json\n",
            "probe.py": PROBE,
            "cart.js": NODE_CART,
            "refund.js": NODE_REFUND,
            "test/empty.test.js": NODE_EMPTY.replace("{skip}", ""),
        },
        fix={
            "cart.js": NODE_CART.replace(".slice(1)", ""),
            "test/cart.test.js": NODE_TEST.format(
                imports="const { total } = require('../cart.js');",
                body="test('counts every price', () => expect(total([2, 3])).toBe(5));\n",
            ),
        },
        regression_test="test/cart.test.js",
        frozen_test="test/refund.test.js",
        frozen_test_text=refund_test,
        feature={"refund.js": "exports.refund = (amount) => -amount;\n"},
        cheat=NODE_TEST.format(
            imports="const { refund } = require('../refund.js');",
            body="test('refund', () => expect(typeof refund).toBe('function'));\n",
        ),
        skipped={"test/empty.test.js": NODE_EMPTY.replace("{skip}", ".skip")},
        tools=("node", "npm", "python3"),
    )


MAVEN_PLUGINS = "".join(
    f"<plugin><groupId>org.apache.maven.plugins</groupId><artifactId>{name}</artifactId>"
    f"<version>{version}</version></plugin>"
    for name, version in (
        ("maven-resources-plugin", "3.3.1"),
        ("maven-compiler-plugin", "3.13.0"),
        ("maven-surefire-plugin", "3.5.4"),
        ("maven-jar-plugin", "3.4.2"),
    )
)
POM = f"""<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>shop</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId>
      <version>5.14.1</version><scope>test</scope></dependency>
  </dependencies>
  <build><plugins>{MAVEN_PLUGINS}</plugins></build>
</project>
"""
# Maven's own JVM with the quick compiler alone and one GC thread, as projects set it for short builds:
# about 40% of a test run's CPU time.
MAVEN_JVM_CONFIG = {".mvn/jvm.config": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC\n"}
JAVA_MAIN = "src/main/java/com/example/shop"
JAVA_TEST = "src/test/java/com/example/shop"
JAVA_TEST_CLASS = """package com.example.shop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

class {name} {{
    @BeforeAll
    static void probe() throws Exception {{
        new ProcessBuilder("python3", "probe.py").redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
    }}

    {skip}@Test
    void {method}() {{
        {body}
    }}
}}
"""
JAVA_CART = """package com.example.shop;

/** The cart. */
public final class Cart {
    private Cart() {}

    /** The sum of the prices. */
    public static int total(int... prices) {
        int sum = 0;
        for (int index = 1; index < prices.length; index++) {
            sum += prices[index];
        }
        return sum;
    }
}
"""
JAVA_REFUND = """package com.example.shop;

/** Refunds. */
public final class Refund {
    private Refund() {}

    /** What a refund of the amount pays back. */
    public static int of(int amount) {
        return 0;
    }
}
"""


def java_test(name: str, method: str, body: str, skip: str = "") -> str:
    return JAVA_TEST_CLASS.format(name=name, method=method, body=body, skip=skip)


def jvm() -> Project:
    refund_test = java_test("RefundTest", "paysBack", "assertEquals(-5, Refund.of(5));")
    return Project(
        stack="jvm",
        workflow="jvm-maven",
        base={
            "pom.xml": POM,
            **MAVEN_JVM_CONFIG,
            ".gitignore": "target/\nevidence/\nevidence-gate-ledger.json\n",
            "probe.py": PROBE,
            f"{JAVA_MAIN}/Cart.java": JAVA_CART,
            f"{JAVA_MAIN}/Refund.java": JAVA_REFUND,
            f"{JAVA_TEST}/EmptyTest.java": java_test("EmptyTest", "nothing", "assertEquals(0, Cart.total());"),
        },
        fix={
            f"{JAVA_MAIN}/Cart.java": JAVA_CART.replace("index = 1", "index = 0"),
            f"{JAVA_TEST}/CartTest.java": java_test(
                "CartTest", "countsEveryPrice", "assertEquals(5, Cart.total(2, 3));"
            ),
        },
        regression_test=f"{JAVA_TEST}/CartTest.java",
        frozen_test=f"{JAVA_TEST}/RefundTest.java",
        frozen_test_text=refund_test,
        feature={f"{JAVA_MAIN}/Refund.java": JAVA_REFUND.replace("return 0;", "return -amount;")},
        cheat=java_test("RefundTest", "paysBack", "Refund.of(5);"),
        skipped={
            f"{JAVA_TEST}/EmptyTest.java": java_test(
                "EmptyTest", "nothing", "assertEquals(0, Cart.total());", skip='@Disabled("flaky")\n    '
            )
        },
        tools=("mvn", "javac", "python3"),
    )


PROJECTS: dict[str, Callable[[], Project]] = {"python": python, "go": go, "rust": rust, "jvm": jvm}
