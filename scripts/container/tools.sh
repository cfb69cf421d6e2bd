#!/usr/bin/env bash
# Installs the tools that build and run the action's image without a Docker engine:
# podman (rootful, runc runtime), buildah, debootstrap for the local base image.
#
# Usage: scripts/container/tools.sh        (as root; Debian bookworm host)
#
# Skips apt entirely when every package is already installed. On a fresh machine another apt
# process (unattended upgrades, the machine's own provisioning) may hold the dpkg lock:
# apt-get is told to wait for it (DPkg::Lock::Timeout), and the package lists are only
# fetched after the lock is free, up to EVIDENCE_GATE_DPKG_LOCK_TIMEOUT seconds (default 600).
set -euo pipefail

lock_timeout="${EVIDENCE_GATE_DPKG_LOCK_TIMEOUT:-600}"
packages=(podman buildah runc crun debootstrap containernetworking-plugins conmon)

if [[ "$(id -u)" != 0 ]]; then
    echo "tools.sh: must run as root (apt-get install)" >&2
    exit 2
fi

installed() {
    [[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" == "install ok installed" ]]
}
missing=()
for package in "${packages[@]}"; do
    installed "$package" || missing+=("$package")
done
if ((${#missing[@]} == 0)); then
    echo "tools.sh: ${packages[*]} already installed"
    exit 0
fi

export DEBIAN_FRONTEND=noninteractive
apt_options=(-o "DPkg::Lock::Timeout=${lock_timeout}" -o "Acquire::Retries=3")

# `apt-get update` takes the lists lock, not the dpkg frontend lock that
# DPkg::Lock::Timeout waits for: wait for a running apt/dpkg explicitly first.
apt_busy() {
    if command -v fuser >/dev/null 2>&1 \
        && fuser /var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock >/dev/null 2>&1; then
        return 0
    fi
    pgrep -x 'apt-get|apt|dpkg|unattended-upgr' >/dev/null 2>&1
}
waited=0
while apt_busy; do
    if ((waited >= lock_timeout)); then
        echo "tools.sh: apt/dpkg still busy after ${lock_timeout}s" >&2
        exit 1
    fi
    if ((waited % 15 == 0)); then
        echo "tools.sh: waiting for another apt/dpkg process to finish (${waited}s)"
    fi
    sleep 3
    waited=$((waited + 3))
done

apt-get "${apt_options[@]}" update -qq
apt-get "${apt_options[@]}" install -y -qq --no-install-recommends "${missing[@]}"
echo "tools.sh: installed ${missing[*]}"
