"""GitHub's documented request limits and rules that the OpenAPI description does not encode (or encodes only in
prose). GitHub answers each with a 422; so does the fake, and it records a violation, because the action must
never send such a request (it has to truncate, split or fill in itself).

Sources: the REST docs of "Create a check run" / "Update a check run" (annotations, output, conclusion) and
GitHub's 422 for long comment and pull request bodies ("Body is too long (maximum is 65536 characters)").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

MAX_ANNOTATIONS_PER_REQUEST = 50
MAX_OUTPUT_CHARS = 65_535  # check run output.summary and output.text
MAX_ANNOTATION_TITLE_CHARS = 255
MAX_ANNOTATION_MESSAGE_BYTES = 64 * 1024  # message and raw_details: "64 KB"
MAX_BODY_CHARS = 65_536  # issue comment and pull request body

Rule = Callable[[Any], list[str]]


def _check_run(body: Any, *, update: bool) -> list[str]:
    if not isinstance(body, dict):
        return []
    errors: list[str] = []
    completed = body.get("status") == "completed" or "completed_at" in body
    if not update and completed and "conclusion" not in body:
        errors.append("conclusion is required when status is 'completed' or completed_at is given")
    output = body.get("output")
    if not isinstance(output, dict):
        return errors
    if update and "title" not in output:
        errors.append("output.title is required when output is given (the docs mark it **Required**)")
    for key in ("summary", "text"):
        value = output.get(key)
        if isinstance(value, str) and len(value) > MAX_OUTPUT_CHARS:
            errors.append(f"output.{key} has {len(value)} characters; at most {MAX_OUTPUT_CHARS} are allowed")
    annotations = output.get("annotations")
    if not isinstance(annotations, list):
        return errors
    if len(annotations) > MAX_ANNOTATIONS_PER_REQUEST:
        errors.append(
            f"output.annotations has {len(annotations)} items; at most {MAX_ANNOTATIONS_PER_REQUEST} are allowed per"
            " request (send the rest in further PATCH requests)"
        )
    for index, ann in enumerate(annotations):
        if isinstance(ann, dict):
            errors.extend(f"output.annotations[{index}].{e}" for e in _annotation(ann))
    return errors


def _annotation(ann: dict[str, Any]) -> list[str]:
    errors: list[str] = []
    title = ann.get("title")
    if isinstance(title, str) and len(title) > MAX_ANNOTATION_TITLE_CHARS:
        errors.append(f"title has {len(title)} characters; at most {MAX_ANNOTATION_TITLE_CHARS} are allowed")
    for key in ("message", "raw_details"):
        value = ann.get(key)
        if isinstance(value, str) and len(value.encode("utf-8")) > MAX_ANNOTATION_MESSAGE_BYTES:
            size = len(value.encode("utf-8"))
            errors.append(f"{key} has {size} bytes; at most {MAX_ANNOTATION_MESSAGE_BYTES} (64 KB) are allowed")
    columns = "start_column" in ann or "end_column" in ann
    if columns and ann.get("start_line") != ann.get("end_line"):
        errors.append("start_column/end_column are only allowed when start_line == end_line")
    return errors


def _body(body: Any) -> list[str]:
    text = body.get("body") if isinstance(body, dict) else None
    if isinstance(text, str) and len(text) > MAX_BODY_CHARS:
        return [f"body has {len(text)} characters; at most {MAX_BODY_CHARS} are allowed (Body is too long)"]
    return []


RULES: dict[str, Rule] = {
    "checks/create": lambda body: _check_run(body, update=False),
    "checks/update": lambda body: _check_run(body, update=True),
    "issues/create-comment": _body,
    "issues/update-comment": _body,
    "pulls/update": _body,
}


def limit_errors(operation_id: str, body: Any) -> list[str]:
    rule = RULES.get(operation_id)
    return rule(body) if rule else []
