"""The gate registry: every gate is a module, a registry line and a partial template; a gate
switched off is shown as off in every output, never left out; each gate's payload is laid out by
its partial, as GitHub renders it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import cast

import pytest

from evidence_gate.effects import Effects
from evidence_gate.errors import UsageError
from evidence_gate.facts import Facts
from evidence_gate.gates.registry import GATE_IDS, GATES
from evidence_gate.ledger.catalog import BY_GATE, CATALOG, CHECKS
from evidence_gate.ledger.model import GateVerdict, Verdict
from evidence_gate.model import PullRequest
from evidence_gate.render import ZERO_WIDTH_SPACE, TemplateError, render_comment, render_job_summary, render_report
from evidence_gate.settings import BaseConfig, Settings, parse_config, resolve
from tests.render.checks import check_structure
from tests.render.gfm import render

from .conftest import Repo, judge_repo

ROOT = Path(__file__).resolve().parents[1]
BODY = "## Acceptance criteria\n- [ ] refunds are logged\n- [ ] totals round down\n"


def test_each_registered_gate_has_an_id_a_partial_template_and_a_payload_type() -> None:
    ids = [gate.id for gate in GATES]
    assert len(ids) == len(set(ids))
    for gate in GATES:
        assert re.fullmatch(r"[a-z][a-z0-9-]{0,63}", gate.id)
        assert (ROOT / "templates" / "gates" / f"{gate.id}.md.j2").is_file(), gate.id
        assert gate.data is not None, gate.id


def test_the_catalog_and_the_registry_name_the_same_gates_with_the_same_titles_and_payload_types() -> None:
    """What a reader of ledgers knows of each gate (ledger/catalog.py) is what the gate is."""
    assert sorted(CATALOG) == sorted(GATE_IDS)
    for gate in GATES:
        entry = CATALOG[gate.id]
        assert (entry.title, entry.payload) == (gate.title, gate.data), gate.id
    assert [check.number for check in CHECKS] == list(range(1, len(CHECKS) + 1))
    assert set(BY_GATE) <= set(GATE_IDS)


def shop(repo: Repo) -> Repo:
    """A python project with a passing pytest run's JUnit report, and tags for two criteria."""
    repo.commit(
        "base",
        {
            "pyproject.toml": "[project]\nname = 'shop'\n[tool.pytest.ini_options]\n",
            "tests/test_refund.py": "def test_refund_is_logged():  # [SHOP-1#1]\n    pass\n",
        },
    )
    report = repo.path / "build" / "junit.xml"
    report.parent.mkdir()
    report.write_text(
        '<testsuite name="pytest" tests="2" failures="0" errors="0" skipped="0">'
        '<testcase classname="tests.test_refund" name="test_refund_is_logged[SHOP-1#1]" time="0.1"/>'
        '<testcase classname="tests.test_refund" name="test_totals_round_down[SHOP-1#2]" time="0.1"/>'
        "</testsuite>\n",
        encoding="utf-8",
    )
    return repo


def table_rows(markdown: str) -> list[list[str]]:
    """Each table row of the Markdown as GitHub renders it, as the text a reader sees."""
    rows = render(markdown).iter("tr")
    return [[cell.text_content().replace(ZERO_WIDTH_SPACE, "").strip() for cell in row] for row in rows]


def pull() -> PullRequest:
    return PullRequest(number=1, base_sha="HEAD", head_sha="HEAD", body=BODY)


def test_a_gate_switched_off_is_shown_as_off_and_the_others_still_judge(repo: Repo) -> None:
    settings = Settings(repo=shop(repo).path, reports=("build/*.xml",), story="SHOP-1", gates_off=("criteria",))
    ledger = judge_repo(settings, pull_request=pull(), in_ci=True)
    criteria = ledger.gate("criteria")
    assert criteria is not None
    assert (criteria.verdict, criteria.headline) == (
        GateVerdict.OFF,
        "switched off by the configuration (`gates-off`)",
    )
    evidence = ledger.gate("evidence")
    assert evidence is not None and evidence.verdict is GateVerdict.PASS
    assert ledger.verdict is Verdict.PASS
    comment = render_comment(ledger)
    markers = [
        "<!-- QG:VERDICT:PASS -->",
        "<!-- QG:CHECK:1:NOT_APPLICABLE -->",  # switched off (the test's helper), with the reason
        "<!-- QG:CHECK:2:NOT_APPLICABLE -->",
        "<!-- QG:CHECK:3:PASS -->",
        "<!-- QG:CHECK:4:NOT_APPLICABLE -->",  # base and head are one commit: nothing to measure
        "<!-- QG:CHECK:5:NOT_APPLICABLE -->",  # no scope declared
        "<!-- QG:CHECK:6:NOT_APPLICABLE -->",  # criteria switched off
        "<!-- QG:CHECK:7:NOT_APPLICABLE -->",
        "<!-- QG:CHECK:8:NOT_APPLICABLE -->",
        "<!-- QG:CHECK:9:NOT_APPLICABLE -->",
    ]
    check_structure(comment, [*comment.splitlines()[:2], *markers])
    rows = table_rows(comment)
    off = [
        "6",
        "Plan Compliance",
        "\N{EM DASH}",
        "switched off by the configuration (gates-off)",  # the id a code span
        "\N{DOUBLE VERTICAL BAR} OFF",  # the comment's rows carry their icons
    ]
    assert off in rows
    assert (
        "#### Check 6: Plan Compliance\n<!-- QG:CHECK:6:NOT_APPLICABLE -->\n\nswitched off by the configuration"
        in comment
    )


def test_every_gate_switched_off_proves_nothing(repo: Repo) -> None:
    settings = Settings(
        repo=shop(repo).path,
        reports=("build/*.xml",),
        gates_off=GATE_IDS,
    )
    ledger = judge_repo(settings, in_ci=True)
    assert [gate.verdict for gate in ledger.gates] == [GateVerdict.OFF] * len(GATE_IDS)
    assert ledger.verdict is Verdict.BLOCKED  # no evidence


def test_an_unknown_gate_id_is_a_usage_error_naming_the_known_ones(repo: Repo) -> None:
    settings = Settings(repo=shop(repo).path, gates_off=("criterias",))
    with pytest.raises(
        UsageError,
        match=r"gates-off: unknown gate 'criterias' \(known: type-check, lint, evidence, gate-integrity, strength,"
        r" coverage, scope, criteria, suppressions, references, smoke\)",
    ):
        judge_repo(settings)


def test_gates_off_is_read_from_the_config_file_and_from_the_action_input(tmp_path: Path) -> None:
    assert parse_config(b"gates-off: [criteria]\n", "c.yml")["gates-off"] == ["criteria"]
    settings = resolve(tmp_path, {}, {"INPUT_GATES-OFF": "criteria\nevidence\n"}, None)
    assert settings.gates_off == ("criteria", "evidence")
    assert settings.gates_off_by == "by the workflow's `gates-off` input"


def test_each_gate_switched_off_says_who_switched_it_off(tmp_path: Path) -> None:
    config = tmp_path / ".github" / "evidence-gate.yml"
    config.parent.mkdir()
    config.write_text("gates-off: [criteria]\n")
    here = resolve(tmp_path, {}, {}, None)
    assert here.gates_off_by == "by the configuration (gates-off in .github/evidence-gate.yml)"
    flag = resolve(tmp_path, {"gates-off": ["scope"]}, {"INPUT_GATES-OFF": "criteria"}, None)
    assert (flag.gates_off, flag.gates_off_by) == (("scope",), "on the command line (`--gates-off`)")
    base = BaseConfig(commit="0" * 40, read=lambda path: b"gates-off: [type-check]\n")
    chosen = resolve(tmp_path, {}, {}, None, base)
    assert chosen.gates_off == ("type-check",)
    assert chosen.gates_off_by == "by the maintainer (gates-off in .github/evidence-gate.yml at the base commit)"
    type_check = next(gate for gate in GATES if gate.id == "type-check")
    gate = type_check.result(cast(Facts, None), chosen, cast(Effects, None))  # switched off: neither is read
    assert (gate.verdict, gate.headline) == (
        GateVerdict.OFF,
        "switched off by the maintainer (gates-off in .github/evidence-gate.yml at the base commit)",
    )


def test_each_gate_payload_is_laid_out_by_its_partial_in_every_output(repo: Repo) -> None:
    settings = Settings(repo=shop(repo).path, reports=("build/*.xml",), story="SHOP-1")
    ledger = judge_repo(settings, pull_request=pull(), in_ci=True)
    for text in (render_comment(ledger), render_job_summary(ledger), render_report(ledger)):
        rows = table_rows(text)
        assert ["build/junit.xml", "junit", "2 tests passed"] in rows
        assert ["[SHOP-1#1] refunds are logged", "✅ green", "1 test passed"] in rows
        assert ["[SHOP-1#2] totals round down", "✅ green", "1 test passed"] in rows


def test_a_users_partial_replaces_ours_for_that_gate_only(repo: Repo, tmp_path: Path) -> None:
    settings = Settings(repo=shop(repo).path, reports=("build/*.xml",), story="SHOP-1")
    ledger = judge_repo(settings, pull_request=pull(), in_ci=True)
    templates = tmp_path / "templates"
    (templates / "gates").mkdir(parents=True)
    (templates / "gates" / "evidence.md.j2").write_text(
        "{% for source in gate.data.sources %}Read {{ source.source | md }}.\n{% endfor %}", encoding="utf-8"
    )
    report = render_report(ledger, templates)
    assert "Read build/junit.xml." in report
    rows = table_rows(report)
    assert ["build/junit.xml", "junit", "2 tests passed"] not in rows
    assert ["[SHOP-1#1] refunds are logged", "✅ green", "1 test passed"] in rows


def test_a_symlinked_gates_folder_in_templates_dir_is_refused(repo: Repo, tmp_path: Path) -> None:
    settings = Settings(repo=shop(repo).path, reports=("build/*.xml",))
    ledger = judge_repo(settings, in_ci=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "evidence.md.j2").write_text("planted\n", encoding="utf-8")
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "gates").symlink_to(elsewhere)
    with pytest.raises(TemplateError, match="a symlink; templates-dir's gates/ must be a folder of its own"):
        render_report(ledger, templates)
