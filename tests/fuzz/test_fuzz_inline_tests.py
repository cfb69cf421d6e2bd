"""The reader of a Rust file's own tests fuzzed (`inline_tests.py`): real source files with test
modules, mutated (bytes flipped, cut short, lines spliced and dropped, long lines), and garbage. The
pull request writes these files, so the reader answers the lines its tests span (each a line of the
file) or unknown, and the names of its test functions or unknown, never a traceback."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evidence_gate.inline_tests import rust_test_lines, rust_test_names
from evidence_gate.stacks.table import default_table

from .inputs import garbage, mutated

pytestmark = pytest.mark.fuzz

RULES = default_table().get("rust").inline_tests
assert RULES is not None
ATTRIBUTES, FUNCTIONS = RULES.attributes, RULES.functions
CORPUS = (
    b"pub fn total(prices: &[u32]) -> u32 {\n    prices.iter().sum()\n}\n\n#[cfg(test)]\nmod tests {\n"
    b"    use super::*;\n\n    #[test]\n    fn sums() {\n        assert_eq!(total(&[1, 2]), 3);\n    }\n}\n",
    b"// a { in a comment\n/* nested /* { */ */\npub fn odd<'a>(x: &'a str) -> char {\n    let _ = r#\"}\"#;\n"
    b"    let _ = b'{';\n    '}'\n}\n#[test]\nfn top() { assert_eq!(odd(\"\"), '}'); }\n",
    b'#![cfg(test)]\nuse super::*;\n#[tokio::test(flavor = "multi_thread")]\nasync fn waits() {}\n',
    b"pub struct S {\n    a: u8,\n    #[cfg(test)]\n    b: u8,\n}\nmod inner {\n    #[cfg(all(test, unix))]\n"
    b"    mod tests {\n        #[test]\n        fn t() {}\n    }\n}\n",
)


@given(st.one_of(mutated(CORPUS), garbage))
def test_a_files_own_tests_are_lines_of_it_or_unknown(data: bytes | str) -> None:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    lines = rust_test_lines(text, ATTRIBUTES)
    assert lines is None or all(1 <= number <= text.count("\n") + 1 for number in lines)
    names = rust_test_names(text, FUNCTIONS)
    assert names is None or all(name and " " not in name for name in names)
