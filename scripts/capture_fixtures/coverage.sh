#!/usr/bin/env bash
# Regenerate tests/fixtures/coverage/<tool>/ from real coverage tools:
#   coveragepy/  coverage.py (pytest-cov, and coverage's own dynamic_context)
#   c8/          c8 (V8 coverage) of a package in packages/web/ of a repository
#   nyc/         nyc (istanbul instrumentation)
#   go/          go test -coverprofile, of a module in services/shop/ of a repository
#   jacoco/      JaCoCo (Debian's libjacoco-java agent, XML written through its report API)
#   phpunit/     PHPUnit with pcov
# Every tool gets the same tiny production module: total(items) with a discount branch (taken
# only for totals over 100) and an unused helper that no test calls; the tests call total with a
# small order only (coverage.py's second test file takes the discount branch), so some lines are
# covered and some are not. Each fixture folder stands for the project's repository root: the
# report files sit at its top, the sources the reports cover sit at their paths in the project,
# and README.md (written here too) names the tool, its version, the command and where the report
# was written. Each folder is deleted and written anew on every run. Needs root (apt-get) and
# Node >= 20.19 with npm (c8 12).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PYTHON=${PYTHON:-python3}
COVERAGE_VERSION=${COVERAGE_VERSION:-7.17.5}
PYTEST_VERSION=${PYTEST_VERSION:-9.2.0}
PYTEST_COV_VERSION=${PYTEST_COV_VERSION:-7.1.0}
C8_VERSION=${C8_VERSION:-12.0.0}
NYC_VERSION=${NYC_VERSION:-18.0.0}

out_root="$repo/tests/fixtures/coverage"

# ---------------------------------------------------------------- tools
apt_install quiet python3 python3-venv golang-go default-jdk-headless junit4 libhamcrest-java \
  libjacoco-java libasm-java unzip phpunit php-cli php-pcov

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "node and npm are required (c8 $C8_VERSION needs Node ^20.19 || ^22.12 || >=23)" >&2
  exit 1
fi

make_work capture-coverage
# The Go module cache under $work is read-only: make it writable before removing it.
trap 'chmod -R u+w "$work" 2>/dev/null || true; rm -rf "$work"' EXIT

unset CI NO_COLOR FORCE_COLOR NODE_OPTIONS NODE_TEST_CONTEXT NODE_V8_COVERAGE COLUMNS LINES \
  PYTEST_ADDOPTS PYTEST_PLUGINS COVERAGE_FILE COVERAGE_RCFILE COVERAGE_PROCESS_START \
  JAVA_TOOL_OPTIONS _JAVA_OPTIONS 2>/dev/null || true
export LC_ALL=C.UTF-8 LANG=C.UTF-8

logs="$work/logs"
mkdir -p "$logs"

# step LOG CMD...: CMD's output into $logs/LOG; on failure show the log's end and stop.
step() {
  local log="$logs/$1" rc=0
  shift
  "$@" >>"$log" 2>&1 || rc=$?
  if [ "$rc" != 0 ]; then
    echo "failed (exit $rc): $*" >&2
    tail -n 40 "$log" >&2
    exit "$rc"
  fi
}

# new_out TOOL: a fresh, empty fixture folder; sets $out.
new_out() {
  out="$out_root/$1"
  rm -rf "$out"
  mkdir -p "$out"
}

# keep SRC_ROOT PATH...: copy each PATH (relative to SRC_ROOT) to the same path under $out.
keep() {
  local root=$1 p
  shift
  for p in "$@"; do
    mkdir -p "$out/$(dirname "$p")"
    cp "$root/$p" "$out/$p"
  done
}

# ================================================================ coveragepy
p="$work/coveragepy"
mkdir -p "$p/shop" "$p/tests"
"$PYTHON" -m venv "$work/venv"
step coveragepy.log "$work/venv/bin/pip" install -q --disable-pip-version-check \
  "coverage==$COVERAGE_VERSION" "pytest==$PYTEST_VERSION" "pytest-cov==$PYTEST_COV_VERSION"
vbin="$work/venv/bin"

printf '[pytest]\ntestpaths = tests\n' >"$p/pytest.ini"
: >"$p/shop/__init__.py"
cat >"$p/shop/cart.py" <<'EOF'
"""A tiny shopping-cart module used as a coverage subject."""


def total(items):
    """Sum the item prices; orders over 100 get a 10% discount."""
    amount = sum(items)
    if amount > 100:
        amount = amount * 0.9
    return amount


def unused_helper(items):
    """No test calls this."""
    return len(items)
EOF
# tests/ is a package, so coverage's test_function contexts are tests.test_cart.test_small.
: >"$p/tests/__init__.py"
cat >"$p/tests/test_cart.py" <<'EOF'
from shop.cart import total


def test_small():
    assert total([10, 20]) == 30
EOF
cat >"$p/tests/test_other.py" <<'EOF'
from shop.cart import total


def test_large_order():
    assert total([100, 50]) == 135
EOF

cd "$p"
step coveragepy.log "$vbin/pytest" -p no:cacheprovider --cov=shop --cov-context=test
step coveragepy.log "$vbin/coverage" json --show-contexts
step coveragepy.log "$vbin/coverage" xml
# The same tests again under coverage's own dynamic contexts (no pytest-cov).
printf '[run]\nsource = shop\ndynamic_context = test_function\n' >"$p/.coveragerc"
step coveragepy.log "$vbin/coverage" erase
step coveragepy.log "$vbin/coverage" run -m pytest -p no:cacheprovider -p no:cov
step coveragepy.log "$vbin/coverage" json --show-contexts -o coverage-dynamic.json

new_out coveragepy
cp coverage.json coverage.xml coverage-dynamic.json "$out/"
keep "$p" pytest.ini shop/__init__.py shop/cart.py tests/__init__.py tests/test_cart.py \
  tests/test_other.py
cov_version=$("$vbin/coverage" --version | head -n 1)
pycov_version=$("$vbin/python" -c 'import importlib.metadata as m; print(m.version("pytest-cov"))')
pytest_version=$("$vbin/python" -c 'import importlib.metadata as m; print(m.version("pytest"))')
py_version=$("$vbin/python" -c 'import platform; print(platform.python_version())')
cat >"$out/README.md" <<EOF
# coverage.py fixtures

Real reports from $cov_version (pytest $pytest_version, pytest-cov $pycov_version,
Python $py_version), written by \`scripts/capture_fixtures/coverage.sh\`; do not edit by hand.

This folder stands for the project root: the reports were written at its top, next to
\`shop/\` and \`tests/\`; the sources here are the ones measured.

project root at capture: $p

- \`coverage.json\`, \`coverage.xml\`: run in the project root as

      pytest -p no:cacheprovider --cov=shop --cov-context=test
      coverage json --show-contexts
      coverage xml

  Contexts are pytest-cov's: \`tests/test_cart.py::test_small|run\`,
  \`tests/test_other.py::test_large_order|run\`, and \`""\` for lines run at import time.
- \`coverage-dynamic.json\`: then, with a \`.coveragerc\` of

      [run]
      source = shop
      dynamic_context = test_function

  and without pytest-cov:

      coverage erase
      coverage run -m pytest -p no:cacheprovider -p no:cov
      coverage json --show-contexts -o coverage-dynamic.json

  Contexts are coverage's own: \`tests.test_cart.test_small\`,
  \`tests.test_other.test_large_order\`, and \`""\`.

Paths: \`files\` keys in the JSON and \`filename\` in the XML are relative to the project root
(\`shop/cart.py\`); the XML's \`<source>\` is the absolute project root at capture (above).
\`test_cart.py\` calls \`total\` with a small order only; \`test_other.py\` takes the discount
line; \`unused_helper\`'s body is never run. Timestamps change on every capture.
EOF
echo "  coveragepy: coverage.json coverage.xml coverage-dynamic.json ($cov_version)"

# ================================================================ c8, nyc
tools="$work/npm-tools"
mkdir -p "$tools"
printf '{\n  "name": "coverage-tools",\n  "version": "1.0.0",\n  "private": true\n}\n' \
  >"$tools/package.json"
(cd "$tools" && step npm.log npm install --no-audit --no-fund --loglevel=error -D -E \
  "c8@$C8_VERSION" "nyc@$NYC_VERSION")

write_js_package() {
  local d=$1
  mkdir -p "$d/src" "$d/test"
  printf '{\n  "name": "web",\n  "version": "1.0.0",\n  "private": true\n}\n' >"$d/package.json"
  cat >"$d/src/cart.js" <<'EOF'
'use strict';

// A tiny shopping-cart module used as a coverage subject.

// Sum the item prices; orders over 100 get a 10% discount.
function total(items) {
  let amount = items.reduce((sum, price) => sum + price, 0);
  if (amount > 100) {
    amount = amount * 0.9;
  }
  return amount;
}

// No test calls this.
function unused_helper(items) {
  return items.length;
}

module.exports = { total, unused_helper };
EOF
  cat >"$d/test/cart.test.js" <<'EOF'
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { total } = require('../src/cart.js');

test('small order', () => {
  assert.strictEqual(total([10, 20]), 30);
});
EOF
}

# ---------------------------------------------------------------- c8: packages/web/ of a repo
r="$work/c8"
mkdir -p "$r"
printf '{\n  "name": "shop-monorepo",\n  "private": true,\n  "workspaces": ["packages/*"]\n}\n' \
  >"$r/package.json"
write_js_package "$r/packages/web"
cd "$r/packages/web"
step c8.log "$tools/node_modules/.bin/c8" --reporter=lcov --reporter=json --reporter=cobertura \
  node --test test/cart.test.js

new_out c8
cp coverage/lcov.info coverage/coverage-final.json coverage/cobertura-coverage.xml "$out/"
keep "$r" package.json packages/web/package.json packages/web/src/cart.js \
  packages/web/test/cart.test.js
# (c8 --version would print the version of the package.json in the current folder.)
c8_version=$(node -p 'require(process.argv[1]).version' "$tools/node_modules/c8/package.json")
cat >"$out/README.md" <<EOF
# c8 fixtures

Real reports from c8 $c8_version (Node $(node --version)), written by
\`scripts/capture_fixtures/coverage.sh\`; do not edit by hand.

This folder stands for the repository root; the package measured is \`packages/web/\`. c8 ran
inside \`packages/web/\` (from a throwaway node_modules outside the repository) as

    c8 --reporter=lcov --reporter=json --reporter=cobertura node --test test/cart.test.js

and wrote its reports to \`packages/web/coverage/\`; they are copied to the top of this folder.

project root at capture: $r
package root at capture: $r/packages/web

Paths, as the tool wrote them:
- \`lcov.info\`: \`SF:src/cart.js\`, relative to \`packages/web/\`.
- \`coverage-final.json\` (istanbul JSON, from \`--reporter=json\`): keys and \`path\` are
  absolute, under the package root at capture.
- \`cobertura-coverage.xml\`: \`filename="src/cart.js"\`, relative to its \`<source>\`, which is
  the absolute package root at capture. Its DOCTYPE,
  \`<!DOCTYPE coverage SYSTEM "http://cobertura.sourceforge.net/xml/coverage-04.dtd">\`, is kept
  as written.

The test calls \`total\` with a small order only: the discount branch and \`unused_helper\`
are not covered (c8 counts every line of the file, comments included). Timestamps change on
every capture.
EOF
echo "  c8: lcov.info coverage-final.json cobertura-coverage.xml (c8 $c8_version)"

# ---------------------------------------------------------------- nyc: project at the repo root
r="$work/nyc"
write_js_package "$r"
cd "$r"
step nyc.log "$tools/node_modules/.bin/nyc" --reporter=lcov --reporter=json --reporter=clover \
  node --test test/cart.test.js

new_out nyc
cp coverage/lcov.info coverage/coverage-final.json coverage/clover.xml "$out/"
keep "$r" package.json src/cart.js test/cart.test.js
nyc_version=$(node -p 'require(process.argv[1]).version' "$tools/node_modules/nyc/package.json")
cat >"$out/README.md" <<EOF
# nyc fixtures

Real reports from nyc $nyc_version (Node $(node --version)), written by
\`scripts/capture_fixtures/coverage.sh\`; do not edit by hand.

This folder stands for the project root, which is the repository root. nyc ran there (from a
throwaway node_modules outside the repository) as

    nyc --reporter=lcov --reporter=json --reporter=clover node --test test/cart.test.js

and wrote its reports to \`coverage/\`; they are copied to the top of this folder. nyc's
preloading reaches the test file's process that \`node --test\` spawns, so \`src/cart.js\` is
instrumented there.

project root at capture: $r

Paths, as the tool wrote them:
- \`lcov.info\`: \`SF:src/cart.js\`, relative to the project root.
- \`coverage-final.json\` (istanbul JSON): keys and \`path\` are absolute, under the project
  root at capture.
- \`clover.xml\`: \`<file name="cart.js" path="...">\` with \`path\` absolute, under the project
  root at capture.

The test calls \`total\` with a small order only: the discount branch and \`unused_helper\`
are not covered. Timestamps change on every capture.
EOF
echo "  nyc: lcov.info coverage-final.json clover.xml (nyc $nyc_version)"

# ================================================================ go: services/shop/ of a repo
export GOPATH="$work/gopath" GOCACHE="$work/gocache" GOMODCACHE="$work/gopath/pkg/mod"
export GOPROXY=off GOSUMDB=off GOFLAGS='' GO111MODULE=on GOTOOLCHAIN=local CGO_ENABLED=0
export GOMAXPROCS=2

r="$work/go"
m="$r/services/shop"
mkdir -p "$m/cart"
printf 'module example.com/shop\n\ngo 1.19\n' >"$m/go.mod"
cat >"$m/cart/cart.go" <<'EOF'
// Package cart is a tiny shopping-cart package used as a coverage subject.
package cart

// Total sums the item prices; orders over 100 get a 10% discount.
func Total(items []float64) float64 {
	amount := 0.0
	for _, price := range items {
		amount += price
	}
	if amount > 100 {
		amount = amount * 0.9
	}
	return amount
}

// UnusedHelper is not called by any test.
func UnusedHelper(items []float64) int {
	return len(items)
}
EOF
cat >"$m/cart/cart_test.go" <<'EOF'
package cart

import "testing"

func TestTotalSmall(t *testing.T) {
	if got := Total([]float64{10, 20}); got != 30 {
		t.Errorf("Total(10, 20) = %v, want 30", got)
	}
}
EOF
cd "$m"
step go.log go test -count=1 -coverprofile=cover.out -covermode=set ./...
step go.log go test -count=1 -coverprofile=cover-count.out -covermode=count ./...

new_out go
cp cover.out cover-count.out "$out/"
keep "$r" services/shop/go.mod services/shop/cart/cart.go services/shop/cart/cart_test.go
go_version=$(go version)
cat >"$out/README.md" <<EOF
# go test coverage profiles

Real profiles from \`$go_version\` (Debian golang-go), written by
\`scripts/capture_fixtures/coverage.sh\`; do not edit by hand.

This folder stands for the repository root; the module \`example.com/shop\` is
\`services/shop/\` (its go.mod is there). Run inside \`services/shop/\`, offline
(GOPROXY=off, GOFLAGS empty), as

    go test -count=1 -coverprofile=cover.out -covermode=set ./...
    go test -count=1 -coverprofile=cover-count.out -covermode=count ./...

Both profiles were written in \`services/shop/\` and are copied to the top of this folder.

project root at capture: $r
module root at capture: $m

Paths: each block names its file by import path, \`example.com/shop/cart/cart.go\`; strip the
module path (from \`services/shop/go.mod\`) and prefix the module's folder to get
\`services/shop/cart/cart.go\`. No absolute paths appear.

The test calls \`Total\` with a small order only: the discount block and \`UnusedHelper\` have
count 0. In \`cover-count.out\` the loop body's count is 2 (two items).
EOF
echo "  go: cover.out cover-count.out ($go_version)"

# ================================================================ jacoco
# Debian's libjacoco-java has no jacococli: org.jacoco.agent.rt.jar there is not an agent (no
# Premain-Class), but org.jacoco.agent.jar carries the real shaded agent, jacocoagent.jar, as a
# resource. The XML report is written through the org.jacoco.report API, as `jacococli report
# --xml` does. javac --release 11 keeps the class files well below JDK 17's, within what
# JaCoCo 0.8.6 (2020) was made for.
p="$work/jacoco"
pkg=src/main/java/com/example/shop
tpkg=src/test/java/com/example/shop
mkdir -p "$p/$pkg" "$p/$tpkg" "$p/target/classes" "$p/target/test-classes" \
  "$p/target/site/jacoco" "$work/jacoco-tool"
cat >"$p/$pkg/Cart.java" <<'EOF'
package com.example.shop;

/** A tiny shopping cart used as a coverage subject. */
public final class Cart {
    private Cart() {
    }

    /** Sums the item prices; orders over 100 get a 10% discount. */
    public static double total(double[] items) {
        double amount = 0;
        for (double price : items) {
            amount += price;
        }
        if (amount > 100) {
            amount = amount * 0.9;
        }
        return amount;
    }

    /** No test calls this. */
    public static int unusedHelper(double[] items) {
        return items.length;
    }
}
EOF
cat >"$p/$tpkg/CartTest.java" <<'EOF'
package com.example.shop;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CartTest {
    @Test
    public void smallOrder() {
        assertEquals(30.0, Cart.total(new double[] {10, 20}), 1e-9);
    }
}
EOF
cat >"$work/jacoco-tool/XmlReport.java" <<'EOF'
import java.io.File;
import java.io.FileOutputStream;
import java.io.OutputStream;

import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IBundleCoverage;
import org.jacoco.core.tools.ExecFileLoader;
import org.jacoco.report.DirectorySourceFileLocator;
import org.jacoco.report.IReportVisitor;
import org.jacoco.report.xml.XMLFormatter;

/** JaCoCo XML report, as `jacococli report --xml`: EXEC CLASSES SOURCES NAME OUT. */
public final class XmlReport {
    public static void main(String[] args) throws Exception {
        ExecFileLoader loader = new ExecFileLoader();
        loader.load(new File(args[0]));
        CoverageBuilder builder = new CoverageBuilder();
        new Analyzer(loader.getExecutionDataStore(), builder).analyzeAll(new File(args[1]));
        IBundleCoverage bundle = builder.getBundle(args[3]);
        try (OutputStream out = new FileOutputStream(args[4])) {
            IReportVisitor visitor = new XMLFormatter().createVisitor(out);
            visitor.visitInfo(loader.getSessionInfoStore().getInfos(),
                    loader.getExecutionDataStore().getContents());
            visitor.visitBundle(bundle,
                    new DirectorySourceFileLocator(new File(args[2]), "UTF-8", 4));
            visitor.visitEnd();
        }
    }
}
EOF
unzip -q -o /usr/share/java/org.jacoco.agent.jar jacocoagent.jar -d "$work/jacoco-tool"
agent="$work/jacoco-tool/jacocoagent.jar"
j=/usr/share/java
report_cp="$j/org.jacoco.core.jar:$j/org.jacoco.report.jar:$j/asm.jar:$j/asm-commons.jar:$j/asm-tree.jar"
test_cp="target/classes:target/test-classes:$j/junit4.jar:$j/hamcrest.jar"

cd "$p"
step jacoco.log javac --release 11 -g -d target/classes "$pkg/Cart.java"
step jacoco.log javac --release 11 -g -cp "target/classes:$j/junit4.jar" -d target/test-classes \
  "$tpkg/CartTest.java"
step jacoco.log javac -d "$work/jacoco-tool" -cp "$report_cp" "$work/jacoco-tool/XmlReport.java"
step jacoco.log java "-javaagent:$agent=destfile=target/jacoco.exec" -cp "$test_cp" \
  org.junit.runner.JUnitCore com.example.shop.CartTest
step jacoco.log java -cp "$work/jacoco-tool:$report_cp" XmlReport target/jacoco.exec \
  target/classes src/main/java shop target/site/jacoco/jacoco.xml

new_out jacoco
cp target/site/jacoco/jacoco.xml "$out/"
keep "$p" "$pkg/Cart.java" "$tpkg/CartTest.java"
jacoco_version=$(unzip -p "$agent" META-INF/MANIFEST.MF | sed -n 's/^Implementation-Version: *//p' |
  tr -d '\r')
jacoco_deb=$(dpkg-query -W -f '${Version}' libjacoco-java)
java_version=$(java -version 2>&1 | head -n 1)
junit_deb=$(dpkg-query -W -f '${Version}' junit4)
cat >"$out/README.md" <<EOF
# JaCoCo fixture

A real report from JaCoCo $jacoco_version (Debian libjacoco-java $jacoco_deb; $java_version;
JUnit 4 from Debian junit4 $junit_deb), written by \`scripts/capture_fixtures/coverage.sh\`;
do not edit by hand.

Debian ships no \`jacococli\`, so the steps are the ones a build tool takes, run in the project
root (this folder stands for it; Maven's layout):

    javac --release 11 -g -d target/classes src/main/java/com/example/shop/Cart.java
    javac --release 11 -g -cp target/classes:junit4.jar -d target/test-classes \\
      src/test/java/com/example/shop/CartTest.java
    java -javaagent:jacocoagent.jar=destfile=target/jacoco.exec \\
      -cp target/classes:target/test-classes:junit4.jar:hamcrest.jar \\
      org.junit.runner.JUnitCore com.example.shop.CartTest
    java XmlReport target/jacoco.exec target/classes src/main/java shop \\
      target/site/jacoco/jacoco.xml

\`jacocoagent.jar\` is the agent packed inside Debian's \`/usr/share/java/org.jacoco.agent.jar\`
(Debian's \`org.jacoco.agent.rt.jar\` has no Premain-Class). \`XmlReport\` is a small program
(in the script) that calls JaCoCo's own report API (\`ExecFileLoader\`, \`Analyzer\`,
\`XMLFormatter\`, \`DirectorySourceFileLocator\`) the way \`jacococli report --xml\` does; the XML
is entirely JaCoCo's. \`--release 11\` keeps the class files well below JDK 17's, within what
JaCoCo 0.8.6 (2020) was made for.

The report was written to \`target/site/jacoco/jacoco.xml\` and is copied to the top of this
folder, byte for byte: one line, no trailing newline, and a DOCTYPE declaration
(\`<!DOCTYPE report PUBLIC "-//JACOCO//DTD Report 1.1//EN" "report.dtd">\`) naming a
\`report.dtd\` that is not there; a parser must not try to load it.

project root at capture: $p

Paths: \`<package name="com/example/shop">\` plus \`<sourcefile name="Cart.java">\`, relative to
the source root \`src/main/java/\`, which the report does not name. No absolute paths appear.

The test calls \`total\` with a small order only: the discount line is missed, the \`if\` has
one branch missed, and \`unusedHelper\` is missed.
EOF
echo "  jacoco: jacoco.xml (JaCoCo $jacoco_version)"

# ================================================================ phpunit
p="$work/phpunit"
mkdir -p "$p/src" "$p/tests"
cat >"$p/phpunit.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<phpunit xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:noNamespaceSchemaLocation="/usr/share/php/PHPUnit/phpunit.xsd"
         bootstrap="src/Cart.php"
         cacheResult="false">
    <testsuites>
        <testsuite name="unit">
            <directory>tests</directory>
        </testsuite>
    </testsuites>
    <coverage>
        <include>
            <directory suffix=".php">src</directory>
        </include>
    </coverage>
</phpunit>
EOF
cat >"$p/src/Cart.php" <<'EOF'
<?php

declare(strict_types=1);

namespace Shop;

/** A tiny shopping cart used as a coverage subject. */
final class Cart
{
    /** Sums the item prices; orders over 100 get a 10% discount. */
    public static function total(array $items): float
    {
        $amount = (float) array_sum($items);
        if ($amount > 100) {
            $amount = $amount * 0.9;
        }
        return $amount;
    }

    /** No test calls this. */
    public static function unusedHelper(array $items): int
    {
        return count($items);
    }
}
EOF
cat >"$p/tests/CartTest.php" <<'EOF'
<?php

declare(strict_types=1);

use PHPUnit\Framework\TestCase;
use Shop\Cart;

final class CartTest extends TestCase
{
    public function testSmallOrder(): void
    {
        $this->assertSame(30.0, Cart::total([10, 20]));
    }
}
EOF
cd "$p"
step phpunit.log php -d pcov.enabled=1 /usr/bin/phpunit --coverage-clover clover.xml \
  --coverage-cobertura cobertura.xml

new_out phpunit
cp clover.xml cobertura.xml "$out/"
keep "$p" phpunit.xml src/Cart.php tests/CartTest.php
phpunit_version=$(phpunit --version | sed -n 's/^\(PHPUnit [0-9.]*\).*/\1/p')
codecov_deb=$(dpkg-query -W -f '${Version}' php-codecoverage)
pcov_version=$(php -r 'echo phpversion("pcov");')
php_version=$(php -r 'echo PHP_VERSION;')
cat >"$out/README.md" <<EOF
# PHPUnit coverage fixtures

Real reports from $phpunit_version (Debian phpunit; php-code-coverage $codecov_deb), PHP
$php_version with pcov $pcov_version, written by \`scripts/capture_fixtures/coverage.sh\`;
do not edit by hand.

This folder stands for the project root (phpunit.xml is here). Run there as

    php -d pcov.enabled=1 /usr/bin/phpunit --coverage-clover clover.xml --coverage-cobertura cobertura.xml

Both reports were written in the project root.

project root at capture: $p

Paths, as the tool wrote them:
- \`clover.xml\`: \`<file name="...">\` is absolute, under the project root at capture.
- \`cobertura.xml\`: \`<source>\` is the absolute \`src/\` folder at capture (the common folder
  of the measured files, not the project root), and \`filename="Cart.php"\` is relative to it.
  Its DOCTYPE,
  \`<!DOCTYPE coverage SYSTEM "http://cobertura.sourceforge.net/xml/coverage-04.dtd">\`, is kept
  as written.

The test calls \`total\` with a small order only: the discount line and \`unusedHelper\` are not
covered. Timestamps change on every capture.
EOF
echo "  phpunit: clover.xml cobertura.xml ($phpunit_version, pcov $pcov_version)"
