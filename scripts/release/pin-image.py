#!/usr/bin/env python3
"""Rewrites action.yml for a release: `runs.image` names the pushed image, pinned by its digest.

Usage: scripts/release/pin-image.py --image ghcr.io/OWNER/REPO --version 1.2.3 --digest sha256:HEX [ACTION_YML]

On the main branch action.yml says `image: Dockerfile`, and GitHub builds the image on the runner at
every run. The release commit says instead
`image: docker://ghcr.io/OWNER/REPO:1.2.3@sha256:HEX`: the image the release workflow pushed, which
GitHub pulls and starts. The tag keeps the reference readable (which release it is); the digest
is what Docker pulls (the tag is then ignored), so the image a release tag names can never change,
even if the image's tag in the registry is pushed again. The same form as reviewdog's actions,
whose release commits name `docker://ghcr.io/...:vX.Y.Z@sha256:...`.

Only the one line changes, as text, so the file keeps its comments, order and quoting; then the new
text is loaded as GitHub loads it and must equal the old one with only `runs.image` changed, or
nothing is written. Refuses (one line on stderr, exit 2, the file untouched): an image name that
is not ghcr.io's lower-case OWNER/REPO, a version that is not three numbers, a digest that is not
`sha256:` and 64 lower-case hex digits, an action.yml that is not a Docker action building
`Dockerfile` (one already pinned included), or one where the line is not found exactly once.
Prints the new reference on stdout.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

import yaml

# ghcr.io requires lower-case names: OWNER/REPO as GitHub spells them, lower-cased.
IMAGE = re.compile(r"ghcr\.io/[a-z0-9](?:[a-z0-9-]{0,38})/[a-z0-9_.-]{1,100}")
VERSION = re.compile(r"(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})")
DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
SOURCE_IMAGE = "Dockerfile"
# The `image:` line of the `runs:` mapping: indented, the value Dockerfile (plain or quoted).
IMAGE_LINE = re.compile(
    r"^(?P<indent>[ ]+)image:[ ]*(?P<value>Dockerfile|'Dockerfile'|\"Dockerfile\")[ ]*$", re.MULTILINE
)


class Refused(Exception):
    """action.yml cannot be pinned; the message says why, in one line."""


def reference(image: str, version: str, digest: str) -> str:
    if IMAGE.fullmatch(image) is None:
        raise Refused(f"--image {image!r} is not ghcr.io/OWNER/REPO in lower case (ghcr.io refuses upper case)")
    if VERSION.fullmatch(version) is None:
        raise Refused(f"--version {version!r} is not three numbers, as 1.2.3")
    if DIGEST.fullmatch(digest) is None:
        raise Refused(f"--digest {digest!r} is not sha256: and 64 lower-case hex digits")
    return f"docker://{image}:{version}@{digest}"


def load(text: str, what: str) -> dict[str, Any]:
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise Refused(f"{what} is not valid YAML: {' '.join(str(error).split())}") from error
    if not isinstance(document, dict) or not isinstance(document.get("runs"), dict):
        raise Refused(f"{what} has no runs mapping")
    return document


def pinned(text: str, image_reference: str) -> str:
    """`text` with its `runs.image: Dockerfile` line naming `image_reference`, checked by loading it."""
    before = load(text, "action.yml")
    runs = before["runs"]
    if runs.get("using") != "docker" or runs.get("image") != SOURCE_IMAGE:
        raise Refused(
            f"action.yml's runs are using {runs.get('using')!r} with image {runs.get('image')!r}, "
            f"not a Docker action building {SOURCE_IMAGE!r} (a release commit is never pinned again)"
        )
    lines = list(IMAGE_LINE.finditer(text))
    if len(lines) != 1:
        raise Refused(f"action.yml has {len(lines)} lines `image: {SOURCE_IMAGE}`, not one")
    line = lines[0]
    after_text = f"{text[: line.start()]}{line['indent']}image: {image_reference}{text[line.end() :]}"
    after = load(after_text, "the pinned action.yml")
    expected = {**before, "runs": {**runs, "image": image_reference}}
    if after != expected:
        raise Refused("the rewritten action.yml differs from the original in more than runs.image")
    return after_text


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pin-image.py", description=__doc__.splitlines()[0])
    parser.add_argument("--image", required=True, help="ghcr.io/OWNER/REPO, lower case")
    parser.add_argument("--version", required=True, help="the release's version, as 1.2.3")
    parser.add_argument("--digest", required=True, help="the pushed image's digest, sha256:HEX")
    parser.add_argument("action", nargs="?", type=Path, default=Path("action.yml"), help="default: action.yml")
    args = parser.parse_args(argv)
    try:
        image_reference = reference(args.image, args.version, args.digest)
        if args.action.is_symlink():
            raise Refused(f"{args.action} is a symlink: the release rewrites only a regular file")
        text = args.action.read_text(encoding="utf-8")
        args.action.write_text(pinned(text, image_reference), encoding="utf-8")
    except (Refused, OSError, UnicodeDecodeError) as error:
        print(f"pin-image: {' '.join(str(error).split())}", file=sys.stderr)
        return 2
    print(image_reference)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
