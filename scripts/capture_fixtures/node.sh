#!/usr/bin/env bash
# Regenerate the JavaScript runner fixtures from real runs:
#   tests/fixtures/stack-logs/jest/       (jest + jest-junit)
#   tests/fixtures/stack-logs/jest-json/  (jest --json --outputFile)
#   tests/fixtures/stack-logs/vitest/     (vitest, default and junit reporters)
#   tests/fixtures/stack-logs/mocha/      (mocha spec, tap and xunit reporters)
#   tests/fixtures/stack-logs/mocha-json/ (mocha's json reporter)
#   tests/fixtures/stack-logs/node-test/  (node --test, built-in reporters)
# The npm packages are installed into a throwaway project under /tmp; the suites
# are written below and run there, and the raw output is copied into the fixture
# folders. expected.json and README.md in those folders are maintained by hand
# and are not touched.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

JEST_VERSION=${JEST_VERSION:-30.5.2}
JEST_JUNIT_VERSION=${JEST_JUNIT_VERSION:-17.0.0}
MOCHA_VERSION=${MOCHA_VERSION:-12.0.3}
# vitest 5 needs Node 22; this pair is the newest that runs on Node 20.
VITE_VERSION=${VITE_VERSION:-8.3.8}
VITEST_VERSION=${VITEST_VERSION:-4.1.12}

# ---------------------------------------------------------------- tools
# bsdutils provides script(1) for the pseudo-terminal captures.
apt_install if-root bsdutils
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "node and npm are required (Node 20 was used for the committed fixtures)" >&2
  exit 1
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" != 20 ]; then
  echo "warning: Node $(node --version); the committed fixtures were captured with Node 20" >&2
fi

make_work capture-node

# Keep the environment neutral so that reruns give the same output.
unset CI NO_COLOR FORCE_COLOR NODE_OPTIONS NODE_TEST_CONTEXT COLUMNS LINES \
  JEST_JUNIT_OUTPUT_DIR JEST_JUNIT_OUTPUT_NAME JEST_JUNIT_OUTPUT_FILE 2>/dev/null || true
export TERM=xterm-256color

# run_tty: an 80x24 terminal; script(1)'s own stderr stays on the console.
tty_size=80x24 tty_stderr=console

# ------------------------------------------------------------ npm project
proj="$work/npm"
mkdir -p "$proj"
cat >"$proj/package.json" <<'EOF'
{
  "name": "runner-fixtures",
  "version": "1.0.0",
  "private": true
}
EOF
echo "== npm install in $proj"
(cd "$proj" && npm install --no-audit --no-fund --loglevel=error -D -E \
  "jest@$JEST_VERSION" "jest-junit@$JEST_JUNIT_VERSION" "mocha@$MOCHA_VERSION" \
  "vite@$VITE_VERSION" "vitest@$VITEST_VERSION")
bin="$proj/node_modules/.bin"

# keep_json REPORT DEST: a JSON report, with the throwaway project's folder written as
# /build/runner-fixtures (the JSON reporters write absolute paths; the rest is as the runner wrote it).
keep_json() {
  sed "s#$proj#/build/runner-fixtures#g" "$1" >"$2"
}
cases="success failure zero-tests all-skipped mixed load-error"

# ===================================================================== jest
s="$proj/jest"
for c in $cases; do
  mkdir -p "$s/$c"
  # a cache inside the case folder, so earlier runs on the machine do not
  # change the order in which files are run
  printf "module.exports = { cacheDirectory: '<rootDir>/.jest-cache' };\n" >"$s/$c/jest.config.js"
done

cat >"$s/success/math.test.js" <<'EOF'
describe('math', () => {
  test('adds', () => {
    expect(1 + 1).toBe(2);
  });
  test('divides', () => {
    expect(Math.floor(7 / 2)).toBe(3);
  });
  test.each([1, 2, 3])('positive %i', (n) => {
    expect(n).toBeGreaterThan(0);
  });
});
EOF
cat >"$s/success/text.test.js" <<'EOF'
test('upper', () => {
  expect('ab'.toUpperCase()).toBe('AB');
});
test('split', () => {
  expect('a,b'.split(',')).toEqual(['a', 'b']);
});
EOF

cat >"$s/failure/calc.test.js" <<'EOF'
const add = (a, b) => a + b;

test('adds small numbers', () => {
  expect(add(1, 2)).toBe(3);
});
test('adds negative numbers', () => {
  expect(add(-1, -1)).toBe(-2);
});
test('adds zero', () => {
  expect(add(0, 0)).toBe(0);
});
test('wrong sum', () => {
  expect(add(2, 2)).toBe(5);
});
test('throws', () => {
  throw new Error('boom');
});
EOF

cat >"$s/zero-tests/util.js" <<'EOF'
// No test files in this folder.
module.exports = () => 42;
EOF

cat >"$s/all-skipped/skipped.test.js" <<'EOF'
test.skip('not implemented yet', () => {
  expect(true).toBe(false);
});
describe.skip('skipped group', () => {
  test('inside skipped group', () => {
    expect(true).toBe(false);
  });
});
xit('skipped with xit', () => {
  expect(true).toBe(false);
});
EOF

cat >"$s/mixed/mixed.test.js" <<'EOF'
describe('mixed', () => {
  test('passes one', () => {
    expect(1).toBe(1);
  });
  test('passes two', () => {
    expect([1, 2]).toContain(2);
  });
  test('passes three', () => {
    expect('x'.repeat(3)).toBe('xxx');
  });
  test('fails on assertion', () => {
    expect([1, 2, 3]).toEqual([1, 2, 4]);
  });
  test('fails on exception', () => {
    throw new Error('unexpected error');
  });
  test.skip('skipped', () => {});
  test.todo('write this test');
  test.failing('known bug (expected to fail)', () => {
    expect(1).toBe(2);
  });
});
EOF
cat >"$s/mixed/other.test.js" <<'EOF'
test('other passes one', () => {
  expect(true).toBe(true);
});
test('other passes two', () => {
  expect(null).toBeNull();
});
EOF

cat >"$s/load-error/ok.test.js" <<'EOF'
test('ok one', () => {
  expect(true).toBe(true);
});
test('ok two', () => {
  expect(true).toBe(true);
});
EOF
cat >"$s/load-error/broken.test.js" <<'EOF'
test('never runs', () => {
  expect(true).toBe(true);
};
EOF

dest="$stack_logs/jest"
fresh_dir "$dest"
echo "== jest $JEST_VERSION"
for c in $cases; do
  export JEST_JUNIT_OUTPUT_DIR="$s/$c" JEST_JUNIT_OUTPUT_NAME=report.xml
  run_piped "$dest/$c.log" "$s/$c" "$bin/jest" --reporters=default --reporters=jest-junit
  if [ -f "$s/$c/report.xml" ]; then cp "$s/$c/report.xml" "$dest/$c.junit.xml"; fi
  export JEST_JUNIT_OUTPUT_NAME=report-tty.xml
  run_tty "$dest/$c.tty.log" "$s/$c" "$bin/jest --reporters=default --reporters=jest-junit"
  unset JEST_JUNIT_OUTPUT_DIR JEST_JUNIT_OUTPUT_NAME
done
run_piped "$dest/zero-tests.pass-with-no-tests.log" "$s/zero-tests" "$bin/jest" --passWithNoTests
# jest --json: the report jest writes itself; the console run beside it is not kept.
dest_json="$stack_logs/jest-json"
fresh_json "$dest_json"
for c in $cases; do
  run_piped "$s/$c/json-console.log" "$s/$c" "$bin/jest" --json --outputFile=report.json
  if [ -f "$s/$c/report.json" ]; then keep_json "$s/$c/report.json" "$dest_json/$c.json"; fi
done
run_piped "$s/zero-tests/json-console.log" "$s/zero-tests" "$bin/jest" --json --outputFile=report.json --passWithNoTests
keep_json "$s/zero-tests/report.json" "$dest_json/zero-tests.pass-with-no-tests.json"
# missing-module: the only suite requires a module that does not exist, so no test runs at all.
mkdir -p "$s/missing-module"
printf "module.exports = { cacheDirectory: '<rootDir>/.jest-cache' };\n" >"$s/missing-module/jest.config.js"
cat >"$s/missing-module/missing.test.js" <<'EOF'
const { add } = require('./no-such-module');

test('adds', () => {
  expect(add(1, 1)).toBe(2);
});
EOF
run_piped "$dest/missing-module.log" "$s/missing-module" "$bin/jest"
run_tty "$dest/missing-module.tty.log" "$s/missing-module" "$bin/jest"
run_piped "$s/missing-module/json-console.log" "$s/missing-module" "$bin/jest" --json --outputFile=report.json
keep_json "$s/missing-module/report.json" "$dest_json/missing-module.json"
# partial-load: two suites run and pass; one requires a module that does not exist and one
# throws at its top level, so those two fail to load and run none of their tests.
mkdir -p "$s/partial-load"
printf "module.exports = { cacheDirectory: '<rootDir>/.jest-cache' };\n" >"$s/partial-load/jest.config.js"
cp "$s/load-error/ok.test.js" "$s/partial-load/ok.test.js"
cp "$s/success/text.test.js" "$s/partial-load/text.test.js"
cat >"$s/partial-load/missing.test.js" <<'EOF'
const { add } = require('./no-such-module');

test('adds', () => {
  expect(add(1, 1)).toBe(2);
});
EOF
cat >"$s/partial-load/throws.test.js" <<'EOF'
throw new Error('cannot load this test file');

test('never runs', () => {
  expect(true).toBe(true);
});
EOF
export JEST_JUNIT_OUTPUT_DIR="$s/partial-load" JEST_JUNIT_OUTPUT_NAME=report.xml
run_piped "$dest/partial-load.log" "$s/partial-load" "$bin/jest" --reporters=default --reporters=jest-junit
cp "$s/partial-load/report.xml" "$dest/partial-load.junit.xml"
export JEST_JUNIT_OUTPUT_NAME=report-tty.xml
run_tty "$dest/partial-load.tty.log" "$s/partial-load" "$bin/jest --reporters=default --reporters=jest-junit"
unset JEST_JUNIT_OUTPUT_DIR JEST_JUNIT_OUTPUT_NAME
run_piped "$s/partial-load/json-console.log" "$s/partial-load" "$bin/jest" --json --outputFile=report.json
keep_json "$s/partial-load/report.json" "$dest_json/partial-load.json"

# =================================================================== vitest
s="$proj/vitest"
for c in $cases; do mkdir -p "$s/$c"; done

cat >"$s/success/math.test.js" <<'EOF'
import { describe, expect, test } from 'vitest';

describe('math', () => {
  test('adds', () => {
    expect(1 + 1).toBe(2);
  });
  test('divides', () => {
    expect(Math.floor(7 / 2)).toBe(3);
  });
  test.each([1, 2, 3])('positive %i', (n) => {
    expect(n).toBeGreaterThan(0);
  });
});
EOF
cat >"$s/success/text.test.js" <<'EOF'
import { expect, test } from 'vitest';

test('upper', () => {
  expect('ab'.toUpperCase()).toBe('AB');
});
test('split', () => {
  expect('a,b'.split(',')).toEqual(['a', 'b']);
});
EOF

cat >"$s/failure/calc.test.js" <<'EOF'
import { expect, test } from 'vitest';

const add = (a, b) => a + b;

test('adds small numbers', () => {
  expect(add(1, 2)).toBe(3);
});
test('adds negative numbers', () => {
  expect(add(-1, -1)).toBe(-2);
});
test('adds zero', () => {
  expect(add(0, 0)).toBe(0);
});
test('wrong sum', () => {
  expect(add(2, 2)).toBe(5);
});
test('throws', () => {
  throw new Error('boom');
});
EOF

cat >"$s/zero-tests/util.js" <<'EOF'
// No test files in this folder.
export default () => 42;
EOF

cat >"$s/all-skipped/skipped.test.js" <<'EOF'
import { describe, expect, test } from 'vitest';

test.skip('not implemented yet', () => {
  expect(true).toBe(false);
});
describe.skip('skipped group', () => {
  test('inside skipped group', () => {
    expect(true).toBe(false);
  });
});
test('skipped at run time', (ctx) => {
  ctx.skip();
  expect(true).toBe(false);
});
EOF

cat >"$s/mixed/mixed.test.js" <<'EOF'
import { describe, expect, test } from 'vitest';

describe('mixed', () => {
  test('passes one', () => {
    expect(1).toBe(1);
  });
  test('passes two', () => {
    expect([1, 2]).toContain(2);
  });
  test('passes three', () => {
    expect('x'.repeat(3)).toBe('xxx');
  });
  test('fails on assertion', () => {
    expect([1, 2, 3]).toEqual([1, 2, 4]);
  });
  test('fails on exception', () => {
    throw new Error('unexpected error');
  });
  test.skip('skipped', () => {});
  test.todo('write this test');
  test.fails('known bug (expected to fail)', () => {
    expect(1).toBe(2);
  });
});
EOF
cat >"$s/mixed/other.test.js" <<'EOF'
import { expect, test } from 'vitest';

test('other passes one', () => {
  expect(true).toBe(true);
});
test('other passes two', () => {
  expect(null).toBeNull();
});
EOF

cat >"$s/load-error/ok.test.js" <<'EOF'
import { expect, test } from 'vitest';

test('ok one', () => {
  expect(true).toBe(true);
});
test('ok two', () => {
  expect(true).toBe(true);
});
EOF
cat >"$s/load-error/broken.test.js" <<'EOF'
import { expect, test } from 'vitest';

test('never runs', () => {
  expect(true).toBe(true);
};
EOF

dest="$stack_logs/vitest"
fresh_dir "$dest"
echo "== vitest $VITEST_VERSION (vite $VITE_VERSION)"
for c in $cases; do
  run_piped "$dest/$c.log" "$s/$c" "$bin/vitest" run --reporter=default --reporter=junit --outputFile.junit=report.xml
  if [ -f "$s/$c/report.xml" ]; then cp "$s/$c/report.xml" "$dest/$c.junit.xml"; fi
  run_tty "$dest/$c.tty.log" "$s/$c" "$bin/vitest run --reporter=default --reporter=junit --outputFile.junit=report-tty.xml"
done
run_piped "$dest/zero-tests.pass-with-no-tests.log" "$s/zero-tests" "$bin/vitest" run --passWithNoTests
# missing-module: the only test file imports a module that does not exist, so no test runs at all.
mkdir -p "$s/missing-module"
cat >"$s/missing-module/missing.test.js" <<'EOF'
import { expect, test } from 'vitest';
import { add } from './no-such-module.js';

test('adds', () => {
  expect(add(1, 1)).toBe(2);
});
EOF
run_piped "$dest/missing-module.log" "$s/missing-module" "$bin/vitest" run
run_tty "$dest/missing-module.tty.log" "$s/missing-module" "$bin/vitest run"
# partial-load: two files run and pass; one imports a module that does not exist and one
# throws at its top level, so those two fail to load and run none of their tests.
mkdir -p "$s/partial-load"
cp "$s/load-error/ok.test.js" "$s/partial-load/ok.test.js"
cp "$s/success/text.test.js" "$s/partial-load/text.test.js"
cp "$s/missing-module/missing.test.js" "$s/partial-load/missing.test.js"
cat >"$s/partial-load/throws.test.js" <<'EOF'
import { expect, test } from 'vitest';

throw new Error('cannot load this test file');

test('never runs', () => {
  expect(true).toBe(true);
});
EOF
run_piped "$dest/partial-load.log" "$s/partial-load" "$bin/vitest" run --reporter=default --reporter=junit --outputFile.junit=report.xml
cp "$s/partial-load/report.xml" "$dest/partial-load.junit.xml"
run_tty "$dest/partial-load.tty.log" "$s/partial-load" "$bin/vitest run --reporter=default --reporter=junit --outputFile.junit=report-tty.xml"

# ==================================================================== mocha
s="$proj/mocha"
for c in $cases; do mkdir -p "$s/$c/test"; done

cat >"$s/success/test/math.spec.js" <<'EOF'
const assert = require('node:assert');

describe('math', function () {
  it('adds', function () {
    assert.strictEqual(1 + 1, 2);
  });
  it('divides', function () {
    assert.strictEqual(Math.floor(7 / 2), 3);
  });
  it('waits asynchronously', async function () {
    await new Promise((resolve) => setTimeout(resolve, 1));
  });
});
EOF
cat >"$s/success/test/text.spec.js" <<'EOF'
const assert = require('node:assert');

describe('text', function () {
  it('upper', function () {
    assert.strictEqual('ab'.toUpperCase(), 'AB');
  });
  it('split', function () {
    assert.deepStrictEqual('a,b'.split(','), ['a', 'b']);
  });
});
EOF

cat >"$s/failure/test/calc.spec.js" <<'EOF'
const assert = require('node:assert');

const add = (a, b) => a + b;

describe('calc', function () {
  it('adds small numbers', function () {
    assert.strictEqual(add(1, 2), 3);
  });
  it('adds negative numbers', function () {
    assert.strictEqual(add(-1, -1), -2);
  });
  it('adds zero', function () {
    assert.strictEqual(add(0, 0), 0);
  });
  it('wrong sum', function () {
    assert.strictEqual(add(2, 2), 5);
  });
  it('throws', function () {
    throw new Error('boom');
  });
});
EOF

cat >"$s/zero-tests/test/empty.spec.js" <<'EOF'
// A spec file that declares a suite without any tests.
describe('nothing here', function () {});
EOF

cat >"$s/all-skipped/test/skipped.spec.js" <<'EOF'
const assert = require('node:assert');

describe('skipped', function () {
  it.skip('not implemented yet', function () {
    assert.fail('should not run');
  });
  it('pending without a body');
  it('skipped at run time', function () {
    this.skip();
  });
});
describe.skip('skipped group', function () {
  it('inside skipped group', function () {
    assert.fail('should not run');
  });
});
EOF

cat >"$s/mixed/test/mixed.spec.js" <<'EOF'
const assert = require('node:assert');

describe('mixed', function () {
  it('passes one', function () {
    assert.ok(true);
  });
  it('passes two', function () {
    assert.ok([1, 2].includes(2));
  });
  it('passes three', function () {
    assert.strictEqual('x'.repeat(3), 'xxx');
  });
  it('fails on assertion', function () {
    assert.deepStrictEqual([1, 2, 3], [1, 2, 4]);
  });
  it('fails on exception', function () {
    throw new Error('unexpected error');
  });
  it.skip('skipped', function () {});
  it('pending without a body');
});

describe('with a broken hook', function () {
  before(function () {
    throw new Error('setup failed');
  });
  it('never runs because the hook failed', function () {
    assert.ok(true);
  });
});
EOF

cat >"$s/load-error/test/ok.spec.js" <<'EOF'
const assert = require('node:assert');

describe('ok', function () {
  it('one', function () {
    assert.ok(true);
  });
  it('two', function () {
    assert.ok(true);
  });
});
EOF
cat >"$s/load-error/test/broken.spec.js" <<'EOF'
describe('broken', function () {
  it('never runs', function () {
  };
});
EOF

mkdir -p "$s/no-files"
dest="$stack_logs/mocha"
fresh_dir "$dest"
echo "== mocha $MOCHA_VERSION"
for c in $cases; do
  run_piped "$dest/$c.log" "$s/$c" "$bin/mocha"
  run_tty "$dest/$c.tty.log" "$s/$c" "$bin/mocha"
  run_piped "$dest/$c.tap.log" "$s/$c" "$bin/mocha" --reporter tap
  # with output=FILE the xunit reporter prints nothing to the console
  run_piped "$s/$c/xunit-console.log" "$s/$c" "$bin/mocha" --reporter xunit --reporter-option output=report.xml
  if [ -f "$s/$c/report.xml" ]; then cp "$s/$c/report.xml" "$dest/$c.junit.xml"; fi
done
run_piped "$dest/zero-tests.no-files.log" "$s/no-files" "$bin/mocha"
# mocha --reporter json: with output=FILE the report goes to the file, the console keeps the rest
# (a file that fails to load is reported there, and the json reporter then writes nothing).
dest_json="$stack_logs/mocha-json"
fresh_json "$dest_json"
for c in $cases; do
  run_piped "$s/$c/json-console.log" "$s/$c" "$bin/mocha" --reporter json --reporter-option output=report.json
  if [ -f "$s/$c/report.json" ]; then keep_json "$s/$c/report.json" "$dest_json/$c.json"; fi
done

# ================================================================ node-test
# Outside the npm project: node --test needs no packages.
s="$work/node-test"
for c in $cases no-files; do mkdir -p "$s/$c"; done

cat >"$s/success/math.test.js" <<'EOF'
const { test } = require('node:test');
const assert = require('node:assert');

test('adds', () => {
  assert.strictEqual(1 + 1, 2);
});
test('divides', () => {
  assert.strictEqual(Math.floor(7 / 2), 3);
});
test('waits asynchronously', async () => {
  await new Promise((resolve) => setTimeout(resolve, 1));
});
EOF
cat >"$s/success/text.test.js" <<'EOF'
const { describe, it } = require('node:test');
const assert = require('node:assert');

describe('text', () => {
  it('upper', () => {
    assert.strictEqual('ab'.toUpperCase(), 'AB');
  });
  it('split', () => {
    assert.deepStrictEqual('a,b'.split(','), ['a', 'b']);
  });
});
EOF

cat >"$s/failure/calc.test.js" <<'EOF'
const { test } = require('node:test');
const assert = require('node:assert');

const add = (a, b) => a + b;

test('adds small numbers', () => {
  assert.strictEqual(add(1, 2), 3);
});
test('adds negative numbers', () => {
  assert.strictEqual(add(-1, -1), -2);
});
test('adds zero', () => {
  assert.strictEqual(add(0, 0), 0);
});
test('wrong sum', () => {
  assert.strictEqual(add(2, 2), 5);
});
test('throws', () => {
  throw new Error('boom');
});
EOF

cat >"$s/zero-tests/empty.test.js" <<'EOF'
// A test file that declares no tests.
require('node:test');
module.exports = () => 42;
EOF

cat >"$s/all-skipped/skipped.test.js" <<'EOF'
const { test } = require('node:test');
const assert = require('node:assert');

test.skip('not implemented yet', () => {
  assert.fail('should not run');
});
test('skipped by option', { skip: 'needs a database' }, () => {
  assert.fail('should not run');
});
test('skipped at run time', (t) => {
  t.skip('decided at run time');
});
EOF

cat >"$s/mixed/mixed.test.js" <<'EOF'
const { describe, it, test } = require('node:test');
const assert = require('node:assert');

test('passes one', () => {
  assert.ok(true);
});
describe('group', () => {
  it('passes two', () => {
    assert.ok([1, 2].includes(2));
  });
  it('fails on assertion', () => {
    assert.deepStrictEqual([1, 2, 3], [1, 2, 4]);
  });
});
test('passes three', async () => {
  assert.strictEqual('x'.repeat(3), 'xxx');
});
test('fails on exception', () => {
  throw new Error('unexpected error');
});
test.skip('skipped', () => {});
test.todo('write this test');
test('known bug', { todo: 'fix the parser' }, () => {
  assert.strictEqual(1, 2);
});
EOF

cat >"$s/load-error/ok.test.js" <<'EOF'
const { test } = require('node:test');
const assert = require('node:assert');

test('ok one', () => {
  assert.ok(true);
});
test('ok two', () => {
  assert.ok(true);
});
EOF
cat >"$s/load-error/broken.test.js" <<'EOF'
const { test } = require('node:test');

throw new Error('cannot load this test file');

test('never runs', () => {});
EOF

dest="$stack_logs/node-test"
fresh_dir "$dest"
echo "== node --test ($(node --version))"
for c in $cases; do
  # default reporter: tap when piped, spec on a terminal (Node 20)
  run_piped "$dest/$c.log" "$s/$c" node --test
  run_tty "$dest/$c.tty.log" "$s/$c" "node --test"
  run_piped "$dest/$c.spec.log" "$s/$c" node --test --test-reporter=spec
  run_piped "$dest/$c.dot.log" "$s/$c" node --test --test-reporter=dot
  run_piped "$dest/$c.tap.log" "$s/$c" node --test \
    --test-reporter=tap --test-reporter-destination=stdout \
    --test-reporter=junit --test-reporter-destination=report.xml
  cp "$s/$c/report.xml" "$dest/$c.junit.xml"
done
run_piped "$dest/zero-tests.no-files.log" "$s/no-files" node --test

echo "== done: fixtures written to tests/fixtures/stack-logs/{jest,jest-json,vitest,mocha,mocha-json,node-test}"
