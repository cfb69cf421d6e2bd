"""The GitHub event payload fuzzed (`event.py`'s `load_context`): a pull request event of the
shape GitHub sends, its fields replaced, removed or added, mutated as bytes, and garbage.

A payload is a context or a one-line `UsageError`, never a traceback; and a `pull_request_target`
run may run the head's code only when the payload names one repository, by id and by name, on every
side: a payload that does not prove it, whatever else it holds, is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evidence_gate.errors import UsageError
from evidence_gate.event import load_context

from .inputs import garbage, json_texts, mutated

pytestmark = pytest.mark.fuzz

REPOSITORY = "octo-org/shop"
SIDE = {"id": 42, "full_name": REPOSITORY, "name": "shop", "owner": {"login": "octo-org"}}
EVENT: dict[str, Any] = {
    "action": "synchronize",
    "number": 7,
    "pull_request": {
        "number": 7,
        "body": "## Acceptance criteria\n- [ ] totals add up\n",
        "labels": [{"name": "evidence"}, {"name": "shop"}],
        "head": {"sha": "a" * 40, "ref": "feature", "repo": dict(SIDE)},
        "base": {"sha": "b" * 40, "ref": "main", "repo": dict(SIDE)},
    },
    "repository": dict(SIDE),
    "sender": {"login": "octocat"},
}
FORK = json.loads(json.dumps(EVENT).replace('"full_name": "octo-org/shop"', '"full_name": "fork/shop"', 1))

payloads = st.one_of(
    json_texts((EVENT, FORK)),
    mutated((json.dumps(EVENT, indent=2).encode(), json.dumps(FORK).encode()), json=True),
    garbage,
)


@pytest.fixture(scope="module")
def event_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("event") / "event.json"


def proven(event: object) -> bool:
    """Whether the payload names this repository, one id and one name, as head, base and event repository."""
    if not isinstance(event, dict) or not isinstance(event.get("pull_request"), dict):
        return False
    pull = event["pull_request"]
    sides = [
        (pull.get("head") or {}).get("repo") if isinstance(pull.get("head"), dict) else None,
        (pull.get("base") or {}).get("repo") if isinstance(pull.get("base"), dict) else None,
        event.get("repository"),
    ]
    if not all(isinstance(side, dict) for side in sides):
        return False
    ids = {side.get("id") for side in sides if isinstance(side, dict)}
    names = {side.get("full_name") for side in sides if isinstance(side, dict)}
    if len(ids) != 1 or len(names) != 1:
        return False
    (id_,), (name,) = ids, names
    return type(id_) is int and isinstance(name, str) and name.casefold() == REPOSITORY.casefold()


@given(data=payloads, event_name=st.sampled_from(["pull_request_target", "pull_request", "push"]))
def test_a_payload_is_a_context_or_a_one_line_error(event_path: Path, data: bytes, event_name: str) -> None:
    event_path.write_bytes(data)
    environ = {"GITHUB_REPOSITORY": REPOSITORY, "GITHUB_EVENT_PATH": str(event_path), "GITHUB_EVENT_NAME": event_name}
    try:
        context = load_context(environ)
    except UsageError as error:
        assert len(error.one_line()) < 1_000, error.one_line()
        return
    assert context is not None
    if event_name == "pull_request_target" and context.refusal_to_run_head() is None:
        assert proven(json.loads(data)), "the head's code would run on a payload that does not prove it"
    if context.pull_request is not None:
        assert all(isinstance(label, str) and len(label) <= 100 for label in context.pull_request.labels)
        assert isinstance(context.pull_request.body, str)
