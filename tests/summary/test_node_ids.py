"""pytest's node ids given back from its JUnit classnames, only where the test file proves them."""

from __future__ import annotations

import pytest

from evidence_gate.summary.node_ids import node_prefix

FILES = {"tests/test_cart.py", "test_root.py", "pkg-a/tests/test_x.py"}


@pytest.mark.parametrize(
    ("classname", "prefix"),
    [
        ("tests.test_cart", "tests/test_cart.py"),
        ("tests.test_cart.TestCart", "tests/test_cart.py::TestCart"),
        ("tests.test_cart.TestCart.TestNested", "tests/test_cart.py::TestCart::TestNested"),
        ("test_root", "test_root.py"),
        ("pkg-a.tests.test_x.TestX", "pkg-a/tests/test_x.py::TestX"),
        ("tests.test_missing.TestCart", None),  # no such file: the report's spelling stands
        ("", None),
    ],
)
def test_the_longest_prefix_that_is_a_file_becomes_the_path(classname: str, prefix: str | None) -> None:
    assert node_prefix(classname, FILES.__contains__) == prefix


@pytest.mark.parametrize("classname", ["/etc.passwd", "...etc.passwd", "tests/../../etc.x", "a b.test", "tests..x"])
def test_a_classname_that_is_no_plain_dotted_name_is_never_a_path(classname: str) -> None:
    asked: list[str] = []

    def is_file(path: str) -> bool:
        asked.append(path)
        return True

    assert node_prefix(classname, is_file) is None
    assert asked == []
