"""JSON that `xcrun xcresulttool` prints from an Xcode result bundle (`.xcresult`).

Two shapes are read:

- `xcresulttool get test-results summary --format json` (Xcode 16+): top-level `passedTests`,
  `failedTests`, `skippedTests` and `expectedFailures`, whose sum is `totalTestCount`. Mapping:
  failed is `failedTests`, skipped is `skippedTests` plus `expectedFailures` (`XCTExpectFailure`
  and known issues, xfail), passed is `passedTests`. Without top-level counts the per-device
  `devicesAndConfigurations[]` entries are added.
- the legacy `ActionsInvocationRecord` (`xcresulttool get object --legacy --format json`, or
  `get --format json` before Xcode 16), where every value is wrapped (`{"_value": "9"}`, numbers as
  strings) and a zero count is left out: `metrics.testsCount` (skipped and expected failures
  included), `testsFailedCount`, `testsSkippedCount`; passed is the rest. It has no expected-failure
  count, so an `XCTExpectFailure` test can only read as passed.

A run the bundle marks failed (`"result": "Failed"`, an action or build `status` of `failed`) with
no failed test counts as one failed test: errors count as failed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import CaseResult, DocumentParser, Reading
from evidence_gate.workspace import Refused, open_resolved

_LEGACY = re.compile(rb'"_name"\s*:\s*"ActionsInvocationRecord"')
_SUMMARY_KEYS = ("passedTests", "failedTests", "skippedTests")
_ONE_FAILED = Counts(passed=0, failed=1, skipped=0)


class _Malformed(Exception):
    """The JSON parses but does not hold the counts where the schema puts them."""


class XcresultParser(DocumentParser):
    """Reads the counts of an xcresulttool test-results summary or legacy ActionsInvocationRecord."""

    name: ClassVar[str] = "xcresult"
    names_cases: ClassVar[bool] = False
    trusts: ClassVar[str] = (
        "the summary's `passedTests`/`failedTests`/`skippedTests`/`expectedFailures` (checked against "
        "`totalTestCount`), or the legacy record's `metrics.testsCount`/`testsFailedCount`/`testsSkippedCount`"
    )

    def recognises(self, head: bytes) -> bool:
        if not head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
            return False
        if _LEGACY.search(head):
            return True
        return b'"passedTests"' in head and b'"failedTests"' in head

    def parse(self, path: Path, on_case: Callable[[CaseResult], None] | None = None) -> Reading:
        """The summary's counts; the export names no test case, so `on_case` is never called."""
        try:
            with open_resolved(path) as handle:
                document = json.load(handle)
        except Refused as refusal:
            return self._unread(refusal.reason)
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            return self._unread(f"not valid JSON ({error})")
        except RecursionError:
            return self._unread("not valid JSON (nested too deeply)")
        if not isinstance(document, dict):
            return self._unread("the JSON is not an object: not xcresulttool output")
        try:
            if _name(document) == "ActionsInvocationRecord":
                return self._legacy(document)
            if any(key in document for key in _SUMMARY_KEYS) or "devicesAndConfigurations" in document:
                return self._summary(document)
        except _Malformed as error:
            return self._unread(str(error))
        return self._unread("JSON that is neither an xcresulttool test-results summary nor an ActionsInvocationRecord")

    def _unread(self, reason: str) -> Reading:
        return Reading(parser=self.name, counts=None, reason=reason)

    def _summary(self, document: dict[str, object]) -> Reading:
        if all(key in document for key in _SUMMARY_KEYS):
            passed, failed, skipped, expected = _summary_counts(document, "the summary")
        else:
            devices = document.get("devicesAndConfigurations")
            if not isinstance(devices, list) or not devices:
                raise _Malformed("the summary has no `passedTests`/`failedTests`/`skippedTests` counts")
            sums = [0, 0, 0, 0]
            for entry in devices:
                if not isinstance(entry, dict):
                    raise _Malformed("a `devicesAndConfigurations` entry is not an object")
                for index, number in enumerate(_summary_counts(entry, "a `devicesAndConfigurations` entry")):
                    sums[index] += number
            passed, failed, skipped, expected = sums
        total = document.get("totalTestCount")
        if total is not None and total != passed + failed + skipped + expected:
            raise _Malformed(
                f"`totalTestCount` {total} is not passedTests + failedTests + skippedTests + expectedFailures "
                f"({passed} + {failed} + {skipped} + {expected})"
            )
        counts = Counts(passed=passed, failed=failed, skipped=skipped + expected)
        if document.get("result") == "Failed" and not failed:
            return Reading(
                parser=self.name,
                counts=counts + _ONE_FAILED,
                notes=('`"result": "Failed"` without a failed test; counted as 1 failed',),
            )
        return Reading(parser=self.name, counts=counts)

    def _legacy(self, document: dict[str, object]) -> Reading:
        actions = _values(document.get("actions"))
        metrics = document.get("metrics")
        if isinstance(metrics, dict):
            tests, failed, skipped = _metrics(metrics)
        else:
            sums = [0, 0, 0]
            for action in actions:
                result = action.get("actionResult") if isinstance(action, dict) else None
                action_metrics = result.get("metrics") if isinstance(result, dict) else None
                if isinstance(action_metrics, dict):
                    for index, number in enumerate(_metrics(action_metrics)):
                        sums[index] += number
            tests, failed, skipped = sums
        passed = tests - failed - skipped
        if passed < 0:
            raise _Malformed(f"`testsCount` {tests} is less than failed {failed} + skipped {skipped}")
        counts = Counts(passed=passed, failed=failed, skipped=skipped)
        notes: list[str] = []
        if passed:
            notes.append("the legacy record has no expected-failure count: any XCTExpectFailure test reads as passed")
        if not failed and any(_failed_status(action) for action in actions):
            notes.append("an action's status is `failed` without a failed test; counted as 1 failed")
            counts = counts + _ONE_FAILED
        return Reading(parser=self.name, counts=counts, notes=tuple(notes))


def _summary_counts(entry: dict[str, object], where: str) -> tuple[int, int, int, int]:
    """passed, failed, skipped, expected failures; `expectedFailures` may be absent (read as 0)."""
    numbers: list[int] = []
    for key in (*_SUMMARY_KEYS, "expectedFailures"):
        number = entry.get(key, 0)
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            raise _Malformed(f"{where} has a `{key}` that is not a whole number")
        numbers.append(number)
    passed, failed, skipped, expected = numbers
    return passed, failed, skipped, expected


def _name(value: object) -> str | None:
    kind = value.get("_type") if isinstance(value, dict) else None
    name = kind.get("_name") if isinstance(kind, dict) else None
    return name if isinstance(name, str) else None


def _values(value: object) -> list[object]:
    values = value.get("_values") if isinstance(value, dict) else None
    return values if isinstance(values, list) else []


def _metric(metrics: dict[str, object], key: str) -> int:
    """A wrapped `Int` (`{"_value": "9"}`); the legacy format leaves out a count that is zero."""
    wrapped = metrics.get(key)
    if wrapped is None:
        return 0
    value = wrapped.get("_value") if isinstance(wrapped, dict) else None
    if not (isinstance(value, str) and value.isdigit()):
        raise _Malformed(f"`metrics.{key}` is not a wrapped whole number")
    return int(value)


def _metrics(metrics: dict[str, object]) -> tuple[int, int, int]:
    return _metric(metrics, "testsCount"), _metric(metrics, "testsFailedCount"), _metric(metrics, "testsSkippedCount")


def _failed_status(action: object) -> bool:
    if not isinstance(action, dict):
        return False
    for part in ("actionResult", "buildResult"):
        result = action.get(part)
        status = result.get("status") if isinstance(result, dict) else None
        if isinstance(status, dict) and status.get("_value") == "failed":
            return True
    return False


PARSER = XcresultParser()
