#!/usr/bin/env bash
# Capture real Gradle test output into tests/fixtures/stack-logs/gradle/.
# Installs Debian's gradle (4.4.1) + JDK + JUnit 4, builds small throwaway projects under /tmp
# offline (JUnit 4 jars from /usr/share/java through a files(...) dependency) and runs
# `gradle --offline --no-daemon --console=plain test` on each.
# Rerunning regenerates every *.log / *.xml fixture (README.md and expected.json are kept).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out="$stack_logs/gradle"

apt_install quiet gradle default-jdk junit4 util-linux

export LC_ALL=C.UTF-8 LANG=C.UTF-8 TERM=xterm-256color
unset JAVA_TOOL_OPTIONS _JAVA_OPTIONS GRADLE_OPTS JAVA_OPTS || true

make_work capture-gradle
cd "$work"
export GRADLE_USER_HOME="$work/gradle-home"

fresh_dir "$out"

# capture_tty: an 80x24 terminal; script(1)'s own stderr goes into the log too.
tty_size=80x24 tty_stderr=file

# project DIR : a single Java project with JUnit 4 from Debian's jars.
project() {
  mkdir -p "$1"
  cat >"$1/settings.gradle" <<'EOF'
rootProject.name = 'calc'
EOF
  cat >"$1/build.gradle" <<'EOF'
apply plugin: 'java'

sourceCompatibility = 1.8
targetCompatibility = 1.8

dependencies {
    testImplementation files('/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar')
}
EOF
  java_file "$1/src/main/java/com/example/Calc.java" <<'EOF'
package com.example;

public class Calc {
    public static int add(int a, int b) { return a + b; }
    public static int sub(int a, int b) { return a - b; }
}
EOF
}

java_file() { mkdir -p "$(dirname "$1")"; cat >"$1"; }

# success: two classes, five passing tests.
project "$work/success"
java_file "$work/success/src/test/java/com/example/CalcTest.java" <<'EOF'
package com.example;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CalcTest {
    @Test public void adds() { assertEquals(2, Calc.add(1, 1)); }
    @Test public void subtracts() { assertEquals(2, Calc.sub(3, 1)); }
    @Test public void addsNegatives() { assertEquals(-2, Calc.add(-1, -1)); }
}
EOF
java_file "$work/success/src/test/java/com/example/TextTest.java" <<'EOF'
package com.example;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class TextTest {
    @Test public void upper() { assertEquals("ABC", "abc".toUpperCase()); }
    @Test public void lower() { assertEquals("abc", "ABC".toLowerCase()); }
}
EOF

# failure: four tests, one failing assertion.
project "$work/failure"
java_file "$work/failure/src/test/java/com/example/CalcTest.java" <<'EOF'
package com.example;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CalcTest {
    @Test public void adds() { assertEquals(2, Calc.add(1, 1)); }
    @Test public void subtracts() { assertEquals(1, Calc.sub(3, 1)); }
    @Test public void addsZero() { assertEquals(5, Calc.add(5, 0)); }
    @Test public void subtractsZero() { assertEquals(5, Calc.sub(5, 0)); }
}
EOF

# zero-tests: main code only, no test sources.
project "$work/zero-tests"

# all-skipped: @Ignore on a method, a failed assumption, @Ignore on a whole class.
project "$work/all-skipped"
java_file "$work/all-skipped/src/test/java/com/example/SkippedTest.java" <<'EOF'
package com.example;

import static org.junit.Assert.assertEquals;
import static org.junit.Assume.assumeTrue;

import org.junit.Ignore;
import org.junit.Test;

public class SkippedTest {
    @Ignore("not written yet")
    @Test public void ignored() { assertEquals(2, Calc.add(1, 1)); }

    @Test public void assumptionFails() {
        assumeTrue("needs a GPU", false);
        assertEquals(2, Calc.add(1, 1));
    }
}
EOF
java_file "$work/all-skipped/src/test/java/com/example/IgnoredClassTest.java" <<'EOF'
package com.example;

import static org.junit.Assert.assertEquals;

import org.junit.Ignore;
import org.junit.Test;

@Ignore("whole class disabled")
public class IgnoredClassTest {
    @Test public void one() { assertEquals(1, 1); }
    @Test public void two() { assertEquals(2, 2); }
}
EOF

# mixed: passes, a failure, an error, @Ignore, a failed assumption; two classes.
project "$work/mixed"
java_file "$work/mixed/src/test/java/com/example/MixedTest.java" <<'EOF'
package com.example;

import static org.junit.Assert.assertEquals;
import static org.junit.Assume.assumeTrue;

import org.junit.Ignore;
import org.junit.Test;

public class MixedTest {
    @Test public void passesOnce() { assertEquals(2, Calc.add(1, 1)); }
    @Test public void passesTwice() { assertEquals(0, Calc.sub(1, 1)); }
    @Test public void failsAnAssertion() { assertEquals(1, Calc.sub(3, 1)); }
    @Test public void throwsAnError() { throw new IllegalStateException("boom"); }
    @Ignore("flaky on CI")
    @Test public void ignored() { assertEquals(2, Calc.add(1, 1)); }
    @Test public void assumptionFails() {
        assumeTrue("needs a GPU", false);
    }
}
EOF
java_file "$work/mixed/src/test/java/com/example/OtherTest.java" <<'EOF'
package com.example;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class OtherTest {
    @Test public void passes() { assertTrue(Calc.add(2, 2) == 4); }
    @Test public void failsToo() { assertEquals("expected text", "actual text"); }
}
EOF

# load-error: the test sources do not compile.
project "$work/load-error"
java_file "$work/load-error/src/test/java/com/example/CalcTest.java" <<'EOF'
package com.example;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CalcTest {
    @Test public void adds() { assertEquals(2, Calc.add(1, 1)); }
    @Test public void multiplies() { assertEquals(6, Calc.multiply(2, 3)); }
    @Test public void broken() { int x = "not an int"; }
}
EOF

# copy_reports CASE DIR : Gradle's XML reports as <case>.<TestClass>.junit.xml.
copy_reports() {
  local c=$1 d=$2 x n
  [ -d "$d/build/test-results" ] || return 0
  while IFS= read -r x; do
    n=$(basename "$x" .xml); n=${n#TEST-}; n=${n##*.}
    cp "$x" "$out/$c.$n.junit.xml"
  done < <(find "$d/build/test-results" -name 'TEST-*.xml' | sort)
}

GRADLE=(gradle --offline --no-daemon)
# (printed through a substitution, so a failed version query does not stop the script)
printf '%s\n' "$("${GRADLE[@]}" --version 2>/dev/null | grep -E '^Gradle ')"

# Warm-up build outside the captured runs (first use of a fresh GRADLE_USER_HOME).
( cd "$work/success" && "${GRADLE[@]}" --console=plain -q compileJava >/dev/null 2>&1 ) || true

for c in success failure zero-tests all-skipped mixed load-error; do
  cd "$work/$c"
  rm -rf build .gradle
  capture "$out/$c.log" "${GRADLE[@]}" --console=plain test
  copy_reports "$c" "$work/$c"
done

# One run on a pseudo-terminal with Gradle's default (rich) console.
cd "$work/failure"
rm -rf build .gradle
capture_tty "$out/failure.tty.log" "gradle --offline --no-daemon test"

echo "gradle fixtures: $out"
