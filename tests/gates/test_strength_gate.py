"""The strength gate with literal facts: its verdict rules, where it refuses to run, its payload in
the ledger and the comment, and shards merged into one table."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest

from evidence_gate.effects import effects_for
from evidence_gate.gates import strength
from evidence_gate.gates.gate import NONE_EARLIER
from evidence_gate.ledger.catalog import combine_shards
from evidence_gate.ledger.document import ledger_json, read_ledgers
from evidence_gate.ledger.model import GateResult, GateVerdict, Ledger, Verdict, merge, overall_verdict
from evidence_gate.ledger.payload import read, schema, write
from evidence_gate.ledger.payloads.strength import StrengthData
from evidence_gate.ledger.payloads.strength import Verdict as StrengthVerdict
from evidence_gate.model import Change
from evidence_gate.render import render_comment
from evidence_gate.settings import Settings
from evidence_gate.strength.session import Outcome
from evidence_gate.strength.verdict import Judged
from tests.render.checks import check_structure, quality_markers

from ..conftest import CliResult, Repo, local_environment
from .literal_facts import TABLE, facts

SETTINGS = Settings(repo=Path("/checkout"))


def judged(path: str, verdict: StrengthVerdict, reason: str = "because") -> Judged:
    return Judged(path=path, verdict=verdict, reason=reason)


def result(*items: Judged, shard: str | None = None, note: str | None = None) -> GateResult:
    outcome = Outcome(judged=items, changed_tests=len(items), note=note)
    return strength.judge(strength.StrengthFacts(outcome=outcome, shard=shard), SETTINGS)


RED = judged("tests/test_a.py", StrengthVerdict.RED)
GREEN = judged("tests/test_b.py", StrengthVerdict.STILL_GREEN, "passes without the change")
UNJUDGED = judged("tests/test_c.py", StrengthVerdict.UNJUDGED)
NOT_RUN = judged("tests/test_d.py", StrengthVerdict.NOT_RUN, "fails at the head")
TESTS_ONLY = judged("tests/test_e.py", StrengthVerdict.NOT_RUN, "no production change to revert: only tests changed")


@pytest.mark.parametrize(
    ("items", "verdict"),
    [
        ((RED, GREEN), GateVerdict.FAIL),
        ((RED, NOT_RUN), GateVerdict.UNAVAILABLE),
        ((RED, UNJUDGED), GateVerdict.PASS),
        ((RED,), GateVerdict.PASS),
        ((UNJUDGED,), GateVerdict.NOT_APPLICABLE),
        ((TESTS_ONLY,), GateVerdict.NOT_APPLICABLE),
    ],
)
def test_the_verdicts_of_the_changed_tests_decide_the_gate(items: tuple[Judged, ...], verdict: GateVerdict) -> None:
    assert result(*items).verdict is verdict


def test_still_green_files_are_failure_annotations_and_the_headline_counts() -> None:
    gate = result(RED, GREEN, UNJUDGED)
    assert gate.headline == "3 changed test files: 1 red, 1 still-green, 1 unjudged"
    assert [(note.path, note.level) for note in gate.annotations] == [("tests/test_b.py", "failure")]
    assert gate.details == (
        "tests/test_b.py: still-green: passes without the change",
        "tests/test_c.py: unjudged: because",
    )
    data = gate.data
    assert isinstance(data, StrengthData) and data.limit is not None
    jsonschema.validate(write(data), schema(StrengthData))
    assert read(StrengthData, json.loads(json.dumps(write(data)))) == data


def test_no_test_changed_is_said_not_passed_silently() -> None:
    gate = result(note="the change touches production code and no test: nothing to judge")
    assert (gate.verdict, gate.headline) == (
        GateVerdict.NOT_APPLICABLE,
        "the change touches production code and no test: nothing to judge",
    )
    assert result(TESTS_ONLY).headline == "only tests changed: no production change to revert, nothing to judge"


def test_the_container_a_laptop_and_a_fork_head_under_pull_request_target_do_not_run_it(
    repo: Repo, tmp_path: Path
) -> None:
    change = Change(base="b", head="h", merge_base="m", files=())
    effects = effects_for(repo.path, local_environment())
    ci = replace(facts(), change=change, in_ci=True)
    container = strength.judge(
        strength.gather(ci, SETTINGS, replace(effects, runs_tests=False), NONE_EARLIER), SETTINGS
    )
    assert (container.verdict, container.headline) == (
        GateVerdict.NOT_APPLICABLE,
        "not run here: it runs the project's tests, so use the runner step (run/action.yml)",
    )
    laptop = strength.judge(strength.gather(replace(ci, in_ci=False), SETTINGS, effects, NONE_EARLIER), SETTINGS)
    assert laptop.verdict is GateVerdict.NOT_APPLICABLE and "unattended CI runs" in laptop.headline
    no_base = strength.judge(strength.gather(replace(ci, change=None), SETTINGS, effects, NONE_EARLIER), SETTINGS)
    assert no_base.verdict is GateVerdict.NOT_APPLICABLE and "no base" in no_base.headline
    event = tmp_path / "event.json"
    fork = {"number": 1, "head": {"repo": {"full_name": "mallory/shop"}, "sha": "h"}, "base": {"sha": "b"}}
    event.write_text(json.dumps({"pull_request": fork}))
    target = {
        "GITHUB_EVENT_NAME": "pull_request_target",
        "GITHUB_REPOSITORY": "octo/shop",
        "GITHUB_EVENT_PATH": str(event),
    }
    refused = strength.judge(
        strength.gather(ci, SETTINGS, replace(effects, environ={**local_environment(), **target}), NONE_EARLIER),
        SETTINGS,
    )
    assert refused.verdict is GateVerdict.UNAVAILABLE
    assert refused.headline.startswith("the strength runs could not start: refusing to run repository code")


def test_the_comment_shows_a_row_per_changed_test_with_its_verdict_and_the_limit() -> None:
    ledger = Ledger(
        verdict=Verdict.BLOCKED,
        head="a" * 40,
        base="b" * 40,
        stack="python",
        counts=None,
        gates=(result(RED, GREEN, UNJUDGED),),
    )
    comment = render_comment(ledger)
    check_structure(comment, quality_markers(ledger, "comment"))  # strength has a section, not a number
    assert "| — | Test strength | — |" in comment
    assert "| tests/test\\_b.py | ❌ still-green | passes without the change |" in comment
    assert "| tests/test\\_a.py | ✅ red | because |" in comment
    assert "so such a test is unjudged, not red" in comment


def ledger_of(gate: GateResult) -> Ledger:
    return Ledger(
        verdict=overall_verdict([gate]), head="a" * 40, base="b" * 40, stack="python", counts=None, gates=(gate,)
    )


def test_shards_merge_into_one_table_judged_again() -> None:
    first = ledger_of(result(RED, shard="1/2"))
    second = ledger_of(result(GREEN, shard="2/2"))
    merged = merge([first, second], combine_shards).gate("strength")
    assert merged is not None and merged.verdict is GateVerdict.FAIL
    assert isinstance(merged.data, StrengthData)
    assert [row.path for row in merged.data.tests] == ["tests/test_a.py", "tests/test_b.py"]
    assert merged.data.shards == ("1/2", "2/2")
    lone = merge([first], combine_shards).gate("strength")
    assert lone is not None and lone.verdict is GateVerdict.UNAVAILABLE
    assert lone.headline.endswith("only shards 1/2 of 2 were merged")


def test_the_merge_verb_joins_shard_ledgers_read_from_files(tmp_path: Path, cli: Callable[..., CliResult]) -> None:
    paths = []
    for index, item in ((1, RED), (2, UNJUDGED)):
        path = tmp_path / f"shard-{index}.json"
        path.write_text(ledger_json(ledger_of(result(item, shard=f"{index}/2"))))
        paths.append(path)
    out = tmp_path / "merged.json"
    outcome = cli("merge", *paths, "-o", out)
    assert outcome.code == 0, outcome.err
    (merged,) = read_ledgers([out])
    gate = merged.gate("strength")
    assert gate is not None and gate.verdict is GateVerdict.PASS
    assert gate.headline == "2 changed test files: 1 red, 1 unjudged"


def test_a_stack_without_a_per_file_command_says_how_to_give_one(repo: Repo) -> None:
    change = Change(base="b", head="h", merge_base="m", files=())
    unknown = replace(facts(), change=change, in_ci=True, adapter=TABLE.get("unknown"))
    effects = effects_for(repo.path, local_environment())
    gate = strength.judge(strength.gather(unknown, SETTINGS, effects, NONE_EARLIER), SETTINGS)
    assert (gate.verdict, gate.headline) == (
        GateVerdict.NOT_APPLICABLE,
        "the `unknown` stack has no command that runs one test file: set `strength-command` to judge test strength",
    )
    given = replace(SETTINGS, strength_command="make test-one FILE={file}")
    assert strength.judge(strength.gather(unknown, given, effects, NONE_EARLIER), given).headline != gate.headline
