#!/usr/bin/env bash
# Makes a local stand-in for the Debian base image that the Dockerfile's FROM line names, since
# no container registry can be reached here: a debootstrap minbase rootfs (what Debian's "slim"
# images are made from), imported into podman's storage and tagged with exactly that name, so the
# Dockerfile builds unchanged with --pull=never.
#
# Usage: scripts/container/base-image.sh [--force] [DOCKERFILE]
#   DOCKERFILE  whose FROM line names the image (default: the repository's Dockerfile)
#   --force     make it again even if the image already exists (otherwise this is a no-op then)
# Runs as root. Needs the tools of tools.sh. Storage: see common.sh (EVIDENCE_GATE_CONTAINER_DIR).
#
# The Debian mirror is read at run time from this machine's apt sources and never written into
# the image, the scripts or their output (it is redacted from debootstrap's messages). The host's
# extra CA certificates (/usr/local/share/ca-certificates/*.crt, e.g. an intercepting proxy's)
# are trusted inside the stand-in, and PIP_CERT / SSL_CERT_FILE / REQUESTS_CA_BUNDLE point at the
# system bundle, so pip can reach PyPI during the build. The real base image has neither.
set -euo pipefail
# shellcheck source=scripts/container/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

force=0
dockerfile="$repo_root/Dockerfile"
while (($#)); do
    case "$1" in
        --force) force=1 ;;
        -h | --help)
            sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        -*) die "unknown option $1" ;;
        *) dockerfile="$1" ;;
    esac
    shift
done

require_root
prepare_container_dir
[[ -f "$dockerfile" ]] || die "no Dockerfile at $dockerfile"
base_image="$(base_image_of "$dockerfile")"

case "$base_image" in
    docker.io/library/debian:*) ;;
    *) die "the stand-in can only replace debian:CODENAME-... images, not $base_image" ;;
esac
tag="${base_image##*:}"
suite="${tag%%-*}"
[[ "$suite" =~ ^[a-z]+$ ]] || die "cannot read a Debian codename from the tag '$tag'"

if ((force == 0)) && podman_cmd image exists "$base_image"; then
    echo "base-image.sh: $base_image already exists (cached; --force makes it again)"
    exit 0
fi

mirror="$(apt_mirror_uri "$suite")"
[[ -n "$mirror" ]] || die "no Debian mirror for $suite in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list"
mirror_host="$(host_of "$mirror")"

rootfs="$container_dir/rootfs-$suite"
rm -rf "$rootfs"
trap 'rm -rf "$rootfs"' EXIT

echo "base-image.sh: debootstrap --variant=minbase $suite (mirror from the apt sources)"
# ca-certificates: the only addition to minbase, needed to trust the host's extra CAs below.
debootstrap --variant=minbase --include=ca-certificates "$suite" "$rootfs" "$mirror" 2>&1 | redact_mirrors

# Trust the host's extra CAs (an intercepting proxy's, where there is one).
shopt -s nullglob
extra_cas=(/usr/local/share/ca-certificates/*.crt)
shopt -u nullglob
if ((${#extra_cas[@]})); then
    install -d -m 0755 "$rootfs/usr/local/share/ca-certificates"
    install -m 0644 "${extra_cas[@]}" "$rootfs/usr/local/share/ca-certificates/"
fi
chroot "$rootfs" /usr/sbin/update-ca-certificates >/dev/null

# Slim, as Debian's own image builder (debuerreotype: its slimify and minimizing-config steps)
# makes the official debian:*-slim images from the same minbase rootfs, so an image built on the
# stand-in has the size the real base gives it: dpkg keeps no documentation, manual pages or
# translations (only each package's copyright), for packages installed now and later; apt deletes
# the packages it downloaded, keeps no binary caches and fetches no translated indexes.
slim_excludes=(
    '/usr/share/doc/*'
    '/usr/share/info/*'
    '/usr/share/linda/*'
    '/usr/share/lintian/overrides/*'
    '/usr/share/locale/*'
    '/usr/share/man/*'
    '/usr/share/gnome/help/*/*'
    '/usr/share/doc/kde/HTML/*/*'
    '/usr/share/omf/*/*-*.emf'
)
slim_includes=(
    '/usr/share/doc/*/copyright'
    '/usr/share/doc/kde/HTML/C/*'
    '/usr/share/gnome/help/*/C/*'
    '/usr/share/locale/all_languages'
    '/usr/share/locale/currency/*'
    '/usr/share/locale/l10n/*'
    '/usr/share/locale/languages'
    '/usr/share/locale/locale.alias'
    '/usr/share/omf/*/*-C.emf'
)
{
    echo '# The "slim" variant: files that containers do not need are not installed.'
    printf 'path-exclude %s\n' "${slim_excludes[@]}"
    printf 'path-include %s\n' "${slim_includes[@]}"
} >"$rootfs/etc/dpkg/dpkg.cfg.d/docker"
keep=()
for pattern in "${slim_includes[@]}"; do
    keep+=(-o -path "$pattern")
done
shopt -s nullglob
man_sections=("$rootfs"/usr/share/man/man[0-9])
shopt -u nullglob
for folder in /usr/share/doc /usr/share/info /usr/share/linda /usr/share/lintian/overrides /usr/share/locale /usr/share/man; do
    [[ -d "$rootfs$folder" ]] || continue
    chroot "$rootfs" find "$folder" -depth -mindepth 1 ! -type d ! \( -false "${keep[@]}" \) -delete
    chroot "$rootfs" find "$folder" -depth -mindepth 1 -type d -empty -delete
done
# Some packages' scripts register alternatives for manual pages in these folders: keep them.
((${#man_sections[@]} == 0)) || mkdir -p "${man_sections[@]}"
apt_clean='"rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true";'
printf 'DPkg::Post-Invoke { %s };\nAPT::Update::Post-Invoke { %s };\nDir::Cache::pkgcache "";\nDir::Cache::srcpkgcache "";\n' \
    "$apt_clean" "$apt_clean" >"$rootfs/etc/apt/apt.conf.d/docker-clean"
echo 'Acquire::Languages "none";' >"$rootfs/etc/apt/apt.conf.d/docker-no-languages"
echo 'Acquire::GzipIndexes "true";' >"$rootfs/etc/apt/apt.conf.d/docker-gzip-indexes"
echo 'Apt::AutoRemove::SuggestsImportant "false";' >"$rootfs/etc/apt/apt.conf.d/docker-autoremove-suggests"

# Nothing of this machine stays in the image: no mirror (apt sources, lists, log), no host files.
: >"$rootfs/etc/apt/sources.list"
rm -f "$rootfs/var/log/bootstrap.log" "$rootfs/etc/hostname"
: >"$rootfs/etc/resolv.conf"
printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$rootfs/etc/hosts"
find "$rootfs/var/lib/apt/lists" -mindepth 1 -maxdepth 1 ! -name lock ! -name partial -exec rm -rf {} +
rm -f "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb
# (Only etc/ and var/, what this machine wrote: packages' own docs may name a public mirror.)
leaks="$(grep -rIlF -e "$mirror_host" "$rootfs/etc" "$rootfs/var" || true)"
if [[ -n "$leaks" ]]; then
    printf '%s\n' "$leaks" | redact_mirrors >&2
    die "the mirror's host name is still in the files above; not importing the rootfs"
fi

echo "base-image.sh: importing as $base_image"
cert=/etc/ssl/certs/ca-certificates.crt
tar -C "$rootfs" --numeric-owner -cf - . | podman_cmd import --quiet \
    --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    --change "ENV PIP_CERT=$cert" \
    --change "ENV SSL_CERT_FILE=$cert" \
    --change "ENV REQUESTS_CA_BUNDLE=$cert" \
    --change 'CMD ["bash"]' \
    - "$base_image" >/dev/null
podman_cmd image exists "$base_image"
echo "base-image.sh: $base_image is ready"
