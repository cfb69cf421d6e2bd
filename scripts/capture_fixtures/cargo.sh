#!/usr/bin/env bash
# Regenerate tests/fixtures/stack-logs/cargo-test/ from the real `cargo test`.
# Uses the cargo/rustc already on the machine (rustup toolchain; no crates
# registry is needed: the suites use std only). Writes throwaway crates into a
# fresh temp dir and captures the default output, a pseudo-terminal run,
# `--no-fail-fast`, and libtest's unstable json / junit formats.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out="$stack_logs/cargo-test"

# `script` (pseudo-terminal capture) comes from bsdutils.
apt_install shown bsdutils

command -v cargo >/dev/null || { echo "cargo not found (install a Rust toolchain, e.g. via rustup)" >&2; exit 1; }

make_work fx-cargo

export CARGO_NET_OFFLINE=true
# One test thread: libtest then prints results in a stable (name) order.
export RUST_TEST_THREADS=1
unset RUST_BACKTRACE RUSTFLAGS RUSTDOCFLAGS CARGO_TERM_COLOR CARGO_TERM_PROGRESS_WHEN CARGO_BUILD_JOBS || true

fresh_dir "$out"

new_crate() {
  local dir="$work/$1"
  mkdir -p "$dir/src"
  cat >"$dir/Cargo.toml" <<'EOF'
[package]
name = "fx"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
EOF
  echo "$dir"
}

# ---------------------------------------------------------------- success
# unit: 3 passed (one should_panic) | tests/api.rs: 2 passed | doc: 2 passed
d=$(new_crate success)
mkdir -p "$d/tests"
cat >"$d/src/lib.rs" <<'EOF'
//! Tiny arithmetic crate used as a test subject.

/// Adds two numbers.
///
/// ```
/// assert_eq!(fx::add(2, 3), 5);
/// ```
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

/// Divides, panicking on a zero divisor.
///
/// ```
/// assert_eq!(fx::div(6, 3), 2);
/// ```
pub fn div(a: i32, b: i32) -> i32 {
    if b == 0 {
        panic!("division by zero");
    }
    a / b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_works() {
        assert_eq!(add(2, 2), 4);
    }

    #[test]
    fn div_works() {
        assert_eq!(div(9, 3), 3);
    }

    #[test]
    #[should_panic(expected = "division by zero")]
    fn div_by_zero_panics() {
        div(1, 0);
    }
}
EOF
cat >"$d/tests/api.rs" <<'EOF'
#[test]
fn api_add() {
    assert_eq!(fx::add(-1, 1), 0);
}

#[test]
fn api_div() {
    assert_eq!(fx::div(10, 5), 2);
}
EOF

# ---------------------------------------------------------------- failure
# unit: 3 passed | tests/api.rs: 1 passed, 1 failed | doc: 2 (skipped by fail-fast)
d=$(new_crate failure)
mkdir -p "$d/tests"
cp "$work/success/src/lib.rs" "$d/src/lib.rs"
cat >"$d/tests/api.rs" <<'EOF'
#[test]
fn api_add() {
    assert_eq!(fx::add(-1, 1), 0);
}

#[test]
fn api_div() {
    assert_eq!(fx::div(10, 5), 3, "10 / 5");
}
EOF

# ---------------------------------------------------------------- zero-tests
d=$(new_crate zero-tests)
cat >"$d/src/lib.rs" <<'EOF'
//! Tiny arithmetic crate without any tests.

/// Adds two numbers.
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}
EOF

# ---------------------------------------------------------------- all-skipped
# unit: 2 ignored | tests/api.rs: 1 ignored | doc: 1 ignored
d=$(new_crate all-skipped)
mkdir -p "$d/tests"
cat >"$d/src/lib.rs" <<'EOF'
//! Tiny arithmetic crate whose tests are all ignored.

/// Adds two numbers.
///
/// ```ignore
/// assert_eq!(fx::add(2, 3), 5);
/// ```
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[ignore]
    fn add_slow() {
        assert_eq!(add(2, 2), 4);
    }

    #[test]
    #[ignore = "needs a reference table"]
    fn add_table() {
        assert_eq!(add(1, 1), 2);
    }
}
EOF
cat >"$d/tests/api.rs" <<'EOF'
#[test]
#[ignore = "needs network"]
fn api_remote_add() {
    assert_eq!(fx::add(-1, 1), 0);
}
EOF

# ---------------------------------------------------------------- mixed
# unit: 2 passed (one should_panic), 1 ignored
# tests/api.rs: 1 passed, 3 failed (assert, should_panic without panic, Err result), 1 ignored
# doc: 3 passed (plain, compile_fail, no_run), 1 failed, 1 ignored  (run only with --no-fail-fast)
d=$(new_crate mixed)
mkdir -p "$d/tests"
cat >"$d/src/lib.rs" <<'EOF'
//! Tiny arithmetic crate with a mixed test outcome.

/// Adds two numbers.
///
/// ```
/// assert_eq!(fx::add(2, 3), 5);
/// ```
///
/// Adding a string does not compile:
///
/// ```compile_fail
/// fx::add(2, "3");
/// ```
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

/// Divides, panicking on a zero divisor.
///
/// ```
/// assert_eq!(fx::div(7, 2), 4);
/// ```
///
/// ```no_run
/// fx::div(1, 0);
/// ```
pub fn div(a: i32, b: i32) -> i32 {
    if b == 0 {
        panic!("division by zero");
    }
    a / b
}

/// Multiplies.
///
/// ```ignore
/// assert_eq!(fx::mul(2, 3), 6);
/// ```
pub fn mul(a: i32, b: i32) -> i32 {
    a * b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_works() {
        assert_eq!(add(2, 2), 4);
    }

    #[test]
    #[should_panic(expected = "division by zero")]
    fn div_by_zero_panics() {
        div(1, 0);
    }

    #[test]
    #[ignore = "slow"]
    fn mul_exhaustive() {
        for i in 0..1000 {
            assert_eq!(mul(i, 1), i);
        }
    }
}
EOF
cat >"$d/tests/api.rs" <<'EOF'
#[test]
fn api_add() {
    assert_eq!(fx::add(-1, 1), 0);
}

#[test]
fn api_div_rounding() {
    assert_eq!(fx::div(7, 2), 4, "rounds half up");
}

#[test]
#[should_panic]
fn api_div_by_one_panics() {
    fx::div(3, 1);
}

#[test]
fn api_parse() -> Result<(), std::num::ParseIntError> {
    let n: i32 = "four".parse()?;
    assert_eq!(fx::mul(n, 1), 4);
    Ok(())
}

#[test]
#[ignore = "needs network"]
fn api_remote_mul() {
    assert_eq!(fx::mul(2, 2), 4);
}
EOF

# ---------------------------------------------------------------- load-error
# tests/api.rs does not compile, so no test binary runs at all.
d=$(new_crate load-error)
mkdir -p "$d/tests"
cp "$work/success/src/lib.rs" "$d/src/lib.rs"
cat >"$d/tests/api.rs" <<'EOF'
#[test]
fn api_add() {
    let total: String = fx::add(-1, 1);
    assert_eq!(total, "0");
}

#[test]
fn api_div() {
    assert_eq!(fx::div(10, 5), 2);
}
EOF

# ---------------------------------------------------------------- workspace-error
# A workspace of two crates: `good` compiles and its 1 unit test passes; `bad`'s tests/api.rs
# does not compile. One `cargo test` runs nothing at all; run per crate (as CI scripts do), the
# log holds `good`'s run and then `bad`'s compile error.
d="$work/workspace-error"
mkdir -p "$d/good/src" "$d/bad/src" "$d/bad/tests"
cat >"$d/Cargo.toml" <<'EOF'
[workspace]
members = ["good", "bad"]
resolver = "2"
EOF
for crate in good bad; do
  cat >"$d/$crate/Cargo.toml" <<EOF
[package]
name = "$crate"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
EOF
done
cat >"$d/good/src/lib.rs" <<'EOF'
//! The workspace's crate that compiles.

pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    #[test]
    fn add_works() {
        assert_eq!(super::add(2, 2), 4);
    }
}
EOF
cat >"$d/bad/src/lib.rs" <<'EOF'
//! The workspace's crate whose integration test does not compile.

pub fn sub(a: i32, b: i32) -> i32 {
    a - b
}
EOF
cat >"$d/bad/tests/api.rs" <<'EOF'
#[test]
fn api_sub() {
    let total: String = bad::sub(3, 1);
    assert_eq!(total, "2");
}
EOF

# ---------------------------------------------------------------- noisy-green
# Every test passes; one renders compiler-style diagnostics and prints them to stdout, so with
# --nocapture `error[E0308]: mismatched types` stands at the start of a line of a green run.
d=$(new_crate noisy-green)
cp "$work/success/src/lib.rs" "$d/src/lib.rs"
mkdir -p "$d/tests"
cat >"$d/tests/diagnostics.rs" <<'EOF'
fn diagnostic(level: &str, message: &str, at: &str) -> String {
    format!("{level}: {message}\n --> {at}\n")
}

#[test]
fn renders_a_type_error() {
    let warning = diagnostic("warning", "unused variable: `x`", "src/main.rs:1:9");
    let error = diagnostic("error[E0308]", "mismatched types", "src/main.rs:2:18");
    print!("{warning}{error}");
    assert!(error.starts_with("error[E0308]: mismatched types"));
}

#[test]
fn adds() {
    assert_eq!(fx::add(2, 3), 5);
}
EOF

# ---------------------------------------------------------------- run
json_args=(-- -Z unstable-options --format json)
junit_args=(-- -Z unstable-options --format junit)
for c in success failure zero-tests all-skipped mixed load-error noisy-green; do
  cd "$work/$c"
  cargo clean -q
  capture "$out/$c.log" cargo test
  cargo clean -q
  capture_tty "$out/$c.tty.log" "cargo test"
  case $c in
    failure|mixed) capture "$out/$c.no-fail-fast.log" cargo test --no-fail-fast ;;
    noisy-green) capture "$out/$c.nocapture.log" cargo test -- --nocapture ;;
  esac
  capture "$out/$c.json.log" env RUSTC_BOOTSTRAP=1 cargo test "${json_args[@]}"
  # the junit report is stdout only; no file is kept where libtest wrote none
  capture_stdout --drop-empty "$out/$c.junit.xml" env RUSTC_BOOTSTRAP=1 cargo test "${junit_args[@]}"
done

cd "$work/workspace-error"
cargo clean -q
capture "$out/workspace-error.log" cargo test
cargo clean -q
capture "$out/workspace-error.per-crate.log" sh -c 'cargo test -p good && cargo test -p bad'

cargo --version
rustc --version
