"""A change that rewords comments, or adds one after a statement, changes no code: strength has
nothing to take away and says so (never a still-green failure), and gate integrity asks no test for
it (`RH-15?`); any change to the code itself, a string's text included, is still one."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from evidence_gate.code_lines import code_unchanged
from evidence_gate.model import ChangedFile, ChangedLine, FileKind, FileStatus, Hunk

from .conftest import CliResult, Repo
from .strength.test_python_strength import strength, verdicts
from .test_integrity_tagger import inventory_of, tags


def changed(path: str, removed: list[str], added: list[str]) -> ChangedFile:
    hunk = Hunk(
        old_start=1,
        old_lines=len(removed),
        new_start=1,
        new_lines=len(added),
        section="",
        removed=tuple(ChangedLine(number=n, text=t) for n, t in enumerate(removed, 1)),
        added=tuple(ChangedLine(number=n, text=t) for n, t in enumerate(added, 1)),
    )
    return ChangedFile(
        path=path,
        old_path=None,
        status=FileStatus.MODIFIED,
        kind=FileKind.PRODUCTION,
        binary=False,
        old_mode=None,
        new_mode=None,
        similarity=None,
        hunks=(hunk,),
    )


@pytest.mark.parametrize(
    ("path", "removed", "added", "unchanged"),
    [
        ("cart.py", ["# the sum", "x = 1"], ["# the sum of all", "x = 1", ""], True),
        ("cart.py", ["x = 1  # one"], ["x = 1"], True),
        ("cart.py", ["x = 1"], ["x = 2"], False),
        ("cart.py", ['x = "a # b"'], ['x = "a # c"'], False),  # in a string: code
        ("pflag.go", ["\terr := f()"], ["\terr := f() //nolint:errcheck // the flag set is ours"], True),
        ("pflag.go", ["\tf()"], ["\tf() // see https://example.com/x"], True),
        ("lib.rs", ["    total"], ["    /* sum */ total"], True),
        ("lib.rs", ["    total"], ["    *count += 1;", "    total"], False),
        ("cart.js", ["const a = 1;"], ["const a = 1; // one", "// two"], True),
        ("cart.js", ["const url = 'x';"], ["const url = 'http://x';"], False),
        ("notes.txt", ["a"], ["b"], False),  # no comment syntax known: a change
    ],
)
def test_a_change_is_to_the_code_unless_only_comments_and_blank_lines_moved(
    path: str, removed: list[str], added: list[str], unchanged: bool
) -> None:
    assert code_unchanged(changed(path, removed, added)) is unchanged


CART = '"""The cart."""\n\n\ndef total(prices):\n    # add them up\n    return sum(prices)\n'
TESTS = "from cart import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n"


def test_strength_judges_no_test_when_the_production_change_is_only_comments(
    repo: Repo, cli: Callable[..., CliResult]
) -> None:
    base = repo.commit(
        "base", {"cart.py": CART, "tests/test_cart.py": TESTS, "pyproject.toml": "[project]\nname='c'\n"}
    )
    reworded = CART.replace("# add them up", "# the sum of every price")
    repo.commit("tidy", {"cart.py": reworded, "tests/test_cart.py": TESTS.replace("[1, 2]", "[1, 2] ")})
    code, document = strength(cli, repo, base)
    assert verdicts(document) == {"tests/test_cart.py": "not-run"}
    (row,) = document["tests"]
    assert row["reason"].endswith("comments and blank lines only")
    assert code != 1  # never a still-green failure


def test_a_production_comment_changed_without_a_test_asks_for_none(repo: Repo) -> None:
    found = inventory_of(repo, "python", {"shop/cart.py": CART}, {"shop/cart.py": CART.replace("add them", "sum them")})
    assert tags(found) == []
    found = inventory_of(repo, "python", {}, {"shop/cart.py": CART.replace("sum(prices)", "sum(prices) + 1")})
    assert tags(found) == [("shop/cart.py", ("RH-15?",))]
