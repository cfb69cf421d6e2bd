# shellcheck shell=bash
# Shared settings of the scripts in this folder; sourced by them, not run on its own.
#
# Environment (all optional):
#   EVIDENCE_GATE_CONTAINER_DIR     where podman keeps its storage and the scripts their work files
#                                   (default /var/tmp/evidence-gate-container; never inside the repo)
#   EVIDENCE_GATE_STORAGE_DRIVER    overlay (default) or vfs; each driver has its own storage folder
#   EVIDENCE_GATE_IMAGE             the name build.sh gives the action's image and run-action.sh runs
#                                   (default localhost/evidence-gate:dev)

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
container_dir="${EVIDENCE_GATE_CONTAINER_DIR:-/var/tmp/evidence-gate-container}"
storage_driver="${EVIDENCE_GATE_STORAGE_DRIVER:-overlay}"
# shellcheck disable=SC2034  # read by the scripts that source this file
image_name="${EVIDENCE_GATE_IMAGE:-localhost/evidence-gate:dev}"

die() {
    echo "${0##*/}: $*" >&2
    exit 2
}

require_root() {
    [[ "$(id -u)" == 0 ]] || die "must run as root (rootful podman, debootstrap, chroot)"
}

prepare_container_dir() {
    mkdir -p "$container_dir"
    container_dir="$(cd "$container_dir" && pwd -P)"
    case "$container_dir/" in
        "$repo_root"/*) die "EVIDENCE_GATE_CONTAINER_DIR ($container_dir) must not be inside the repository" ;;
    esac
    case "$storage_driver" in
        overlay | vfs) ;;
        *) die "EVIDENCE_GATE_STORAGE_DRIVER must be overlay or vfs, not '$storage_driver'" ;;
    esac
}

# Rootful podman with storage of its own under the work dir. runc, because crun fails on this
# cgroup setup; cgroupfs and a file event log, because no systemd runs on these machines.
podman_cmd() {
    podman \
        --root "$container_dir/storage-$storage_driver" \
        --runroot "$container_dir/run-$storage_driver" \
        --storage-driver "$storage_driver" \
        --runtime runc \
        --cgroup-manager cgroupfs \
        --events-backend file \
        "$@"
}

# The image named by the first FROM line of a Dockerfile, fully qualified the way podman
# resolves it: debian:TAG -> docker.io/library/debian:TAG.
base_image_of() {
    local dockerfile="$1" from name tag first
    from="$(awk 'toupper($1) == "FROM" { for (i = 2; i <= NF; i++) if ($i !~ /^--/) { print $i; exit } }' "$dockerfile")"
    [[ -n "$from" ]] || die "no FROM line in $dockerfile"
    [[ "$from" != *@* ]] || die "FROM $from is pinned by digest: a local stand-in cannot match a digest"
    name="${from%:*}"
    tag="${from##*:}"
    if [[ "$name" == "$from" || "$tag" == */* ]]; then
        name="$from"
        tag=latest
    fi
    first="${name%%/*}"
    if [[ "$name" != */* ]]; then
        name="docker.io/library/$name"
    elif [[ "$first" != *.* && "$first" != *:* && "$first" != localhost ]]; then
        name="docker.io/$name"
    fi
    printf '%s:%s\n' "$name" "$tag"
}

# The first URI of this machine's apt sources that serve SUITE (deb822 debian.sources first,
# then the one-line sources.list); empty if none.
apt_mirror_uri() {
    local suite="$1" uri=""
    if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
        uri="$(awk -v suite="$suite" '
            function flush() {
                if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " suite " ") && uris != "" && found == "") {
                    split(uris, parts, " "); found = parts[1]
                }
                types = ""; suites = ""; uris = ""
            }
            /^[[:space:]]*$/ { flush(); next }
            /^[[:space:]]*#/ { next }
            /^Types:/  { sub(/^Types:[[:space:]]*/, "");  types = $0 }
            /^Suites:/ { sub(/^Suites:[[:space:]]*/, ""); suites = $0 }
            /^URIs:/   { sub(/^URIs:[[:space:]]*/, "");   uris = $0 }
            END { flush(); print found }
        ' /etc/apt/sources.list.d/debian.sources)"
    fi
    if [[ -z "$uri" && -f /etc/apt/sources.list ]]; then
        uri="$(awk -v suite="$suite" '
            $1 == "deb" {
                i = 2
                if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
                if ($(i + 1) == suite) { print $i; exit }
            }' /etc/apt/sources.list)"
    fi
    printf '%s\n' "$uri"
}

host_of() {
    local host="${1#*://}"
    host="${host%%/*}"
    printf '%s\n' "${host##*@}"
}

# Every mirror host named in this machine's apt sources (URIs: lines, deb/deb-src lines).
apt_mirror_hosts() {
    local file
    for file in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list /etc/apt/sources.list; do
        [[ -f "$file" ]] || continue
        awk '
            /^[[:space:]]*#/ { next }
            /^URIs:/ { for (i = 2; i <= NF; i++) print $i }
            $1 == "deb" || $1 == "deb-src" { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; break } }
        ' "$file"
    done | while read -r uri; do host_of "$uri"; done | sort -u
}

# A filter that replaces the mirror hosts with <mirror>: the output of debootstrap and of the
# build's apt-get is kept in logs, and the mirror's name must not be.
redact_mirrors() {
    local host script=""
    while read -r host; do
        [[ -n "$host" ]] || continue
        script+="s|$(printf '%s' "$host" | sed 's/[][\.*^$/|]/\\&/g')|<mirror>|g;"
    done < <(apt_mirror_hosts)
    sed -u "${script:-b}"
}
