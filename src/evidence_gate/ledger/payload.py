"""A gate's payload declared once: a typed frozen dataclass, from whose type hints its JSON Schema
(checked when a ledger from elsewhere is read), its reader (document -> value) and its writer (value
-> document) are all derived, so the three never drift apart.

The hints it knows: `str`, `int`, `float`, `bool`, a `StrEnum` (its values), `X | None`,
`tuple[X, ...]` (an array), `dict[str, X]` (an object of any keys), a pair such as `tuple[str,
str]` given the names of its places (an object of them) and a nested dataclass (an object of its
fields, or its fields written into the parent's object: `flatten`). Every object is closed
(`additionalProperties: false`); a field without a default is required. What the hints cannot say
rides on the field's metadata under `payload` (`spec(...)`, or a plain mapping of the same keys
where the module cannot import this one, `model.py`): the bounds (`maxItems`, `minimum`,
`maxLength`, a `pattern` or an `enum` of a text) that keep a ledger from an untrusted fork small,
its JSON name, and how a ledger written before the field was kept reads without it.
"""

from __future__ import annotations

import dataclasses
import functools
import types
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

META = "payload"  # the key of a field's metadata that holds its `Spec`
T = TypeVar("T")
Values = Mapping[str, Any]  # the fields read so far, by attribute name


@dataclasses.dataclass(frozen=True, kw_only=True)
class Spec:
    """What a field's type hint does not say about its JSON form."""

    schema: Mapping[str, Any] = dataclasses.field(default_factory=dict)  # keywords for its value: bounds
    items: Mapping[str, Any] = dataclasses.field(default_factory=dict)  # for each item (a tuple) or value (a dict)
    keys: Mapping[str, Any] | None = None  # a dict's `propertyNames`
    required: bool | None = None  # None: required when the field has no default
    key: str | None = None  # its name in the document, where it is not the attribute's
    names: tuple[str, ...] | None = None  # a fixed tuple's (or its items') places, written as an object
    flatten: bool = False  # a nested dataclass whose fields are written into this object
    omit_default: bool = False  # left out of the document when it equals its default
    missing: Callable[[Values], Any] | None = None  # an absent field's value, from those read before it


def spec(
    *,
    schema: Mapping[str, Any] | None = None,
    items: Mapping[str, Any] | None = None,
    keys: Mapping[str, Any] | None = None,
    required: bool | None = None,
    key: str | None = None,
    names: tuple[str, ...] | None = None,
    flatten: bool = False,
    omit_default: bool = False,
    missing: Callable[[Values], Any] | None = None,
) -> dict[str, Spec]:
    """A field's metadata: `field(metadata=spec(schema={"maxItems": 200}))`."""
    found = Spec(
        schema=schema or {},
        items=items or {},
        keys=keys,
        required=required,
        key=key,
        names=names,
        flatten=flatten,
        omit_default=omit_default,
        missing=missing,
    )
    return {META: found}


def count_of(key: str, keep: Callable[[Any], bool] = lambda item: True) -> Callable[[Values], int]:
    """A total a ledger written before it was kept reads as: the items listed in `key` (that `keep`
    takes), a field read before it."""
    return lambda values: sum(1 for item in values[key] if keep(item))


@dataclasses.dataclass(frozen=True, kw_only=True)
class _Field:
    name: str  # the attribute
    hint: Any
    spec: Spec
    default: Any  # dataclasses.MISSING when it has none

    @property
    def key(self) -> str:
        return self.spec.key or self.name

    @property
    def required(self) -> bool:
        return self.spec.required if self.spec.required is not None else self.default is dataclasses.MISSING


def _fields(cls: Any) -> tuple[_Field, ...]:
    """A payload type's fields, with their hints and specs (once per type: hints are costly)."""
    return _fields_of(cls)


@functools.cache
def _fields_of(cls: Any) -> tuple[_Field, ...]:
    hints = get_type_hints(cls)
    found = []
    for item in dataclasses.fields(cls):
        if not item.init:
            continue
        raw = item.metadata.get(META, Spec())
        default: Any = item.default
        if item.default_factory is not dataclasses.MISSING:
            default = item.default_factory()
        found.append(
            _Field(
                name=item.name,
                hint=hints[item.name],
                spec=raw if isinstance(raw, Spec) else Spec(**raw),
                default=default,
            )
        )
    return tuple(found)


def _optional(hint: Any) -> Any | None:
    """X of `X | None`; None for any other hint."""
    if get_origin(hint) in (Union, types.UnionType):
        rest = [arg for arg in get_args(hint) if arg is not type(None)]
        if len(rest) == 1 and len(get_args(hint)) == 2:
            return rest[0]
    return None


# Schema


@functools.cache
def schema(cls: type) -> dict[str, Any]:
    """The JSON Schema of a payload type: what a document must be for `read` to take it."""
    return _object_schema(cls)


def _object_schema(cls: Any) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    required: list[str] = []
    for item in _fields(cls):
        if item.spec.flatten:
            inner = _object_schema(item.hint)
            properties.update(inner["properties"])
            required += inner["required"]
            continue
        properties[item.key] = _value_schema(item.hint, item.spec)
        if item.required:
            required.append(item.key)
    return {"type": "object", "additionalProperties": False, "required": required, "properties": properties}


_SCALARS: dict[Any, str] = {bool: "boolean", int: "integer", float: "number", str: "string"}


def _value_schema(hint: Any, given: Spec) -> dict[str, Any]:
    inner = _optional(hint)
    if inner is not None:
        return _nullable(_value_schema(inner, given))
    origin, args = get_origin(hint), get_args(hint)
    found: dict[str, Any]
    if hint in _SCALARS:
        found = {"type": _SCALARS[hint]}
    elif isinstance(hint, type) and issubclass(hint, StrEnum):
        found = {"enum": [member.value for member in hint]}
    elif _repeated(hint):
        found = {"type": "array", "items": _value_schema(args[0], _inner(given))}
    elif origin is tuple and given.names is not None and len(given.names) == len(args):
        found = {
            "type": "object",
            "additionalProperties": False,
            "required": list(given.names),
            "properties": {name: _value_schema(arg, Spec()) for name, arg in zip(given.names, args, strict=True)},
        }
    elif origin is dict and args[0] is str:
        found = {"type": "object", "additionalProperties": _value_schema(args[1], _inner(given))}
        if given.keys is not None:
            found["propertyNames"] = dict(given.keys)
    elif dataclasses.is_dataclass(hint):
        found = _object_schema(hint)
    else:
        raise TypeError(f"a payload field cannot be of type {hint!r}")
    return {**found, **given.schema}


def _repeated(hint: Any) -> bool:
    args = get_args(hint)
    return get_origin(hint) is tuple and len(args) == 2 and args[1] is Ellipsis


def _inner(given: Spec) -> Spec:
    """What a field's spec says of its items (a tuple's) or values (a dict's)."""
    return Spec(schema=given.items, names=given.names)


def _nullable(found: dict[str, Any]) -> dict[str, Any]:
    """`found` or null: a scalar's type list and its enum take null; an object is one branch of two."""
    if found.get("type") == "object":
        return {"anyOf": [{"type": "null"}, found]}
    nullable = dict(found)
    if isinstance(found.get("type"), str):
        nullable["type"] = [found["type"], "null"]
    if "enum" in found:
        nullable["enum"] = [*found["enum"], None]
    return nullable


# Reader


def read(cls: type[T], document: Any) -> T:
    """A payload from its document, which its schema (`schema(cls)`) has passed."""
    return _read_object(cls, document)


def _read_object(cls: type[T], document: Mapping[str, Any]) -> T:
    values: dict[str, Any] = {}
    for item in _fields(cls):
        if item.spec.flatten:
            values[item.name] = _read_object(item.hint, document)
        elif item.key in document:
            values[item.name] = _read_value(item.hint, item.spec, document[item.key])
        elif item.spec.missing is not None:
            values[item.name] = item.spec.missing(values)
    return cls(**values)


def _read_value(hint: Any, given: Spec, value: Any) -> Any:
    inner = _optional(hint)
    if inner is not None:
        return None if value is None else _read_value(inner, given, value)
    origin, args = get_origin(hint), get_args(hint)
    if hint in _SCALARS:
        return value
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        return hint(value)
    if _repeated(hint):
        return tuple(_read_value(args[0], _inner(given), item) for item in value)
    if origin is tuple and given.names is not None:
        return tuple(_read_value(arg, Spec(), value[name]) for name, arg in zip(given.names, args, strict=True))
    if origin is dict:
        return {key: _read_value(args[1], _inner(given), item) for key, item in value.items()}
    return _read_object(hint, value)


# Writer


def write(value: Any) -> dict[str, object]:
    """A payload's document, the JSON form `read` takes back."""
    return _write_object(value)


def _write_object(value: Any) -> dict[str, object]:
    document: dict[str, object] = {}
    for item in _fields(type(value)):
        found = getattr(value, item.name)
        if item.spec.flatten:
            document.update(_write_object(found))
        elif not (item.spec.omit_default and found == item.default):
            document[item.key] = _write_value(item.hint, item.spec, found)
    return document


def _write_value(hint: Any, given: Spec, value: Any) -> object:
    """A value as its declared type says: a `StrEnum` member as its text, a tuple as a list."""
    inner = _optional(hint)
    if inner is not None:
        return None if value is None else _write_value(inner, given, value)
    origin, args = get_origin(hint), get_args(hint)
    if hint in _SCALARS:
        return value
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        return str(value)
    if _repeated(hint):
        return [_write_value(args[0], _inner(given), item) for item in value]
    if origin is tuple and given.names is not None:
        return {name: _write_value(arg, Spec(), item) for name, arg, item in zip(given.names, args, value, strict=True)}
    if origin is dict:
        return {key: _write_value(args[1], _inner(given), item) for key, item in value.items()}
    return _write_object(value)
