#!/usr/bin/env bash
# Regenerate tests/fixtures/stack-logs/cmocka/ from the real cmocka (Debian `libcmocka-dev`), and
# tests/fixtures/googletest/ from googletest (Debian `libgtest-dev`), whose console output looks
# like cmocka's and must not be read as cmocka's.
# Writes small cmocka groups into a fresh temp dir, compiles them with `pkg-config --cflags --libs
# cmocka` and captures each binary's console output, piped and under a pseudo-terminal.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out="$stack_logs/cmocka"
gtest_out="$repo/tests/fixtures/googletest"

apt_install shown libcmocka-dev libgtest-dev gcc g++ libc6-dev pkg-config cmake bsdutils

make_work fx-cmocka

unset CMOCKA_MESSAGE_OUTPUT CMOCKA_XML_FILE CMOCKA_TEST_ABORT GTEST_COLOR GTEST_BRIEF GTEST_FILTER || true
export LC_ALL=C

fresh_dir "$out" "$gtest_out"

cat >"$work/common.h" <<'EOF'
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <cmocka.h>

static void test_add(void **state) { (void)state; assert_int_equal(2 + 3, 5); }
static void test_sub(void **state) { (void)state; assert_int_equal(5 - 3, 2); }
static void test_mul(void **state) { (void)state; assert_int_equal(4 * 3, 12); }
static void test_div(void **state) { (void)state; assert_int_equal(7 / 2, 4); }
static void test_network(void **state) { (void)state; skip(); }
static void test_crash(void **state) { (void)state; raise(SIGSEGV); }
static void test_abort(void **state) { (void)state; abort(); }
static int fail_setup(void **state) { (void)state; return -1; }
static int fail_teardown(void **state) { (void)state; return -1; }
EOF

# success: one group, 3 passing tests.
cat >"$work/success.c" <<'EOF'
#include "common.h"
int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add), cmocka_unit_test(test_sub), cmocka_unit_test(test_mul),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
EOF

# failure: one group: test_add and test_sub pass, test_div fails its assertion.
cat >"$work/failure.c" <<'EOF'
#include "common.h"
int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add), cmocka_unit_test(test_div), cmocka_unit_test(test_sub),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
EOF

# mixed: one group of 7: test_add and test_mul pass; test_div fails; test_network skips;
# test_sub with a failing setup and test_mul with a failing teardown are errors; test_crash raises
# SIGSEGV, which cmocka catches and fails the test. 2 passed, 4 failed (1 failure, 2 errors, the
# crash), 1 skipped.
cat >"$work/mixed.c" <<'EOF'
#include "common.h"
int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add),
        cmocka_unit_test(test_div),
        cmocka_unit_test(test_network),
        cmocka_unit_test_setup(test_sub, fail_setup),
        cmocka_unit_test_teardown(test_mul, fail_teardown),
        cmocka_unit_test(test_crash),
        cmocka_unit_test(test_mul),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
EOF

# all-skipped: one group: test_network skips; test_sub's setup fails (an error, not a skip).
# 0 passed, 1 failed, 1 skipped.
cat >"$work/all-skipped.c" <<'EOF'
#include "common.h"
int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_network),
        cmocka_unit_test_setup(test_sub, fail_setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
EOF

# zero-tests: a group without tests.
cat >"$work/zero-tests.c" <<'EOF'
#include "common.h"
int main(void) {
    const struct CMUnitTest tests[0];
    return cmocka_run_group_tests(tests, NULL, NULL);
}
EOF

# groups: three groups in one binary.
#   arithmetic: test_add, test_sub, test_mul pass
#   division:   test_div fails, test_network skips, test_add passes
#   cleanup:    test_sub passes, then the group teardown fails (an error outside any test)
# 5 passed, 2 failed (test_div and the group teardown), 1 skipped.
cat >"$work/groups.c" <<'EOF'
#include "common.h"
int main(void) {
    const struct CMUnitTest arithmetic[] = {
        cmocka_unit_test(test_add), cmocka_unit_test(test_sub), cmocka_unit_test(test_mul),
    };
    const struct CMUnitTest division[] = {
        cmocka_unit_test(test_div), cmocka_unit_test(test_network), cmocka_unit_test(test_add),
    };
    const struct CMUnitTest cleanup[] = { cmocka_unit_test(test_sub) };
    int failed = cmocka_run_group_tests_name("arithmetic", arithmetic, NULL, NULL);
    failed += cmocka_run_group_tests_name("division", division, NULL, NULL);
    failed += cmocka_run_group_tests_name("cleanup", cleanup, NULL, fail_teardown);
    return failed;
}
EOF

# group-setup: group `arithmetic` passes its 2 tests; group `storage`'s setup fails, so its 2
# tests never run.
cat >"$work/group-setup.c" <<'EOF'
#include "common.h"
int main(void) {
    const struct CMUnitTest arithmetic[] = { cmocka_unit_test(test_add), cmocka_unit_test(test_sub) };
    const struct CMUnitTest storage[] = { cmocka_unit_test(test_mul), cmocka_unit_test(test_div) };
    int failed = cmocka_run_group_tests_name("arithmetic", arithmetic, NULL, NULL);
    failed += cmocka_run_group_tests_name("storage", storage, fail_setup, NULL);
    return failed;
}
EOF

# crash: one group of 3: test_add passes, then test_abort calls abort(), which cmocka does not
# catch: the binary dies before test_sub and before the group's closing lines.
cat >"$work/crash.c" <<'EOF'
#include "common.h"
int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add), cmocka_unit_test(test_abort), cmocka_unit_test(test_sub),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
EOF

cd "$work"
for c in success failure mixed all-skipped zero-tests groups group-setup crash; do
  # shellcheck disable=SC2046 # pkg-config prints several flags, each its own word
  gcc -Wall -Wno-unused-function -o "$c" "$c.c" $(pkg-config --cflags --libs cmocka)
done
for c in success failure mixed all-skipped zero-tests groups group-setup crash; do
  capture "$out/$c.log" "./$c"
done
for c in mixed groups crash; do
  capture_tty "$out/$c.tty.log" "./$c"
done
# cmocka's other outputs, chosen by CMOCKA_MESSAGE_OUTPUT: TAP on standard output in place of the
# console lines, and JUnit-style XML, on standard output or, with CMOCKA_XML_FILE, into a file
# (`%g` in its name is the group's name; cmocka 1.1.5 then writes nothing to the console).
for c in mixed groups; do
  capture "$out/$c.tap.log" env CMOCKA_MESSAGE_OUTPUT=TAP "./$c"
  capture "$out/$c.xml-stdout.log" env CMOCKA_MESSAGE_OUTPUT=XML "./$c"
done
# Their console output is empty, so only the files are kept.
env CMOCKA_MESSAGE_OUTPUT=XML CMOCKA_XML_FILE=mixed.xml ./mixed || true
cp mixed.xml "$out/mixed.junit.xml"
rm -f groups-*.xml
env CMOCKA_MESSAGE_OUTPUT=XML CMOCKA_XML_FILE=groups-%g.xml ./groups || true
for group in arithmetic division cleanup; do
  cp "groups-$group.xml" "$out/groups-$group.junit.xml"
done
# Two binaries in one log, as a make or shell loop running them would write it.
capture "$out/two-binaries.log" sh -c './failure; ./groups'

# googletest: Math.Add passes, Math.Div fails, Math.Network skips (GTEST_SKIP), Strings.Upper passes.
cat >"$work/gtest.cc" <<'EOF'
#include <gtest/gtest.h>
#include <cctype>
TEST(Math, Add) { EXPECT_EQ(2 + 3, 5); }
TEST(Math, Div) { EXPECT_EQ(7 / 2, 4); }
TEST(Math, Network) { GTEST_SKIP() << "no network"; }
TEST(Strings, Upper) { EXPECT_EQ(std::toupper('a'), 'A'); }
EOF
cat >"$work/gtest-pass.cc" <<'EOF'
#include <gtest/gtest.h>
TEST(Math, Add) { EXPECT_EQ(2 + 3, 5); }
TEST(Math, Sub) { EXPECT_EQ(5 - 3, 2); }
EOF
# shellcheck disable=SC2046 # pkg-config prints several flags, each its own word
g++ -o gtest gtest.cc $(pkg-config --cflags --libs gtest_main)
# shellcheck disable=SC2046 # as above
g++ -o gtest-pass gtest-pass.cc $(pkg-config --cflags --libs gtest_main)
capture "$gtest_out/mixed.log" ./gtest
capture_tty "$gtest_out/mixed.tty.log" ./gtest
capture "$gtest_out/success.log" ./gtest-pass

# under-ctest: ctest --output-on-failure running two of the binaries above as its tests, as a
# CMake project's add_test() would: `arithmetic` is ./success, `division` is ./failure. ctest
# prints the failing one's cmocka output between its own lines.
mkdir -p "$work/ctest"
cat >"$work/ctest/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.13)
project(cmocka_under_ctest NONE)
enable_testing()
add_test(NAME arithmetic COMMAND "$work/success")
add_test(NAME division COMMAND "$work/failure")
EOF
cmake -S "$work/ctest" -B "$work/ctest/build" >/dev/null
run_piped "$out/under-ctest.log" "$work/ctest/build" ctest --output-on-failure

dpkg-query -W -f='${Package} ${Version}\n' libcmocka-dev libgtest-dev
gcc --version | head -n 1
