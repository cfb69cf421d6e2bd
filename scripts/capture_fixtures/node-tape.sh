#!/usr/bin/env bash
# Capture tape test files run under `node --test`, from real runs:
#   tests/fixtures/stack-logs/node-test/tape-*.log
# node runs each file as a subprocess and, since the file prints TAP of its own rather than
# node:test's, reports the whole file as one test and passes the file's output through: as `# `
# comments under the tap reporter, verbatim under spec. Run after node.sh (whose fresh_dir clears
# the folder); only these files are rewritten. expected.json and README.md are maintained by hand.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TAPE_VERSION=${TAPE_VERSION:-5.10.2}

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "node and npm are required (Node 20 was used for the committed fixtures)" >&2
  exit 1
fi

make_work capture-node-tape
unset CI NO_COLOR FORCE_COLOR NODE_OPTIONS NODE_TEST_CONTEXT COLUMNS LINES 2>/dev/null || true

proj="$work/npm"
mkdir -p "$proj/tape-success" "$proj/tape-failure"
printf '{\n  "name": "tape-fixtures",\n  "version": "1.0.0",\n  "private": true\n}\n' >"$proj/package.json"
echo "== npm install tape@$TAPE_VERSION in $proj"
(cd "$proj" && npm install --no-audit --no-fund --loglevel=error -D -E "tape@$TAPE_VERSION")

cat >"$proj/tape-success/math.test.js" <<'EOF'
const test = require('tape');

test('adds', (t) => {
  t.equal(1 + 1, 2, 'one plus one');
  t.equal(2 + 2, 4, 'two plus two');
  t.end();
});

test('divides', (t) => {
  t.equal(Math.floor(7 / 2), 3, 'rounds down');
  t.end();
});

test('not written yet', { skip: true }, (t) => {
  t.fail('never runs');
  t.end();
});
EOF
cat >"$proj/tape-success/text.test.js" <<'EOF'
const test = require('tape');

test('text', (t) => {
  t.equal('ab'.toUpperCase(), 'AB', 'upper');
  t.deepEqual('a,b'.split(','), ['a', 'b'], 'split');
  t.end();
});
EOF
cp "$proj/tape-success/"*.test.js "$proj/tape-failure/"
cat >"$proj/tape-failure/calc.test.js" <<'EOF'
const test = require('tape');

test('wrong sum', (t) => {
  t.equal(2 + 2, 5, 'two plus two is five');
  t.ok(true, 'still fine');
  t.end();
});
EOF

dest="$stack_logs/node-test"
mkdir -p "$dest"
rm -f "$dest"/tape-*.log
echo "== node --test ($(node --version)) on tape $TAPE_VERSION files"
for c in tape-success tape-failure; do
  # default reporter when piped: tap
  run_piped "$dest/$c.log" "$proj/$c" node --test
  run_piped "$dest/$c.spec.log" "$proj/$c" node --test --test-reporter=spec
done

echo "== done: fixtures written to tests/fixtures/stack-logs/node-test"
