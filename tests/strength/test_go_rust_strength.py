"""Test strength on real Go and Rust repositories, with the real toolchains: where the runner
cannot select a file, the file's own tests are selected (Go: its package, `-run` anchored to the
functions it defines; Rust: its integration-test target, or its module's unit tests)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.tools import needs_tools

from ..conftest import CliResult, Repo
from .test_python_strength import strength, verdicts

pytestmark = needs_tools(
    "go", "cargo", hint="go (Debian golang-go) is installed by scripts/test.sh as root, cargo comes with the machine"
)

GO_MOD = "module example.com/shop\n\ngo 1.19\n"
GO_CART = (
    "package shop\n\nfunc Total(prices []int) int {\n\tsum := 0\n\tfor _, p := range prices {\n\t\tsum += p\n\t}\n"
)
GO_CART += "\treturn sum\n}\n"
GO_TAXED = GO_CART.replace("return sum", "return sum * 12 / 10")
GO_PRICING = "package pricing\n\nfunc Rounded(price int) int { return price }\n"
GO_TEST = 'package {package}\n\nimport "testing"\n\n'
GO_TEST += 'func {name}(t *testing.T) {{\n\tif {check} {{\n\t\tt.Fatal("no")\n\t}}\n}}\n'


def test_go_files_of_one_package_are_judged_each_by_its_own_functions(
    repo: Repo, cli: Callable[..., CliResult]
) -> None:
    base = repo.commit("base", {"go.mod": GO_MOD, "cart.go": GO_CART, "pricing/pricing.go": GO_PRICING})
    repo.commit(
        "head",
        {
            "cart.go": GO_TAXED,
            "strong_test.go": GO_TEST.format(package="shop", name="TestTaxed", check="Total([]int{10}) != 12"),
            "weak_test.go": GO_TEST.format(package="shop", name="TestEmpty", check="Total(nil) != 0"),
            "pricing/pricing.go": GO_PRICING + "\nfunc Discount(price int) int { return price * 9 / 10 }\n",
            "pricing/discount_test.go": GO_TEST.format(
                package="pricing", name="TestDiscount", check="Discount(10) != 9"
            ),
        },
    )
    code, document = strength(cli, repo, base)
    assert verdicts(document) == {
        "pricing/discount_test.go": "unjudged",  # Discount is new: the package does not compile without it
        "strong_test.go": "red",
        "weak_test.go": "still-green",
    }, document
    assert code == 1
    strong = next(test for test in document["tests"] if test["path"] == "strong_test.go")
    assert strong["scope"] == "package ., -run ^TestTaxed$ (the functions this file defines)"
    assert strong["base"]["command"] == 'go test -v -count=1 -run "^TestTaxed$" .'
    assert strong["base"]["counts"] == {"passed": 0, "failed": 1, "skipped": 0}
    discount = next(test for test in document["tests"] if test["path"] == "pricing/discount_test.go")
    assert discount["reason"].startswith("does not load without the change")
    assert discount["base"]["command"] == 'go test -v -count=1 -run "^TestDiscount$" ./pricing'


CARGO = '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
LIB = "pub mod cart;\n"
RUST_CART = "pub fn total(prices: &[u32]) -> u32 {\n    prices.iter().sum()\n}\n"
RUST_TAXED = "pub fn total(prices: &[u32]) -> u32 {\n    prices.iter().sum::<u32>() * 12 / 10\n}\n"


def test_rust_integration_targets_and_module_tests_are_judged(repo: Repo, cli: Callable[..., CliResult]) -> None:
    base = repo.commit(
        "base",
        {
            "Cargo.toml": CARGO,
            ".gitignore": "target/\n",
            "src/lib.rs": LIB,
            "src/cart.rs": RUST_CART + "\n#[cfg(test)]\nmod tests;\n",
            "src/cart/tests.rs": "use super::*;\n\n#[test]\nfn sums() {\n    assert_eq!(total(&[]), 0);\n}\n",
        },
    )
    repo.commit(
        "head",
        {
            "src/cart.rs": RUST_TAXED + "\n#[cfg(test)]\nmod tests;\n",
            "src/cart/tests.rs": "use super::*;\n\n#[test]\nfn taxed() {\n    assert_eq!(total(&[10]), 12);\n}\n",
            "tests/weak.rs": "#[test]\nfn empty() {\n    assert_eq!(shop::cart::total(&[]), 0);\n}\n",
        },
    )
    code, document = strength(cli, repo, base, "--timeout-ms", "300000")
    assert verdicts(document) == {"src/cart/tests.rs": "red", "tests/weak.rs": "still-green"}, document
    assert code == 1
    scopes = {test["path"]: test["scope"] for test in document["tests"]}
    assert scopes == {
        "src/cart/tests.rs": "the unit tests of cart::tests::",
        "tests/weak.rs": "the integration test target weak",
    }


# Each hanging test waits between its checks, so the timeout it runs into costs no CPU.
GO_HANGS = (
    GO_TEST.format(package="shop", name="TestWaits", check="false")
    .replace('import "testing"', 'import (\n\t"testing"\n\t"time"\n)')
    .replace("\tif false {", "\tfor Total([]int{10}) != 12 {\n\t\ttime.Sleep(10 * time.Millisecond)\n\t}\n\tif false {")
)


def test_go_failing_empty_hanging_and_tests_only_changes_are_not_run(repo: Repo, cli: Callable[..., CliResult]) -> None:
    base = repo.commit("base", {"go.mod": GO_MOD, "cart.go": GO_CART})
    head = {
        "cart.go": GO_TAXED,
        "broken_test.go": GO_TEST.format(package="shop", name="TestWrong", check="Total([]int{10}) != 99"),
        "helpers_test.go": "package shop\n\nfunc prices() []int { return []int{10} }\n",
        "hangs_test.go": GO_HANGS,
    }
    repo.commit("head", head)
    code, document = strength(cli, repo, base, "--timeout-ms", "15000")
    reasons = {test["path"]: (test["verdict"], test["reason"]) for test in document["tests"]}
    assert code == 4
    assert reasons["broken_test.go"][0] == "not-run" and "fails at the head" in reasons["broken_test.go"][1]
    assert reasons["helpers_test.go"] == (
        "not-run",
        "no unit runs exactly this file's tests: it defines no Test, Example or Fuzz function",
    )
    assert reasons["hangs_test.go"][0] == "not-run"
    assert reasons["hangs_test.go"][1].startswith("timed out without the change")
    repo.commit("tests only", {"weak_test.go": GO_TEST.format(package="shop", name="TestNil", check="Total(nil) != 0")})
    code, document = strength(cli, repo, repo.git("rev-parse", "HEAD~1"))
    assert code == 4 and verdicts(document) == {"weak_test.go": "not-run"}


def test_rust_failing_empty_and_hanging_tests_are_not_run(repo: Repo, cli: Callable[..., CliResult]) -> None:
    base = repo.commit(
        "base", {"Cargo.toml": CARGO, ".gitignore": "target/\n", "src/lib.rs": LIB, "src/cart.rs": RUST_CART}
    )
    repo.commit(
        "head",
        {
            "src/cart.rs": RUST_TAXED,
            "tests/broken.rs": "#[test]\nfn wrong() {\n    assert_eq!(shop::cart::total(&[10]), 99);\n}\n",
            "tests/empty.rs": "pub fn helper() -> u32 {\n    1\n}\n",
            "tests/hangs.rs": (
                "#[test]\nfn waits() {\n    while shop::cart::total(&[10]) != 12 {\n"
                "        std::thread::sleep(std::time::Duration::from_millis(10));\n    }\n}\n"
            ),
        },
    )
    code, document = strength(cli, repo, base, "--timeout-ms", "30000")
    reasons = {test["path"]: (test["verdict"], test["reason"]) for test in document["tests"]}
    assert code == 4
    assert reasons["tests/broken.rs"][0] == "not-run" and "fails at the head" in reasons["tests/broken.rs"][1]
    assert reasons["tests/empty.rs"] == ("not-run", "executed zero tests at the head")
    assert reasons["tests/hangs.rs"][0] == "not-run"
    assert reasons["tests/hangs.rs"][1].startswith("timed out without the change")


def test_rust_a_test_of_a_new_function_is_unjudged_and_a_tests_only_change_not_run(
    repo: Repo, cli: Callable[..., CliResult]
) -> None:
    base = repo.commit(
        "base", {"Cargo.toml": CARGO, ".gitignore": "target/\n", "src/lib.rs": LIB, "src/cart.rs": RUST_CART}
    )
    discount = "\npub fn discount(price: u32) -> u32 {\n    price * 9 / 10\n}\n"
    test = "#[test]\nfn discounts() {\n    assert_eq!(shop::cart::discount(10), 9);\n}\n"
    head = repo.commit("head", {"src/cart.rs": RUST_CART + discount, "tests/discount.rs": test})
    code, document = strength(cli, repo, base, "--timeout-ms", "120000")
    (judged,) = document["tests"]
    assert (judged["verdict"], code) == ("unjudged", 4)
    assert judged["reason"].startswith("does not load without the change (error[E0425]")
    repo.commit(
        "tests only", {"tests/more.rs": "#[test]\nfn empty() {\n    assert_eq!(shop::cart::total(&[]), 0);\n}\n"}
    )
    code, document = strength(cli, repo, head)
    assert code == 4 and verdicts(document) == {"tests/more.rs": "not-run"}


def test_a_go_mod_that_is_a_symlink_is_not_followed(repo: Repo, cli: Callable[..., CliResult], tmp_path: Path) -> None:
    outside = tmp_path / "go.mod"
    outside.write_text(GO_MOD)
    base = repo.commit("base", {"go.mod": GO_MOD, "cart.go": GO_CART})
    (repo.path / "go.mod").unlink()
    (repo.path / "go.mod").symlink_to(outside)
    repo.commit(
        "head",
        {
            "cart.go": GO_TAXED,
            "strong_test.go": GO_TEST.format(package="shop", name="TestTaxed", check="Total([]int{10}) != 12"),
        },
    )
    code, document = strength(cli, repo, base)
    (test,) = document["tests"]
    assert (test["verdict"], code) == ("not-run", 4)
    assert test["reason"] == "go.mod is a symbolic link: not followed, so its replacements cannot be checked"


PROBE_TEST = """use std::process::Command;

#[test]
fn taxed_and_probed() {
    // a probe the way build scripts and feature detectors write one: rustc prints its errors
    let dir = std::env::temp_dir().join(format!("shop-probe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("probe.rs");
    std::fs::write(&source, "extern crate missing_crate;\\nfn main() {}\\n").unwrap();
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let status = Command::new(rustc).arg("--out-dir").arg(&dir).arg(&source).status().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(!status.success(), "the probe's crate is missing");
    assert_eq!(shop::cart::total(&[10]), 12);
}
"""


def test_rust_a_test_whose_probe_prints_rustc_errors_is_judged_by_its_result(
    repo: Repo, cli: Callable[..., CliResult]
) -> None:
    base = repo.commit(
        "base", {"Cargo.toml": CARGO, ".gitignore": "target/\n", "src/lib.rs": LIB, "src/cart.rs": RUST_CART}
    )
    weak = PROBE_TEST.replace("taxed_and_probed", "empty_and_probed").replace("&[10]), 12", "&[]), 0")
    repo.commit("head", {"src/cart.rs": RUST_TAXED, "tests/probe.rs": PROBE_TEST, "tests/weak_probe.rs": weak})
    code, document = strength(cli, repo, base, "--timeout-ms", "300000")
    assert verdicts(document) == {"tests/probe.rs": "red", "tests/weak_probe.rs": "still-green"}, document
    assert code == 1
    for test in document["tests"]:
        printed = test["base"]["head"] + test["base"]["tail"]
        assert any(line.startswith("error[E0463]: can't find crate for `missing_crate`") for line in printed), test
        assert test["base"]["load_error"] is None
    probe = next(test for test in document["tests"] if test["path"] == "tests/probe.rs")
    assert probe["base"]["counts"] == {"passed": 0, "failed": 1, "skipped": 0}
