#!/usr/bin/env bash
# Regenerate tests/fixtures/stack-logs/go-test/ from the real `go test`.
# Installs Debian's golang-go, writes throwaway modules (standard library only)
# into a fresh temp dir and captures plain, -v and -json output per case; the partial-build
# and rerun-fails cases use a newer Go (GO_NEW), rerun-fails also gotestsum (a Go module).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out="$stack_logs/go-test"

apt_install shown golang-go

make_work fx-go
# The module cache under $work is read-only: make it writable before removing it.
trap 'chmod -R u+w "$work" 2>/dev/null || true; rm -rf "$work"' EXIT

# Offline, reproducible toolchain environment (no module proxy, fresh caches).
export GOPATH="$work/gopath" GOCACHE="$work/gocache" GOMODCACHE="$work/gopath/pkg/mod"
export GOPROXY=off GOSUMDB=off GOFLAGS='' GO111MODULE=on GOTOOLCHAIN=local CGO_ENABLED=0
export GOMAXPROCS=2

fresh_dir "$out"

new_module() {
  local dir="$work/$1"
  mkdir -p "$dir"
  cat >"$dir/go.mod" <<'EOF'
module example.com/fx

go 1.19
EOF
  echo "$dir"
}

write_lib() {
  local dir=$1
  mkdir -p "$dir/calc" "$dir/text"
  cat >"$dir/calc/calc.go" <<'EOF'
// Package calc is a tiny arithmetic package used as a test subject.
package calc

func Add(a, b int) int { return a + b }
func Sub(a, b int) int { return a - b }
func Mul(a, b int) int { return a * b }

// Div returns a/b and false when b is zero.
func Div(a, b int) (int, bool) {
	if b == 0 {
		return 0, false
	}
	return a / b, true
}
EOF
  cat >"$dir/text/text.go" <<'EOF'
// Package text is a tiny string package used as a test subject.
package text

import "strings"

func Upper(s string) string { return strings.ToUpper(s) }
func Lower(s string) string { return strings.ToLower(s) }
EOF
}

# Shared passing suite for the text package: 1 test with 2 subtests + 1 example.
write_text_passing() {
  local dir=$1
  cat >"$dir/text/text_test.go" <<'EOF'
package text

import (
	"fmt"
	"testing"
)

func TestUpper(t *testing.T) {
	t.Run("ascii", func(t *testing.T) {
		if got := Upper("abc"); got != "ABC" {
			t.Errorf("Upper(abc) = %q", got)
		}
	})
	t.Run("empty", func(t *testing.T) {
		if got := Upper(""); got != "" {
			t.Errorf("Upper(empty) = %q", got)
		}
	})
}

func ExampleUpper() {
	fmt.Println(Upper("go"))
	// Output: GO
}
EOF
}

# ---------------------------------------------------------------- success
d=$(new_module success)
write_lib "$d"
write_text_passing "$d"
cat >"$d/calc/calc_test.go" <<'EOF'
package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}

func TestSub(t *testing.T) {
	if got := Sub(5, 3); got != 2 {
		t.Errorf("Sub(5, 3) = %d, want 2", got)
	}
}
EOF

# ---------------------------------------------------------------- failure
d=$(new_module failure)
write_lib "$d"
write_text_passing "$d"
cat >"$d/calc/calc_test.go" <<'EOF'
package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}

func TestSub(t *testing.T) {
	if got := Sub(5, 3); got != 3 {
		t.Errorf("Sub(5, 3) = %d, want 3", got)
	}
}
EOF

# ---------------------------------------------------------------- zero-tests
# calc: no _test.go files at all; text: a _test.go file without any Test/Example.
d=$(new_module zero-tests)
write_lib "$d"
cat >"$d/text/text_test.go" <<'EOF'
package text

// sample data for future tests; this file declares no tests.
func sample() string { return "sample" }

var _ = sample
EOF

# ---------------------------------------------------------------- all-skipped
d=$(new_module all-skipped)
write_lib "$d"
cat >"$d/calc/calc_test.go" <<'EOF'
package calc

import "testing"

func TestAdd(t *testing.T) {
	t.Skip("needs a network calculator")
}

func TestSub(t *testing.T) {
	t.Skipf("skipped on %s", "purpose")
}
EOF
cat >"$d/text/text_test.go" <<'EOF'
package text

import "testing"

func TestUpper(t *testing.T) {
	t.Skip("locale tables not available")
}
EOF

# ---------------------------------------------------------------- mixed
# calc: pass, fail, skip, and a test with 3 subtests (pass/fail/skip)
# text: pass, skip, failing Example
# crash: pass, panic (aborts the package binary), a test that never runs
d=$(new_module mixed)
write_lib "$d"
cat >"$d/calc/calc_test.go" <<'EOF'
package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}

func TestSub(t *testing.T) {
	if got := Sub(5, 3); got != 3 {
		t.Errorf("Sub(5, 3) = %d, want 3", got)
	}
}

func TestMul(t *testing.T) {
	t.Skip("multiplication table not ready")
}

func TestDiv(t *testing.T) {
	t.Run("ok", func(t *testing.T) {
		if q, ok := Div(6, 3); !ok || q != 2 {
			t.Errorf("Div(6, 3) = %d, %v", q, ok)
		}
	})
	t.Run("by-zero", func(t *testing.T) {
		if _, ok := Div(1, 0); ok {
			t.Errorf("Div(1, 0) reported ok")
		}
		t.Fatalf("division by zero should return an error value")
	})
	t.Run("todo", func(t *testing.T) {
		t.Skip("rounding rules undecided")
	})
}
EOF
cat >"$d/text/text_test.go" <<'EOF'
package text

import (
	"fmt"
	"testing"
)

func TestUpper(t *testing.T) {
	if got := Upper("abc"); got != "ABC" {
		t.Errorf("Upper(abc) = %q", got)
	}
}

func TestLower(t *testing.T) {
	t.Skip("unicode case folding pending")
}

func ExampleLower() {
	fmt.Println(Lower("GO"))
	// Output: Go
}
EOF
mkdir -p "$d/crash"
cat >"$d/crash/crash.go" <<'EOF'
// Package crash holds a test that panics.
package crash

func Index(xs []int, i int) int { return xs[i] }
EOF
cat >"$d/crash/crash_test.go" <<'EOF'
package crash

import "testing"

func TestBeforeCrash(t *testing.T) {
	if Index([]int{1, 2}, 1) != 2 {
		t.Error("wrong element")
	}
}

func TestCrash(t *testing.T) {
	var xs []int
	_ = Index(xs, 3)
}

func TestAfterCrash(t *testing.T) {
	t.Log("never reached: the package binary died in TestCrash")
}
EOF

# ---------------------------------------------------------------- load-error
# calc_test.go does not compile; text is fine and still runs.
d=$(new_module load-error)
write_lib "$d"
write_text_passing "$d"
cat >"$d/calc/calc_test.go" <<'EOF'
package calc

import "testing"

func TestAdd(t *testing.T) {
	var total string = Add(2, 3)
	if total != "5" {
		t.Errorf("Add(2, 3) = %s", total)
	}
}

func TestSub(t *testing.T) {
	if Sub(5, 3) != 2 {
		t.Error("Sub")
	}
}
EOF

# ---------------------------------------------------------------- build-error
# Nothing runs: calc.go does not compile, and text's test imports a package the module does not
# have (go reports that one as `[setup failed]`).
d=$(new_module build-error)
write_lib "$d"
cat >"$d/calc/calc.go" <<'EOF'
// Package calc is a tiny arithmetic package used as a test subject.
package calc

func Add(a, b int) int { return a + b + "1" }
EOF
cat >"$d/calc/calc_test.go" <<'EOF'
package calc

import "testing"

func TestAdd(t *testing.T) {
	if Add(2, 3) != 5 {
		t.Error("Add")
	}
}
EOF
cat >"$d/text/text_test.go" <<'EOF'
package text

import (
	"testing"

	"example.com/fx/missing"
)

func TestUpper(t *testing.T) {
	if Upper(missing.Word) != "GO" {
		t.Error("Upper")
	}
}
EOF

# ---------------------------------------------------------------- vet-error
# calc's test compiles, but the vet checks `go test` runs first find a Printf format mismatch,
# so none of calc's tests runs; text has no vet finding and runs.
d=$(new_module vet-error)
write_lib "$d"
write_text_passing "$d"
cat >"$d/calc/calc_test.go" <<'EOF'
package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %s, want 5", got)
	}
}
EOF

# ---------------------------------------------------------------- noisy-green
# Every test passes, but the tests print what looks like failure markers on purpose: a parser's
# test named TestInvalidSyntaxError that writes a build header and a compile error to stdout (as
# golden-output tests of code generators and linters do).
d=$(new_module noisy-green)
write_lib "$d"
write_text_passing "$d"
cat >"$d/calc/calc_test.go" <<'EOF'
package calc

import (
	"fmt"
	"testing"
)

// parse reports whether s is a complete "a+b" expression.
func parse(s string) error {
	if len(s) < 3 {
		return fmt.Errorf("main.go:1:%d: syntax error: unexpected EOF", len(s)+1)
	}
	return nil
}

func TestInvalidSyntaxError(t *testing.T) {
	err := parse("1+")
	if err == nil {
		t.Fatal("want a syntax error")
	}
	fmt.Println("# example.com/fx/calc")
	fmt.Println(err)
}

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %d, want 5", got)
	}
}
EOF

# ---------------------------------------------------------------- partial-build
# Four packages: calc and text build and pass; broken's own source does not compile
# (`[build failed]`); needs' test imports a package the module does not have (`[setup failed]`).
# Captured with a Go of 1.24 or newer (below), which reports the build failure inside
# `go test -json` as `build-output` / `build-fail` events.
d=$(new_module partial-build)
write_lib "$d"
write_text_passing "$d"
cp "$work/success/calc/calc_test.go" "$d/calc/calc_test.go"
mkdir -p "$d/broken" "$d/needs"
cat >"$d/broken/broken.go" <<'EOF'
// Package broken does not compile.
package broken

func Twice(n int) int { return n * "2" }
EOF
cat >"$d/broken/broken_test.go" <<'EOF'
package broken

import "testing"

func TestTwice(t *testing.T) {
	if Twice(2) != 4 {
		t.Error("Twice")
	}
}
EOF
cat >"$d/needs/needs.go" <<'EOF'
// Package needs has a test that imports a package the module does not have.
package needs

func Word() string { return "go" }
EOF
cat >"$d/needs/needs_test.go" <<'EOF'
package needs

import (
	"testing"

	"example.com/fx/missing"
)

func TestWord(t *testing.T) {
	if Word() != missing.Word {
		t.Error("Word")
	}
}
EOF

# ---------------------------------------------------------------- run
# -count=1 disables the test-result cache so every capture really runs the tests.
# Debian's go1.19 (/usr/bin/go from golang-go), whatever else is first on PATH.
go_debian=${GO_DEBIAN:-/usr/bin/go}
for c in success failure zero-tests all-skipped mixed load-error build-error vet-error noisy-green; do
  cd "$work/$c"
  capture "$out/$c.log" "$go_debian" test -count=1 ./...
  capture "$out/$c.v.log" "$go_debian" test -count=1 -v ./...
  capture "$out/$c.json.log" "$go_debian" test -count=1 -json ./...
done
"$go_debian" version

# partial-build: a Go of 1.24 or newer, GO_NEW (by default the official install's
# /usr/local/go/bin/go); without one the case is not captured.
go_new=${GO_NEW:-/usr/local/go/bin/go}
if [ -x "$go_new" ] && "$go_new" version | grep -Eq 'go1\.(2[4-9]|[3-9][0-9])'; then
  cd "$work/partial-build"
  capture "$out/partial-build.log" "$go_new" test -count=1 ./...
  capture "$out/partial-build.v.log" "$go_new" test -count=1 -v ./...
  capture "$out/partial-build.json.log" "$go_new" test -count=1 -json ./...
  "$go_new" version
else
  echo "warning: no Go 1.24 or newer at $go_new (set GO_NEW); partial-build.* not captured" >&2
fi

# ---------------------------------------------------------------- rerun-fails (gotestsum)
# gotestsum's `--rerun-fails=2` reruns a failed test up to twice, each time in a new test process,
# and its `--junitfile` writes one <testcase> per run. TestFailsItsFirstRun fails its first run
# (it counts its runs in a file) and passes the rerun; TestFailsEveryRun fails all three runs.
# gotestsum is a Go module, installed from the module proxy. Its console output (the go test -v
# output of every run) and its JUnit file are kept.
GOTESTSUM_VERSION=${GOTESTSUM_VERSION:-v1.12.3}
d=$(new_module rerun-fails)
mkdir -p "$d/flaky" "$d/runs"
cat >"$d/flaky/flaky_test.go" <<'EOF'
package flaky

import (
	"os"
	"path/filepath"
	"testing"
)

// runs counts a test's runs in a file: gotestsum reruns a failed test in a new process.
func runs(t *testing.T, name string) int {
	path := filepath.Join(os.Getenv("RUNS_DIR"), name)
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(path, append(data, 'x'), 0o644); err != nil {
		t.Fatal(err)
	}
	return len(data) + 1
}

func TestPasses(t *testing.T) {}

func TestFailsItsFirstRun(t *testing.T) {
	if runs(t, "first") == 1 {
		t.Fatal("the first run fails")
	}
}

func TestFailsEveryRun(t *testing.T) {
	t.Fatal("fails on every run")
}
EOF
if [ -x "$go_new" ]; then
  (env -u GOPROXY GOFLAGS=-modcacherw GOBIN="$work/bin" "$go_new" install "gotest.tools/gotestsum@$GOTESTSUM_VERSION")
  cd "$d"
  PATH="$(dirname "$go_new"):$PATH" RUNS_DIR="$d/runs" capture "$out/rerun-fails.log" \
    "$work/bin/gotestsum" --format standard-verbose --rerun-fails=2 --packages=./... \
    --junitfile "$out/rerun-fails.junit.xml" -- -count=1
  "$work/bin/gotestsum" --version
else
  echo "warning: no Go at $go_new (set GO_NEW); rerun-fails.* not captured" >&2
fi
