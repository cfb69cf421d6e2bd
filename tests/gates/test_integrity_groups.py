"""Many gate edits of one kind in one folder, on real repositories: read as one line with a count,
so the comment stays small; test data deleted in bulk is no removed test at all."""

from __future__ import annotations

import jsonschema

from evidence_gate.changes import PathClassifier, collect_changes
from evidence_gate.gates import integrity
from evidence_gate.git import Git
from evidence_gate.integrity.idioms import default_idioms
from evidence_gate.integrity.report import DEFAULT_READ_CAP
from evidence_gate.integrity.survey import survey
from evidence_gate.ledger.model import GateResult, Ledger, Verdict
from evidence_gate.ledger.payload import read, schema, write
from evidence_gate.ledger.payloads.integrity import IntegrityData
from evidence_gate.render import render_comment
from evidence_gate.settings import Settings
from evidence_gate.stacks.detect import detect
from evidence_gate.stacks.table import default_table

from ..conftest import Repo, local_environment

PROJECT = {"pyproject.toml": "[project]\nname = 'shop'\n", "shop.py": "def total(a, b):\n    return a + b\n"}
TEST = "def test_case_{n}():\n    assert {n} == {n}\n"


def judged(repo: Repo, base: dict[str, str], deleted: list[str]) -> GateResult:
    first = repo.commit("base", {**PROJECT, **base})
    for path in deleted:
        (repo.path / path).unlink()
    repo.commit("head")
    table = default_table()
    git = Git(repo.path, local_environment())
    change = collect_changes(git, first, "HEAD", PathClassifier(table=table, matches=detect(repo.path, table).matches))
    facts = integrity.IntegrityFacts(survey=survey(git, change, default_idioms(), DEFAULT_READ_CAP))
    return integrity.judge(facts, Settings(repo=repo.path))


def comment(gate: GateResult) -> str:
    ledger = Ledger(verdict=Verdict.PASS, head="a" * 40, base=None, stack="python", counts=None, gates=(gate,))
    return render_comment(ledger)


def test_three_hundred_deleted_data_files_are_no_removed_tests_and_the_comment_stays_small(repo: Repo) -> None:
    data = {f"tests/data/case_{n:03}.json": f'{{"n": {n}}}\n' for n in range(300)}
    gate = judged(repo, {**data, "tests/test_cases.py": TEST.format(n=1)}, list(data))
    assert isinstance(gate.data, IntegrityData)
    assert (gate.data.listed, gate.data.tagged, gate.data.hunks, gate.data.groups) == (300, {}, (), ())
    assert gate.headline.startswith("300 gate edits, none relaxes a gate")
    assert "RH-3" not in comment(gate)
    assert len(comment(gate).encode()) < 8_000


def test_three_hundred_deleted_tests_of_one_folder_are_one_line(repo: Repo) -> None:
    tests = {f"tests/unit/test_case_{n:03}.py": TEST.format(n=n) for n in range(300)}
    kept = {"tests/test_kept.py": TEST.format(n=1), "tests/test_gone.py": TEST.format(n=2)}
    gate = judged(repo, {**tests, **kept}, [*tests, "tests/test_gone.py"])
    assert isinstance(gate.data, IntegrityData)
    assert [group.line for group in gate.data.groups] == ["RH-3 \N{MULTIPLICATION SIGN}300 under tests/unit/"]
    assert [hunk.path for hunk in gate.data.hunks] == ["tests/test_gone.py"]  # alone in its folder: read alone
    text = comment(gate)
    assert "RH-3 \N{MULTIPLICATION SIGN}300 under tests/unit/" in text
    assert "tests/unit/test_case_000.py" not in text
    assert len(text.encode()) < 10_000
    document = write(gate.data)
    jsonschema.Draft202012Validator(schema(IntegrityData)).validate(document)
    assert read(IntegrityData, document) == gate.data


def test_a_ledger_written_before_groups_reads_back_without_them(repo: Repo) -> None:
    gate = judged(repo, {"tests/test_gone.py": TEST.format(n=1)}, ["tests/test_gone.py"])
    assert isinstance(gate.data, IntegrityData)
    document = write(gate.data)
    del document["groups"]
    jsonschema.Draft202012Validator(schema(IntegrityData)).validate(document)
    assert read(IntegrityData, document) == gate.data
