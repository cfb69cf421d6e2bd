"""STAGNATION, as teams use it to stop a loop of retries: the same check failed on three consecutive
runs of a pull request with the same error signature, the current run included.

A signature is the check's number and its first error line, normalised for what changes between
two runs of one error (paths, numbers, hashes, timings), and kept as a short hash: the history
holds no untrusted text. The history comes from the earlier runs' records: the reports an earlier
`quality --write-report DIR` left (their `<!-- QG:SIGNATURE:<n>:<hash> -->` lines, one under each
failed check), or the digests of the check runs on the pull request's earlier head commits.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence

from evidence_gate.ledger.catalog import BY_GATE, first_error
from evidence_gate.ledger.model import BLOCKING, GateResult
from evidence_gate.ledger.quality_record import Stagnation

RUNS = 3
_TIMING = re.compile(r"\b\d+(?:\.\d+)?\s*(?:ms|s|sec|secs|seconds?|m|min|minutes?)\b", re.IGNORECASE)
_PATH = re.compile(r"(?:[A-Za-z]:)?[\w.~-]*(?:[/\\][\w.@+-]+)+")
_HEX = re.compile(r"\b[0-9a-f]{7,64}\b", re.IGNORECASE)
_NUMBER = re.compile(r"\d+")
_SPACE = re.compile(r"\s+")
SIGNATURE_LINE = re.compile(r"^<!-- QG:SIGNATURE:(?P<check>[1-9]):(?P<hash>[0-9a-f]{12}) -->$", re.MULTILINE)


def normalised(text: str) -> str:
    """An error line without what differs between two runs of the same error."""
    text = _TIMING.sub("<time>", text)
    text = _PATH.sub("<path>", text)
    text = _HEX.sub("<hash>", text)
    text = _NUMBER.sub("<n>", text)
    return _SPACE.sub(" ", text).strip()


def signature(check: int, line: str) -> str:
    """A failed check's signature: a hash of its number and its normalised first error line."""
    return hashlib.sha256(f"{check}:{normalised(line)}".encode()).hexdigest()[:12]


def signatures(gates: Sequence[GateResult]) -> dict[int, tuple[str, str]]:
    """Each failed (or missing) numbered check's signature and the error line it was made of."""
    found: dict[int, tuple[str, str]] = {}
    for gate in gates:
        check = BY_GATE.get(gate.id)
        if check is not None and gate.verdict in BLOCKING:
            line = first_error(gate)
            found[check.number] = (signature(check.number, line), line)
    return found


def stagnation(current: Mapping[int, tuple[str, str]], earlier: Sequence[Mapping[int, str]]) -> Stagnation | None:
    """The stagnation, when the two runs just before this one (`earlier`, the latest last) failed a
    check this run fails, with the same signature: the lowest-numbered such check."""
    if len(earlier) < RUNS - 1:
        return None
    last = earlier[-(RUNS - 1) :]
    for number in sorted(current):
        mark, line = current[number]
        if all(run.get(number) == mark for run in last):
            title = next(check.title for check in BY_GATE.values() if check.number == number)
            return Stagnation(check=number, title=f"Check {number} ({title})", summary=line[:400])
    return None


HISTORY = re.compile(
    r"^<!-- evidence-gate:history:(?P<slug>[a-z0-9-]{1,64}):(?P<runs>[0-9a-f:,;-]{0,400}) -->$", re.MULTILINE
)
_RUN = re.compile(r"^(?:-|[1-9]:[0-9a-f]{12}(?:,[1-9]:[0-9a-f]{12}){0,8})$")


def history_line(slug: str, earlier: Sequence[Mapping[int, str]], current: Mapping[int, str]) -> str:
    """The hidden line the sticky comment carries: this run's and the two before it's signatures,
    `-` for a run with none, so the next run reads its history without any other store."""
    runs = [*earlier[-(RUNS - 1) :], current][-RUNS:]
    text = ";".join(",".join(f"{n}:{mark}" for n, mark in sorted(run.items())) or "-" for run in runs)
    return f"<!-- evidence-gate:history:{slug}:{text} -->"


def comment_history(text: str, slug: str) -> tuple[dict[int, str], ...] | None:
    """The runs a sticky comment's history line holds, oldest first; None when it has none, or a
    line whose shape is not ours."""
    found = [match for match in HISTORY.finditer(text) if match["slug"] == slug]
    if len(found) != 1:
        return None
    runs = found[0]["runs"].split(";")
    if len(runs) > RUNS or not all(_RUN.match(run) for run in runs):
        return None
    return tuple(
        {} if run == "-" else {int(number): mark for number, mark in (item.split(":") for item in run.split(","))}
        for run in runs
    )


def report_signatures(text: str) -> dict[int, str]:
    """The failed checks' signatures an earlier report recorded. Untrusted text cannot add one: the
    report escapes every `<!--` it prints (escaping.py)."""
    return {int(found["check"]): found["hash"] for found in SIGNATURE_LINE.finditer(text)}
