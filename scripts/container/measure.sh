#!/usr/bin/env bash
# Measures the action's image: its size, how long it takes to start, and (with --build) how long
# building it from source takes. docs/release.md keeps the numbers, with the machine and the date.
#
# Usage: scripts/container/measure.sh [--build] [--runs N]
#   --build   build the image first with build.sh and time it (the base image cached, as a
#             runner's Docker has Debian's base cached only sometimes: see docs/release.md)
#   --runs N  start the image N times for each start-up figure and print the median (default 5)
# Runs as root. Environment: see common.sh (EVIDENCE_GATE_CONTAINER_DIR, EVIDENCE_GATE_IMAGE).
#
# Sizes: the image as stored (uncompressed, what `podman images` shows) and as pulled (its layers
# gzip-compressed, as a registry stores and a runner downloads them: the image is pushed to a
# temporary OCI layout folder and its blobs are summed). Start-up, from `podman run` to:
#   - a container that runs /bin/true: the runtime alone;
#   - `evidence-gate --version` finished: the interpreter and the command line's imports;
#   - the action's entrypoint, with no GitHub environment: its first line, and its exit (it says it
#     is not running in GitHub Actions and exits 2): the whole path a workflow's step takes.
# Prints a Markdown table.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
# shellcheck source=scripts/container/common.sh
source "$here/common.sh"

build=0
runs=5
while (($#)); do
    case "$1" in
        --build) build=1 ;;
        --runs)
            (($# >= 2)) && [[ "$2" =~ ^[1-9][0-9]?$ ]] || die "--runs needs a number from 1 to 99"
            runs="$2"
            shift
            ;;
        -h | --help)
            sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *) die "unknown argument $1" ;;
    esac
    shift
done

require_root
prepare_container_dir

now_ms() {
    echo $(($(date +%s%N) / 1000000))
}

median() {
    sort -n | awk '{ value[NR] = $1 } END { print value[int((NR + 1) / 2)] }'
}

seconds() {
    awk -v ms="$1" 'BEGIN { printf "%.2f s", ms / 1000 }'
}

if ((build)); then
    "$here/base-image.sh" >/dev/null
    start="$(now_ms)"
    "$here/build.sh" >/dev/null
    build_ms=$(($(now_ms) - start))
fi
podman_cmd image exists "$image_name" || die "no image $image_name: run scripts/container/build.sh first (or --build)"

stored="$(podman_cmd image inspect --format '{{.Size}}' "$image_name")"
layout="$(mktemp -d "$container_dir/measure.XXXXXX")"
trap 'rm -rf "$layout"' EXIT
podman_cmd push --quiet --compression-format gzip "$image_name" "oci:$layout/image:measure" >/dev/null
pulled="$(find "$layout/image/blobs" -type f -printf '%s\n' | awk '{ total += $1 } END { print total }')"

run=(run --rm --pull never --network none --ulimit nofile=1024:1024 --ulimit nproc=4096:4096)
runtime_ms=() version_ms=() first_ms=() exit_ms=()
for ((i = 0; i < runs; i++)); do
    start="$(now_ms)"
    podman_cmd "${run[@]}" --entrypoint /bin/true "$image_name"
    runtime_ms+=($(($(now_ms) - start)))

    start="$(now_ms)"
    podman_cmd "${run[@]}" --entrypoint evidence-gate "$image_name" --version >/dev/null
    version_ms+=($(($(now_ms) - start)))

    start="$(now_ms)"
    first=""
    while IFS= read -r _; do
        [[ -n "$first" ]] || first="$(now_ms)"
    done < <(podman_cmd "${run[@]}" "$image_name" 2>&1 || true)
    exit_ms+=($(($(now_ms) - start)))
    [[ -n "$first" ]] || die "the action's entrypoint printed nothing"
    first_ms+=($((first - start)))
done

mb() {
    awk -v bytes="$1" 'BEGIN { printf "%.0f MB", bytes / 1000000 }'
}
echo "| What | Measured |"
echo "| --- | --- |"
echo "| Image size, stored (uncompressed) | $(mb "$stored") |"
echo "| Image size, pulled (compressed layers) | $(mb "$pulled") |"
if ((build)); then
    echo "| Build from source (build.sh, base image cached) | $(seconds "$build_ms") |"
fi
echo "| Start: a container running /bin/true (median of $runs) | $(seconds "$(printf '%s\n' "${runtime_ms[@]}" | median)") |"
echo "| Start: \`evidence-gate --version\` finished (median of $runs) | $(seconds "$(printf '%s\n' "${version_ms[@]}" | median)") |"
echo "| Start: the action's first line (median of $runs) | $(seconds "$(printf '%s\n' "${first_ms[@]}" | median)") |"
echo "| Start: the action's exit, no GitHub environment (median of $runs) | $(seconds "$(printf '%s\n' "${exit_ms[@]}" | median)") |"
echo
echo "$(date -u +%Y-%m-%d), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), $(podman --version), storage driver $storage_driver"
