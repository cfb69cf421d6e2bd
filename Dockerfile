# The evidence-gate GitHub Action's image (a Docker container action).
#
# GitHub builds this file on the runner at every workflow run, from the action's repository, and
# runs it as root with the workspace mounted at /github/workspace and --workdir /github/workspace
# (which is why there is no USER and no WORKDIR here: GitHub's docs for Docker actions say to
# run as the default user, root, and to leave the working directory to GitHub). Everything the
# action needs is installed here, at build time; nothing is downloaded when it runs.
#
# Base: Debian bookworm's slim image, pinned by its dated tag (Debian 12.11, built from the
# Debian snapshot of 2025-05-20). scripts/container/base-image.sh makes a local stand-in under the
# same name for building without a registry; a digest pin could not be matched by it, so the
# dated tag is the pin.
FROM debian:bookworm-20250520-slim

# Debian's python3 (3.11) and git; pip and the package go into a venv (PEP 668 forbids pip in the
# system Python). Versions are not pinned (hadolint DL3008): GitHub rebuilds this image at every
# run from Debian's regular mirrors, which keep only the newest version of each package of a
# suite, so an exact pin would break every user's workflow at the next Debian point or security
# release (git has had several in bookworm). The dated base tag fixes the release; apt adds its
# current security fixes.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        ca-certificates \
        git \
        python3 \
        python3-venv \
    && rm -rf /var/lib/apt/lists/*

# GitHub sets HOME=/github/home for the container, so a `git config --global` made here (in
# /root/.gitconfig) would never be read: the system config (/etc/gitconfig) is. The workspace is
# owned by the runner's user, not by the container's root, so git refuses it without this.
RUN git config --system --add safe.directory /github/workspace

# Unbuffered: the action's lines reach the log in order. No bytecode written at run time: the
# venv is compiled at install, and no root-owned __pycache__ is left in the user's workspace.
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# The package, from this repository (not from PyPI), into /opt/evidence-gate/venv. The whole
# context, which .dockerignore trims to the package's sources, so what pyproject.toml packages
# needs no second list here.
COPY . /tmp/evidence-gate-src/
RUN python3 -m venv /opt/evidence-gate/venv \
    && /opt/evidence-gate/venv/bin/pip install /tmp/evidence-gate-src \
    && rm -rf /tmp/evidence-gate-src

COPY entrypoint.py /opt/evidence-gate/entrypoint.py

ENV PATH=/opt/evidence-gate/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

ENTRYPOINT ["/opt/evidence-gate/venv/bin/python", "/opt/evidence-gate/entrypoint.py"]
