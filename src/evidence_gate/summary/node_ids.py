"""A pytest test case's name as pytest's console prints it, its node id, from the JUnit report's words.

pytest writes a case's `classname` as its node id with the file's path dotted and `.py` dropped
(`tests/test_cart.py::CartTest::test_add` becomes `tests.test_cart.CartTest` and `test_add`).
Dots are lost in that, so the node id is given back only where it can be proven: the dotted prefix,
read as a path with `.py`, is a file in the checkout. Else the report's spelling stands. The
report is untrusted: only plain name parts (letters, digits, `_`, `-`) make a path, so no part can
climb out (`..`) or start from the root.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_PART = re.compile(r"[\w-]+")


def node_prefix(classname: str, is_file: Callable[[str], bool]) -> str | None:
    """`path.py::Class` (or `path.py` for a test function) for a pytest `classname`: the longest dotted
    prefix that `is_file` finds as a file; None when none is."""
    parts = classname.split(".")
    if not all(_PART.fullmatch(part) for part in parts):
        return None
    for cut in range(len(parts), 0, -1):
        path = "/".join(parts[:cut]) + ".py"
        if is_file(path):
            return "::".join([path, *parts[cut:]])
    return None
