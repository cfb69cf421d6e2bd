"""The Jinja2 environment every output renders in, ours or a user's from templates-dir: sandboxed, with
undefined names an error, and autoescape off (the outputs are Markdown, which HTML escaping would
not make safe). Escaping is explicit, through the filters of `escaping`, and the finalizer refuses
an untrusted value that skipped them. Every way a template can fail becomes a `TemplateError`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import jinja2
from jinja2.exceptions import SecurityError
from jinja2.runtime import Context
from jinja2.sandbox import SandboxedEnvironment

from evidence_gate.errors import EvidenceGateError
from evidence_gate.render.escaping import _Untrusted, code_block, escape_html, escape_markdown, mermaid_label
from evidence_gate.workspace import Refused, open_regular

# A template's name: a file of the templates folder, or of its one subfolder, `gates/` (one partial per gate).
TEMPLATE_FOLDERS = ("", "gates")
TEMPLATE_NAME = re.compile(r"(?:gates/)?[A-Za-z0-9][A-Za-z0-9_.-]*\.j2")
_MAX_TEMPLATE_BYTES = 1024 * 1024
# What one operator of a template may make: a string or list of at most this many characters or
# items (a comment is at most 65,536 characters), an integer of at most this many bits.
MAX_OPERATION_ITEMS = 1_000_000
MAX_OPERATION_BITS = 64 * 1024
_FORMAT_WIDTH = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|[0-9]+)?(?:\.(\*|[0-9]+))?")


class TemplateError(EvidenceGateError):
    """A template (ours, or one from templates-dir) that does not load or render."""


class MissingCommentMarker(TemplateError):
    """A comment template whose output lacks the comment marker: the action could not find its
    comment again and would post a new one on every run, so it refuses to post at all."""


class _UnescapedText(Exception):
    """Raised by the finalizer; turned into a TemplateError naming the template."""


class _DirectoryLoader(jinja2.BaseLoader):
    """A user's templates: a regular file in the directory, named like a template, read without
    following a symlink. The directory is in the repository, so a pull request can change it: the
    sandbox keeps its templates from running code, and this keeps them from reading a runner file
    (a symlink to the process environment, say) into a public comment."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        if not TEMPLATE_NAME.fullmatch(template):
            raise jinja2.TemplateNotFound(template)
        path = self.directory / template
        if path.parent != self.directory and path.parent.is_symlink():
            raise TemplateError(f"{path.parent}: a symlink; templates-dir's gates/ must be a folder of its own")
        if not os.path.lexists(path):
            raise jinja2.TemplateNotFound(template)
        try:
            with open_regular(path) as handle:
                data = handle.read(_MAX_TEMPLATE_BYTES + 1)
        except Refused as refusal:
            raise TemplateError(f"{refusal.one_line()}; a template must be a regular file, not a symlink") from refusal
        if len(data) > _MAX_TEMPLATE_BYTES:
            raise TemplateError(f"{path}: over {_MAX_TEMPLATE_BYTES:,} bytes; a template must be smaller")
        try:
            source = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise TemplateError(
                f"{path}: not UTF-8 ({error.reason} at byte {error.start}); save it as UTF-8"
            ) from error
        return source, str(path), lambda: False


def _package_template(name: str) -> str | None:
    """One of ours, from the installed package (the repository's templates/ folder)."""
    if not TEMPLATE_NAME.fullmatch(name):
        return None
    resource = resources.files("evidence_gate.templates").joinpath(name)
    return resource.read_text(encoding="utf-8") if resource.is_file() else None


def _finalize(value: object) -> object:
    """What `{{ ... }}` may print: computed labels and numbers, or text that went through a filter.
    Untrusted text, None and containers (their repr) are template mistakes."""
    if isinstance(value, jinja2.Undefined):
        return value  # printing it raises the undefined-name error, which says which name
    if isinstance(value, _Untrusted):
        raise _UnescapedText(
            "prints untrusted text without a filter: pass it through | md, | html, | fence or | mermaid"
        )
    if not isinstance(value, str | int):
        raise _UnescapedText(f"prints a {type(value).__name__}; print its items, or test it with `is none`")
    return value


class _BoundedSandbox(SandboxedEnvironment):
    """The sandbox, with the operators that make a value larger than their operands checked first:
    `{{ 'x' * 10**9 }}` allocated a gigabyte before anything could refuse it."""

    intercepted_binops = frozenset({"*", "+", "**", "%"})

    def call_binop(self, context: Context, operator: str, left: object, right: object) -> object:
        _check_operation(operator, left, right)
        return super().call_binop(context, operator, left, right)


_SIZED = (str, bytes, list, tuple)


def _check_operation(operator: str, left: object, right: object) -> None:
    """Refuse an operation whose result would be past `MAX_OPERATION_ITEMS` or `MAX_OPERATION_BITS`,
    judged from its operands, before it runs."""
    items = bits = 0
    if operator == "*":
        if isinstance(left, _SIZED) and isinstance(right, int):
            items = len(left) * right
        elif isinstance(right, _SIZED) and isinstance(left, int):
            items = len(right) * left
        elif isinstance(left, int) and isinstance(right, int):
            bits = left.bit_length() + right.bit_length()
    elif operator == "+":
        if isinstance(left, _SIZED) and isinstance(right, _SIZED):
            items = len(left) + len(right)
    elif operator == "**":
        if isinstance(left, int) and isinstance(right, int) and right > 0:
            bits = abs(left).bit_length() * right
    elif operator == "%" and isinstance(left, str):
        arguments = right if isinstance(right, tuple) else (right,)
        starred = max((abs(value) for value in arguments if isinstance(value, int)), default=0)
        widths = [
            int(part) if part != "*" else starred
            for found in _FORMAT_WIDTH.finditer(left)
            for part in found.groups()
            if part
        ]
        items = len(left) + sum(widths)
    if items > MAX_OPERATION_ITEMS:
        raise SecurityError(f"`{operator}` would make a value of {items:,} items, past {MAX_OPERATION_ITEMS:,}")
    if bits > MAX_OPERATION_BITS:
        raise SecurityError(f"`{operator}` would make a number of about {bits:,} bits, past {MAX_OPERATION_BITS:,}")


def _environment(templates_dir: Path | None) -> SandboxedEnvironment:
    package = jinja2.FunctionLoader(_package_template)
    if templates_dir is not None and not templates_dir.is_dir():
        raise TemplateError(
            f"{templates_dir}: templates-dir is not a directory; point it at the folder of your templates"
        )
    loader = package if templates_dir is None else jinja2.ChoiceLoader([_DirectoryLoader(templates_dir), package])
    environment = _BoundedSandbox(
        loader=loader,
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # the outputs are Markdown: escaping is explicit, through the md/html/fence/mermaid filters
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_finalize,
    )
    environment.filters.update(md=escape_markdown, html=escape_html, fence=code_block, mermaid=mermaid_label)
    return environment


def _render(environment: SandboxedEnvironment, name: str, context: dict[str, object]) -> str:
    try:
        return environment.get_template(name).render(context)
    except _UnescapedText as error:
        raise TemplateError(f"{name}: {error}") from error
    except jinja2.TemplateSyntaxError as error:
        raise TemplateError(f"{error.filename or name}, line {error.lineno}: {error.message}") from error
    except jinja2.TemplateNotFound as error:
        raise TemplateError(
            f"{name}: no template {error.name!r} in templates-dir nor among ours; check its name"
        ) from error
    except jinja2.TemplateError as error:
        raise TemplateError(f"{name}: {error.message or type(error).__name__}") from error
    except (ArithmeticError, LookupError, TypeError, ValueError, RecursionError) as error:
        # What a template's own expressions can raise (the sandbox's range limit is an OverflowError).
        raise TemplateError(f"{name}: {type(error).__name__}: {error}") from error
