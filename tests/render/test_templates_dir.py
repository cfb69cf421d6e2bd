"""A user's templates replace ours by name, still sandboxed; a mistake in one is a one-line error
that says the fix, never a lost comment or a leak."""

from __future__ import annotations

import tracemalloc
from dataclasses import replace
from pathlib import Path

import pytest

from evidence_gate.render import (
    MissingCommentMarker,
    TemplateError,
    render_check_run,
    render_comment,
    render_job_summary,
    render_report,
)
from tests.render.checks import check_structure
from tests.render.ledgers import hostile_ledger, ledger


def templates(tmp_path: Path, **files: str) -> Path:
    directory = tmp_path / "templates"
    directory.mkdir()
    for name, text in files.items():
        (directory / name.replace("__", ".")).write_text(text, encoding="utf-8")
    return directory


def test_a_template_of_the_same_name_replaces_ours_and_the_rest_stay(tmp_path: Path) -> None:
    directory = templates(
        tmp_path,
        comment__md__j2='{% import "blocks.md.j2" as blocks %}{{ comment_marker }}\nOurs: {{ check_name | md }}\n\n'
        "{{ blocks.gate_table(gates, gates_notes) }}",
    )
    subject = hostile_ledger()
    comment = render_comment(subject, directory)
    assert comment.startswith("<!-- evidence-gate:comment:evidence-b-gate-b-octocat -->\nOurs: Evidence &lt;b&gt;")
    check_structure(comment, [comment.splitlines()[0]])
    assert render_job_summary(subject, directory) == render_job_summary(subject)


def test_templates_compiled_once_a_process_never_stand_for_a_users_template_or_its_edit(tmp_path: Path) -> None:
    """Compiled templates are kept for the process (environment.py: `_CompiledTemplates`): ours, once
    compiled, do not stand for a user's template of the same name, nor a user's for its own edit."""
    ours = render_comment(ledger())
    directory = templates(tmp_path, comment__md__j2="{{ comment_marker }}\nfirst {{ check_name | md }}")
    assert render_comment(ledger(), directory).splitlines()[1] == "first Evidence Gate"
    (directory / "comment.md.j2").write_text("{{ comment_marker }}\nsecond {{ check_name | md }}", encoding="utf-8")
    assert render_comment(ledger(), directory).splitlines()[1] == "second Evidence Gate"
    assert render_comment(ledger()) == ours


def test_a_comment_without_the_marker_is_refused(tmp_path: Path) -> None:
    directory = templates(tmp_path, comment__md__j2="Verdict: {{ verdict }}\n")
    with pytest.raises(MissingCommentMarker, match=r"keep \{\{ comment_marker \}\} in the template") as raised:
        render_comment(ledger(), directory)
    assert "\n" not in str(raised.value)


def test_untrusted_text_printed_without_a_filter_is_refused(tmp_path: Path) -> None:
    directory = templates(tmp_path, comment__md__j2="{{ comment_marker }}\n{{ failed_tests[0].name }}\n")
    with pytest.raises(TemplateError, match=r"comment.md.j2: prints untrusted text without a filter: pass it through"):
        render_comment(ledger(), directory)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("{{ comment_marker }}{{ gates }}", "prints a list"),
        ("{{ comment_marker }}{{ head.__class__.__mro__ }}", "comment.md.j2: "),
        ("{{ comment_marker }}{{ undefined_name }}", "'undefined_name' is undefined"),
        ("{{ comment_marker }}{% for %}", "line 1"),
        ('{{ comment_marker }}{% include "/etc/passwd" %}', "no template '/etc/passwd'"),
        ('{{ comment_marker }}{% include "../templates/comment.md.j2" %}', "no template"),
        ("{{ comment_marker }}{{ range(10 ** 9) | list }}", "ranges larger than MAX_RANGE"),
        ("{{ comment_marker }}{{ 1 / 0 }}", "ZeroDivisionError"),
    ],
)
def test_template_mistakes_and_escapes_are_one_line_errors(tmp_path: Path, text: str, error: str) -> None:
    directory = templates(tmp_path, comment__md__j2=text)
    with pytest.raises(TemplateError, match=error) as raised:
        render_comment(ledger(), directory)
    assert "\n" not in str(raised.value)


def test_the_sandbox_refuses_python_internals(tmp_path: Path) -> None:
    directory = templates(tmp_path, comment__md__j2="{{ comment_marker }}{{ ''.__class__.__subclasses__() }}")
    with pytest.raises(TemplateError):
        render_comment(ledger(), directory)


def test_a_symlinked_template_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "environ.j2"
    secret.write_text("GITHUB_TOKEN=ghs_secret", encoding="utf-8")
    directory = templates(tmp_path)
    (directory / "check_summary.md.j2").symlink_to(secret)
    with pytest.raises(TemplateError, match="a symlink; it is not followed"):
        render_check_run(ledger(), directory)


def test_templates_dir_must_be_a_directory(tmp_path: Path) -> None:
    with pytest.raises(TemplateError, match="templates-dir is not a directory"):
        render_comment(ledger(), tmp_path / "missing")


@pytest.mark.parametrize(
    "expression",
    [
        "'x' * 10 ** 9",
        "10 ** 9 * ['x']",
        "('x' * 999999) + 'yy'",
        "10 ** (10 ** 9)",
        "'%1000000000s' % 1",
        "'%*s' % (10 ** 9, 'x')",
    ],
)
def test_an_operator_that_would_make_a_huge_value_is_refused_before_it_runs(tmp_path: Path, expression: str) -> None:
    """`{{ 'x' * 10**9 }}` allocated a gigabyte; refused from its operands, it costs what a small one
    does, whatever the size asked for."""
    directory = templates(tmp_path, comment__md__j2=f"{{{{ comment_marker }}}}{{{{ ({expression}) | length }}}}")
    tracemalloc.start()
    try:
        with pytest.raises(TemplateError, match=r"comment.md.j2: `[*+%]+` would make a (value|number) of") as raised:
            render_comment(ledger(), directory)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024 * 1024, f"{peak:,} bytes to refuse {expression}"
    assert "\n" not in str(raised.value)


def test_an_operator_within_the_bound_still_works(tmp_path: Path) -> None:
    text = "{{ comment_marker }}\n{{ '-' * 3 }}{{ ([1] + [2]) | length }}{{ 2 ** 10 }}{{ '%3s' % 'x' }}"
    directory = templates(tmp_path, comment__md__j2=text)
    assert render_comment(ledger(), directory).splitlines()[-1] == "---21024  x"


# Each makes a value or a text of a gigabyte or more by a route the operators' check does not see:
# a method, a filter, `~`, the rendered text, or a loop of steps each within the operators' bound.
HUGE = [
    "{{ 'x'.ljust(10 ** 9) | length }}",
    "{{ 'x'.center(10 ** 9) | length }}",
    "{{ 'x'.zfill(10 ** 9) | length }}",
    "{{ ('\t' * 999999).expandtabs(1000) | length }}",
    "{{ ('x' * 999999).replace('', 'y' * 1000) | length }}",
    "{{ ('y' * 999999).join('x' * 1000) | length }}",
    "{{ '{:>1000000000}'.format(1) | length }}",
    "{{ '{:.1000000000f}'.format(1.5) | length }}",
    "{{ '{0:{1}}'.format('x', 10 ** 9) | length }}",
    "{{ 'x' | center(10 ** 9) | length }}",
    "{{ ('x\n' * 500000) | indent(1000) | length }}",
    "{{ ('x ' * 500000) | wordwrap(1, true, 'y' * 1000) | length }}",
    "{{ ('x' * 999999) | list | join('y' * 1000) | length }}",
    "{{ range(100000) | map('string') | join('y' * 100000) | length }}",
    "{{ ('x' * 999999) | replace('', 'y' * 1000) | length }}",
    "{{ '%1000000000s' | format(1) | length }}",
    "{{ ('%s' * 1000) | format(*(['x' * 999999] * 1000)) | length }}",
    "{{ (('%s' * 1000) % (('x' * 999999,) * 1000)) | length }}",
    "{{ [1] | batch(10 ** 9, 'x') | list | length }}",
    "{{ (['x' * 999999] * 1000) | join | length }}",
    "{{ (['x' * 999999] * 1000) | tojson | length }}",
    "{{ (['x' * 999999] * 1000) | string | length }}",
    "{{ ((['x' * 999999] * 1000) ~ '') | length }}",
    "{{ range(1000) | list | tojson(indent=10 ** 6) | length }}",
    "{% set ns = namespace(items=['x' * 999999] * 1000) %}{{ (ns | string) | length }}",
    "{{ lipsum(10 ** 6) | length }}",
    "{{ (1).to_bytes(10 ** 9, 'big') | length }}",
    "{% set ns = namespace(s='x' * 999999) %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}"
    "{{ ns.s | length }}",
    "{% set ns = namespace(s='x' * 999999) %}{% for i in range(40) %}{% set ns.s = ns.s | center(ns.s | length * 2) %}"
    "{% endfor %}{{ ns.s | length }}",
    "{% set ns = namespace(s='x' * 999999) %}{% for i in range(40) %}{% set t %}{{ ns.s }}{{ ns.s }}{% endset %}"
    "{% set ns.s = t %}{% endfor %}{{ ns.s | length }}",
    "{% for i in range(100000) %}{{ 'x' * 999999 }}{% endfor %}",
    "{% macro m(n) %}{% if n %}{{ m(n - 1) }}{{ m(n - 1) }}{% else %}{{ 'x' * 999999 }}{% endif %}{% endmacro %}"
    "{{ m(30) }}",
    "{% set l = [] %}{% for i in range(100000) %}{% set _ = l.append(('x' * 999999) ~ i) %}{% endfor %}"
    "{{ l | length }}",
    "{% set l = ['x'] %}{% for i in range(40) %}{% set _ = l.extend(l) %}{% endfor %}{{ l | length }}",
    "{% set l = range(100000) | list %}{% set k = [] %}{% for i in range(100000) %}{% set _ = k.append(l[:]) %}"
    "{% endfor %}{{ k | length }}",
]


@pytest.mark.parametrize("body", HUGE)
def test_a_template_that_would_make_a_huge_value_is_refused_in_bounded_memory(tmp_path: Path, body: str) -> None:
    """A template's every way of making a value is paid for out of its rendering's budget (a few
    million characters for a small ledger): refused as a one-line error, far below 256 MB."""
    directory = templates(tmp_path, comment__md__j2="{{ comment_marker }}\n" + body)
    tracemalloc.start()
    try:
        with pytest.raises(TemplateError, match=r"^comment.md.j2: ") as raised:
            render_comment(ledger(), directory)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024 * 1024, f"{peak:,} bytes to refuse {body}"
    assert "\n" not in str(raised.value)
    assert "SecurityError" in repr(raised.value.__cause__) or "lipsum" in str(raised.value)


def test_what_a_template_may_make_grows_with_its_context(tmp_path: Path) -> None:
    """The budget grows with the ledger: a report of a message of five million characters still
    escapes, truncates, replaces in, formats and doubles it, each past what a small ledger's
    rendering may make."""
    directory = templates(
        tmp_path,
        report__md__j2="{% for test in failed_tests %}{% if test.message %}{{ test.message | md | length }}"
        " {{ test.message | truncate(300) | md | length }} {{ test.message.replace('a', 'bb') | length }}"
        " {{ '%s: %s' | format(test.name, test.message) | length }} {{ (test.message ~ test.message) | length }}\n"
        "{% endif %}{% endfor %}",
    )
    subject = ledger()
    message = "a" * 5_000_000
    subject = replace(subject, failed_tests=(replace(subject.failed_tests[0], message=message),))
    assert render_report(subject, directory) == "5000000 300 10000000 5000027 10000000\n"


def test_a_format_whose_text_holds_a_long_number_still_renders(tmp_path: Path) -> None:
    """Only a conversion's width and precision count, not every number of the text around them."""
    text = (
        "{{ comment_marker }}\n{{ '%s in 20261207' % 'x' }} {{ '{} in 20261207'.format('y') }}"
        " {{ 'Build 20261207: %s' | format('z') }} {{ '%3s|%-4d|%.2f' % ('a', 1, 2.5) }}"
        " {{ '{0:>5}|{0:.1f}'.format(1.25) }}"
    )
    directory = templates(tmp_path, comment__md__j2=text)
    last = render_comment(ledger(), directory).splitlines()[-1]
    assert last == "x in 20261207 y in 20261207 Build 20261207: z   a|1   |2.50  1.25|1.2"
