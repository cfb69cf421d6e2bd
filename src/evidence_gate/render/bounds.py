"""How much a template may make. A user's templates (templates-dir) run in Jinja2's sandbox, which
keeps them from running code but not from asking for memory: `{{ 'x'.ljust(10**9) }}` is one call,
and a `{% set %}` that doubles a string in a loop is many small ones. So every value a template
makes is paid for out of one budget per rendering (`RenderBudget`): a constant plus a multiple of
the context it was given, so a large ledger's report still renders and a small one's cannot grow.

Every way a template makes a value goes through the environment (`environment.BoundedSandbox`):
operators, `~`, filters, calls of methods and functions, slices, and the joins that make the
rendered text (the output, `{% set %}` blocks, macros). There is no list of dangerous names: a
call, an operator and `~` are judged twice, a slice and the rendered text as they are made:

- before it runs, from its inputs (`estimate`): what it could make at most, within a constant
  factor (an escape's growth: `mermaid` writes up to nine characters for one); past what the
  rendering has left, it is refused and costs nothing;
- after it runs, by what it made (`own_size`), which is charged to the budget; so a loop of small
  steps, each allowed, ends when their sum is past the budget. A value is paid for once, where it
  is made: a list pays for its items' pointers, not again for what they point to.

An estimate multiplies the two largest inputs (a string replaced in a string, a separator joined
between items, a tab size times the tabs): which input multiplies which is not known for every
callable, so every one is assumed to. The calls whose numbers are a width or a count of what they
make, never a multiplier (`_WIDTH_CALLS`), add their numbers instead, so that a report's long
message can still be truncated to 300 characters; and a format (`%`, `format`, `str.format`) counts
the widths its text spells out (`{:>1000000000}`), as well as its placeholders times its
arguments.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from jinja2.exceptions import SecurityError
from jinja2.utils import Namespace

# What one operator of a template may make: a string or list of at most this many characters or
# items (a comment is at most 65,536 characters), an integer of at most this many bits.
MAX_OPERATION_ITEMS = 1_000_000
MAX_OPERATION_BITS = 64 * 1024
# A rendering's budget, in characters (a list's item counts as a pointer's 8): this many, plus this
# many times the size of the context it renders.
RENDER_BASE = 4 * 1024 * 1024
RENDER_PER_CONTEXT = 16
POINTER = 8

_CONTAINERS = (list, tuple, set, frozenset, dict)
_SIZED = (str, bytes, list, tuple)  # what `*` repeats and `+` joins
_PLAIN = (str, bytes, int, float, type(None))  # checked first: most of what a template passes
_DIGITS = re.compile(r"[0-9]+")
# A `%` conversion's width and precision; a `str.format` field's spec (after its `:`).
_PERCENT_FIELD = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|[0-9]+)?(?:\.(\*|[0-9]+))?")
_BRACE_SPEC = re.compile(r"\{[^{}:]*:([^{}]*)\}")
_NESTED_FIELD = re.compile(r"\{[^{}]*\{")
_PLACEHOLDER = re.compile(r"%|\{")
# Calls whose integer arguments are a width, a count or a position of what they make, so add to its
# size; any other call's integers may multiply it (`indent(1000)` on every line, `expandtabs`).
_WIDTH_CALLS = frozenset(
    {
        "batch",
        "center",
        "endswith",
        "filesizeformat",
        "find",
        "float",
        "index",
        "int",
        "ljust",
        "rfind",
        "rindex",
        "rjust",
        "round",
        "rsplit",
        "slice",
        "split",
        "startswith",
        "truncate",
        "urlize",
        "wordwrap",
        "zfill",
    }
)
_FORMATS = frozenset({"format", "format_map"})


@dataclass
class RenderBudget:
    """What a rendering may still make, in characters (`own_size`)."""

    allowance: int
    spent: int = 0

    @property
    def left(self) -> int:
        return self.allowance - self.spent

    def allow(self, estimate: int, what: str) -> None:
        """Refuse, before it runs, an operation that could make more than the rendering has left."""
        if estimate > self.left:
            raise SecurityError(
                f"{what} could make a value of about {estimate:,} characters, past the {self.left:,} this"
                f" rendering has left of {self.allowance:,}"
            )

    def charge(self, size: int, what: str) -> None:
        """Pay for what an operation made; past the allowance, the rendering stops."""
        self.spent += size
        if self.spent > self.allowance:
            raise SecurityError(f"{what} made {size:,} characters, taking this rendering past its {self.allowance:,}")


def deep_size(value: object, limit: int) -> int:
    """About how many characters `value` prints as, its items' included, counted up to just past
    `limit` (a list holding itself, or a million references to one long string, ends the count)."""
    if isinstance(value, str | bytes):  # most of what a template passes: measured at once
        return len(value)
    total = 0
    pending: list[object] = [value]
    while pending and total <= limit:
        item = pending.pop()
        if isinstance(item, str | bytes | int):
            total += own_size(item)
            continue
        total += POINTER
        if isinstance(item, list | tuple | set | frozenset):
            pending.extend(item)
        elif isinstance(item, Mapping):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif (fields := getattr(type(item), "__dataclass_fields__", None)) is not None:
            pending.extend(getattr(item, name, None) for name in fields)
        elif isinstance(item, Namespace):  # `{% set ns = namespace(...) %}`, which prints what it holds
            pending.append(object.__getattribute__(item, "_Namespace__attrs"))
    return total


def own_size(value: object) -> int:
    """What making `value` took, in characters: a string's or bytes' length, a container's items as
    pointers to values already paid for, an integer's digits."""
    if isinstance(value, str | bytes | bytearray):
        return len(value)
    if isinstance(value, bool):
        return 1
    if isinstance(value, int):
        return value.bit_length() // 3 + 1
    if isinstance(value, _CONTAINERS):
        return POINTER * len(value) * (2 if isinstance(value, dict) else 1)
    return POINTER


def materialize(value: object, budget: RenderBudget, what: str) -> object:
    """An iterator as a list, so what it holds can be measured before a call uses it (a separator
    joined between a lazy `map`'s items); refused once it holds more than the rendering has left."""
    if isinstance(value, _PLAIN) or not isinstance(value, Iterator):
        return value
    kept: list[object] = []
    for item in value:
        kept.append(item)
        if POINTER * len(kept) > budget.left:
            raise SecurityError(f"{what} was given more items than this rendering has left")
    budget.charge(POINTER * len(kept), what)
    return kept


def format_widths(text: str) -> int:
    """The widths and precisions a format's text spells out, `%`'s (`%1000000000s`, `%.9f`) and
    `str.format`'s (`{:>1000000000}`, `{0:.9f}`); a number past seven digits counts as past any
    budget (and past 4,300, int() would refuse it)."""
    numbers = [part for found in _PERCENT_FIELD.finditer(text) for part in found.groups() if part and part != "*"]
    numbers += [run for spec in _BRACE_SPEC.findall(text) for run in _DIGITS.findall(spec)]
    return sum(int(number) if len(number) <= 7 else MAX_OPERATION_ITEMS * 1_000 for number in numbers)


def estimate(name: str, inputs: list[object], limit: int) -> int:
    """At most what a call of `name` (a filter, or a method with its object first among `inputs`)
    could make from `inputs`, within a constant factor; measured no further than just past `limit`."""
    numbers = [abs(value) for value in inputs if isinstance(value, int) and not isinstance(value, bool)]
    contents = [deep_size(value, limit) for value in inputs if not isinstance(value, int | float | None)]
    if name in _FORMATS:
        text = next((value for value in inputs if isinstance(value, str)), "")
        arguments = max(contents[1:], default=0)
        starred = sum(numbers) if "*" in text or _NESTED_FIELD.search(text) else 0
        return len(text) + format_widths(text) + starred + len(_PLACEHOLDER.findall(text)) * arguments
    if name in _WIDTH_CALLS:
        return sum(contents) + sum(numbers) + _product(contents)
    return sum(contents) + sum(numbers) + _product(contents + numbers)


def estimate_pointers(inputs: list[object]) -> int:
    """At most what a call that is not a string's could make, its numbers aside (`to_bytes(n)`, a
    count): pointers to its inputs. A list's, a dict's or a set's method never repeats one."""
    return sum(
        abs(value) if isinstance(value, int) and not isinstance(value, bool) else own_size(value) for value in inputs
    )


def _product(sizes: list[int]) -> int:
    """The two largest sizes multiplied: what one input repeated for each piece of another makes."""
    largest = sorted(sizes, reverse=True)[:2]
    return (largest[0] + 1) * (largest[1] + 1) if len(largest) == 2 else 0


def check_operation(operator: str, left: object, right: object) -> None:
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
        items = len(left) + format_widths(left) + left.count("*") * starred
    if items > MAX_OPERATION_ITEMS:
        raise SecurityError(f"`{operator}` would make a value of {items:,} items, past {MAX_OPERATION_ITEMS:,}")
    if bits > MAX_OPERATION_BITS:
        raise SecurityError(f"`{operator}` would make a number of about {bits:,} bits, past {MAX_OPERATION_BITS:,}")
