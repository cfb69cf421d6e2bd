"""The fake GitHub itself: it serves what PyGithub needs, validates both directions against GitHub's OpenAPI
description and limits, paginates, points every address back at itself, and plays scripted faults."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests
from github import Auth, Github, GithubException

from tests.github_fake import (
    BASE_SHA,
    HEAD_REF,
    HEAD_SHA,
    PR_BODY,
    PR_NUMBER,
    REPO,
    FakeGitHub,
    faults,
    load_spec,
    start_github_server,
)
from tests.github_fake import github_server as github_server
from tests.github_fake import state as fake_state
from tests.github_fake import templates as fake_templates
from tests.github_fake.fixture import check_no_violations

RUNS = f"/repos/{REPO}/check-runs"
COMMENTS = f"/repos/{REPO}/issues/{PR_NUMBER}/comments"


class Api:
    """requests against the fake, authenticated with its token."""

    def __init__(self, server: FakeGitHub) -> None:
        self.server = server
        self.session = requests.Session()
        self.session.headers.update(
            {"Authorization": f"Bearer {server.token}", "Accept": "application/vnd.github+json"}
        )

    def url(self, path: str) -> str:
        return path if path.startswith("http") else self.server.url + path

    def get(self, path: str, **params: Any) -> requests.Response:
        return self.session.get(self.url(path), params=params, timeout=10)

    def post(self, path: str, body: Any) -> requests.Response:
        return self.session.post(self.url(path), json=body, timeout=10)

    def patch(self, path: str, body: Any) -> requests.Response:
        return self.session.patch(self.url(path), json=body, timeout=10)


@pytest.fixture
def api(github_server: FakeGitHub) -> Iterator[Api]:
    client = Api(github_server)
    yield client
    client.session.close()


def pygithub(server: FakeGitHub, **options: Any) -> Github:
    """PyGithub on the fake, without its client-side pacing (0.25 s between requests, 1 s between writes)."""
    return Github(
        base_url=server.url,
        auth=Auth.Token(server.token),
        seconds_between_requests=None,
        seconds_between_writes=None,
        **options,
    )


@pytest.fixture
def gh(github_server: FakeGitHub) -> Iterator[Github]:
    client = pygithub(github_server, retry=None)
    yield client
    client.close()


def make_annotations(count: int, start: int = 1) -> list[dict[str, Any]]:
    return [
        {
            "path": "src/shop/discounts.py",
            "start_line": n,
            "end_line": n,
            "annotation_level": "warning",
            "message": f"m{n}",
        }
        for n in range(start, start + count)
    ]


def create_run(api: Api, **extra: Any) -> dict[str, Any]:
    body = {"name": "evidence-gate", "head_sha": HEAD_SHA, "status": "in_progress", **extra}
    response = api.post(RUNS, body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def kinds(server: FakeGitHub) -> list[str]:
    return [v.kind for v in server.pop_violations()]


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


# --- addresses and pagination ---------------------------------------------------------------------------------


def _addresses(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _addresses(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from _addresses(v, key)
    elif isinstance(value, str) and (key in {"url", "href", "blob_href"} or key.endswith("_url")):
        yield key, value


def test_every_address_points_back_at_the_server(github_server: FakeGitHub, api: Api) -> None:
    run = create_run(api, output={"title": "t", "summary": "s", "annotations": make_annotations(3)})
    api.post(COMMENTS, {"body": "hi"})
    bodies = [
        api.get(f"/repos/{REPO}").json(),
        api.get(f"/repos/{REPO}/pulls/{PR_NUMBER}").json(),
        api.get(f"/repos/{REPO}/issues/{PR_NUMBER}").json(),
        api.get(COMMENTS).json(),
        api.get(f"/repos/{REPO}/commits/{HEAD_SHA}").json(),
        api.get(f"/repos/{REPO}/commits/{HEAD_SHA}/check-runs").json(),
        api.get(f"{RUNS}/{run['id']}/annotations").json(),
        api.get(f"/repos/{REPO}/pulls/99").json(),
    ]
    found = [pair for body in bodies for pair in _addresses(body)]
    assert len(found) > 150
    host = github_server.url.removeprefix("http://")
    for key, address in found:
        if key in {"git_url", "ssh_url"}:  # git:// and ssh:// clone addresses, on the server's host
            assert f"{host}/" in address, (key, address)
        else:
            assert address.startswith(github_server.url + "/"), (key, address)
    assert run["output"]["annotations_url"] == f"{github_server.url}{RUNS}/{run['id']}/annotations"


def _link(response: requests.Response, rel: str) -> str | None:
    link = response.links.get(rel)
    return link["url"] if link else None


def test_comments_paginate_with_a_link_header(github_server: FakeGitHub, api: Api) -> None:
    for n in range(5):
        assert api.post(COMMENTS, {"body": f"c{n}"}).status_code == 201
    first = api.get(COMMENTS, per_page=2)
    assert [c["body"] for c in first.json()] == ["c0", "c1"]
    assert _link(first, "next") == f"{github_server.url}{COMMENTS}?per_page=2&page=2"
    assert _link(first, "last") == f"{github_server.url}{COMMENTS}?per_page=2&page=3"
    assert _link(first, "prev") is None

    bodies, url = [], _link(first, "next")
    while url:
        page = api.get(url)
        bodies += [c["body"] for c in page.json()]
        url = _link(page, "next")
    assert bodies == ["c2", "c3", "c4"]
    assert _link(page, "prev") == f"{github_server.url}{COMMENTS}?per_page=2&page=2"
    assert api.get(COMMENTS, per_page=2, page=9).json() == []

    paged = pygithub(github_server, per_page=2)
    try:
        pull = paged.get_repo(REPO).get_pull(PR_NUMBER)
        assert [c.body for c in pull.get_issue_comments()] == [f"c{n}" for n in range(5)]
    finally:
        paged.close()


def test_check_runs_for_a_ref_filter_and_paginate(github_server: FakeGitHub, api: Api) -> None:
    first = create_run(api, name="evidence-gate")
    create_run(api, name="lint")
    rerun = create_run(api, name="evidence-gate")
    create_run(api, name="elsewhere", head_sha=BASE_SHA)
    for_ref = f"/repos/{REPO}/commits/{HEAD_SHA}/check-runs"

    latest = api.get(for_ref).json()
    assert latest["total_count"] == 2
    assert {r["id"] for r in latest["check_runs"]} > {rerun["id"]}
    every = api.get(for_ref, filter="all", check_name="evidence-gate").json()
    assert [r["id"] for r in every["check_runs"]] == [first["id"], rerun["id"]]
    page = api.get(for_ref, filter="all", per_page=1, page=3)
    assert page.json()["total_count"] == 3
    assert len(page.json()["check_runs"]) == 1
    assert _link(page, "next") is None
    assert _link(page, "first") is not None
    by_branch = api.get(f"/repos/{REPO}/commits/{HEAD_REF.replace('/', '%2F')}/check-runs").json()
    assert by_branch["total_count"] == 2
    assert len(github_server.check_runs(HEAD_SHA)) == 3


def test_annotations_accumulate_across_patches_and_paginate(github_server: FakeGitHub, api: Api) -> None:
    run = create_run(api, output={"title": "t", "summary": "s", "annotations": make_annotations(50)})
    url = f"{RUNS}/{run['id']}"
    updated = api.patch(url, {"output": {"title": "t", "summary": "s2", "annotations": make_annotations(50, start=51)}})
    assert updated.json()["output"]["annotations_count"] == 100
    done = api.patch(url, {"conclusion": "success", "output": {"title": "t", "summary": "s3"}})
    assert done.json()["output"]["annotations_count"] == 100
    assert done.json()["status"] == "completed"
    assert done.json()["completed_at"] is not None
    assert api.get(url).json()["output"]["summary"] == "s3"

    page = api.get(f"{url}/annotations", per_page=100, page=1)
    assert [a["start_line"] for a in page.json()] == list(range(1, 101))
    assert page.json()[0]["blob_href"] == f"{github_server.url}/{REPO}/blob/{HEAD_SHA}/src/shop/discounts.py"
    assert len(api.get(f"{url}/annotations").json()) == 30  # GitHub's default page size
    assert len(github_server.check_runs(HEAD_SHA)[0].annotations) == 100


# --- faults ---------------------------------------------------------------------------------------------------


def test_scripted_faults_are_served_in_order_then_normal_service(github_server: FakeGitHub, api: Api) -> None:
    github_server.script(
        "POST /repos/{owner}/{repo}/check-runs",
        faults.bad_gateway(),
        faults.too_many_requests(retry_after=1),
        faults.secondary_rate_limit(retry_after=2),
        faults.rate_limit_exhausted(reset_in=30),
    )
    assert github_server.pending_faults("checks/create") == 4
    body = {"name": "eg", "head_sha": HEAD_SHA}

    bad = api.post(RUNS, body)
    assert (bad.status_code, bad.json()["message"]) == (502, "Server Error")
    many = api.post(RUNS, body)
    assert (many.status_code, many.headers["Retry-After"]) == (429, "1")
    secondary = api.post(RUNS, body)
    assert (secondary.status_code, secondary.headers["Retry-After"]) == (403, "2")
    assert secondary.json()["message"].startswith("You have exceeded a secondary rate limit")
    exhausted = api.post(RUNS, body)
    assert exhausted.status_code == 403
    assert exhausted.headers["x-ratelimit-remaining"] == "0"
    assert int(exhausted.headers["x-ratelimit-reset"]) > 0
    assert exhausted.json()["message"].startswith("API rate limit exceeded")
    assert github_server.check_runs(HEAD_SHA) == []

    assert api.post(RUNS, body).status_code == 201
    assert [r.status for r in github_server.requests_to("checks/create")] == [502, 429, 403, 403, 201]
    assert github_server.pending_faults("checks/create") == 0


def test_an_invalid_request_does_not_use_up_a_scripted_fault(github_server: FakeGitHub, api: Api) -> None:
    github_server.script("issues/create-comment", faults.bad_gateway(html=True))
    assert api.post(COMMENTS, {"bdy": "x"}).status_code == 422
    assert kinds(github_server) == ["request"]
    page = api.post(COMMENTS, {"body": "x"})
    assert page.status_code == 502
    assert page.headers["Content-Type"].startswith("text/html")


def test_pygithub_retries_a_502_and_after_effect_shows_the_duplicate(github_server: FakeGitHub) -> None:
    client = pygithub(github_server)  # PyGithub's default retry policy
    try:
        pull = client.get_repo(REPO).get_pull(PR_NUMBER)
        github_server.script("issues/create-comment", faults.bad_gateway())
        pull.create_issue_comment("once")
        assert [c.body for c in github_server.comments(PR_NUMBER)] == ["once"]

        github_server.script("issues/create-comment", faults.bad_gateway(after_effect=True))
        pull.create_issue_comment("twice?")
        assert [c.body for c in github_server.comments(PR_NUMBER)] == ["once", "twice?", "twice?"]
    finally:
        client.close()


def test_pygithub_waits_out_a_secondary_rate_limit(github_server: FakeGitHub) -> None:
    client = pygithub(github_server)
    try:
        github_server.script("checks/create", faults.secondary_rate_limit(retry_after=1))
        run = client.get_repo(REPO).create_check_run(name="eg", head_sha=HEAD_SHA)
        assert run.status == "queued"
        assert [r.status for r in github_server.requests_to("checks/create")] == [403, 201]
    finally:
        client.close()


def test_a_reset_is_no_answer_and_a_hang_lasts_until_the_client_gives_up(github_server: FakeGitHub, api: Api) -> None:
    github_server.script("checks/create", faults.connection_reset(), faults.no_answer())
    body = {"name": "eg", "head_sha": HEAD_SHA}
    with pytest.raises(requests.ConnectionError):
        api.post(RUNS, body)
    with pytest.raises(requests.ReadTimeout):
        api.session.post(api.url(RUNS), json=body, timeout=0.5)
    assert api.post(RUNS, body).status_code == 201
    assert [r.status for r in github_server.requests_to("checks/create")] == [0, 0, 201]
    assert len(github_server.check_runs(HEAD_SHA)) == 1


def test_a_comment_deleted_meanwhile_is_gone_and_answered_404(github_server: FakeGitHub, api: Api) -> None:
    other = fake_state.User("someone-else[bot]", 12345, "Bot")
    comment = github_server.add_comment(REPO, PR_NUMBER, "theirs", user=other)
    assert api.get(COMMENTS).json()[0]["user"]["login"] == "someone-else[bot]"
    github_server.script("issues/update-comment", faults.deleted_meanwhile())
    assert api.patch(f"/repos/{REPO}/issues/comments/{comment.id}", {"body": "x"}).status_code == 404
    assert github_server.comments(PR_NUMBER) == []


def test_read_only_token_gets_403_on_every_write(github_server: FakeGitHub, api: Api, gh: Github) -> None:
    github_server.read_only = True
    run_url = f"{RUNS}/1"
    writes = [
        api.post(COMMENTS, {"body": "x"}),
        api.patch(f"/repos/{REPO}/pulls/{PR_NUMBER}", {"body": "x"}),
        api.post(RUNS, {"name": "eg", "head_sha": HEAD_SHA}),
        api.patch(run_url, {"conclusion": "success"}),
        api.session.delete(api.url(f"/repos/{REPO}/issues/comments/1"), timeout=10),
    ]
    for response in writes:
        assert response.status_code == 403
        assert response.json()["message"] == "Resource not accessible by integration"
    assert api.get(f"/repos/{REPO}/pulls/{PR_NUMBER}").status_code == 200
    with pytest.raises(GithubException) as refused:
        gh.get_repo(REPO).get_pull(PR_NUMBER).create_issue_comment("x")
    assert refused.value.status == 403
    assert github_server.comments(PR_NUMBER) == []
    assert github_server.pr_body(PR_NUMBER) == PR_BODY
    assert github_server.violations == []
