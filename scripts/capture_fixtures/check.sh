#!/usr/bin/env bash
# Regenerate tests/fixtures/stack-logs/check/ from the real Check (libcheck, Debian `check`).
# Installs check, gcc and pkg-config, writes small Check suites into a fresh temp dir, compiles each
# with `pkg-config --cflags --libs check` and captures the runner's console output: piped, under a
# pseudo-terminal, with CK_VERBOSITY=verbose, with CK_FORK=no, and a runner killed by a crash.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out="$stack_logs/check"

apt_install shown check gcc libc6-dev pkg-config cmake bsdutils

make_work fx-check

unset CK_FORK CK_VERBOSITY CK_RUN_SUITE CK_RUN_CASE CK_EXCLUDE_SUITE CK_EXCLUDE_CASE CK_INCLUDE_TAGS \
  CK_EXCLUDE_TAGS CK_DEFAULT_TIMEOUT CK_TIMEOUT_MULTIPLIER CK_TAP_LOG_FILE_NAME CK_XML_LOG_FILE_NAME \
  CK_LOG_FILE_NAME || true
export LC_ALL=C

fresh_dir "$out"

# Every program runs its runners with CK_ENV, so CK_VERBOSITY chooses the output (normal by default).
cat >"$work/common.h" <<'EOF'
#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

static int run(SRunner *sr) {
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed;
}
EOF

# success: suite Money, tcase Core, 3 passing tests.
cat >"$work/success.c" <<'EOF'
#include "common.h"
START_TEST(test_add) { ck_assert_int_eq(2 + 3, 5); } END_TEST
START_TEST(test_sub) { ck_assert_int_eq(5 - 3, 2); } END_TEST
START_TEST(test_str) { ck_assert_str_eq("abc", "abc"); } END_TEST
int main(void) {
    Suite *s = suite_create("Money");
    TCase *tc = tcase_create("Core");
    tcase_add_test(tc, test_add);
    tcase_add_test(tc, test_sub);
    tcase_add_test(tc, test_str);
    suite_add_tcase(s, tc);
    return run(srunner_create(s)) ? EXIT_FAILURE : EXIT_SUCCESS;
}
EOF

# failure: suite Money, tcase Core: test_sub fails its assertion; 2 pass.
cat >"$work/failure.c" <<'EOF'
#include "common.h"
START_TEST(test_add) { ck_assert_int_eq(2 + 3, 5); } END_TEST
START_TEST(test_sub) { ck_assert_int_eq(5 - 3, 3); } END_TEST
START_TEST(test_str) { ck_assert_str_eq("abc", "abc"); } END_TEST
int main(void) {
    Suite *s = suite_create("Money");
    TCase *tc = tcase_create("Core");
    tcase_add_test(tc, test_add);
    tcase_add_test(tc, test_sub);
    tcase_add_test(tc, test_str);
    suite_add_tcase(s, tc);
    return run(srunner_create(s)) ? EXIT_FAILURE : EXIT_SUCCESS;
}
EOF

# mixed: suite Money with tcases Core and Limits, and suite Parser in the same runner.
#   Core:   test_add passes, test_sub fails (ck_assert_int_eq), test_crash raises SIGSEGV (an error
#           with CK_FORK, fatal to the runner without it: see nofork-crash), test_exit calls exit(3)
#           (an error), test_msg fails (ck_assert_msg)
#   Limits: loop test test_range over 0..3: iteration 2 fails, 0, 1 and 3 pass (4 checks)
#   Parser: test_parse passes, test_timeout sleeps past its 1 s timeout (an error)
# 11 checks (5 + 4 iterations + 2): 5 passed (add, range 0, 1 and 3, parse), 3 failures (sub, msg,
# range iteration 2), 3 errors (crash, exit, timeout).
cat >"$work/mixed.c" <<'EOF'
#include "common.h"
START_TEST(test_add) { ck_assert_int_eq(2 + 3, 5); } END_TEST
START_TEST(test_sub) { ck_assert_int_eq(5 - 3, 3); } END_TEST
START_TEST(test_crash) { raise(SIGSEGV); } END_TEST
START_TEST(test_exit) { exit(3); } END_TEST
START_TEST(test_msg) { ck_assert_msg(0, "amount %d is not a valid currency", 42); } END_TEST
START_TEST(test_range) { ck_assert_int_ne(_i, 2); } END_TEST
START_TEST(test_parse) { ck_assert_int_eq(atoi("12"), 12); } END_TEST
START_TEST(test_timeout) { sleep(3); } END_TEST
int main(void) {
    Suite *money = suite_create("Money");
    TCase *core = tcase_create("Core");
    tcase_add_test(core, test_add);
    tcase_add_test(core, test_sub);
    tcase_add_test(core, test_crash);
    tcase_add_test(core, test_exit);
    tcase_add_test(core, test_msg);
    suite_add_tcase(money, core);
    TCase *limits = tcase_create("Limits");
    tcase_add_loop_test(limits, test_range, 0, 4);
    suite_add_tcase(money, limits);
    Suite *parser = suite_create("Parser");
    TCase *basic = tcase_create("Basic");
    tcase_set_timeout(basic, 1);
    tcase_add_test(basic, test_parse);
    tcase_add_test(basic, test_timeout);
    suite_add_tcase(parser, basic);
    SRunner *sr = srunner_create(money);
    srunner_add_suite(sr, parser);
    return run(sr) ? EXIT_FAILURE : EXIT_SUCCESS;
}
EOF

# zero-tests: a suite with no test case.
cat >"$work/zero-tests.c" <<'EOF'
#include "common.h"
int main(void) {
    return run(srunner_create(suite_create("Empty"))) ? EXIT_FAILURE : EXIT_SUCCESS;
}
EOF

# runners: one program with two runners, run one after the other.
#   runner 1: suite Money (tcase Core: test_add passes, test_sub fails)
#   runner 2: suites Strings (tcase Core: test_upper, test_lower pass) and Dates (tcase Leap:
#             test_leap passes, test_century fails)
# 6 checks: runner 1 has 1 passed and 1 failed, runner 2 has 3 passed and 1 failed.
cat >"$work/runners.c" <<'EOF'
#include "common.h"
#include <ctype.h>
START_TEST(test_add) { ck_assert_int_eq(2 + 3, 5); } END_TEST
START_TEST(test_sub) { ck_assert_int_eq(5 - 3, 3); } END_TEST
START_TEST(test_upper) { ck_assert_int_eq(toupper('a'), 'A'); } END_TEST
START_TEST(test_lower) { ck_assert_int_eq(tolower('A'), 'a'); } END_TEST
START_TEST(test_leap) { ck_assert(2024 % 4 == 0); } END_TEST
START_TEST(test_century) { ck_assert_msg(1900 % 400 == 0, "1900 is not a leap year"); } END_TEST
static Suite *suite(const char *name, const char *tcase, const TTest *a, const TTest *b) {
    Suite *s = suite_create(name);
    TCase *tc = tcase_create(tcase);
    _tcase_add_test(tc, a, 0, 0, 0, 1);
    _tcase_add_test(tc, b, 0, 0, 0, 1);
    suite_add_tcase(s, tc);
    return s;
}
int main(void) {
    int failed = run(srunner_create(suite("Money", "Core", test_add, test_sub)));
    SRunner *sr = srunner_create(suite("Strings", "Core", test_upper, test_lower));
    srunner_add_suite(sr, suite("Dates", "Leap", test_leap, test_century));
    failed += run(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
EOF

# nofork-crash: suite Money, tcase Core: test_add passes, test_crash raises SIGSEGV, test_str would
# pass. Run with CK_FORK=no the crash kills the runner before its summary.
cat >"$work/nofork-crash.c" <<'EOF'
#include "common.h"
START_TEST(test_add) { ck_assert_int_eq(2 + 3, 5); } END_TEST
START_TEST(test_crash) { raise(SIGSEGV); } END_TEST
START_TEST(test_str) { ck_assert_str_eq("abc", "abc"); } END_TEST
int main(void) {
    Suite *s = suite_create("Money");
    TCase *tc = tcase_create("Core");
    tcase_add_test(tc, test_add);
    tcase_add_test(tc, test_crash);
    tcase_add_test(tc, test_str);
    suite_add_tcase(s, tc);
    return run(srunner_create(s)) ? EXIT_FAILURE : EXIT_SUCCESS;
}
EOF

cd "$work"
for c in success failure mixed zero-tests runners nofork-crash; do
  # shellcheck disable=SC2046 # pkg-config prints several flags, each its own word
  gcc -Wall -o "$c" "$c.c" $(pkg-config --cflags --libs check)
done

for c in success failure mixed zero-tests runners; do
  capture "$out/$c.log" "./$c"
  capture_tty "$out/$c.tty.log" "./$c"
  capture "$out/$c.verbose.log" env CK_VERBOSITY=verbose "./$c"
done
# Without fork, failed assertions still leave the runner alive (Check longjmps back); the crash and
# exit tests of `mixed` would end it, so CK_FORK=no is captured for `failure` and `runners` only.
capture "$out/failure.nofork.log" env CK_FORK=no "./failure"
capture "$out/runners.nofork.log" env CK_FORK=no CK_VERBOSITY=verbose "./runners"
capture "$out/nofork-crash.log" env CK_FORK=no "./nofork-crash"
capture "$out/nofork-crash.fork.log" "./nofork-crash"
capture "$out/minimal.log" env CK_VERBOSITY=minimal "./mixed"
# Check's own report files, written beside the console output by the same run: the TAP log
# (CK_TAP_LOG_FILE_NAME) and Check's XML (CK_XML_LOG_FILE_NAME, its own format, not JUnit). The
# console log of that run is kept too. `runners` runs two runners, each of which opens the files
# anew, so its files hold the second runner's tests only.
for c in mixed runners; do
  capture "$out/$c.files.log" env CK_TAP_LOG_FILE_NAME="$c.tap" CK_XML_LOG_FILE_NAME="$c.xml" "./$c"
  cp "$c.tap" "$out/$c.tap.log"
  cp "$c.xml" "$out/$c.check.xml"
done
# A file name of `-` writes the TAP or the XML to standard output, into the console log.
capture "$out/mixed.tap-stdout.log" env CK_TAP_LOG_FILE_NAME=- "./mixed"
capture "$out/mixed.xml-stdout.log" env CK_XML_LOG_FILE_NAME=- "./mixed"

# under-ctest: ctest --output-on-failure running two of the binaries above as its tests, as a
# CMake project's add_test() would: `arithmetic` is ./success, `division` is ./failure. ctest
# prints the failing one's check output between its own lines.
mkdir -p "$work/ctest"
cat >"$work/ctest/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.13)
project(check_under_ctest NONE)
enable_testing()
add_test(NAME arithmetic COMMAND "$work/success")
add_test(NAME division COMMAND "$work/failure")
EOF
cmake -S "$work/ctest" -B "$work/ctest/build" >/dev/null
run_piped "$out/under-ctest.log" "$work/ctest/build" ctest --output-on-failure

dpkg-query -W -f='check ${Version}\n' check
gcc --version | head -n 1
