#!/usr/bin/env bash
# Capture real RSpec and Minitest output into tests/fixtures/stack-logs/{rspec,minitest}/, and
# RSpec's JSON formatter's reports into tests/fixtures/stack-logs/rspec-json/.
# Installs Debian's Ruby test runners, writes small throwaway suites under /tmp, runs them.
# Rerunning regenerates every *.log / *.xml fixture (README.md and expected.json are kept).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rspec_out="$stack_logs/rspec"
mt_out="$stack_logs/minitest"
rspec_json_out="$stack_logs/rspec-json"

apt_install quiet \
  ruby ruby-rspec ruby-rspec-junit-formatter ruby-minitest ruby-minitest-reporters rake \
  util-linux

export LC_ALL=C.UTF-8 LANG=C.UTF-8 TERM=xterm-256color
unset RUBYOPT SPEC_OPTS TESTOPTS || true

make_work capture-ruby
cd "$work"

fresh_dir "$rspec_out" "$mt_out"
fresh_json "$rspec_json_out"

# capture_tty: an 80x24 terminal; script(1)'s own stderr goes into the log too.
tty_size=80x24 tty_stderr=file

###############################################################################
# RSpec
###############################################################################
rs="$work/rspec"

mkdir -p "$rs/success/spec"
cat >"$rs/success/spec/calculator_spec.rb" <<'EOF'
RSpec.describe "Calculator" do
  it "adds" do
    expect(1 + 1).to eq(2)
  end

  it "subtracts" do
    expect(3 - 1).to eq(2)
  end

  context "with floats" do
    it "multiplies" do
      expect(1.5 * 2).to eq(3.0)
    end
  end
end
EOF
cat >"$rs/success/spec/string_spec.rb" <<'EOF'
RSpec.describe String do
  it "upcases" do
    expect("abc".upcase).to eq("ABC")
  end

  it "reverses" do
    expect("abc".reverse).to eq("cba")
  end
end
EOF

mkdir -p "$rs/failure/spec"
cat >"$rs/failure/spec/calculator_spec.rb" <<'EOF'
RSpec.describe "Calculator" do
  it "adds" do
    expect(1 + 1).to eq(2)
  end

  it "subtracts" do
    expect(3 - 1).to eq(1)
  end

  it "multiplies" do
    expect(2 * 3).to eq(6)
  end

  it "divides" do
    expect(6 / 3).to eq(2)
  end
end
EOF

mkdir -p "$rs/zero-tests/spec"
cat >"$rs/zero-tests/spec/empty_spec.rb" <<'EOF'
RSpec.describe "Nothing here yet" do
end
EOF

mkdir -p "$rs/all-skipped/spec"
cat >"$rs/all-skipped/spec/skipped_spec.rb" <<'EOF'
RSpec.describe "Skipped things" do
  it "is skipped inside the example" do
    skip "not on this platform"
  end

  xit "is disabled with xit" do
    expect(true).to be(true)
  end

  it "has no body yet"
end
EOF

mkdir -p "$rs/mixed/spec"
cat >"$rs/mixed/spec/mixed_spec.rb" <<'EOF'
RSpec.describe "Mixed" do
  it "passes once" do
    expect(1 + 1).to eq(2)
  end

  it "passes twice" do
    expect([1, 2, 3].sum).to eq(6)
  end

  it "fails an expectation" do
    expect(3 - 1).to eq(1)
  end

  it "raises an error" do
    raise ArgumentError, "boom"
  end

  it "is skipped inside the example" do
    skip "not on this platform"
  end

  xit "is disabled with xit" do
    expect(true).to be(true)
  end

  it "has no body yet"

  it "is pending and still broken" do
    pending "bug 12"
    expect(1).to eq(2)
  end

  it "is pending but already fixed" do
    pending "bug 13"
    expect(1).to eq(1)
  end
end
EOF

mkdir -p "$rs/load-error/spec"
cat >"$rs/load-error/spec/a_good_spec.rb" <<'EOF'
RSpec.describe "Good" do
  it "passes" do
    expect(1).to eq(1)
  end
end
EOF
cat >"$rs/load-error/spec/b_broken_spec.rb" <<'EOF'
RSpec.describe "Broken" do
  it "never gets defined" do
    expect(1).to eq(1
  end
end
EOF

echo "rspec: $(rspec --version | tr '\n' ' ')"
for c in success failure zero-tests all-skipped mixed load-error; do
  cd "$rs/$c"
  junit="$work/rspec-$c.junit.xml"
  capture "$rspec_out/$c.log" rspec --format progress --format RspecJunitFormatter --out "$junit"
  if [ -s "$junit" ]; then cp "$junit" "$rspec_out/$c.junit.xml"; fi
  capture_tty "$rspec_out/$c.tty.log" "rspec --format progress"
  capture "$rspec_out/$c.doc.log" rspec --format documentation
done

# hook-error: every example passes, then an after(:context) hook raises: RSpec counts that as an
# error outside of examples (JSON only; the console formats have the load-error case for it).
mkdir -p "$rs/hook-error/spec"
cat >"$rs/hook-error/spec/hook_spec.rb" <<'EOF'
RSpec.describe "Cleanup" do
  after(:context) do
    raise "cleanup failed"
  end

  it "passes" do
    expect(1).to eq(1)
  end

  it "passes again" do
    expect(2).to eq(2)
  end
end
EOF

# --format json --out FILE: the report as the JSON formatter writes it; the console beside it is not kept.
for c in success failure zero-tests all-skipped mixed load-error hook-error; do
  cd "$rs/$c"
  capture "$work/rspec-$c.json-console.log" rspec --format json --out "$work/rspec-$c.json"
  # a load error's message names the spec file by its absolute path: the throwaway folder is
  # written as /build/ruby-fixtures, the rest is as RSpec wrote it
  if [ -s "$work/rspec-$c.json" ]; then sed "s#$work#/build/ruby-fixtures#g" "$work/rspec-$c.json" >"$rspec_json_out/$c.json"; fi
done

###############################################################################
# Minitest
###############################################################################
mt="$work/minitest"

# Each suite dir gets the same loader (relative paths keep backtraces free of the temp dir),
# a Rakefile, and a helper that attaches minitest-reporters (Default + JUnit) when asked.
mt_common() {
  local d=$1
  mkdir -p "$d/test"
  cat >"$d/Rakefile" <<'EOF'
require "rake/testtask"
Rake::TestTask.new(:test) do |t|
  t.libs << "test"
  t.test_files = FileList["test/**/*_test.rb"]
  t.warning = false
end
task default: :test
EOF
  cat >"$d/test/reporters_helper.rb" <<'EOF'
require "minitest/reporters"
Minitest::Reporters.use! [
  Minitest::Reporters::DefaultReporter.new,
  Minitest::Reporters::JUnitReporter.new(ENV.fetch("JUNIT_DIR")),
]
EOF
}
MT_LOAD='Dir.glob("test/**/*_test.rb").sort.each { |f| load f }'

mt_common "$mt/success"
cat >"$mt/success/test/calculator_test.rb" <<'EOF'
require "minitest/autorun"

class CalculatorTest < Minitest::Test
  def test_adds
    assert_equal 2, 1 + 1
  end

  def test_subtracts
    assert_equal 2, 3 - 1
  end

  def test_multiplies
    assert_in_delta 3.0, 1.5 * 2
  end
end
EOF
cat >"$mt/success/test/string_test.rb" <<'EOF'
require "minitest/autorun"

describe String do
  it "upcases" do
    _("abc".upcase).must_equal "ABC"
  end

  it "reverses" do
    _("abc".reverse).must_equal "cba"
  end
end
EOF

mt_common "$mt/failure"
cat >"$mt/failure/test/calculator_test.rb" <<'EOF'
require "minitest/autorun"

class CalculatorTest < Minitest::Test
  def test_adds
    assert_equal 2, 1 + 1
  end

  def test_subtracts
    assert_equal 1, 3 - 1
  end

  def test_multiplies
    assert_equal 6, 2 * 3
  end

  def test_divides
    assert_equal 2, 6 / 3
  end
end
EOF

mt_common "$mt/zero-tests"
cat >"$mt/zero-tests/test/empty_test.rb" <<'EOF'
require "minitest/autorun"

class EmptyTest < Minitest::Test
  def helper_that_is_not_a_test
    42
  end
end
EOF

mt_common "$mt/all-skipped"
cat >"$mt/all-skipped/test/skipped_test.rb" <<'EOF'
require "minitest/autorun"

class SkippedTest < Minitest::Test
  def test_not_on_this_platform
    skip "not on this platform"
  end

  def test_later
    skip
  end

  def test_after_an_assertion
    assert true
    skip "skipped after one assertion"
  end
end
EOF

mt_common "$mt/mixed"
cat >"$mt/mixed/test/mixed_test.rb" <<'EOF'
require "minitest/autorun"

class MixedTest < Minitest::Test
  def test_passes_once
    assert_equal 2, 1 + 1
  end

  def test_passes_twice
    assert_equal 6, [1, 2, 3].sum
  end

  def test_fails_an_assertion
    assert_equal 1, 3 - 1
  end

  def test_raises_an_error
    raise ArgumentError, "boom"
  end

  def test_is_skipped
    skip "not on this platform"
  end

  def test_is_skipped_too
    skip
  end
end
EOF
cat >"$mt/mixed/test/spec_style_test.rb" <<'EOF'
require "minitest/autorun"

describe "Spec style" do
  it "passes" do
    _(1).must_equal 1
  end

  it "fails" do
    _([1, 2]).must_include 3
  end
end
EOF

mt_common "$mt/load-error"
cat >"$mt/load-error/test/a_good_test.rb" <<'EOF'
require "minitest/autorun"

class GoodTest < Minitest::Test
  def test_passes
    assert true
  end
end
EOF
cat >"$mt/load-error/test/b_broken_test.rb" <<'EOF'
require "minitest/autorun"

class BrokenTest < Minitest::Test
  def test_never_defined
    assert_equal 1, (1
  end
end
EOF

echo "minitest: $(ruby -rminitest -e 'print Minitest::VERSION'), ruby $(ruby -e 'print RUBY_VERSION')"
for c in success failure zero-tests all-skipped mixed load-error; do
  cd "$mt/$c"
  capture "$mt_out/$c.log" ruby -Itest -e "$MT_LOAD" -- --seed 4242
  capture_tty "$mt_out/$c.tty.log" "ruby -Itest -e '$MT_LOAD' -- --seed 4242"
  if [ "$c" != load-error ]; then
    capture "$mt_out/$c.verbose.log" ruby -Itest -e "$MT_LOAD" -- --seed 4242 --verbose
  fi
  jdir="$work/minitest-junit-$c"
  mkdir -p "$jdir"
  JUNIT_DIR="$jdir" capture "$mt_out/$c.reporters.log" \
    ruby -Itest -rreporters_helper -e "$MT_LOAD" -- --seed 4242
  shopt -s nullglob
  xmls=("$jdir"/TEST-*.xml)
  shopt -u nullglob
  if [ "${#xmls[@]}" -eq 1 ]; then
    cp "${xmls[0]}" "$mt_out/$c.junit.xml"
  else
    for x in "${xmls[@]}"; do
      n=$(basename "$x" .xml); n=${n#TEST-}
      cp "$x" "$mt_out/$c.$n.junit.xml"
    done
  fi
  case $c in
    success|failure|load-error)
      capture "$mt_out/$c.rake.log" rake test TESTOPTS="--seed=4242" ;;
  esac
done

# The plain Minitest reporter writes no colours; keep a .tty.log only where it differs from the
# piped log by more than the terminal's CRLF line endings.
for f in "$mt_out"/*.tty.log; do
  base=${f%.tty.log}
  if cmp -s <(tr -d '\r' <"$f" | sed -E 's/Finished in [0-9.]+s, [0-9.]+ runs\/s, [0-9.]+ assertions\/s\./Finished/') \
            <(sed -E 's/Finished in [0-9.]+s, [0-9.]+ runs\/s, [0-9.]+ assertions\/s\./Finished/' "$base.log"); then
    rm -f "$f"
    echo "  $(basename "$f"): same as $(basename "$base.log") apart from CRLF, not kept"
  fi
done

echo "rspec fixtures:    $rspec_out"
echo "rspec json:        $rspec_json_out"
echo "minitest fixtures: $mt_out"
