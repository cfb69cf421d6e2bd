"""What a GitHub credential looks like, in one place.

The scrubber masks these shapes in what the tool writes, the child environment drops a variable
whose value holds one, and the runner step's guard refuses to start beside one: three readers of
one list, so a shape added here is masked, dropped and refused alike.
"""

from __future__ import annotations

import re

# GitHub's token prefixes (personal, OAuth, user-to-server, installation, refresh).
TOKEN_SHAPE = r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}"
# Fine-grained personal access tokens.
PAT_SHAPE = r"\bgithub_pat_[A-Za-z0-9_]{20,}"
# The installation token in a clone URL or a basic credential; `user` is the name kept when masked.
ACCESS_TOKEN_SHAPE = r"(?P<user>(?i:x-access-token):)[^@\s'\"]+"
SHAPES = (TOKEN_SHAPE, PAT_SHAPE, ACCESS_TOKEN_SHAPE)

_ANY_SHAPE = re.compile("|".join(f"(?:{shape})" for shape in SHAPES))


def holds_token(text: str) -> bool:
    """Whether `text` holds something shaped like a GitHub credential."""
    return _ANY_SHAPE.search(text) is not None
