"""The real-PR corpus's replay script, its pure parts on literals: the corpus loads and validates against
its schema, a ledger is read, and verdicts are compared with the truth."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "real-prs" / "replay.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("real_prs_replay", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


replay = _load()
SCHEMA: dict[str, Any] = json.loads((SCRIPT.parent / "corpus.schema.json").read_text(encoding="utf-8"))
SHA_A = "a" * 40
SHA_B = "b" * 40

DEFAULTS = """
version: 1
default_gates:
  type-check: {expect: pass, why: "mypy is clean"}
  lint: {expect: pass, why: "ruff is clean"}
  evidence: {expect: pass, why: "the suite passes"}
  gate-integrity: {expect: pass, why: "nothing relaxed"}
  strength: {expect: [pass, not-applicable], why: "red, or no test changed"}
  coverage: {expect: any, why: "no report"}
  scope: {expect: not-applicable, why: "none declared"}
  criteria: {expect: not-applicable, why: "no criteria"}
  suppressions: {expect: not-applicable, why: "none added"}
  references: {expect: not-applicable, why: "no truth sources"}
  smoke: {expect: not-applicable, why: "no smoke commands"}
"""


def _entry(extra: str = "", verdict: str = "PASS", kind: str = "bugfix", gates: str = "{}") -> str:
    return f"""
  - name: demo-1
    project: someone/demo
    repository: https://github.com/someone/demo
    pr: 1
    kind: {kind}
    base: {SHA_A}
    head: {SHA_B}
    base_tree: {SHA_A}
    head_tree: {SHA_B}
    stack: python
    install: [python3 -m venv .venv]
    test: [.venv/bin/python -m pytest 2>&1 | tee evidence/pytest.log]
    reports: [evidence/pytest.log]
{extra}    truth:
      verdict: {verdict}
      why: "a fix with its test"
      gates: {gates}
"""


def _corpus(*entries: str) -> str:
    return DEFAULTS + "prs:" + "".join(entries)


def _ledger(verdict: str = "PASS", **gates: str) -> dict[str, Any]:
    verdicts = dict.fromkeys(("type-check", "lint", "evidence", "gate-integrity", "strength"), "pass")
    verdicts |= dict.fromkeys(("coverage", "scope", "criteria", "suppressions"), "not-applicable")
    verdicts |= dict.fromkeys(("references", "smoke"), "not-applicable")
    verdicts |= {gate.replace("_", "-"): value for gate, value in gates.items()}
    return {
        "verdict": verdict,
        "stack": "python",
        "gates": [
            {"id": gate, "verdict": value, "headline": f"{gate} said {value}", "data": {"tagged": {}}}
            for gate, value in verdicts.items()
        ],
    }


def test_the_real_corpus_loads_against_its_schema() -> None:
    entries = replay.load_corpus((SCRIPT.parent / "corpus.yaml").read_text(encoding="utf-8"), SCHEMA)
    assert len(entries) >= 20
    assert len({entry.project for entry in entries}) >= 10
    assert all(set(entry.truth.gates) == set(replay.GATE_IDS) for entry in entries)
    assert {"bugfix", "refactor", "test-only", "docs-only", "dependency-bump", "relaxation", "failing-head"} <= {
        entry.kind for entry in entries
    }


def test_an_entry_takes_the_default_truth_for_the_gates_it_leaves_out() -> None:
    (entry,) = replay.load_corpus(_corpus(_entry(gates='{lint: {expect: missing, why: "none configured"}}')), SCHEMA)
    assert entry.truth.gates["lint"].expect == ("missing",)
    assert entry.truth.gates["type-check"].expect == ("pass",)
    assert entry.truth.gates["strength"].accepts("not-applicable")
    assert entry.truth.gates["coverage"].accepts("fail")


@pytest.mark.parametrize(
    ("corpus", "says"),
    [
        (_corpus(_entry(kind="failing-head", verdict="BLOCKED")), "head_note"),
        (_corpus(_entry(verdict="MAYBE")), "MAYBE"),
        (_corpus(_entry(gates='{tests: {expect: pass, why: "x"}}')), "tests"),
        (_corpus(_entry(), _entry()), "names used twice: demo-1"),
        (_corpus(_entry(extra="    gates_off: [lint]\n    gates_off_why: no linter\n")), "lint is switched off"),
        (_corpus(_entry(extra="    gates_off: [lint]\n")), "gates_off_why"),
        (_corpus(_entry(extra="    labels: [refactor]\n    labels_why: a rename\n")), "strength is switched off"),
        (_corpus(_entry(extra="    labels: [refactor]\n")), "labels_why"),
    ],
)
def test_a_corpus_that_breaks_a_rule_is_refused_with_where(corpus: str, says: str) -> None:
    with pytest.raises(replay.CorpusError, match=says):
        replay.load_corpus(corpus, SCHEMA)


def test_a_ledger_as_the_truth_says_has_no_mismatch() -> None:
    (entry,) = replay.load_corpus(_corpus(_entry()), SCHEMA)
    assert replay.compare(entry, replay.read_ledger(_ledger())) == ()


def test_every_gate_and_the_verdict_that_differ_are_named_with_the_tools_headline() -> None:
    (entry,) = replay.load_corpus(_corpus(_entry()), SCHEMA)
    got = replay.read_ledger(_ledger("BLOCKED", coverage="fail", lint="missing"))
    found = {m.what: m for m in replay.compare(entry, got)}
    assert set(found) == {"verdict", "lint"}  # coverage's truth is `any`
    assert found["lint"].expected == "pass"
    assert found["lint"].got == "missing"
    assert found["lint"].headline == "lint said missing"
    assert found["verdict"].got == "BLOCKED"


def test_blocked_accepts_stagnation_and_a_missing_tag_is_named() -> None:
    truth = _entry(verdict="BLOCKED", extra="")
    (entry,) = replay.load_corpus(_corpus(truth.replace('why: "a fix', 'tags: [RH-6]\n      why: "a fix')), SCHEMA)
    found = replay.compare(entry, replay.read_ledger(_ledger("STAGNATION")))
    assert [(m.what, m.expected, m.got) for m in found] == [("tags", "RH-6", "none")]


def test_a_gate_the_ledger_lacks_and_another_stack_are_mismatches() -> None:
    (entry,) = replay.load_corpus(_corpus(_entry()), SCHEMA)
    ledger = _ledger()
    ledger["stack"] = "unknown"
    ledger["gates"] = [gate for gate in ledger["gates"] if gate["id"] != "smoke"]
    found = {m.what: m.got for m in replay.compare(entry, replay.read_ledger(ledger))}
    assert found == {"stack": "unknown", "smoke": "absent"}


def test_a_long_comment_and_the_exit_code_noise_are_problems() -> None:
    assert replay.comment_problems("fine\n" * 100) == ()
    found = replay.comment_problems("x" * 20_001 + "\ncheck 1: no exit code recorded in the log\n")
    assert [m.got for m in found] == ["20044 chars", "said"]
    assert found[1].headline == "check 1: no exit code recorded in the log"


def test_step_outputs_are_read_in_both_forms() -> None:
    text = "verdict<<EOF_1\nPASS\nEOF_1\nledger=runner/l.json\nreport<<EOF_2\nrunner/a.md\nEOF_2\n"
    assert replay.parse_outputs(text) == {"verdict": "PASS", "ledger": "runner/l.json", "report": "runner/a.md"}


def test_the_event_carries_the_shas_and_no_criteria() -> None:
    (entry,) = replay.load_corpus(_corpus(_entry()), SCHEMA)
    pull = replay.event(entry)["pull_request"]
    assert (pull["base"]["sha"], pull["head"]["sha"]) == (SHA_A, SHA_B)
    assert "Acceptance criteria" not in pull["body"]


def test_a_refactor_label_reaches_the_event_and_switches_strength_off_as_the_workflow_does() -> None:
    extra = "    labels: [refactor, docs]\n    labels_why: a rename\n"
    (entry,) = replay.load_corpus(_corpus(_entry(extra=extra, gates='{strength: {expect: "off", why: "x"}}')), SCHEMA)
    assert [label["name"] for label in replay.event(entry)["pull_request"]["labels"]] == ["refactor", "docs"]
    assert entry.gates_off == ("strength",)


def test_the_table_has_a_row_per_pr_with_each_mismatch() -> None:
    (entry,) = replay.load_corpus(_corpus(_entry()), SCHEMA)
    got = replay.read_ledger(_ledger("BLOCKED", lint="missing"))
    text = replay.table([replay.Outcome(entry, got, replay.compare(entry, got))])
    assert "[someone/demo#1](https://github.com/someone/demo/pull/1)" in text
    assert "**lint**: expected pass, got missing: lint said missing" in text
