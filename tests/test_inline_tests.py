"""The lines of a Rust source file that its own tests span, read from its text: test modules and
test functions found through comments, strings, characters and lifetimes that hold brackets, and
anything the reader cannot follow answered unknown, never guessed."""

from __future__ import annotations

import pytest

from evidence_gate.inline_tests import MAX_CHARS, rust_test_lines, rust_test_names
from evidence_gate.stacks.table import default_table

RULES = default_table().get("rust").inline_tests
assert RULES is not None
ATTRIBUTES = RULES.attributes
FUNCTIONS = RULES.functions


def marked(text: str) -> list[str]:
    """The file's lines, each `T ` when a test item spans it."""
    lines = rust_test_lines(text, ATTRIBUTES)
    assert lines is not None
    return [("T " if number in lines else "  ") + line for number, line in enumerate(text.split("\n"), start=1)]


def test_a_cfg_test_module_spans_from_its_attributes_to_its_closing_brace() -> None:
    text = """pub fn parse(s: &str) -> u8 {
    s.len() as u8
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn parses() {
        assert_eq!(parse("ab"), 2);
    }
}

pub fn after() {}"""
    assert marked(text) == [
        "  pub fn parse(s: &str) -> u8 {",
        "      s.len() as u8",
        "  }",
        "  ",
        "T #[cfg(test)]",
        "T #[allow(clippy::unwrap_used)]",
        "T mod tests {",
        "T     use super::*;",
        "T ",
        "T     #[test]",
        "T     fn parses() {",
        'T         assert_eq!(parse("ab"), 2);',
        "T     }",
        "T }",
        "  ",
        "  pub fn after() {}",
    ]


def test_brackets_in_comments_strings_characters_and_raw_strings_are_no_brackets() -> None:
    text = r"""// a { in a line comment
/* a { in /* a nested */ block comment */
pub fn odd<'a>(x: &'a str) -> (char, &'static str, &'a str) {
    let _ = b'{';
    let _ = "}\"{";
    let _ = r#"a "}" b"#;
    let _ = br"}\";
    ('{', "}", x)
}
#[cfg(test)]
mod tests {
    #[test]
    fn braces() {
        assert_eq!(super::odd("}").0, '{'); // }
    }
}
pub fn last() {}"""
    lines = marked(text)
    assert [line for line in lines if line.startswith("T")] == [
        "T #[cfg(test)]",
        "T mod tests {",
        "T     #[test]",
        "T     fn braces() {",
        "T         assert_eq!(super::odd(\"}\").0, '{'); // }",
        "T     }",
        "T }",
    ]
    assert lines[-1] == "  pub fn last() {}"


def test_test_functions_and_test_only_items_outside_a_test_module_are_tests() -> None:
    text = """pub struct Cart {
    items: u32,
    #[cfg(test)]
    probe: u32
}
#[cfg(all(test, feature = "slow"))]
use std::time::Duration;
#[test]
fn top_level() {}
#[tokio::test(flavor = "multi_thread")]
async fn tokio_test() {}
#[cfg(not(test))]
fn production_only() {}
#[cfg(any(test, feature = "x"))]
fn not_only_tests() {}"""
    assert [number for number, line in enumerate(marked(text), start=1) if line.startswith("T")] == [
        3,
        4,
        6,
        7,
        8,
        9,
        10,
        11,
    ]


def test_a_test_module_inside_a_production_module_is_found() -> None:
    text = "mod inner {\n    pub fn f() {}\n    #[cfg(test)]\n    mod tests {\n        #[test]\n"
    text += "        fn t() {}\n    }\n}\n"
    assert rust_test_lines(text, ATTRIBUTES) == frozenset({3, 4, 5, 6, 7})


def test_an_inner_cfg_test_attribute_makes_the_whole_file_tests() -> None:
    assert rust_test_lines("#![cfg(test)]\nuse super::*;\n#[test]\nfn t() {}", ATTRIBUTES) == frozenset({1, 2, 3, 4})


def test_an_out_of_line_test_module_is_its_declaration() -> None:
    assert rust_test_lines("pub fn f() {}\n\n#[cfg(test)]\nmod tests;\n", ATTRIBUTES) == frozenset({3, 4})


@pytest.mark.parametrize(
    "text",
    [
        "fn f() {",  # a bracket left open
        "fn f() { ) }",  # closed by another kind
        "/* a comment left open\nfn f() {}",
        'fn f() { "a string left open }',
        'fn f() { r#"a raw string left open" }',
        "fn f() {}\n#[cfg(test)]",  # an attribute with no item
        "fn f() { #[cfg(test)] }",
        "x" * (MAX_CHARS + 1),
    ],
)
def test_what_the_reader_cannot_follow_is_unknown(text: str) -> None:
    assert rust_test_lines(text, ATTRIBUTES) is None


def test_test_functions_are_named_as_the_runner_names_them() -> None:
    text = """pub mod inner {
    #[cfg(test)]
    mod tests {
        #[test]
        fn a() {}
        fn helper() {}
    }
}
#[cfg(test)]
mod tests {
    #[test]
    #[should_panic(expected = "}")]
    pub fn panics() {}
    #[tokio::test]
    async fn waits() {}
}
#[test]
fn top() {}
"""
    assert rust_test_names(text, FUNCTIONS) == ("inner::tests::a", "tests::panics", "tests::waits", "top")
    assert rust_test_names("fn f() {", FUNCTIONS) is None
