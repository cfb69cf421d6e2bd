# The evidence-gate GitHub Action's image (a Docker container action).
#
# Two ways to run it. A release's action.yml names this image, built once by the release workflow
# (.github/workflows/release.yml) and pulled from ghcr.io by its digest, so a workflow starts it in
# seconds. Between releases (a commit SHA of the main branch) action.yml says `image: Dockerfile`, and
# GitHub builds this file on the runner at every workflow run. Either way GitHub runs it as root with
# the workspace mounted at /github/workspace and --workdir /github/workspace (which is why there is
# no USER and no WORKDIR here: GitHub's docs for Docker actions say to run as the default user, root,
# and to leave the working directory to GitHub). Everything the action needs is installed here, at
# build time; nothing is downloaded when it runs.
#
# Two stages, so the image keeps what runs and nothing that only installs: the package is installed
# into a virtualenv in the first stage, where pip and the build tools are, and the second copies
# that virtualenv, without pip or setuptools, onto a base with only Debian's python3 and git. The
# size and start-up time it gives are measured in docs/release.md.
#
# Base: Debian bookworm's slim image, pinned by its dated tag (Debian 12.11, built from the
# Debian snapshot of 2025-05-20). scripts/container/base-image.sh makes a local stand-in under the
# same name for building without a registry; a digest pin could not be matched by it, so the
# dated tag is the pin. Both stages use the same base, so the virtualenv's python3 is the one
# the final image runs it with (the same Debian package at the same path).
FROM debian:bookworm-20250520-slim AS install

# Debian's python3 (3.11) with its venv module; pip and the package go into a venv (PEP 668 forbids
# pip in the system Python). Versions are not pinned (hadolint DL3008): GitHub rebuilds this image
# at every run of an unreleased commit from Debian's regular mirrors, which keep only the newest
# version of each package of a suite, so an exact pin would break every such workflow at the next
# Debian point or security release. The dated base tag fixes the release; apt adds its current
# security fixes.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        ca-certificates \
        python3 \
        python3-venv \
    && rm -rf /var/lib/apt/lists/*

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# The package, from this repository (not from PyPI), into /opt/evidence-gate/venv. The whole
# context, which .dockerignore trims to the package's sources, so what pyproject.toml packages
# needs no second list here. Then pip and setuptools, which only install, leave the venv, and every
# module left is compiled: the image never writes bytecode at run time, so this is what makes its
# imports fast. Unchecked-hash bytecode is never compared with its source's modification time,
# which a copy between stages may round (the image's files never change, so there is nothing to
# compare); timestamp-checked bytecode would be found stale and compiled again at every start.
COPY . /tmp/evidence-gate-src/
RUN python3 -m venv /opt/evidence-gate/venv \
    && /opt/evidence-gate/venv/bin/pip install --no-compile /tmp/evidence-gate-src \
    && /opt/evidence-gate/venv/bin/pip uninstall --yes --quiet setuptools pip \
    && /opt/evidence-gate/venv/bin/python -m compileall -q -f -j 0 --invalidation-mode unchecked-hash \
        /opt/evidence-gate/venv/lib \
    && rm -rf /tmp/evidence-gate-src

FROM debian:bookworm-20250520-slim

# What the action runs: Debian's python3 (the venv's interpreter) and git. No python3-venv, no pip.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        ca-certificates \
        git \
        python3 \
    && rm -rf /var/lib/apt/lists/*

# GitHub sets HOME=/github/home for the container, so a `git config --global` made here (in
# /root/.gitconfig) would never be read: the system config (/etc/gitconfig) is. The workspace is
# owned by the runner's user, not by the container's root, so git refuses it without this.
RUN git config --system --add safe.directory /github/workspace

# Unbuffered: the action's lines reach the log in order. No bytecode written at run time: the
# venv was compiled at install, and no root-owned __pycache__ is left in the user's workspace.
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1

COPY --from=install /opt/evidence-gate/venv /opt/evidence-gate/venv
COPY entrypoint.py /opt/evidence-gate/entrypoint.py

ENV PATH=/opt/evidence-gate/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

ENTRYPOINT ["/opt/evidence-gate/venv/bin/python", "/opt/evidence-gate/entrypoint.py"]
