"""The Jinja2 environment every output renders in, ours or a user's from templates-dir: sandboxed, with
undefined names an error, and autoescape off (the outputs are Markdown, which HTML escaping would
not make safe). Escaping is explicit, through the filters of `escaping`, and the finalizer refuses
an untrusted value that skipped them. Every way a template can fail becomes a `TemplateError`.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Callable, Iterable, Sized
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame, optimizeconst
from jinja2.exceptions import SecurityError
from jinja2.nodes import EvalContext
from jinja2.runtime import Context, Macro, markup_join, str_join
from jinja2.sandbox import SandboxedEnvironment

from evidence_gate.errors import EvidenceGateError
from evidence_gate.escaping import _Untrusted, code_block, escape_html, escape_markdown, mermaid_label
from evidence_gate.render.bounds import (
    POINTER,
    RENDER_BASE,
    RENDER_PER_CONTEXT,
    RenderBudget,
    check_operation,
    deep_size,
    estimate,
    estimate_pointers,
    materialize,
    own_size,
)
from evidence_gate.workspace import Refused, open_regular

# A template's name: a file of the templates folder, or of its one subfolder, `gates/` (one partial per gate).
TEMPLATE_FOLDERS = ("", "gates")
TEMPLATE_NAME = re.compile(r"(?:gates/)?[A-Za-z0-9][A-Za-z0-9_.-]*\.j2")
_MAX_TEMPLATE_BYTES = 1024 * 1024


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


class _BoundedCodeGenerator(CodeGenerator):
    """Jinja's compiler, with `a ~ b` and `a[i:j]` made by the environment, which pays for them
    (Jinja writes both as Python's own)."""

    @optimizeconst
    def visit_Getitem(self, node: nodes.Getitem, frame: Frame) -> None:
        if not isinstance(node.arg, nodes.Slice):
            super().visit_Getitem(node, frame)
            return
        self.write("environment.getitem(")
        self.visit(node.node, frame)
        self.write(", slice(")
        for part in (node.arg.start, node.arg.stop, node.arg.step):
            if part is None:
                self.write("None")
            else:
                self.visit(part, frame)
            self.write(", ")
        self.write("))")

    @optimizeconst
    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        self.write("environment.join_operands(context.eval_ctx, (")
        for operand in node.nodes:
            self.visit(operand, frame)
            self.write(", ")
        self.write("))")


class BoundedSandbox(SandboxedEnvironment):
    """The sandbox, with everything a template makes paid for out of its rendering's budget
    (`bounds`): operators, `~`, filters, calls, slices and the rendered text. `{{ 'x' * 10**9 }}`
    allocated a gigabyte before anything could refuse it, and `'x'.ljust(10**9)`, a filter or a
    loop of doublings did too."""

    intercepted_binops = frozenset({"*", "+", "**", "%"})
    code_generator_class = _BoundedCodeGenerator

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.budget = RenderBudget(RENDER_BASE)
        # lipsum(n) writes n paragraphs of a hundred words: nothing a comment needs, and n multiplied.
        del self.globals["lipsum"]

    def begin(self, context: dict[str, object]) -> None:
        """A new rendering of `context`: a budget of its own, sized by what the context holds."""
        self.budget = RenderBudget(RENDER_BASE + RENDER_PER_CONTEXT * deep_size(context, limit=sys.maxsize))

    def bound_filters(self) -> None:
        """Every filter, ours and Jinja's, judged and paid for as a call is."""
        self.filters = {name: self._bounded(name, function) for name, function in self.filters.items()}

    def _bounded(self, name: str, function: Callable[..., object]) -> Callable[..., object]:
        @functools.wraps(function)  # keeps Jinja's mark of a filter that takes the context first
        def bounded(*args: object, **kwargs: object) -> object:
            return self._make(name, None, function, args, kwargs)

        return bounded

    def _make(
        self,
        name: str,
        owner: object,
        function: Callable[..., object],
        args: tuple[object, ...],
        kwargs: dict[str, object],
    ) -> object:
        """A call that makes text from text (a filter, a string's method): estimated from its inputs
        before it runs, its iterators listed first so they can be measured; what it made charged."""
        what = f"`{name}`"
        args = tuple(materialize(value, self.budget, what) for value in args)
        kwargs = {key: materialize(value, self.budget, what) for key, value in kwargs.items()}
        inputs = [value for value in (owner, *args, *kwargs.values()) if not isinstance(value, _MACHINERY)]
        self.budget.allow(estimate(name, inputs, self.budget.left + 1), what)
        made = function(*args, **kwargs)
        self.budget.charge(own_size(made), what)
        return made

    # Jinja's own signature: its double-underscored names cannot clash with a keyword argument.
    def call(__self, __context: Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(__obj, Macro):
            return super().call(__context, __obj, *args, **kwargs)  # what it renders is paid for as rendered text
        method = getattr(__obj, "__wrapped__", __obj)  # the sandbox's str.format wraps the method
        owner = getattr(method, "__self__", None)
        name = getattr(method, "__name__", "")
        if isinstance(owner, str | bytes | bytearray):

            def run(*args: object, **kwargs: object) -> object:
                return SandboxedEnvironment.call(__self, __context, __obj, *args, **kwargs)

            return __self._make(name, owner, run, args, kwargs)
        what = f"`{name or type(__obj).__name__}`"
        if owner is not None:  # a method; the globals (range, dict, namespace, cycler, joiner) repeat nothing
            __self.budget.allow(estimate_pointers([owner, *args, *kwargs.values()]), what)
        before = len(owner) if isinstance(owner, Sized) else 0
        made = super().call(__context, __obj, *args, **kwargs)
        grown = len(owner) - before if isinstance(owner, Sized) else 0  # a list's append or extend
        __self.budget.charge(own_size(made) + POINTER * max(grown, 0), what)
        return made

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        check_operation(operator, left, right)
        if operator == "%" and isinstance(left, str):
            self.budget.allow(estimate("format", [left, right], self.budget.left + 1), "`%`")
        made = super().call_binop(context, operator, left, right)
        self.budget.charge(own_size(made), f"`{operator}`")
        return made

    def getitem(self, obj: Any, argument: Any) -> Any:
        found = super().getitem(obj, argument)
        if isinstance(argument, slice):  # a slice is a copy
            self.budget.charge(own_size(found), "a slice")
        return found

    def join_operands(self, eval_ctx: EvalContext, operands: tuple[object, ...]) -> str:
        """`a ~ b ~ c`: each printed and joined, measured before."""
        self.budget.allow(sum(deep_size(operand, self.budget.left + 1) for operand in operands), "`~`")
        joined = markup_join(operands) if eval_ctx.autoescape else str_join(operands)
        self.budget.charge(len(joined), "`~`")
        return joined

    def concat(self, pieces: Iterable[str]) -> str:  # Jinja's is "".join, a class attribute
        """The rendered text, of the template and of each `{% set %}` block, macro and filter block:
        joined once what has been rendered so far fits what the rendering has left."""
        kept: list[str] = []
        size = 0
        for piece in pieces:
            size += len(piece)
            if size > self.budget.left:
                raise SecurityError(
                    f"the rendered text is past the {self.budget.left:,} characters this rendering has left"
                    f" of {self.budget.allowance:,}"
                )
            kept.append(piece)
        self.budget.charge(size, "the rendered text")
        return "".join(kept)


# What Jinja passes a filter before its value (`pass_context` and the like), measured as nothing.
_MACHINERY = (Context, EvalContext, jinja2.Environment)


class _CompiledTemplates(jinja2.BytecodeCache):
    """The templates compiled so far in this process. Each rendering makes an environment of its own,
    and compiling the templates again for each took most of a comment's rendering time: a template's
    code is kept under its name and reused only while its source's checksum is the same (Jinja checks
    it), so a user's template of the same name as ours is compiled for itself."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


_COMPILED = _CompiledTemplates()


def _environment(templates_dir: Path | None) -> BoundedSandbox:
    package = jinja2.FunctionLoader(_package_template)
    if templates_dir is not None and not templates_dir.is_dir():
        raise TemplateError(
            f"{templates_dir}: templates-dir is not a directory; point it at the folder of your templates"
        )
    loader = package if templates_dir is None else jinja2.ChoiceLoader([_DirectoryLoader(templates_dir), package])
    environment = BoundedSandbox(
        loader=loader,
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # the outputs are Markdown: escaping is explicit, through the md/html/fence/mermaid filters
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_finalize,
        bytecode_cache=_COMPILED,
    )
    environment.filters.update(md=escape_markdown, html=escape_html, fence=code_block, mermaid=mermaid_label)
    environment.bound_filters()
    return environment


def _render(environment: BoundedSandbox, name: str, context: dict[str, object]) -> str:
    environment.begin(context)
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
