"""The fake GitHub's service: every address points back at it, lists paginate as GitHub's do, and
scripted faults play in order."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests
from github import Github, GithubException

from tests.fake_api import COMMENTS, RUNS, Api, create_run, kinds, make_annotations, pygithub
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
    faults,
)
from tests.github_fake import github_server as github_server
from tests.github_fake import state as fake_state

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
