#!/usr/bin/env bash
# Regenerate tests/fixtures/stack-logs/ctest/ from the real `ctest`.
# Installs Debian's cmake + a C compiler, writes small C projects with add_test()
# into a fresh temp dir, builds them and captures `ctest --output-on-failure`
# together with its `--output-junit` report.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out="$stack_logs/ctest"

apt_install shown cmake make gcc libc6-dev bsdutils

make_work fx-ctest

unset CTEST_OUTPUT_ON_FAILURE CTEST_PARALLEL_LEVEL CTEST_PROGRESS_OUTPUT CMAKE_GENERATOR CMAKE_BUILD_PARALLEL_LEVEL || true
export LC_ALL=C

fresh_dir "$out"

# A tiny library plus one test driver; each add_test() runs one named check.
write_sources() {
  local dir=$1
  cat >"$dir/calc.h" <<'EOF'
int add(int a, int b);
int sub(int a, int b);
int mul(int a, int b);
EOF
  cat >"$dir/calc.c" <<'EOF'
#include "calc.h"
int add(int a, int b) { return a + b; }
int sub(int a, int b) { return a - b; }
int mul(int a, int b) { return a * b; }
EOF
  cat >"$dir/unit.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "calc.h"

#define EXPECT_EQ(expr, want) do { int got_ = (expr); \
    if (got_ != (want)) { fprintf(stderr, "%s:%d: %s = %d, expected %d\n", \
        __FILE__, __LINE__, #expr, got_, (want)); return 1; } } while (0)

static int t_add(void) { EXPECT_EQ(add(2, 3), 5); puts("add: ok"); return 0; }
static int t_sub(void) { EXPECT_EQ(sub(5, 3), SUB_WANT); puts("sub: ok"); return 0; }
static int t_mul(void) { EXPECT_EQ(mul(4, 3), 12); puts("mul: ok"); return 0; }
static int t_network(void) { puts("no network available, skipping"); return 77; }
static int t_crash(void) { volatile int *p = NULL; return *p; }
static int t_slow(void) { sleep(5); return 0; }

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s CHECK\n", argv[0]); return 2; }
    const char *n = argv[1];
    if (!strcmp(n, "add")) return t_add();
    if (!strcmp(n, "sub")) return t_sub();
    if (!strcmp(n, "mul")) return t_mul();
    if (!strcmp(n, "network")) return t_network();
    if (!strcmp(n, "crash")) return t_crash();
    if (!strcmp(n, "slow")) return t_slow();
    fprintf(stderr, "unknown check: %s\n", n);
    return 2;
}
EOF
}

# new_project CASE SUB_WANT TESTS_CMAKE
new_project() {
  local dir="$work/$1"
  mkdir -p "$dir"
  write_sources "$dir"
  cat >"$dir/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.16)
project(fx C)
enable_testing()
add_library(calc STATIC calc.c)
add_executable(unit unit.c)
target_compile_definitions(unit PRIVATE SUB_WANT=$2)
target_link_libraries(unit calc)
$3
EOF
}

# ---------------------------------------------------------------- cases
new_project success 2 '
add_test(NAME add COMMAND unit add)
add_test(NAME sub COMMAND unit sub)
add_test(NAME mul COMMAND unit mul)'

new_project failure 3 '
add_test(NAME add COMMAND unit add)
add_test(NAME sub COMMAND unit sub)
add_test(NAME mul COMMAND unit mul)'

# enable_testing() but no add_test(): CTestTestfile.cmake exists and is empty
new_project zero-tests 2 ''

new_project all-skipped 2 '
add_test(NAME network COMMAND unit network)
set_tests_properties(network PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME legacy COMMAND unit add)
set_tests_properties(legacy PROPERTIES DISABLED TRUE)'

# pass x2, fail, segfault, timeout, skip (77), disabled, and a negative test
# (WILL_FAIL: the driver rejects an unknown check with exit 2, which is the expected outcome)
new_project mixed 3 '
add_test(NAME add COMMAND unit add)
add_test(NAME sub COMMAND unit sub)
add_test(NAME mul COMMAND unit mul)
add_test(NAME crash COMMAND unit crash)
add_test(NAME slow COMMAND unit slow)
set_tests_properties(slow PROPERTIES TIMEOUT 1)
add_test(NAME network COMMAND unit network)
set_tests_properties(network PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME legacy COMMAND unit add)
set_tests_properties(legacy PROPERTIES DISABLED TRUE)
add_test(NAME rejects_unknown COMMAND unit no-such-check)
set_tests_properties(rejects_unknown PROPERTIES WILL_FAIL TRUE)'

# load-error: unit.c does not compile, so the test executable is never built.
new_project load-error 2 '
add_test(NAME add COMMAND unit add)
add_test(NAME sub COMMAND unit sub)
add_test(NAME mul COMMAND unit mul)'
sed -i 's/static int t_mul(void) { EXPECT_EQ(mul(4, 3), 12);/static int t_mul(void) { EXPECT_EQ(mul(4, 3), 12)/' "$work/load-error/unit.c"

# load-error (configure): CMakeLists.txt calls an unknown command, so no build tree is generated.
new_project load-error-configure 2 '
add_test(NAME add COMMAND unit add)
add_tests_for_everything(unit)'

# ---------------------------------------------------------------- run
for c in success failure zero-tests all-skipped mixed; do
  cd "$work/$c"
  cmake -S . -B build >/dev/null
  cmake --build build >/dev/null
  cd build
  capture "$out/$c.log" ctest --output-on-failure --output-junit "$work/$c/junit.xml"
  cp "$work/$c/junit.xml" "$out/$c.junit.xml"
  # on a pseudo-terminal ctest colours its summary
  capture_tty "$out/$c.tty.log" "ctest --output-on-failure --output-junit '$work/$c/junit-tty.xml'"
done

# load-error: the captured log is the build step followed by ctest, as a CI job
# running `cmake --build build; ctest --output-on-failure` would show it.
cd "$work/load-error"
cmake -S . -B build >/dev/null
capture "$out/load-error.log" bash -c "cmake --build build; cd build && ctest --output-on-failure --output-junit '$work/load-error/junit.xml'"
cp "$work/load-error/junit.xml" "$out/load-error.junit.xml"
rm -rf build && cmake -S . -B build >/dev/null
capture_tty "$out/load-error.tty.log" "cmake --build build; cd build && ctest --output-on-failure --output-junit '$work/load-error/junit-tty.xml'"

cd "$work/load-error-configure"
capture "$out/load-error.configure.log" bash -c "cmake -S . -B build; cd build && ctest --output-on-failure --output-junit '$work/load-error-configure/junit.xml'"
cp "$work/load-error-configure/junit.xml" "$out/load-error.configure.junit.xml"
rm -rf build
capture_tty "$out/load-error.configure.tty.log" "cmake -S . -B build; cd build && ctest --output-on-failure --output-junit '$work/load-error-configure/junit-tty.xml'"

# stale-build: a first build succeeds; then unit.c is broken (as by a pull request's change), the
# rebuild fails, and ctest runs the executable left by the first build: its tests pass.
new_project stale-build 2 '
add_test(NAME add COMMAND unit add)
add_test(NAME sub COMMAND unit sub)
add_test(NAME mul COMMAND unit mul)'
cd "$work/stale-build"
cmake -S . -B build >/dev/null
cmake --build build >/dev/null
sed -i 's/static int t_mul(void) { EXPECT_EQ(mul(4, 3), 12);/static int t_mul(void) { EXPECT_EQ(mul(4, 3), 12)/' unit.c
capture "$out/stale-build.log" bash -c "cmake --build build; cd build && ctest --output-on-failure"

# not-built: two test executables; `broken` does not compile, `unit` does. `cmake --build build
# -- -k` (make's keep-going) builds what it can, so ctest runs unit's tests and finds no executable
# for broken's. Captured as the build step followed by ctest, and as ctest alone (a CI job whose
# build and test steps log separately), with its JUnit report.
new_project not-built 2 '
add_executable(broken broken.c)
add_test(NAME add COMMAND unit add)
add_test(NAME sub COMMAND unit sub)
add_test(NAME mul COMMAND unit mul)
add_test(NAME parse COMMAND broken)
add_test(NAME format COMMAND broken)'
echo 'int main(void) { return undeclared_helper() }' >"$work/not-built/broken.c"
cd "$work/not-built"
cmake -S . -B build >/dev/null
capture "$out/not-built.log" bash -c "cmake --build build -- -k; cd build && ctest --output-on-failure"
capture "$out/not-built.ctest.log" bash -c "cd build && ctest --output-on-failure --output-junit '$work/not-built/junit.xml'"
cp "$work/not-built/junit.xml" "$out/not-built.junit.xml"

# not-run: every executable is built, but two tests do not run for ctest's own reasons: `db_query`
# needs the fixture `db`, whose setup test `db_setup` fails, so ctest does not run it, and `config`
# needs a file that is missing (REQUIRED_FILES). Both print `***Not Run`; add and mul pass.
new_project not-run 2 '
add_test(NAME add COMMAND unit add)
add_test(NAME mul COMMAND unit mul)
add_test(NAME db_setup COMMAND unit no-such-check)
set_tests_properties(db_setup PROPERTIES FIXTURES_SETUP db)
add_test(NAME db_query COMMAND unit add)
set_tests_properties(db_query PROPERTIES FIXTURES_REQUIRED db)
add_test(NAME config COMMAND unit add)
set_tests_properties(config PROPERTIES REQUIRED_FILES "${CMAKE_BINARY_DIR}/missing.conf")'
cd "$work/not-run"
cmake -S . -B build >/dev/null
cmake --build build >/dev/null
cd build
capture "$out/not-run.log" ctest --output-on-failure --output-junit "$work/not-run/junit.xml"
cp "$work/not-run/junit.xml" "$out/not-run.junit.xml"

cmake --version | head -1
ctest --version | head -1
