#!/usr/bin/env bash
# Regenerate the Python runner fixtures from real runs:
#   tests/fixtures/stack-logs/pytest/    (pytest, pytest-xdist, pytest 7.x)
#   tests/fixtures/stack-logs/unittest/  (python -m unittest)
# The suites are written below, run in a throwaway directory under /tmp, and the
# raw output is copied into the fixture folders. expected.json and README.md in
# those folders are maintained by hand and are not touched.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PYTHON=${PYTHON:-python3}
PYTEST_VERSION=${PYTEST_VERSION:-9.2.0}
PYTEST7_VERSION=${PYTEST7_VERSION:-7.4.4}
XDIST_VERSION=${XDIST_VERSION:-3.8.0}

# ---------------------------------------------------------------- tools
# bsdutils provides script(1) for the pseudo-terminal captures.
apt_install if-root bsdutils python3 python3-venv

make_work capture-python

# Keep the environment neutral so that reruns give the same output.
unset CI NO_COLOR FORCE_COLOR PY_COLORS PYTEST_ADDOPTS PYTEST_PLUGINS COLUMNS LINES \
  PYTHONWARNINGS PYTHONDONTWRITEBYTECODE 2>/dev/null || true
export TERM=xterm-256color

# run_tty: an 80x24 terminal; script(1)'s own stderr stays on the console.
tty_size=80x24 tty_stderr=console

echo "== creating virtual environments in $work"
"$PYTHON" -m venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check "pytest==$PYTEST_VERSION"
"$PYTHON" -m venv "$work/venv7"
"$work/venv7/bin/pip" install -q --disable-pip-version-check "pytest==$PYTEST7_VERSION"
py="$work/venv/bin/python"

# =================================================================== pytest
s="$work/pytest"
mkdir -p "$s"/{success,failure,zero-tests,all-skipped,mixed,load-error}
for c in success failure zero-tests all-skipped mixed load-error; do
  printf '[pytest]\n' >"$s/$c/pytest.ini"
done

cat >"$s/success/test_math.py" <<'EOF'
import pytest


def test_addition():
    assert 1 + 1 == 2


def test_division():
    assert 7 // 2 == 3


@pytest.mark.parametrize("n", [1, 2, 3])
def test_positive(n):
    assert n > 0
EOF
cat >"$s/success/test_text.py" <<'EOF'
class TestText:
    def test_upper(self):
        assert "ab".upper() == "AB"

    def test_split(self):
        assert "a,b".split(",") == ["a", "b"]
EOF

cat >"$s/failure/test_calc.py" <<'EOF'
def add(a, b):
    return a + b


def test_add_small():
    assert add(1, 2) == 3


def test_add_negative():
    assert add(-1, -1) == -2


def test_add_zero():
    assert add(0, 0) == 0


def test_add_wrong():
    assert add(2, 2) == 5


def test_add_raises():
    raise ValueError("boom")
EOF

cat >"$s/zero-tests/test_nothing.py" <<'EOF'
# A test module without any test functions.
def compute_answer():
    return 42
EOF

cat >"$s/all-skipped/test_skipped.py" <<'EOF'
import sys

import pytest


@pytest.mark.skip(reason="not implemented yet")
def test_marker():
    assert False


@pytest.mark.skipif(sys.version_info > (2, 0), reason="needs Python 2")
def test_skipif():
    assert False


def test_imperative():
    pytest.skip("skipped at run time")
EOF

cat >"$s/mixed/test_mixed.py" <<'EOF'
import pytest


@pytest.fixture
def broken_resource():
    raise RuntimeError("resource unavailable")


@pytest.mark.parametrize("value", [1, 2])
def test_param_pass(value):
    assert value in (1, 2)


def test_plain_pass():
    assert True


def test_assert_fails():
    assert [1, 2, 3] == [1, 2, 4]


def test_exception_fails():
    raise KeyError("missing")


@pytest.mark.skip(reason="skipped by marker")
def test_skip_marker():
    pass


def test_skip_runtime():
    pytest.skip("skipped at run time")


@pytest.mark.xfail(reason="known bug")
def test_expected_failure():
    assert 1 == 2


@pytest.mark.xfail(reason="bug fixed?")
def test_unexpected_pass():
    assert 1 == 1


def test_fixture_error(broken_resource):
    assert broken_resource
EOF

cat >"$s/load-error/test_ok.py" <<'EOF'
def test_one():
    assert True


def test_two():
    assert True
EOF
cat >"$s/load-error/test_broken.py" <<'EOF'
import missing_module_for_fixture  # noqa: F401


def test_never_runs():
    assert True
EOF

dest="$stack_logs/pytest"
fresh_dir "$dest"
echo "== pytest $PYTEST_VERSION"
for c in success failure zero-tests all-skipped mixed load-error; do
  run_piped "$dest/$c.log" "$s/$c" "$work/venv/bin/pytest" --junitxml=report.xml
  cp "$s/$c/report.xml" "$dest/$c.junit.xml"
  run_tty "$dest/$c.tty.log" "$s/$c" "$work/venv/bin/pytest --junitxml=report-tty.xml"
done
run_piped "$dest/mixed.verbose.log" "$s/mixed" "$work/venv/bin/pytest" -v

echo "== pytest $PYTEST7_VERSION"
run_piped "$dest/mixed.pytest7.log" "$s/mixed" "$work/venv7/bin/pytest"

echo "== pytest-xdist $XDIST_VERSION"
if "$work/venv/bin/pip" install -q --disable-pip-version-check "pytest-xdist==$XDIST_VERSION"; then
  run_piped "$dest/mixed.xdist.log" "$s/mixed" "$work/venv/bin/pytest" -n 2
else
  echo "   pytest-xdist could not be installed; mixed.xdist.log not captured" >&2
fi

# ================================================================= unittest
u="$work/unittest"
mkdir -p "$u"/{success,failure,zero-tests,all-skipped,mixed,load-error}

cat >"$u/success/test_success.py" <<'EOF'
import unittest


class MathTests(unittest.TestCase):
    def test_addition(self):
        self.assertEqual(1 + 1, 2)

    def test_division(self):
        self.assertEqual(7 // 2, 3)


class TextTests(unittest.TestCase):
    def test_upper(self):
        self.assertEqual("ab".upper(), "AB")

    def test_split(self):
        self.assertEqual("a,b".split(","), ["a", "b"])
EOF

cat >"$u/failure/test_failure.py" <<'EOF'
import unittest


class CalcTests(unittest.TestCase):
    def test_add_small(self):
        self.assertEqual(1 + 2, 3)

    def test_add_negative(self):
        self.assertEqual(-1 + -1, -2)

    def test_add_zero(self):
        self.assertEqual(0 + 0, 0)

    def test_add_wrong(self):
        self.assertEqual(2 + 2, 5)
EOF

cat >"$u/zero-tests/test_empty.py" <<'EOF'
import unittest


class EmptyTests(unittest.TestCase):
    def compute_answer(self):
        return 42
EOF

cat >"$u/all-skipped/test_skipped.py" <<'EOF'
import sys
import unittest


class SkippedTests(unittest.TestCase):
    @unittest.skip("not implemented yet")
    def test_decorator(self):
        self.fail()

    @unittest.skipIf(sys.version_info > (2, 0), "needs Python 2")
    def test_skipif(self):
        self.fail()

    def test_runtime(self):
        self.skipTest("skipped at run time")
EOF

cat >"$u/mixed/test_mixed.py" <<'EOF'
import unittest


class MixedTests(unittest.TestCase):
    def test_pass_one(self):
        self.assertTrue(True)

    def test_pass_two(self):
        self.assertIn(2, [1, 2])

    def test_pass_three(self):
        self.assertEqual("x" * 3, "xxx")

    def test_fails(self):
        self.assertEqual([1, 2, 3], [1, 2, 4])

    def test_errors(self):
        raise RuntimeError("unexpected error")

    @unittest.skip("skipped by decorator")
    def test_skip_decorator(self):
        pass

    def test_skip_runtime(self):
        self.skipTest("skipped at run time")

    @unittest.expectedFailure
    def test_expected_failure(self):
        self.assertEqual(1, 2)

    @unittest.expectedFailure
    def test_unexpected_success(self):
        self.assertEqual(1, 1)
EOF

cat >"$u/load-error/test_ok.py" <<'EOF'
import unittest


class OkTests(unittest.TestCase):
    def test_one(self):
        self.assertTrue(True)

    def test_two(self):
        self.assertTrue(True)
EOF
cat >"$u/load-error/test_broken.py" <<'EOF'
import unittest

import missing_module_for_fixture  # noqa: F401


class BrokenTests(unittest.TestCase):
    def test_never_runs(self):
        pass
EOF

dest="$stack_logs/unittest"
fresh_dir "$dest"
echo "== $("$py" --version) unittest"
# unittest prints the same bytes on a terminal (no colour, no progress
# rewriting), so no .tty.log is kept for it.
for c in success failure zero-tests all-skipped mixed load-error; do
  run_piped "$dest/$c.log" "$u/$c" "$py" -m unittest
  run_piped "$dest/$c.verbose.log" "$u/$c" "$py" -m unittest -v
done

echo "== done: fixtures written to tests/fixtures/stack-logs/{pytest,unittest}"
