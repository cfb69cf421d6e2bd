"""The coverage labels the author put on the pull request, kept in the coverage gate's payload."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import jsonschema

from evidence_gate.coverage.measure import Attribution, Measures, measure
from evidence_gate.coverage.model import Lines
from evidence_gate.gates.coverage import DATA_SCHEMA, CoverageData, CoverageFacts, judge, read_data
from evidence_gate.ledger import Ledger
from evidence_gate.settings import Settings
from tests.render.ledgers import ledger

RED_TEST = "tests/test_app.py"


def measured(files: Mapping[str, tuple[int, int]]) -> Measures:
    """Each file's first `changed` lines changed, the first `run` of them run by a test that fails
    without the change: (changed, run) by file."""
    changed = {path: tuple(range(1, count + 1)) for path, (count, _) in files.items()}
    reports = {
        path: Lines(
            measured=frozenset(changed[path]),
            covered=frozenset(range(1, run + 1)),
            contexts={line: frozenset({f"{RED_TEST}::test"}) for line in range(1, run + 1)},
        )
        for path, (_, run) in files.items()
    }
    attribution = Attribution(
        verdicts={RED_TEST: "red"},
        unavailable=None,
        paired={},
        test_of_context=lambda context: context.split("::")[0],
    )
    return measure(changed, reports, attribution)


def judged(files: Mapping[str, tuple[int, int]], *labels: str, **fields: object) -> Ledger:
    """A ledger whose coverage gate judged `files` (see `measured`) under the default thresholds
    (minimum 60, target 80), the pull request carrying `labels`."""
    result = judge(CoverageFacts(measures=measured(files), labels=frozenset(labels)), Settings(repo=Path("checkout")))
    return ledger(gates=(result,), **{"failed_tests": (), **fields})


def test_the_labels_are_kept_in_the_ledger_and_a_ledger_without_them_reads() -> None:
    subject = judged({"app.py": (10, 7)}, "coverage:override", "coverage:accept-risk", "triage")
    data = subject.gates[0].data
    assert isinstance(data, CoverageData)
    assert data.labels == ("coverage:accept-risk", "coverage:override")
    document = data.document()
    jsonschema.Draft202012Validator(DATA_SCHEMA).validate(document)
    assert read_data(document) == data
    del document["labels"]  # a ledger written before the labels were kept
    jsonschema.Draft202012Validator(DATA_SCHEMA).validate(document)
    assert read_data(document).choices == ()
    assert not jsonschema.Draft202012Validator(DATA_SCHEMA).is_valid({**document, "labels": ["coverage:other"]})
