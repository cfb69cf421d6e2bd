"""Which tests a production file's lines belong to, where a report cannot say: the test files the
adapter table's naming rules name after it, and the test file a coverage context names.

A test file's subject is the part of its name that the first `*` of a name pattern of the table
(`test_*.py`, `*_test.go`, `*.test.*`, `*Test.java`) stands for: `cart` for `test_cart.py`,
`cart.test.js` and `cart_test.go`, `Cart` for `CartTest.java`. A production file is paired with
the test files whose subject is its name up to the first dot. A pattern of folders (`tests/`) names
no subject.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from evidence_gate.coverage.paths import PathMapper


def subject_patterns(globs: Iterable[str]) -> tuple[re.Pattern[str], ...]:
    """A regex per name pattern with a `*`, whose `subject` group is its first `*`."""
    patterns: dict[str, re.Pattern[str]] = {}
    for glob in globs:
        if "/" in glob or "*" not in glob or glob.startswith("!") or any(sign in glob for sign in "?[]"):
            continue
        first, _, rest = glob.partition("*")
        regex = re.escape(first) + "(?P<subject>[^/]+?)" + "[^/]*".join(re.escape(part) for part in rest.split("*"))
        patterns.setdefault(glob, re.compile(f"^{regex}$"))
    return tuple(patterns.values())


def test_subject(path: str, patterns: Iterable[re.Pattern[str]]) -> str | None:
    name = path.rsplit("/", 1)[-1]
    for pattern in patterns:
        found = pattern.match(name)
        if found and found["subject"]:
            return found["subject"].split(".", 1)[0]
    return None


def paired_tests(
    production: Iterable[str], tests: Iterable[str], patterns: tuple[re.Pattern[str], ...]
) -> dict[str, tuple[str, ...]]:
    """Each production file's test files, by subject; a file with none is left out."""
    by_subject: dict[str, list[str]] = {}
    for test in tests:
        subject = test_subject(test, patterns)
        if subject:
            by_subject.setdefault(subject, []).append(test)
    pairs = {}
    for path in production:
        stem = path.rsplit("/", 1)[-1].split(".", 1)[0]
        if stem in by_subject:
            pairs[path] = tuple(sorted(by_subject[stem]))
    return pairs


@dataclass(kw_only=True)
class ContextTests:
    """The test file a coverage.py context names: `tests/test_cart.py::test_total|run` (pytest-cov's
    `--cov-context=test`) by its path, `tests.test_cart.test_total` (`dynamic_context =
    test_function`) by the longest dotted prefix that is a test module. None: not a test's context."""

    mapper: PathMapper
    tests: frozenset[str]
    _cache: dict[str, str | None] = field(default_factory=dict, init=False, repr=False)

    def __call__(self, context: str) -> str | None:
        if context not in self._cache:
            self._cache[context] = self._test(context.split("|", 1)[0])
        return self._cache[context]

    def _test(self, name: str) -> str | None:
        if "::" in name:
            return self._file(name.split("::", 1)[0])
        parts = name.split(".")
        for end in range(len(parts), 0, -1):
            found = self._file("/".join(parts[:end]) + ".py")
            if found:
                return found
        return None

    def _file(self, name: str) -> str | None:
        found = self.mapper.map(name, None).path
        return found if found in self.tests else None
