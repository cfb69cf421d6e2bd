#!/usr/bin/env bash
# Builds the action's image from the repository's Dockerfile with podman, the way this machine
# allows (no Docker engine, no registry): tools.sh if podman is missing, base-image.sh for the
# FROM image (cached), then `podman build` with no pull.
#
# Usage: scripts/container/build.sh [CONTEXT_DIR]
#   CONTEXT_DIR  the build context holding the Dockerfile (default: the repository's root)
# Prints the image name on the last line. Runs as root. Environment: see common.sh
# (EVIDENCE_GATE_CONTAINER_DIR, EVIDENCE_GATE_STORAGE_DRIVER, EVIDENCE_GATE_IMAGE).
#
# Flags: --isolation chroot (no nested container runtime needed for RUN steps), --pull=never
# (the base is the local stand-in), --layers=false (no intermediate images: about a quarter of
# the time and half the disk with vfs). The host's apt sources are mounted read-only for the
# build only, so the Dockerfile's apt-get reaches this machine's mirror while the image keeps
# none of it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
# shellcheck source=scripts/container/common.sh
source "$here/common.sh"

context="${1:-$repo_root}"
[[ -d "$context" ]] || die "no build context at $context"
context="$(cd "$context" && pwd -P)"
[[ -f "$context/Dockerfile" ]] || die "no Dockerfile in $context"

require_root
prepare_container_dir

if ! command -v podman >/dev/null 2>&1 || ! command -v debootstrap >/dev/null 2>&1; then
    "$here/tools.sh"
fi
"$here/base-image.sh" "$context/Dockerfile"

apt_mounts=()
for sources in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
    if [[ -s "$sources" ]]; then
        apt_mounts+=(--volume "$sources:$sources:ro")
    fi
done
((${#apt_mounts[@]})) || die "no apt sources on this machine to lend to the build"

echo "build.sh: building $image_name from $context"
podman_cmd build \
    --isolation chroot \
    --pull=never \
    --layers=false \
    --network host \
    "${apt_mounts[@]}" \
    --file "$context/Dockerfile" \
    --tag "$image_name" \
    "$context" 2>&1 | redact_mirrors

# The previous build of the same name is left untagged: drop it, and nothing else.
podman_cmd image prune --force >/dev/null
echo "$image_name"
