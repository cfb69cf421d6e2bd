#!/usr/bin/env bash
# Regenerate the uvu fixtures from real runs:
#   tests/fixtures/stack-logs/uvu/
# uvu (and esm, for `uvu -r esm` as lukeed's own packages run it) is installed into a throwaway
# npm project in a temporary folder; the test files are written below and run there three ways: the
# uvu CLI on the case's `tests/` folder (piped, and on a pseudo-terminal), and `node tests/<file>.js`
# for each file in turn, as a `test` script that runs the files itself does. The throwaway project's
# folder is written as /build/uvu-fixtures in the logs (stack traces print absolute paths; the rest
# is as uvu wrote it). expected.json and README.md in the folder are maintained by hand and are not
# touched.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

UVU_VERSION=${UVU_VERSION:-0.5.6}
ESM_VERSION=${ESM_VERSION:-3.2.25}

# bsdutils provides script(1) for the pseudo-terminal captures.
apt_install if-root bsdutils
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "node and npm are required (Node 20 was used for the committed fixtures)" >&2
  exit 1
fi

make_work capture-uvu

# Keep the environment neutral so that reruns give the same output.
unset CI NO_COLOR FORCE_COLOR NODE_DISABLE_COLORS NODE_OPTIONS COLUMNS LINES 2>/dev/null || true
export TERM=xterm-256color
tty_size=80x24 tty_stderr=console

proj="$work/npm"
mkdir -p "$proj"
printf '{\n  "name": "uvu-fixtures",\n  "version": "1.0.0",\n  "private": true\n}\n' >"$proj/package.json"
echo "== npm install uvu@$UVU_VERSION esm@$ESM_VERSION in $proj"
(cd "$proj" && npm install --no-audit --no-fund --loglevel=error -D -E "uvu@$UVU_VERSION" "esm@$ESM_VERSION")
uvu="$proj/node_modules/.bin/uvu"

cases="success failure skipped mixed zero-tests load-error hook-error unsettled"
for c in $cases; do mkdir -p "$proj/$c/tests"; done
mkdir -p "$proj/no-files/tests"

# ------------------------------------------------------------------ cases
cat >"$proj/success/tests/math.js" <<'EOF'
const { suite, test } = require('uvu');
const assert = require('uvu/assert');

test('adds', () => {
  assert.is(1 + 1, 2);
});
test('divides', () => {
  assert.is(Math.floor(7 / 2), 3);
});
test('waits asynchronously', async () => {
  await new Promise((resolve) => setTimeout(resolve, 1));
});
test.run();

const positive = suite('positive');
for (const n of [1, 2, 3]) {
  positive(`positive ${n}`, () => {
    assert.ok(n > 0);
  });
}
positive.run();
EOF
cat >"$proj/success/tests/text.js" <<'EOF'
const { test } = require('uvu');
const assert = require('uvu/assert');

test('upper', () => {
  assert.is('ab'.toUpperCase(), 'AB');
});
test('split', () => {
  assert.equal('a,b'.split(','), ['a', 'b']);
});
test.run();
EOF

cat >"$proj/failure/tests/calc.js" <<'EOF'
const { suite, test } = require('uvu');
const assert = require('uvu/assert');

const add = (a, b) => a + b;

test('adds small numbers', () => {
  assert.is(add(1, 2), 3);
});
test('adds negative numbers', () => {
  assert.is(add(-1, -1), -2);
});
test('adds zero', () => {
  assert.is(add(0, 0), 0);
});
test('wrong sum', () => {
  assert.is(add(2, 2), 5);
});
test.run();

const errors = suite('errors');
errors('throws', () => {
  throw new Error('boom');
});
errors.run();
EOF

cat >"$proj/skipped/tests/skipped.js" <<'EOF'
const { test } = require('uvu');
const assert = require('uvu/assert');

test('runs one', () => {
  assert.ok(true);
});
test.skip('not implemented yet', () => {
  assert.unreachable('should not run');
});
test('runs two', () => {
  assert.ok(true);
});
test.skip('needs a database', () => {
  assert.unreachable('should not run');
});
test.run();
EOF
cat >"$proj/skipped/tests/only.js" <<'EOF'
const { test } = require('uvu');
const assert = require('uvu/assert');

test('left out by only', () => {
  assert.unreachable('should not run');
});
test.only('focused', () => {
  assert.ok(true);
});
test('also left out by only', () => {
  assert.unreachable('should not run');
});
test.run();
EOF

cat >"$proj/mixed/tests/suites.js" <<'EOF'
const { suite } = require('uvu');
const assert = require('uvu/assert');

const math = suite('math');
math('adds', () => {
  assert.is(1 + 1, 2);
});
math('multiplies', () => {
  assert.is(2 * 3, 6);
});
math.run();

const text = suite('text');
text('repeats', () => {
  assert.is('x'.repeat(3), 'xxx');
});
text('splits', () => {
  assert.equal('a,b,c'.split(','), ['a', 'b', 'd']);
});
text.skip('trims', () => {
  assert.is(' a '.trim(), 'a');
});
text.run();

const empty = suite('empty');
empty.run();
EOF
cat >"$proj/mixed/tests/plain.js" <<'EOF'
const { test } = require('uvu');
const assert = require('uvu/assert');

test('plain passes', () => {
  assert.ok(true);
});
test.run();
EOF

cat >"$proj/zero-tests/tests/empty.js" <<'EOF'
// A test file that declares no tests, and runs its (empty) suite.
const { test } = require('uvu');

test.run();
EOF

cat >"$proj/load-error/tests/ok.js" <<'EOF'
const { test } = require('uvu');
const assert = require('uvu/assert');

test('ok one', () => {
  assert.ok(true);
});
test('ok two', () => {
  assert.ok(true);
});
test.run();
EOF
cat >"$proj/load-error/tests/broken.js" <<'EOF'
const { test } = require('uvu');

throw new Error('cannot load this test file');

test('never runs', () => {});
test.run();
EOF

cat >"$proj/hook-error/tests/db.js" <<'EOF'
const { suite } = require('uvu');
const assert = require('uvu/assert');

const db = suite('db');
db.before(() => {
  throw new Error('cannot connect');
});
db('reads', () => {
  assert.ok(true);
});
db('writes', () => {
  assert.ok(true);
});
db.run();

const other = suite('other');
other('still runs', () => {
  assert.ok(true);
});
other.run();
EOF

cat >"$proj/unsettled/tests/wait.js" <<'EOF'
const { test } = require('uvu');
const assert = require('uvu/assert');

test('settles', () => {
  assert.ok(true);
});
test('never settles', () => new Promise(() => {}));
test('never reached', () => {
  assert.ok(true);
});
test.run();
EOF

# ------------------------------------------------------------------ runs
dest="$stack_logs/uvu"
fresh_dir "$dest"
echo "== uvu $UVU_VERSION ($(node --version))"
for c in $cases; do
  run_piped "$dest/$c.log" "$proj/$c" "$uvu" tests
  run_tty "$dest/$c.tty.log" "$proj/$c" "$uvu tests"
  # each file run by node in turn, in file-name order; the exit code is the last failing one's
  run_piped "$dest/$c.node.log" "$proj/$c" \
    sh -c 'rc=0; for file in tests/*.js; do node "$file" || rc=$?; done; exit $rc'
done
run_piped "$dest/failure.bail.log" "$proj/failure" "$uvu" tests --bail
run_piped "$dest/success.esm.log" "$proj/success" "$uvu" -r esm tests
run_piped "$dest/failure.esm.log" "$proj/failure" "$uvu" -r esm tests
run_piped "$dest/zero-tests.no-files.log" "$proj/no-files" "$uvu" tests

sed -i "s#$proj#/build/uvu-fixtures#g" "$dest"/*.log

echo "== done: fixtures written to tests/fixtures/stack-logs/uvu"
