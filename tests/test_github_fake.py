"""The fake GitHub itself: it serves what PyGithub needs, validates both directions against GitHub's OpenAPI
description and limits, paginates, points every address back at itself, and plays scripted faults."""

from __future__ import annotations

from typing import Any

import pytest
import requests
from github import Github

from tests.fake_api import COMMENTS, RUNS, Api, create_run, kinds, make_annotations
from tests.fake_api import api as api
from tests.fake_api import gh as gh
from tests.github_fake import (
    BASE_SHA,
    HEAD_REF,
    HEAD_SHA,
    PR_BODY,
    PR_NUMBER,
    REPO,
    FakeGitHub,
    load_spec,
    start_github_server,
)
from tests.github_fake import github_server as github_server
from tests.github_fake import templates as fake_templates
from tests.github_fake.fixture import check_no_violations

# --- PyGithub end to end --------------------------------------------------------------------------------------


def test_pygithub_publishes_comment_check_run_and_pr_body(github_server: FakeGitHub, gh: Github) -> None:
    repo = gh.get_repo(REPO)
    pr = repo.get_pull(PR_NUMBER)
    assert (pr.head.sha, pr.base.sha, pr.head.ref, pr.body) == (HEAD_SHA, BASE_SHA, HEAD_REF, PR_BODY)

    comment = pr.as_issue().create_comment("<!-- evidence-gate -->\nfirst")
    comment.edit("<!-- evidence-gate -->\nsecond")
    assert [c.body for c in pr.get_issue_comments()] == ["<!-- evidence-gate -->\nsecond"]
    assert comment.user.login == "github-actions[bot]"

    pr.edit(body=PR_BODY + "\n<!-- evidence-gate:start -->ok<!-- evidence-gate:end -->")

    run = repo.create_check_run(
        name="evidence-gate",
        head_sha=HEAD_SHA,
        status="in_progress",
        output={"title": "Evidence", "summary": "first 50", "annotations": make_annotations(50)},
    )
    assert run.output.annotations_count == 50
    run.edit(
        conclusion="failure",
        output={"title": "Evidence", "summary": "all 70", "annotations": make_annotations(20, start=51)},
    )
    assert (run.status, run.conclusion, run.output.annotations_count) == ("completed", "failure", 70)

    listed = repo.get_commit(HEAD_SHA).get_check_runs(check_name="evidence-gate")
    assert listed.totalCount == 1
    assert [r.id for r in listed] == [run.id]
    assert [a.start_line for a in repo.get_check_run(run.id).get_annotations()] == list(range(1, 71))
    assert [p.number for p in run.pull_requests] == [PR_NUMBER]

    # the state behind it
    assert [c.body for c in github_server.comments(PR_NUMBER)] == ["<!-- evidence-gate -->\nsecond"]
    assert github_server.pr_body(PR_NUMBER) == PR_BODY + "\n<!-- evidence-gate:start -->ok<!-- evidence-gate:end -->"
    (stored,) = github_server.check_runs(HEAD_SHA)
    assert (stored.output_summary, len(stored.annotations)) == ("all 70", 70)
    assert stored.annotations[-1].message == "m70"

    comment.delete()
    assert github_server.comments(PR_NUMBER) == []


def test_request_log_records_method_path_body_and_headers(github_server: FakeGitHub, gh: Github) -> None:
    gh.get_repo(REPO).get_pull(PR_NUMBER).create_issue_comment("hello")
    logged = github_server.requests_to("issues/create-comment")
    assert len(logged) == 1
    (entry,) = logged
    assert (entry.method, entry.path, entry.json, entry.status) == ("POST", COMMENTS, {"body": "hello"}, 201)
    assert entry.headers["authorization"] == f"token {github_server.token}"
    assert entry.headers["content-type"].startswith("application/json")


# --- validation against the description ---------------------------------------------------------------------


def test_misspelt_request_field_is_rejected_and_recorded(github_server: FakeGitHub, api: Api) -> None:
    response = api.post(RUNS, {"name": "eg", "head_sha": HEAD_SHA, "output": {"title": "t", "summery": "s"}})
    assert response.status_code == 422
    assert "summery" in response.json()["message"]
    (violation,) = github_server.pop_violations()
    assert violation.kind == "request"
    assert any("summery" in m for m in violation.messages)
    assert github_server.check_runs(HEAD_SHA) == []

    response = api.post(COMMENTS, {"bdy": "hello"})
    assert response.status_code == 422
    assert "'body' is a required property" in response.json()["message"]
    assert kinds(github_server) == ["request"]


def test_wrong_types_and_unknown_query_parameters_are_rejected(github_server: FakeGitHub, api: Api) -> None:
    assert api.post(RUNS, {"name": "eg", "head_sha": HEAD_SHA, "conclusion": "passed"}).status_code == 422
    assert api.get(COMMENTS, per_page="many").status_code == 422
    response = api.get(f"/repos/{REPO}/commits/{HEAD_SHA}/check-runs", checkname="evidence-gate")
    assert response.status_code == 422
    assert "'checkname' is not declared" in response.json()["message"]
    assert kinds(github_server) == ["request", "request", "request"]


def test_51_annotations_are_rejected_50_accepted(github_server: FakeGitHub, api: Api) -> None:
    body = {
        "name": "eg",
        "head_sha": HEAD_SHA,
        "output": {"title": "t", "summary": "s", "annotations": make_annotations(51)},
    }
    response = api.post(RUNS, body)
    assert response.status_code == 422
    assert "output/annotations: has 51 items; maxItems is 50" in response.json()["message"]
    assert kinds(github_server) == ["request"]

    run = create_run(api, output={"title": "t", "summary": "s", "annotations": make_annotations(50)})
    response = api.patch(
        f"{RUNS}/{run['id']}", {"output": {"title": "t", "summary": "s", "annotations": make_annotations(51)}}
    )
    assert response.status_code == 422
    assert kinds(github_server) == ["request"]
    assert len(github_server.check_runs(HEAD_SHA)[0].annotations) == 50


def test_output_summary_and_text_are_limited_to_65535_characters(github_server: FakeGitHub, api: Api) -> None:
    for key in ("summary", "text"):
        output = {"title": "t", "summary": "s", key: "x" * 65_536}
        response = api.post(RUNS, {"name": "eg", "head_sha": HEAD_SHA, "output": output})
        assert response.status_code == 422
        assert f"output/{key}: has 65536 characters; maxLength is 65535" in response.json()["message"]
        assert kinds(github_server) == ["request"]
    run = create_run(api, output={"title": "t", "summary": "x" * 65_535, "text": "y" * 65_535})
    assert run["output"]["summary"] == "x" * 65_535


def test_annotation_title_and_message_limits(github_server: FakeGitHub, api: Api) -> None:
    (long_title,) = make_annotations(1)
    long_title["title"] = "t" * 256
    (long_message,) = make_annotations(1)
    long_message["message"] = "é" * 32_769  # 65,538 bytes in UTF-8
    for annotation in (long_title, long_message):
        response = api.post(
            RUNS,
            {"name": "eg", "head_sha": HEAD_SHA, "output": {"title": "t", "summary": "s", "annotations": [annotation]}},
        )
        assert response.status_code == 422
        assert "GitHub's documented limits" in response.json()["message"]
    assert kinds(github_server) == ["limit", "limit"]

    (fine,) = make_annotations(1)
    fine.update(title="t" * 255, message="m" * 65_536)
    create_run(api, output={"title": "t", "summary": "s", "annotations": [fine]})


def test_check_run_rules_the_description_leaves_to_prose(github_server: FakeGitHub, api: Api) -> None:
    response = api.post(RUNS, {"name": "eg", "head_sha": HEAD_SHA, "status": "completed"})
    assert response.status_code == 422
    assert "conclusion is required" in response.json()["message"]
    run = create_run(api)
    response = api.patch(f"{RUNS}/{run['id']}", {"output": {"summary": "no title"}})
    assert response.status_code == 422
    assert "output.title is required" in response.json()["message"]
    assert kinds(github_server) == ["limit", "limit"]


def test_comment_and_pr_body_are_limited_to_65536_characters(github_server: FakeGitHub, api: Api) -> None:
    assert api.post(COMMENTS, {"body": "x" * 65_537}).status_code == 422
    assert api.patch(f"/repos/{REPO}/pulls/{PR_NUMBER}", {"body": "x" * 65_537}).status_code == 422
    assert kinds(github_server) == ["limit", "limit"]
    comment = api.post(COMMENTS, {"body": "x" * 65_536}).json()
    assert api.patch(f"/repos/{REPO}/issues/comments/{comment['id']}", {"body": "y" * 65_537}).status_code == 422
    assert kinds(github_server) == ["limit"]
    assert api.patch(f"/repos/{REPO}/pulls/{PR_NUMBER}", {"body": "z" * 65_536}).status_code == 200
    assert github_server.pr_body(PR_NUMBER) == "z" * 65_536


def test_authorization_is_required(github_server: FakeGitHub) -> None:
    anonymous = requests.get(f"{github_server.url}/repos/{REPO}", timeout=10)
    assert anonymous.status_code == 401
    assert anonymous.json()["message"] == "Requires authentication"
    wrong = requests.get(f"{github_server.url}/repos/{REPO}", headers={"Authorization": "token nope"}, timeout=10)
    assert wrong.status_code == 401
    assert wrong.json()["message"] == "Bad credentials"
    assert kinds(github_server) == ["auth", "auth"]


def test_unknown_route_and_bad_json_are_violations(github_server: FakeGitHub, api: Api) -> None:
    assert api.get(f"/repos/{REPO}/branches").status_code == 404
    response = api.session.post(api.url(COMMENTS), data=b"{not json", timeout=10)
    assert response.status_code == 400
    assert kinds(github_server) == ["route", "json"]


def test_missing_things_are_404_not_violations(github_server: FakeGitHub, api: Api) -> None:
    assert api.get(f"/repos/{REPO}/pulls/8").status_code == 404
    assert api.get("/repos/octo-org/other").status_code == 404
    assert api.get(f"{RUNS}/1").status_code == 404
    assert github_server.violations == []


def test_a_response_breaking_the_description_is_caught(
    github_server: FakeGitHub, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = fake_templates.issue_comment

    def with_extra_field(*args: Any) -> Any:
        return {**real(*args), "bodyText": "undocumented"}

    monkeypatch.setattr(fake_templates, "issue_comment", with_extra_field)
    response = api.post(COMMENTS, {"body": "hi"})
    assert response.status_code == 422
    assert "bodyText" in response.json()["message"]
    assert kinds(github_server) == ["response"]


def test_teardown_check_fails_on_unclaimed_violations() -> None:
    server = start_github_server()
    try:
        Api(server).post(COMMENTS, {"body": 7})
    finally:
        server.stop()
    with pytest.raises(pytest.fail.Exception, match=r"1 violation.*\n.*POST /repos/octo-org/shop/issues/7/comments"):
        check_no_violations(server)


def test_missing_description_fails_with_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.setenv("GITHUB_OPENAPI_JSON", str(tmp_path / "absent.json"))
    with pytest.raises(pytest.fail.Exception) as failed:
        start_github_server()
    message = str(failed.value)
    assert "run scripts/install-test-tools.sh" in message
    assert "\n" not in message


def test_description_is_loaded_once() -> None:
    assert load_spec() is load_spec()
