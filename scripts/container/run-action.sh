#!/usr/bin/env bash
# Runs the built image the way GitHub runs a Docker container action (see build.sh), so a test can
# drive the action end to end on this machine.
#
# Usage: scripts/container/run-action.sh [OPTIONS] [--] [ARG...]
#   --workspace DIR        host folder mounted at /github/workspace, the working directory
#                          (default: $GITHUB_WORKSPACE when set, else the current folder)
#   --image NAME           image to run (default: $EVIDENCE_GATE_IMAGE or localhost/evidence-gate:dev)
#   --entrypoint PATH      replace the image's ENTRYPOINT (GitHub's runs.entrypoint)
#   -e, --env NAME[=VALUE] pass one more variable; NAME alone takes its value from this environment
#   ARG...                 the container's arguments (GitHub's runs.args)
#
# What reaches the container, as on GitHub:
#   - every variable of this environment named INPUT_* or GITHUB_* (INPUT_ names may hold '-',
#     as GitHub's do), values untouched, except the paths below; plus each -e/--env;
#   - GITHUB_WORKSPACE=/github/workspace, HOME=/github/home (an empty temporary folder),
#     GITHUB_ACTIONS=true and CI=true unless given;
#   - GITHUB_EVENT_PATH=/github/workflow/event.json: the file named by this environment's
#     GITHUB_EVENT_PATH, read-only, or a temporary file holding {};
#   - GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ENV, GITHUB_PATH, GITHUB_STATE at
#     /github/file_commands/...: the host files named by these variables here (created if
#     missing, written in place, so the caller reads the action's outputs from them), or
#     temporary files removed at exit.
# Podman flags: --network host (a test server on the host's loopback is reachable), the ulimits
# GitHub's runners have (podman's defaults are refused here), --runtime runc. Exit status: the
# container's (podman's own errors: 125-127). Runs as root. Storage: see common.sh.
set -euo pipefail
# shellcheck source=scripts/container/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
}

workspace="${GITHUB_WORKSPACE:-$PWD}"
entrypoint=()
extra_env=()
while (($#)); do
    case "$1" in
        --workspace)
            (($# >= 2)) || die "--workspace needs a folder"
            workspace="$2"
            shift 2
            ;;
        --image)
            (($# >= 2)) || die "--image needs a name"
            image_name="$2"
            shift 2
            ;;
        --entrypoint)
            (($# >= 2)) || die "--entrypoint needs a path"
            entrypoint=(--entrypoint "$2")
            shift 2
            ;;
        -e | --env)
            (($# >= 2)) || die "$1 needs NAME or NAME=VALUE"
            extra_env+=("$2")
            shift 2
            ;;
        -h | --help)
            usage
            exit 0
            ;;
        --)
            shift
            break
            ;;
        -*) die "unknown option $1 (use -- before the container's arguments)" ;;
        *) break ;;
    esac
done

require_root
prepare_container_dir
[[ -d "$workspace" ]] || die "no workspace folder at $workspace"
workspace="$(cd "$workspace" && pwd -P)"
[[ "$workspace" != *:* ]] || die "the workspace path must not hold ':' ($workspace)"
podman_cmd image exists "$image_name" || die "no image $image_name: run scripts/container/build.sh first"

run_dir="$(mktemp -d "${TMPDIR:-/tmp}/evidence-gate-action.XXXXXX")"
trap 'rm -rf "$run_dir"' EXIT
mkdir -p "$run_dir/home" "$run_dir/file_commands"

args=(
    run --rm --pull never
    --network host
    --ulimit nofile=1024:1024 --ulimit nproc=4096:4096
    -v "$workspace:/github/workspace"
    -w /github/workspace
    -v "$run_dir/home:/github/home"
    -e HOME=/github/home
    -e GITHUB_WORKSPACE=/github/workspace
)

# The event file: the caller's, read-only, or an empty event.
event_file="${GITHUB_EVENT_PATH:-}"
if [[ -z "$event_file" ]]; then
    event_file="$run_dir/event.json"
    printf '{}\n' >"$event_file"
fi
[[ -f "$event_file" ]] || die "GITHUB_EVENT_PATH names no file: $event_file"
args+=(-v "$event_file:/github/workflow/event.json:ro" -e GITHUB_EVENT_PATH=/github/workflow/event.json)

# The file commands: the caller's files when named, else temporary ones.
declare -A command_files=(
    [GITHUB_OUTPUT]=set_output
    [GITHUB_STEP_SUMMARY]=step_summary
    [GITHUB_ENV]=set_env
    [GITHUB_PATH]=add_path
    [GITHUB_STATE]=save_state
)
for variable in "${!command_files[@]}"; do
    host_file="${!variable:-$run_dir/file_commands/${command_files[$variable]}}"
    [[ "$host_file" != *:* ]] || die "$variable must not hold ':' ($host_file)"
    mkdir -p "$(dirname "$host_file")"
    : >>"$host_file"
    target="/github/file_commands/${command_files[$variable]}"
    args+=(-v "$host_file:$target" -e "$variable=$target")
done

# INPUT_* and GITHUB_* of this environment, by name only: podman reads the values itself, so
# none (a token, say) shows in the process list. env -0, because INPUT_ names may hold '-'.
declare -A passed=()
while IFS= read -r -d '' entry; do
    name="${entry%%=*}"
    case "$name" in
        GITHUB_WORKSPACE | GITHUB_EVENT_PATH | GITHUB_OUTPUT | GITHUB_STEP_SUMMARY | GITHUB_ENV | GITHUB_PATH | GITHUB_STATE) ;;
        INPUT_* | GITHUB_*)
            args+=(-e "$name")
            passed[$name]=1
            ;;
    esac
done < <(env -0)
for entry in "${extra_env[@]}"; do
    args+=(-e "$entry")
    passed[${entry%%=*}]=1
done
[[ -n "${passed[GITHUB_ACTIONS]:-}" ]] || args+=(-e GITHUB_ACTIONS=true)
[[ -n "${passed[CI]:-}" ]] || args+=(-e CI=true)

status=0
podman_cmd "${args[@]}" "${entrypoint[@]}" "$image_name" "$@" || status=$?
exit "$status"
