#!/usr/bin/env bash
# Regenerate the type checker and linter fixtures from real runs, for the quality gate's counting
# rules (checks 1 and 2):
#   tests/fixtures/tools/<tool>/<case>.log   the tool's output under the capture protocol,
#                                            `<command> 2>&1; echo "EXIT_CODE=$?"`
# Each case's project is written below into a throwaway directory under /tmp. mypy and ruff come
# from pip at pinned versions; go vet, golangci-lint (2.15.0 here) and cargo check/clippy from this
# machine's toolchains, when they are there (a missing one is skipped, saying so); flake8 and pylint
# from pip, eslint, tsc and pyright from npm, when node is there. expected.json is maintained by hand. Absolute paths in the
# output are shortened to the project's (`/tmp/.../errors/` removed) where a reader sees them
# relative, and kept as `/checkout/shop/` where the tool prints them absolute.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PYTHON=${PYTHON:-python3}
MYPY_VERSION=${MYPY_VERSION:-1.18.2}
RUFF_VERSION=${RUFF_VERSION:-0.14.3}
FLAKE8_VERSION=${FLAKE8_VERSION:-7.5.0}
PYLINT_VERSION=${PYLINT_VERSION:-4.1.5}
ESLINT_VERSION=${ESLINT_VERSION:-9.39.5}
TYPESCRIPT_VERSION=${TYPESCRIPT_VERSION:-7.0.2}
PYRIGHT_VERSION=${PYRIGHT_VERSION:-1.1.414}
ESLINT_FORMATTERS_VERSION=${ESLINT_FORMATTERS_VERSION:-9.0.1}  # unix and compact left core ESLint in 9
out="$repo/tests/fixtures/tools"

make_work capture-tools
unset CI NO_COLOR FORCE_COLOR CLICOLOR_FORCE COLUMNS 2>/dev/null || true

"$PYTHON" -m venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check "mypy==$MYPY_VERSION" "ruff==$RUFF_VERSION" \
  "flake8==$FLAKE8_VERSION" "pylint==$PYLINT_VERSION"

# protocol DIR FILE CMD...: CMD run in DIR under the capture protocol, into FILE (paths relative to DIR).
protocol() {
  local dir=$1 file=$2
  shift 2
  mkdir -p "$(dirname "$file")"
  (cd "$dir" && { "$@" 2>&1; echo "EXIT_CODE=$?"; }) > "$file" || true
}

# ---------------------------------------------------------------- python
p="$work/python"
mkdir -p "$p/clean" "$p/errors"
printf 'def total(prices: list[int]) -> int:\n    return sum(prices)\n' > "$p/clean/shop.py"
cat > "$p/errors/shop.py" <<'PY'
import os
import sys


def total(prices: list[int]) -> int:
    return sum(prices) + "0"


def count(items) -> str:
    return len(items)
PY
fresh_dir "$out/mypy" "$out/ruff"
protocol "$p/clean" "$out/mypy/clean.log" "$work/venv/bin/mypy" --strict --no-incremental shop.py
protocol "$p/errors" "$out/mypy/errors.log" "$work/venv/bin/mypy" --strict --no-incremental shop.py
protocol "$p/clean" "$out/ruff/clean.log" "$work/venv/bin/ruff" check --no-cache shop.py
protocol "$p/errors" "$out/ruff/errors.log" "$work/venv/bin/ruff" check --no-cache shop.py
protocol "$p/errors" "$out/ruff/concise.log" "$work/venv/bin/ruff" check --no-cache --output-format=concise shop.py
fresh_dir "$out/flake8" "$out/pylint"
protocol "$p/errors" "$out/flake8/errors.log" "$work/venv/bin/flake8" shop.py
protocol "$p/errors" "$out/pylint/errors.log" "$work/venv/bin/pylint" --score=n shop.py

# ---------------------------------------------------------------- node: eslint, tsc, pyright
if command -v npm >/dev/null; then
  n="$work/node"
  mkdir -p "$n/tools" "$n/errors/src"
  (cd "$n/tools" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund \
    "eslint@$ESLINT_VERSION" "typescript@$TYPESCRIPT_VERSION" "pyright@$PYRIGHT_VERSION" \
    "eslint-formatter-unix@$ESLINT_FORMATTERS_VERSION" "eslint-formatter-compact@$ESLINT_FORMATTERS_VERSION")
  printf 'export default [{ rules: { "no-unused-vars": "error", "no-console": "warn" } }];\n' > "$n/errors/eslint.config.mjs"
  printf 'const unused = 1;\nconsole.log("total");\n' > "$n/errors/src/shop.js"
  printf 'export const total: number = "0";\n\nexport function count(items: string[]): string {\n  return items.length;\n}\n' > "$n/errors/src/shop.ts"
  printf '{"compilerOptions": {"strict": true, "noEmit": true}, "include": ["src"]}\n' > "$n/errors/tsconfig.json"
  cp "$p/errors/shop.py" "$n/errors/shop.py"
  fresh_dir "$out/eslint" "$out/tsc" "$out/pyright"
  for format in stylish unix compact; do
    protocol "$n/errors" "$out/eslint/$format.log" env NODE_PATH="$n/tools/node_modules" \
      "$n/tools/node_modules/.bin/eslint" --format "$format" src/shop.js
  done
  protocol "$n/errors" "$out/tsc/plain.log" "$n/tools/node_modules/.bin/tsc" -p . --pretty false
  protocol "$n/errors" "$out/tsc/pretty.log" "$n/tools/node_modules/.bin/tsc" -p . --pretty true
  protocol "$n/errors" "$out/pyright/errors.log" "$n/tools/node_modules/.bin/pyright" shop.py
  sed -i "s#$n/errors/#/checkout/shop/#g" "$out/eslint/"*.log "$out/pyright/errors.log"
  sed -i 's/\x1b\[[0-9;]*m//g' "$out/tsc/pretty.log"
else
  echo "== npm is not installed: eslint, tsc and pyright fixtures left as they are"
fi

# ---------------------------------------------------------------- go vet
if command -v go >/dev/null; then
  g="$work/go"
  mkdir -p "$g/clean" "$g/errors" "$g/undefined"
  for c in clean errors undefined; do printf 'module example.com/shop\n\ngo 1.19\n' > "$g/$c/go.mod"; done
  printf 'package shop\n\nimport "fmt"\n\nfunc Total(n int) string { return fmt.Sprintf("%%d", n) }\n' > "$g/clean/shop.go"
  printf 'package shop\n\nimport "fmt"\n\nfunc Total(n int) string { return fmt.Sprintf("%%s", n) }\n\nfunc Count(n int) string { return fmt.Sprintf("%%d %%d", n) }\n' > "$g/errors/shop.go"
  printf 'package shop\n\nfunc Total(n int) int { return n + missing }\n' > "$g/undefined/shop.go"
  fresh_dir "$out/go-vet"
  protocol "$g/clean" "$out/go-vet/clean.log" env GOFLAGS=-mod=mod GOPROXY=off go vet ./...
  protocol "$g/errors" "$out/go-vet/errors.log" env GOFLAGS=-mod=mod GOPROXY=off go vet ./...
  protocol "$g/undefined" "$out/go-vet/undefined.log" env GOFLAGS=-mod=mod GOPROXY=off go vet ./...
  sed -i "s#$g/errors/##g" "$out/go-vet/errors.log"
  # golangci-lint's default output: each issue's `path:line:col: message (linter)`, its source line
  # and a caret, then `N issues:` and a line per linter; `0 issues.` when clean.
  if command -v golangci-lint >/dev/null; then
    mkdir -p "$g/lint-clean" "$g/lint-errors"
    for c in lint-clean lint-errors; do
      printf 'module example.com/shop\n\ngo 1.19\n' > "$g/$c/go.mod"
      printf 'version: "2"\nlinters:\n  default: standard\n' > "$g/$c/.golangci.yml"
    done
    printf 'package shop\n\nimport "os"\n\n// Clean removes the file.\nfunc Clean(name string) error { return os.Remove(name) }\n' > "$g/lint-clean/shop.go"
    printf 'package shop\n\nimport "os"\n\n// Clean removes the file.\nfunc Clean(name string) {\n\tos.Remove(name)\n}\n\nfunc unused() int { return 1 }\n' > "$g/lint-errors/shop.go"
    fresh_dir "$out/golangci-lint"
    protocol "$g/lint-clean" "$out/golangci-lint/clean.log" env GOFLAGS=-mod=mod GOPROXY=off golangci-lint run ./...
    protocol "$g/lint-errors" "$out/golangci-lint/errors.log" env GOFLAGS=-mod=mod GOPROXY=off golangci-lint run ./...
  else
    echo "== golangci-lint is not installed: golangci-lint fixtures left as they are"
  fi
else
  echo "== go is not installed: go-vet and golangci-lint fixtures left as they are"
fi

# ---------------------------------------------------------------- cargo check / clippy
if command -v cargo >/dev/null; then
  r="$work/rust"
  cargo new --quiet --lib --vcs none "$r/shop"
  printf 'pub fn total(prices: &[i64]) -> i64 {\n    let unused = 1;\n    prices.iter().sum()\n}\n' > "$r/shop/src/lib.rs"
  fresh_dir "$out/cargo"
  protocol "$r/shop" "$out/cargo/warnings.log" env CARGO_TERM_COLOR=never cargo check --offline --quiet
  sed -i "s#$r/shop/##g" "$out/cargo/warnings.log"
  # cargo check without --quiet: the warning and its "generated 1 warning" line, exit 0 (0 errors).
  (cd "$r/shop" && cargo clean --quiet)
  protocol "$r/shop" "$out/cargo/check-warnings.log" env CARGO_TERM_COLOR=never cargo check --offline
  sed -i -E "s#$r/shop/##g; s#$r/#/checkout/#g; s#\(file://[^)]*\)##g; s#in [0-9.]+s#in 0.00s#g" "$out/cargo/check-warnings.log"
  # An error beside a warning (unused_parens, an early lint): one error, exit 101.
  cargo new --quiet --lib --vcs none "$r/broken"
  printf 'pub fn total(prices: &[i64]) -> i64 {\n    let _kept = (1);\n    let n: i64 = "one";\n    prices.iter().sum::<i64>() + n\n}\n' > "$r/broken/src/lib.rs"
  protocol "$r/broken" "$out/cargo/check-error.log" env CARGO_TERM_COLOR=never cargo check --offline
  sed -i -E "s#$r/broken/##g; s#$r/#/checkout/#g; s#\(file://[^)]*\)##g; s#in [0-9.]+s#in 0.00s#g" "$out/cargo/check-error.log"
  # cargo clippy: a lint of clippy's own (ptr_arg), named `clippy::` in its note.
  if cargo clippy --version >/dev/null 2>&1; then
    cargo new --quiet --lib --vcs none "$r/lints"
    printf 'pub fn total(prices: &Vec<i64>) -> i64 {\n    prices.iter().sum()\n}\n' > "$r/lints/src/lib.rs"
    protocol "$r/lints" "$out/cargo/clippy.log" env CARGO_TERM_COLOR=never cargo clippy --offline --quiet
    sed -i -E "s#$r/lints/##g; s#$r/#/checkout/#g; s#rust-clippy/rust-[0-9.]+/#rust-clippy/master/#g" "$out/cargo/clippy.log"
  fi
else
  echo "== cargo is not installed: cargo fixtures left as they are"
fi

echo "== tools fixtures written to $out"
