#!/usr/bin/env bash
# Regenerate every captured fixture under tests/fixtures/stack-logs/ (and, by coverage.sh,
# tests/fixtures/coverage/): runs each runner family's script in turn and stops at the first one
# that fails (set -e). Needs root (apt-get) and a while: maven.sh alone takes about three minutes.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)

for family in python python-sessions node node-tape node-uvu go cargo ctest check cmocka prove ruby phpunit maven gradle coverage tools; do
  echo "==== $family.sh"
  bash "$here/$family.sh"
done

echo "==== all fixture scripts done"
