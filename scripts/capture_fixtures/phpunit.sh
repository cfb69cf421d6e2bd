#!/usr/bin/env bash
# Capture real PHPUnit output into tests/fixtures/stack-logs/phpunit/.
# Installs Debian's phpunit (9.6) and php-cli, writes small throwaway suites under /tmp, runs them.
# Rerunning regenerates every *.log / *.xml fixture (README.md and expected.json are kept).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out="$stack_logs/phpunit"

apt_install quiet phpunit php-cli util-linux

export LC_ALL=C.UTF-8 LANG=C.UTF-8 TERM=xterm-256color

make_work capture-phpunit
cd "$work"

fresh_dir "$out"

# capture_tty: an 80x24 terminal; script(1)'s own stderr goes into the log too.
tty_size=80x24 tty_stderr=file

# Every suite: phpunit.xml with one test suite over tests/ (no colours attribute: the default).
new_suite() {
  local d="$work/$1"
  mkdir -p "$d/tests"
  cat >"$d/phpunit.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<phpunit xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:noNamespaceSchemaLocation="/usr/share/php/PHPUnit/phpunit.xsd"
         cacheResult="false">
    <testsuites>
        <testsuite name="unit">
            <directory>tests</directory>
        </testsuite>
    </testsuites>
</phpunit>
EOF
}

new_suite success
cat >"$work/success/tests/CalculatorTest.php" <<'EOF'
<?php
use PHPUnit\Framework\TestCase;

final class CalculatorTest extends TestCase
{
    public function testAdds(): void
    {
        $this->assertSame(2, 1 + 1);
    }

    public function testSubtracts(): void
    {
        $this->assertSame(2, 3 - 1);
    }

    /** @dataProvider products */
    public function testMultiplies(int $a, int $b, int $expected): void
    {
        $this->assertSame($expected, $a * $b);
    }

    public function products(): array
    {
        return ['small' => [2, 3, 6], 'zero' => [0, 5, 0]];
    }
}
EOF
cat >"$work/success/tests/StringTest.php" <<'EOF'
<?php
use PHPUnit\Framework\TestCase;

final class StringTest extends TestCase
{
    public function testUpper(): void
    {
        $this->assertSame('ABC', strtoupper('abc'));
    }
}
EOF

new_suite failure
cat >"$work/failure/tests/CalculatorTest.php" <<'EOF'
<?php
use PHPUnit\Framework\TestCase;

final class CalculatorTest extends TestCase
{
    public function testAdds(): void
    {
        $this->assertSame(2, 1 + 1);
    }

    public function testSubtracts(): void
    {
        $this->assertSame(1, 3 - 1);
    }

    public function testMultiplies(): void
    {
        $this->assertSame(6, 2 * 3);
    }

    public function testDivides(): void
    {
        $this->assertSame(2, intdiv(6, 3));
    }
}
EOF

# No concrete test class at all: only an abstract base that PHPUnit does not run.
new_suite zero-tests
cat >"$work/zero-tests/tests/AbstractCase.php" <<'EOF'
<?php
use PHPUnit\Framework\TestCase;

abstract class AbstractCase extends TestCase
{
    protected function fixture(): array
    {
        return [1, 2, 3];
    }
}
EOF

new_suite all-skipped
cat >"$work/all-skipped/tests/SkippedTest.php" <<'EOF'
<?php
use PHPUnit\Framework\TestCase;

final class SkippedTest extends TestCase
{
    public function testNotOnThisPlatform(): void
    {
        $this->markTestSkipped('not on this platform');
    }

    public function testLater(): void
    {
        $this->markTestIncomplete('not written yet');
    }

    /** @requires extension does_not_exist */
    public function testNeedsAnExtension(): void
    {
        $this->assertTrue(true);
    }
}
EOF

# Mixed: passes, a failure, an error, skipped, incomplete, a risky test (no assertions),
# a data provider with one failing data set, and a test class with no tests in it
# (PHPUnit 9 reports that as a warning and counts it under "Tests:").
new_suite mixed
cat >"$work/mixed/tests/MixedTest.php" <<'EOF'
<?php
use PHPUnit\Framework\TestCase;

final class MixedTest extends TestCase
{
    public function testPasses(): void
    {
        $this->assertSame(2, 1 + 1);
    }

    public function testFails(): void
    {
        $this->assertSame(1, 3 - 1);
    }

    public function testErrors(): void
    {
        throw new RuntimeException('boom');
    }

    public function testSkipped(): void
    {
        $this->markTestSkipped('not on this platform');
    }

    public function testIncomplete(): void
    {
        $this->markTestIncomplete('not written yet');
    }

    public function testRisky(): void
    {
        $value = 1 + 1;
    }

    /** @dataProvider sums */
    public function testSums(int $a, int $b, int $expected): void
    {
        $this->assertSame($expected, $a + $b);
    }

    public function sums(): array
    {
        return ['one' => [1, 1, 2], 'two' => [2, 2, 5]];
    }
}
EOF
cat >"$work/mixed/tests/NoTestsInHereTest.php" <<'EOF'
<?php
use PHPUnit\Framework\TestCase;

final class NoTestsInHereTest extends TestCase
{
}
EOF

new_suite load-error
cat >"$work/load-error/tests/AGoodTest.php" <<'EOF'
<?php
use PHPUnit\Framework\TestCase;

final class AGoodTest extends TestCase
{
    public function testPasses(): void
    {
        $this->assertTrue(true);
    }
}
EOF
cat >"$work/load-error/tests/BBrokenTest.php" <<'EOF'
<?php
use PHPUnit\Framework\TestCase;

final class BBrokenTest extends TestCase
{
    public function testNeverLoaded(): void
    {
        $this->assertTrue(true)
    }
}
EOF

echo "$(phpunit --version | head -1), $(php -r 'echo "PHP ", PHP_VERSION;')"
for c in success failure zero-tests all-skipped mixed load-error; do
  cd "$work/$c"
  junit="$work/$c.junit.xml"
  rm -f "$junit"
  capture "$out/$c.log" phpunit --colors=auto --log-junit "$junit"
  if [ -s "$junit" ]; then cp "$junit" "$out/$c.junit.xml"; fi
  capture_tty "$out/$c.tty.log" "phpunit --colors=auto"
  if [ "$c" != load-error ]; then
    capture "$out/$c.testdox.log" phpunit --testdox
  fi
done

# Keep a .tty.log only where it differs from the piped log by more than the terminal's CRLF
# line endings and the timing line.
norm() { tr -d '\r' | sed -E 's/^Time: .*, Memory: .*$/Time/'; }
for f in "$out"/*.tty.log; do
  base=${f%.tty.log}
  if cmp -s <(norm <"$f") <(norm <"$base.log"); then
    rm -f "$f"
    echo "  $(basename "$f"): same as $(basename "$base.log") apart from CRLF, not kept"
  fi
done

echo "phpunit fixtures: $out"
