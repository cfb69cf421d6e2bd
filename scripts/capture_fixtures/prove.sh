#!/usr/bin/env bash
# Regenerate tests/fixtures/stack-logs/tap/ from the real `prove` (Perl TAP::Harness).
# Installs perl and Debian's TAP::Formatter::JUnit, writes small Test::More
# suites into a fresh temp dir and captures prove's default output, a
# pseudo-terminal run, `prove -v`, and the JUnit formatter's report.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out="$stack_logs/tap"

apt_install shown perl libtap-formatter-junit-perl bsdutils

make_work fx-prove

unset HARNESS_OPTIONS HARNESS_TIMER HARNESS_VERBOSE HARNESS_PERL_SWITCHES TEST_VERBOSE PERL5OPT PERL5LIB || true
export LC_ALL=C
# Fixed hash seed: TAP::Formatter::JUnit writes XML attributes in hash order.
export PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0

fresh_dir "$out"

new_suite() {
  mkdir -p "$work/$1/t"
  echo "$work/$1"
}

write_basic_passing() {   # 3 passing tests
  cat >"$1/t/01-basic.t" <<'EOF'
use strict;
use warnings;
use Test::More tests => 3;

ok(1 + 1 == 2, 'addition');
is(uc 'abc', 'ABC', 'uppercase');
like('hello world', qr/world/, 'pattern match');
EOF
}

write_strings_passing() { # 2 passing tests, done_testing style
  cat >"$1/t/02-strings.t" <<'EOF'
use strict;
use warnings;
use Test::More;

is(length 'perl', 4, 'length');
is_deeply([split /,/, 'a,b'], ['a', 'b'], 'split');

done_testing();
EOF
}

# ---------------------------------------------------------------- success
d=$(new_suite success)
write_basic_passing "$d"
write_strings_passing "$d"

# ---------------------------------------------------------------- failure
d=$(new_suite failure)
write_strings_passing "$d"
cat >"$d/t/01-basic.t" <<'EOF'
use strict;
use warnings;
use Test::More tests => 3;

ok(1 + 1 == 2, 'addition');
is(uc 'abc', 'ABd', 'uppercase');
like('hello world', qr/world/, 'pattern match');
EOF

# ---------------------------------------------------------------- zero-tests
# an empty t/ directory
d=$(new_suite zero-tests)

# ---------------------------------------------------------------- all-skipped
# 01: whole file skipped (1..0 # SKIP); 02: two tests skipped inside a SKIP block
d=$(new_suite all-skipped)
cat >"$d/t/01-database.t" <<'EOF'
use strict;
use warnings;
use Test::More;

plan skip_all => 'no database configured';

ok(1, 'never reached');
EOF
cat >"$d/t/02-network.t" <<'EOF'
use strict;
use warnings;
use Test::More tests => 2;

SKIP: {
    skip 'network tests disabled', 2;
    ok(0, 'fetch');
    ok(0, 'upload');
}
EOF

# ---------------------------------------------------------------- mixed
# 01: ok, not ok, skip, TODO that fails (expected failure), TODO that passes
# 02: 2 ok
# 03: plans 3 tests but runs 2 (both ok) -> "Bad plan" parse error
d=$(new_suite mixed)
write_strings_passing "$d"
cat >"$d/t/01-basic.t" <<'EOF'
use strict;
use warnings;
use Test::More tests => 5;

ok(1 + 1 == 2, 'addition');
is(2 - 1, 2, 'subtraction');

SKIP: {
    skip 'no bignum support', 1;
    ok(0, 'big numbers');
}

TODO: {
    local $TODO = 'rounding not implemented';
    is(int(2.5 + 0.5), 4, 'rounding');
}

TODO: {
    local $TODO = 'division by zero handling';
    my $zero = 0;
    ok(!eval { my $q = 1 / $zero; 1 }, 'division by zero dies');
}
EOF
cat >"$d/t/03-plan.t" <<'EOF'
use strict;
use warnings;
use Test::More tests => 3;

ok(1, 'first');
ok(1, 'second');
# the third planned test is never run
EOF

# ---------------------------------------------------------------- load-error
# 02 dies at compile time (missing module), before any TAP is printed
d=$(new_suite load-error)
write_basic_passing "$d"
cat >"$d/t/02-broken.t" <<'EOF'
use strict;
use warnings;
use Test::More tests => 2;
use Acme::Missing::Module;

ok(1, 'never reached');
ok(1, 'never reached either');
EOF

# ---------------------------------------------------------------- run
for c in success failure zero-tests all-skipped mixed load-error; do
  cd "$work/$c"
  capture "$out/$c.log" prove
  capture_tty "$out/$c.tty.log" "prove"
  capture "$out/$c.verbose.log" prove -v
  # stdout only (the XML report); test diagnostics go to stderr. Kept even when empty.
  capture_stdout "$out/$c.junit.xml" prove --formatter TAP::Formatter::JUnit
done

# ---------------------------------------------------------------- bail-out
# 02 passes one test, then calls BAIL_OUT: prove stops, and 03 never runs. Captured from prove
# (plain and -v) and as the raw TAP stream of the file run on its own.
d=$(new_suite bail-out)
write_basic_passing "$d"
cat >"$d/t/02-bail.t" <<'EOF'
use strict;
use warnings;
use Test::More tests => 3;

ok(1, 'connects');
BAIL_OUT('database went away');
ok(1, 'queries');
ok(1, 'disconnects');
EOF
cat >"$d/t/03-after.t" <<'EOF'
use strict;
use warnings;
use Test::More tests => 1;

ok(1, 'never run: prove stopped at the bail-out');
EOF
cd "$d"
capture "$out/bail-out.log" prove
capture "$out/bail-out.verbose.log" prove -v
capture "$out/bail-out.raw.log" perl t/02-bail.t

# ---------------------------------------------------------------- hidden-skips
# A failing run whose files prove without -v shows unevenly:
# 01: 5 tests: 2 ok, 1 not ok, 2 skipped (prove prints `(less 2 skipped subtests: 2 okay)`)
# 02: 3 tests: 1 ok, 2 skipped; the file passes, so prove prints only `ok`
# 03: 2 tests: 1 ok, 1 failing TODO (an expected failure); the file passes: `ok`
# 04: 60 tests, every third one fails: a `Failed tests:` list long enough to wrap
# 05: plans 3 tests, passes 2, then kills itself with SIGSEGV
# Truth: 46 passed, 22 failed (21 not ok + 05 dying), 5 skipped (4 skips + 1 expected failure).
d=$(new_suite hidden-skips)
cat >"$d/t/01-fail.t" <<'EOF'
use strict;
use warnings;
use Test::More tests => 5;

ok(1, 'first');
is(2 * 2, 5, 'arithmetic');
SKIP: {
    skip 'no locale support', 2;
    ok(0, 'locale one');
    ok(0, 'locale two');
}
ok(1, 'last');
EOF
cat >"$d/t/02-skips.t" <<'EOF'
use strict;
use warnings;
use Test::More tests => 3;

ok(1, 'runs');
SKIP: {
    skip 'no network', 2;
    ok(0, 'fetch');
    ok(0, 'upload');
}
EOF
cat >"$d/t/03-todo.t" <<'EOF'
use strict;
use warnings;
use Test::More tests => 2;

ok(1, 'runs');
TODO: {
    local $TODO = 'not written yet';
    ok(0, 'future feature');
}
EOF
cat >"$d/t/04-many.t" <<'EOF'
use strict;
use warnings;
use Test::More tests => 60;

ok($_ % 3, "number $_") for 1 .. 60;
EOF
cat >"$d/t/05-signal.t" <<'EOF'
use strict;
use warnings;
use Test::More tests => 3;

ok(1, 'one');
ok(1, 'two');
kill 'SEGV', $$;
ok(1, 'never reached');
EOF
cd "$d"
capture "$out/hidden-skips.log" prove
capture_tty "$out/hidden-skips.tty.log" "prove"
capture "$out/hidden-skips.verbose.log" prove -v
capture "$out/hidden-skips.quiet.log" prove -Q

# ---------------------------------------------------------------- todo
# A passing run with TODO tests: prove reports the passing TODO test (`TODO passed:`) even when
# every file passes.
# 01: 2 ok, a failing TODO (an expected failure), a passing TODO (`unexpectedly succeeded`)
# 02: 2 ok, 1 skipped
# Truth: 5 passed (4 ok + the passing TODO), 0 failed, 2 skipped (the skip + the expected failure).
d=$(new_suite todo)
cat >"$d/t/01-todo.t" <<'EOF'
use strict;
use warnings;
use Test::More tests => 4;

ok(1, 'first');
TODO: {
    local $TODO = 'not written yet';
    ok(0, 'future feature');
}
TODO: {
    local $TODO = 'flaky upstream';
    ok(1, 'upstream fixed');
}
ok(1, 'last');
EOF
cat >"$d/t/02-skip.t" <<'EOF'
use strict;
use warnings;
use Test::More tests => 3;

ok(1, 'runs');
SKIP: {
    skip 'no network', 1;
    ok(0, 'fetch');
}
ok(1, 'runs too');
EOF
cd "$d"
capture "$out/todo.log" prove
capture "$out/todo.verbose.log" prove -v
capture_stdout "$out/todo.junit.xml" prove --formatter TAP::Formatter::JUnit

# ---------------------------------------------------------------- large
# 40 files of 50 tests each (2000 test lines). File i:
#   i % 5 == 0: tests 48-50 skipped (8 files: 24 skips)
#   i % 7 == 0: test 1 a failing TODO (an expected failure), test 2 a passing TODO (5 files)
#   i == 33:    tests 10 and 20 fail
# Truth: 1969 passed, 2 failed, 29 skipped (24 skips + 5 expected failures).
d=$(new_suite large)
for i in $(seq 1 40); do
  cat >"$d/t/$(printf %02d "$i")-large.t" <<EOF
use strict;
use warnings;
use Test::More tests => 50;

my \$file = $i;
for my \$n (1 .. 50) {
    if (\$file % 5 == 0 && \$n > 47) {
        SKIP: { skip 'slow case', 1; ok(0, "case \$n") }
        next;
    }
    if (\$file % 7 == 0 && \$n <= 2) {
        TODO: { local \$TODO = 'pending'; ok(\$n == 2, "pending case \$n") }
        next;
    }
    ok(!(\$file == 33 && (\$n == 10 || \$n == 20)), "case \$n");
}
EOF
done
cd "$d"
capture "$out/large.log" prove
capture "$out/large.verbose.log" prove -v
capture_stdout "$out/large.junit.xml" prove --formatter TAP::Formatter::JUnit

prove --version
perl -MTAP::Formatter::JUnit -e 'print "TAP::Formatter::JUnit $TAP::Formatter::JUnit::VERSION\n"'
