"""GitHub's REST OpenAPI description, loaded once per process, and the validation of one exchange against it.

The description is `@octokit/openapi`'s `generated/api.github.com.json`, installed by scripts/install-test-tools.sh
(or named by the env var GITHUB_OPENAPI_JSON). openapi-core validates each request and each response; it is
loaded with its own self-validation of the description switched off (that check alone takes ~40 s on this
13 MB file; loading without it takes well under a second).

Two settings make the validation stricter than openapi-core's defaults, on purpose:
- `additional_properties_default_policy="forbid"`: GitHub's schemas never say `additionalProperties: false`, so by
  default a misspelt request field (`summery`) would pass; GitHub itself ignores it silently, which is exactly the
  bug these tests must catch. For responses it means the fake returns only documented fields.
- every query parameter must be one the operation declares (openapi-core ignores unknown ones).
"""

from __future__ import annotations

import copy
import json
import os
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema.exceptions import ValidationError as SchemaError
from openapi_core import Config, OpenAPI
from openapi_core.datatypes import RequestParameters
from openapi_schema_validator import OAS30Validator
from werkzeug.datastructures import Headers, ImmutableMultiDict

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SPEC = REPO_ROOT / "tools" / "node_modules" / "@octokit" / "openapi" / "generated" / "api.github.com.json"
SPEC_ENV = "GITHUB_OPENAPI_JSON"
# openapi-core matches a request against the description's `servers`; the fake lives elsewhere, so each exchange
# is presented to the validator as if it had been made to the real host.
SPEC_SERVER = "https://api.github.com"
_MAX_MESSAGE = 240
_SIZE_VALIDATORS = frozenset({"maxLength", "minLength", "maxItems", "minItems"})


class SpecNotInstalledError(RuntimeError):
    """The OpenAPI description file is missing."""


def spec_path() -> Path:
    configured = os.environ.get(SPEC_ENV)
    return Path(configured) if configured else DEFAULT_SPEC


def _shorten(text: str, width: int = _MAX_MESSAGE) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


@dataclass
class _Request:
    """openapi-core's Request protocol (with `path_pattern`, so it skips guessing the operation)."""

    method: str
    path: str
    path_pattern: str
    body: bytes | None
    content_type: str
    parameters: RequestParameters
    host_url: str = SPEC_SERVER


@dataclass
class _Response:
    """openapi-core's Response protocol."""

    status_code: int
    data: bytes | None
    headers: Headers
    content_type: str


@dataclass(frozen=True)
class Exchange:
    """What the validator needs to know about one request."""

    method: str
    path: str
    template: str
    path_params: Mapping[str, str]
    query: Sequence[tuple[str, str]]
    headers: Sequence[tuple[str, str]]
    body: bytes | None
    content_type: str


@dataclass
class GitHubSpec:
    """The loaded description plus the openapi-core app built on it. Thread-safe: validation is serialised."""

    path: Path
    raw: dict[str, Any]
    app: OpenAPI
    load_seconds: float
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _error_validators: dict[str, OAS30Validator] = field(default_factory=dict, repr=False)

    def operation(self, method: str, template: str) -> dict[str, Any]:
        try:
            op: dict[str, Any] = self.raw["paths"][template][method.lower()]
        except KeyError:
            raise KeyError(f"{method} {template} is not an operation of {self.path}") from None
        return op

    def declared_query_params(self, method: str, template: str) -> frozenset[str]:
        params = [
            *self.raw["paths"][template].get("parameters", []),
            *self.operation(method, template).get("parameters", []),
        ]
        names = set()
        for param in params:
            resolved = self._resolve(param)
            if resolved.get("in") == "query":
                names.add(str(resolved["name"]))
        return frozenset(names)

    def documents_status(self, method: str, template: str, status: int) -> bool:
        responses = self.operation(method, template)["responses"]
        return str(status) in responses or f"{status // 100}XX" in responses or "default" in responses

    def _resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            target: Any = self.raw
            for part in str(node["$ref"]).removeprefix("#/").split("/"):
                target = target[part]
            node = target
        return node

    def request_errors(self, exchange: Exchange) -> list[str]:
        errors: list[str] = []
        declared = self.declared_query_params(exchange.method, exchange.template)
        for name, _ in exchange.query:
            if name not in declared:
                known = ", ".join(sorted(declared)) or "none"
                errors.append(f"query parameter {name!r} is not declared by the operation (declared: {known})")
        request = _Request(
            method=exchange.method.lower(),
            path=exchange.path,
            path_pattern=exchange.template,
            body=exchange.body,
            content_type=exchange.content_type,
            parameters=RequestParameters(
                query=ImmutableMultiDict(list(exchange.query)),
                header=Headers(list(exchange.headers)),
                path=dict(exchange.path_params),
            ),
        )
        with self._lock:
            errors.extend(_describe(exc, "request") for exc in self.app.iter_request_errors(request))
        return errors

    def response_errors(
        self, exchange: Exchange, status: int, headers: Sequence[tuple[str, str]], body: bytes | None
    ) -> list[str]:
        content_type = next((v for k, v in headers if k.lower() == "content-type"), "")
        if not self.documents_status(exchange.method, exchange.template, status):
            return self._undocumented_error_errors(status, content_type, body)
        request = _Request(
            method=exchange.method.lower(),
            path=exchange.path,
            path_pattern=exchange.template,
            body=exchange.body,
            content_type=exchange.content_type,
            parameters=RequestParameters(path=dict(exchange.path_params)),
        )
        response = _Response(status_code=status, data=body, headers=Headers(list(headers)), content_type=content_type)
        with self._lock:
            return [_describe(exc, "response") for exc in self.app.iter_response_errors(request, response)]

    def _undocumented_error_errors(self, status: int, content_type: str, body: bytes | None) -> list[str]:
        """The description documents few error statuses per operation (no 401, 429 or 502 anywhere on most), yet
        GitHub sends them on every one. Such a response is checked against GitHub's generic error shapes."""
        if status < 400:
            return [f"response: status {status} is not documented for this operation"]
        if not body or "json" not in content_type:
            return []
        name = "validation-error" if status == 422 else "basic-error"
        try:
            value = json.loads(body)
        except ValueError as exc:
            return [f"response: body is not JSON: {exc}"]
        validator = self._error_validators.get(name)
        if validator is None:
            schema = copy.deepcopy(self.raw["components"]["schemas"][name])
            schema["additionalProperties"] = False
            validator = self._error_validators[name] = OAS30Validator(schema)
        return [_describe_schema_error(err, "response body") for err in validator.iter_errors(value)]


def _describe_schema_error(err: SchemaError, where: str) -> str:
    location = "/".join(str(p) for p in err.absolute_path) or "(root)"
    if err.validator in _SIZE_VALIDATORS and isinstance(err.instance, str | list):
        unit = "characters" if isinstance(err.instance, str) else "items"
        text = f"{where} at {location}: has {len(err.instance)} {unit}; {err.validator} is {err.validator_value}"
    else:
        text = f"{where} at {location}: {_shorten(err.message)}"
    if err.context:
        causes = "; ".join(
            f"{'/'.join(str(p) for p in sub.absolute_path) or '(root)'}: {_shorten(sub.message, 120)}"
            for sub in err.context[:6]
        )
        text += f" (because: {causes})"
    return text


def _describe(exc: BaseException, kind: str) -> str:
    """One line per problem, naming where in the message it is, without dumping the whole value."""
    causes: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None:
        causes.append(current)
        current = current.__cause__
    for cause in causes:
        schema_errors: Iterable[Any] = getattr(cause, "schema_errors", ()) or ()
        described = [
            _describe_schema_error(e, f"{kind} {_where(exc)}") for e in schema_errors if isinstance(e, SchemaError)
        ]
        if described:
            return " | ".join(described)
    head = _shorten(str(exc))
    if exc.__cause__ is not None and not isinstance(exc.__cause__, SchemaError):
        head += f" ({_shorten(str(exc.__cause__), 160)})"
    return f"{kind}: {head}"


def _where(exc: BaseException) -> str:
    name = getattr(exc, "name", None)
    location = getattr(exc, "location", None)
    if name and location:
        return f"{location} parameter {name!r}"
    if "Header" in type(exc).__name__:
        return "header"
    return "body"


_LOAD_LOCK = threading.Lock()


def _allow_null_in_nullable_enums(node: Any) -> int:
    """GitHub's description writes `{"nullable": true, "enum": [...]}` without null in the enum (check-run
    `conclusion`, issue `state_reason`, ...). Under OpenAPI 3.0.3 a value must be in the enum, so null would fail,
    yet GitHub returns null there and means to. Put null into such enums. Returns how many were fixed."""
    fixed = 0
    if isinstance(node, dict):
        enum = node.get("enum")
        if node.get("nullable") is True and isinstance(enum, list) and None not in enum:
            enum.append(None)
            fixed += 1
        for value in node.values():
            fixed += _allow_null_in_nullable_enums(value)
    elif isinstance(node, list):
        for value in node:
            fixed += _allow_null_in_nullable_enums(value)
    return fixed


@cache
def _load(path: Path) -> GitHubSpec:
    started = time.perf_counter()
    with path.open("rb") as handle:
        raw: dict[str, Any] = json.load(handle)
    _allow_null_in_nullable_enums(raw)
    # None switches the description's self-validation off (openapi-core checks `is None`; its annotation omits it)
    config = Config(spec_validator_cls=None, additional_properties_default_policy="forbid")  # type: ignore[arg-type]  # None works; the hint says a class
    app = OpenAPI.from_dict(raw, config=config)
    return GitHubSpec(path=path, raw=raw, app=app, load_seconds=time.perf_counter() - started)


def load_spec(path: Path | None = None) -> GitHubSpec:
    """The description at `path` (default: `spec_path()`), loaded once per process."""
    path = (path or spec_path()).resolve()
    if not path.is_file():
        raise SpecNotInstalledError(
            f"GitHub's OpenAPI description not found at {path}: run scripts/install-test-tools.sh"
            f" (or set {SPEC_ENV} to an api.github.com.json)"
        )
    with _LOAD_LOCK:
        return _load(path)
