#!/usr/bin/env bash
# Capture the Python fixtures whose closing lines alone do not carry the truth, from real runs:
#   tests/fixtures/stack-logs/pytest/teardown-errors.*   teardown errors of passing and failing tests
#   tests/fixtures/stack-logs/pytest/subtests.*          unittest subTest failures
#   tests/fixtures/stack-logs/pytest/subtests-fixture.*  pytest's `subtests` fixture (pytest-subtests)
#   tests/fixtures/stack-logs/pytest/killed*.log         sessions killed before their closing line
#   tests/fixtures/stack-logs/unittest/subtests*.log     the subTest suite under python -m unittest
# Run after python.sh (whose fresh_dir clears the folders); only these files are rewritten.
# expected.json and README.md are maintained by hand and are not touched.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PYTHON=${PYTHON:-python3}
PYTEST_VERSION=${PYTEST_VERSION:-9.2.0}
SUBTESTS_VERSION=${SUBTESTS_VERSION:-0.15.0}
# pytest 8 with the pytest-subtests plugin, which writes its short test summary differently.
PYTEST8_VERSION=${PYTEST8_VERSION:-8.3.5}
SUBTESTS8_VERSION=${SUBTESTS8_VERSION:-0.14.1}

apt_install if-root python3 python3-venv

make_work capture-python-sessions

unset CI NO_COLOR FORCE_COLOR PY_COLORS PYTEST_ADDOPTS PYTEST_PLUGINS COLUMNS LINES \
  PYTHONWARNINGS PYTHONDONTWRITEBYTECODE 2>/dev/null || true

echo "== creating a virtual environment in $work"
"$PYTHON" -m venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check "pytest==$PYTEST_VERSION" \
  "pytest-subtests==$SUBTESTS_VERSION"
pytest="$work/venv/bin/pytest"
"$PYTHON" -m venv "$work/venv8"
"$work/venv8/bin/pip" install -q --disable-pip-version-check "pytest==$PYTEST8_VERSION" \
  "pytest-subtests==$SUBTESTS8_VERSION"

s="$work/pytest"
mkdir -p "$s"/{teardown-errors,subtests,subtests-fixture,killed}
for c in teardown-errors subtests subtests-fixture killed; do
  printf '[pytest]\n' >"$s/$c/pytest.ini"
done

cat >"$s/teardown-errors/test_teardown.py" <<'EOF'
import pytest


@pytest.fixture
def leaky():
    yield 1
    raise RuntimeError("teardown failed")


@pytest.fixture
def broken():
    raise RuntimeError("setup failed")


def test_passes_then_teardown_fails(leaky):
    assert leaky == 1


def test_also_passes_then_teardown_fails(leaky):
    assert leaky


def test_fails_then_teardown_fails(leaky):
    assert leaky == 2


def test_setup_fails(broken):
    assert broken


def test_plain_pass():
    assert True
EOF

cat >"$s/subtests/test_subtests.py" <<'EOF'
import unittest


class NumberTests(unittest.TestCase):
    def test_even(self):
        for n in (0, 1, 2, 3):
            with self.subTest(n=n):
                self.assertEqual(n % 2, 0)

    def test_all_pass(self):
        for n in (0, 2):
            with self.subTest(n=n):
                self.assertEqual(n % 2, 0)

    def test_plain(self):
        self.assertTrue(True)
EOF

cat >"$s/subtests-fixture/test_subtests_fixture.py" <<'EOF'
def test_even(subtests):
    for n in (0, 1, 2, 3):
        with subtests.test(msg="even", n=n):
            assert n % 2 == 0


def test_all_pass(subtests):
    for n in (0, 2):
        with subtests.test(n=n):
            assert n % 2 == 0


def test_plain():
    assert True
EOF

cat >"$s/killed/test_killed.py" <<'EOF'
import time


def test_first():
    assert True


def test_prints_a_closing_line():
    print("\n============================== 40 passed in 1.00s ==============================")


def test_hangs():
    time.sleep(60)


def test_after():
    assert True
EOF

dest="$stack_logs/pytest"
mkdir -p "$dest"
rm -f "$dest"/teardown-errors.* "$dest"/subtests.* "$dest"/subtests-fixture.* "$dest"/killed*.log
echo "== pytest $PYTEST_VERSION, pytest-subtests $SUBTESTS_VERSION"
for c in teardown-errors subtests subtests-fixture; do
  run_piped "$dest/$c.log" "$s/$c" "$pytest" -p no:cacheprovider --junitxml=report.xml
  cp "$s/$c/report.xml" "$dest/$c.junit.xml"
done
run_piped "$dest/teardown-errors.tb-no.log" "$s/teardown-errors" "$pytest" -p no:cacheprovider --tb=no
run_piped "$dest/subtests.verbose.log" "$s/subtests" "$pytest" -p no:cacheprovider -v
echo "== pytest $PYTEST8_VERSION, pytest-subtests $SUBTESTS8_VERSION"
run_piped "$dest/subtests.pytest8.log" "$s/subtests" "$work/venv8/bin/pytest" -p no:cacheprovider
run_piped "$dest/subtests-fixture.pytest8.log" "$s/subtests-fixture" "$work/venv8/bin/pytest" -p no:cacheprovider
# A session killed (as a CI timeout does) while test_hangs sleeps: with -s the line printed by
# test_prints_a_closing_line stands in the log like pytest's own closing line.
run_piped "$dest/killed-after-closing-line.log" "$s/killed" timeout -s KILL 5 "$pytest" -p no:cacheprovider -s
run_piped "$dest/killed.log" "$s/killed" timeout -s KILL 5 "$pytest" -p no:cacheprovider

dest="$stack_logs/unittest"
mkdir -p "$dest"
rm -f "$dest"/subtests*.log
echo "== $("$work/venv/bin/python" --version) unittest"
run_piped "$dest/subtests.log" "$s/subtests" "$work/venv/bin/python" -m unittest
run_piped "$dest/subtests.verbose.log" "$s/subtests" "$work/venv/bin/python" -m unittest -v

echo "== done: fixtures written to tests/fixtures/stack-logs/{pytest,unittest}"
