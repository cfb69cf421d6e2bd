#!/usr/bin/env bash
# Capture real Maven Surefire output into tests/fixtures/stack-logs/maven/.
# Installs Debian's maven + JDK + JUnit, builds offline against /usr/share/maven-repo (a
# settings.xml whose only mirror is that folder, and a throwaway localRepository), writes
# small throwaway projects under /tmp and runs `mvn -B -s settings.xml test` on each.
# The two rerun-* cases need Surefire 3 and are built against Maven Central instead (see below).
# Rerunning regenerates every *.log / *.xml fixture (README.md and expected.json are kept).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out="$stack_logs/maven"

apt_install quiet maven default-jdk junit4 junit5 libsurefire-java maven-debian-helper util-linux

export LC_ALL=C.UTF-8 LANG=C.UTF-8 TERM=xterm-256color
export MAVEN_OPTS="-XX:+TieredCompilation -XX:TieredStopAtLevel=1"
unset JAVA_TOOL_OPTIONS _JAVA_OPTIONS MAVEN_ARGS || true

make_work capture-maven
cd "$work"

fresh_dir "$out"

# capture_tty: an 80x24 terminal; script(1)'s own stderr goes into the log too.
tty_size=80x24 tty_stderr=file

cat >"$work/settings.xml" <<EOF
<settings>
  <localRepository>$work/m2-repository</localRepository>
  <interactiveMode>false</interactiveMode>
  <mirrors>
    <mirror>
      <id>debian</id>
      <mirrorOf>*</mirrorOf>
      <url>file:///usr/share/maven-repo</url>
    </mirror>
  </mirrors>
</settings>
EOF
MVN=(mvn -B -s "$work/settings.xml")

PLUGINS='
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-resources-plugin</artifactId>
        <version>3.3.0</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.10.1</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-surefire-plugin</artifactId>
        <version>2.22.3</version>
      </plugin>
    </plugins>
  </build>'
PROPS='
  <properties>
    <maven.compiler.source>11</maven.compiler.source>
    <maven.compiler.target>11</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>'
JUNIT4_DEP='
    <dependency>
      <groupId>junit</groupId>
      <artifactId>junit</artifactId>
      <version>4.13.2</version>
      <scope>test</scope>
    </dependency>'
JUPITER_DEP='
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter-api</artifactId>
      <version>5.9.2</version>
      <scope>test</scope>
    </dependency>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter-engine</artifactId>
      <version>5.9.2</version>
      <scope>test</scope>
    </dependency>'

# single_pom DIR ARTIFACT DEPS : a standalone jar project.
single_pom() {
  mkdir -p "$1"
  cat >"$1/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>$2</artifactId>
  <version>1.0</version>
  <name>$2</name>
$PROPS
  <dependencies>$3
  </dependencies>
$PLUGINS
</project>
EOF
}

# parent_pom DIR ARTIFACT MODULE... : an aggregator whose modules inherit plugins and properties.
parent_pom() {
  local d=$1 a=$2; shift 2
  local mods="" mod
  for mod in "$@"; do mods="$mods
    <module>$mod</module>"; done
  mkdir -p "$d"
  cat >"$d/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>$a</artifactId>
  <version>1.0</version>
  <packaging>pom</packaging>
  <name>$a</name>
  <modules>$mods
  </modules>
$PROPS
$PLUGINS
</project>
EOF
}

# module_pom DIR PARENT ARTIFACT DEPS
module_pom() {
  mkdir -p "$1"
  cat >"$1/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>com.example</groupId>
    <artifactId>$2</artifactId>
    <version>1.0</version>
  </parent>
  <artifactId>$3</artifactId>
  <name>$3</name>
  <dependencies>$4
  </dependencies>
</project>
EOF
}

# java_file DIR/src/.../X.java : write stdin to it (creating folders).
java_file() { mkdir -p "$(dirname "$1")"; cat >"$1"; }

CALC_MAIN='package com.example;

public class Calc {
    public static int add(int a, int b) { return a + b; }
    public static int sub(int a, int b) { return a - b; }
}'

###############################################################################
# success: multi-module build — core (JUnit 4), text (JUnit 4, two classes),
# jupiter (JUnit 5 through Surefire's platform provider), docs (no tests at all).
###############################################################################
s="$work/success"
parent_pom "$s" shop core text jupiter docs
module_pom "$s/core" shop core "$JUNIT4_DEP"
echo "$CALC_MAIN" | java_file "$s/core/src/main/java/com/example/Calc.java"
java_file "$s/core/src/test/java/com/example/CalcTest.java" <<'EOF'
package com.example;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CalcTest {
    @Test public void adds() { assertEquals(2, Calc.add(1, 1)); }
    @Test public void subtracts() { assertEquals(2, Calc.sub(3, 1)); }
    @Test public void addsNegatives() { assertEquals(-2, Calc.add(-1, -1)); }
}
EOF
module_pom "$s/text" shop text "$JUNIT4_DEP"
java_file "$s/text/src/test/java/com/example/text/UpperTest.java" <<'EOF'
package com.example.text;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class UpperTest {
    @Test public void upper() { assertEquals("ABC", "abc".toUpperCase()); }
    @Test public void lower() { assertEquals("abc", "ABC".toLowerCase()); }
}
EOF
java_file "$s/text/src/test/java/com/example/text/ReverseTest.java" <<'EOF'
package com.example.text;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class ReverseTest {
    @Test public void reverses() { assertEquals("cba", new StringBuilder("abc").reverse().toString()); }
}
EOF
module_pom "$s/jupiter" shop jupiter "$JUPITER_DEP"
java_file "$s/jupiter/src/test/java/com/example/jupiter/JupiterTest.java" <<'EOF'
package com.example.jupiter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class JupiterTest {
    @Test void adds() { assertEquals(4, 2 + 2); }
    @Test void concatenates() { assertEquals("ab", "a" + "b"); }
}
EOF
module_pom "$s/docs" shop docs ""
java_file "$s/docs/src/main/java/com/example/docs/Version.java" <<'EOF'
package com.example.docs;

public final class Version {
    public static final String VALUE = "1.0";
}
EOF

###############################################################################
# failure: one module, four tests, one failing assertion.
###############################################################################
f="$work/failure"
single_pom "$f" calc "$JUNIT4_DEP"
echo "$CALC_MAIN" | java_file "$f/src/main/java/com/example/Calc.java"
java_file "$f/src/test/java/com/example/CalcTest.java" <<'EOF'
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

###############################################################################
# zero-tests: a module with main code and no tests.
###############################################################################
z="$work/zero-tests"
single_pom "$z" calc "$JUNIT4_DEP"
echo "$CALC_MAIN" | java_file "$z/src/main/java/com/example/Calc.java"

###############################################################################
# all-skipped: @Ignore on a method, @Ignore on a class, and failed assumptions.
###############################################################################
a="$work/all-skipped"
single_pom "$a" calc "$JUNIT4_DEP"
echo "$CALC_MAIN" | java_file "$a/src/main/java/com/example/Calc.java"
java_file "$a/src/test/java/com/example/SkippedTest.java" <<'EOF'
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
java_file "$a/src/test/java/com/example/IgnoredClassTest.java" <<'EOF'
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

###############################################################################
# mixed: reactor with core (passes, failure, error, @Ignore, assumption; two classes)
# and app (passing tests). Maven stops after core fails, so app is SKIPPED.
###############################################################################
m="$work/mixed"
parent_pom "$m" shop core app
module_pom "$m/core" shop core "$JUNIT4_DEP"
echo "$CALC_MAIN" | java_file "$m/core/src/main/java/com/example/Calc.java"
java_file "$m/core/src/test/java/com/example/MixedTest.java" <<'EOF'
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
java_file "$m/core/src/test/java/com/example/OtherTest.java" <<'EOF'
package com.example;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class OtherTest {
    @Test public void passes() { assertTrue(Calc.add(2, 2) == 4); }
    @Test public void failsToo() { assertEquals("expected text", "actual text"); }
}
EOF
module_pom "$m/app" shop app "$JUNIT4_DEP"
java_file "$m/app/src/test/java/com/example/app/AppTest.java" <<'EOF'
package com.example.app;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class AppTest {
    @Test public void starts() { assertTrue(true); }
    @Test public void stops() { assertTrue(true); }
}
EOF

###############################################################################
# load-error: the test sources do not compile.
###############################################################################
l="$work/load-error"
single_pom "$l" calc "$JUNIT4_DEP"
echo "$CALC_MAIN" | java_file "$l/src/main/java/com/example/Calc.java"
java_file "$l/src/test/java/com/example/CalcTest.java" <<'EOF'
package com.example;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CalcTest {
    @Test public void adds() { assertEquals(2, Calc.add(1, 1)); }
    @Test public void multiplies() { assertEquals(6, Calc.multiply(2, 3)); }
    @Test public void broken() { int x = "not an int"; }
}
EOF

# copy_reports CASE DIR : Surefire XML reports of one run as <case>.junit.xml, or
# <case>.<TestClass>.junit.xml when the run wrote several.
copy_reports() {
  local c=$1 d=$2
  local xmls=()
  mapfile -t xmls < <(find "$d" -path '*/target/surefire-reports/TEST-*.xml' | sort)
  if [ "${#xmls[@]}" -eq 1 ]; then
    cp "${xmls[0]}" "$out/$c.junit.xml"
  else
    local x n
    for x in "${xmls[@]}"; do
      n=$(basename "$x" .xml); n=${n#TEST-}; n=${n##*.}
      cp "$x" "$out/$c.$n.junit.xml"
    done
  fi
}

echo "$(mvn -v 2>/dev/null | sed -n 1p | sed 's/\x1b\[[0-9;]*m//g'), $(javac -version 2>&1)"

# Warm the throwaway local repository first, so that the captured logs show a normal
# (cached) build rather than the one-off "Downloading from debian" lines.
( cd "$s" && "${MVN[@]}" -q test >/dev/null 2>&1 ) || true
( cd "$m" && "${MVN[@]}" -q test >/dev/null 2>&1 ) || true
find "$work" -name target -type d -prune -exec rm -rf {} +

for c in success failure zero-tests all-skipped mixed load-error; do
  cd "$work/$c"
  find . -name target -type d -prune -exec rm -rf {} +
  capture "$out/$c.log" "${MVN[@]}" test
  copy_reports "$c" "$work/$c"
done

# One run without -B under a pseudo-terminal (colours).
cd "$s"
find . -name target -type d -prune -exec rm -rf {} +
capture_tty "$out/success.tty.log" "mvn -s '$work/settings.xml' test"

###############################################################################
# rerun-flaky / rerun-failure: `-Dsurefire.rerunFailingTestsCount=2` with JUnit 5.
# Surefire reruns JUnit 5 tests only from 3.0.0-M4 on, and Debian ships 2.22, so these
# two builds use Surefire and JUnit from Maven Central (their own settings.xml without
# the offline mirror, and their own throwaway local repository).
# rerun-flaky: FlakyTest, one test that passes, one that fails its first run on an
# assertion and one that throws on its first run: both pass on the rerun (flaky).
# rerun-failure: FlakyTest beside BrokenTest, one test that passes, one that fails its
# assertion on every run and one that throws on every run (3 runs each).
###############################################################################
SUREFIRE3_VERSION=${SUREFIRE3_VERSION:-3.5.2}
JUPITER5_VERSION=${JUPITER5_VERSION:-5.11.4}
cat >"$work/settings-central.xml" <<EOF
<settings>
  <localRepository>$work/m2-central</localRepository>
  <interactiveMode>false</interactiveMode>
</settings>
EOF
MVN_CENTRAL=(mvn -B -s "$work/settings-central.xml")
rerun_pom() {
  mkdir -p "$1"
  cat >"$1/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>$2</artifactId>
  <version>1.0</version>
  <name>$2</name>
$PROPS
  <dependencies>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <version>$JUPITER5_VERSION</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-resources-plugin</artifactId>
        <version>3.3.1</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.13.0</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-surefire-plugin</artifactId>
        <version>$SUREFIRE3_VERSION</version>
      </plugin>
    </plugins>
  </build>
</project>
EOF
}
flaky_test() {
  java_file "$1/src/test/java/com/example/FlakyTest.java" <<'EOF'
package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FlakyTest {
    // Surefire reruns a failed test in the same JVM, so a static counter sees every run.
    private static int assertionRuns;
    private static int errorRuns;

    @Test void passes() { assertEquals(2, 1 + 1); }

    @Test void failsItsFirstRun() {
        assertionRuns++;
        assertEquals(2, assertionRuns, "the first run fails");
    }

    @Test void throwsOnItsFirstRun() {
        errorRuns++;
        if (errorRuns == 1) {
            throw new IllegalStateException("the first run throws");
        }
    }
}
EOF
}
r="$work/rerun-flaky"
rerun_pom "$r" flaky
flaky_test "$r"
r="$work/rerun-failure"
rerun_pom "$r" broken
flaky_test "$r"
java_file "$r/src/test/java/com/example/BrokenTest.java" <<'EOF'
package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BrokenTest {
    @Test void passes() { assertEquals("ab", "a" + "b"); }

    @Test void failsEveryRun() { assertEquals(1, 2, "fails on every run"); }

    @Test void throwsEveryRun() { throw new IllegalStateException("throws on every run"); }
}
EOF
# Warm the local repository from Maven Central first (the plugins and JUnit), uncaptured.
( cd "$work/rerun-flaky" && "${MVN_CENTRAL[@]}" -q test -Dsurefire.rerunFailingTestsCount=2 >/dev/null 2>&1 ) || true
for c in rerun-flaky rerun-failure; do
  cd "$work/$c"
  find . -name target -type d -prune -exec rm -rf {} +
  capture "$out/$c.log" "${MVN_CENTRAL[@]}" test -Dsurefire.rerunFailingTestsCount=2
  copy_reports "$c" "$work/$c"
done

echo "maven fixtures: $out"
