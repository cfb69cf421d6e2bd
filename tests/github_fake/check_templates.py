"""Complete, schema-valid GitHub REST objects of the Checks API and of commits (see templates.py
for the addresses they use): the Actions app, commits, check runs and their annotations."""

from __future__ import annotations

from urllib.parse import quote

from .state import Annotation, CheckRun, Json, PullRequest, Repo, User
from .templates import ACTIONS_APP_ID, GITHUB_ORG, Urls, node_id, pull_api, user


def actions_app(u: Urls) -> Json:
    return {
        "id": ACTIONS_APP_ID,
        "slug": "github-actions",
        "node_id": "MDM6QXBwMTUzNjg=",
        "owner": user(u, GITHUB_ORG),
        "name": "GitHub Actions",
        "description": "Automate your workflow from idea to production",
        "external_url": u.html("features/actions"),
        "html_url": u.html("apps/github-actions"),
        "created_at": "2018-07-30T09:30:17Z",
        "updated_at": "2024-04-10T20:33:16Z",
        "permissions": {"checks": "write", "contents": "write", "issues": "write", "metadata": "read"},
        "events": ["check_run", "check_suite", "pull_request", "push"],
    }


def commit(u: Urls, repo: Repo, sha: str, parents: list[str], message: str, author: User) -> Json:
    """GET /repos/{owner}/{repo}/commits/{ref} (PyGithub's non-lazy `repo.get_commit(sha)` fetches it)."""
    api = u.repo_api(repo, f"/commits/{sha}")
    person = {
        "name": author.login,
        "email": f"{author.id}+{author.login}@users.noreply.github.com",
        "date": repo.created_at,
    }
    return {
        "sha": sha,
        "node_id": node_id("Commit", int(sha[:7], 16)),
        "url": api,
        "html_url": u.html(f"{repo.full_name}/commit/{sha}"),
        "comments_url": f"{api}/comments",
        "commit": {
            "url": u.repo_api(repo, f"/git/commits/{sha}"),
            "author": person,
            "committer": person,
            "message": message,
            "comment_count": 0,
            "tree": {"sha": sha[::-1], "url": u.repo_api(repo, f"/git/trees/{sha[::-1]}")},
            "verification": {
                "verified": False,
                "reason": "unsigned",
                "payload": None,
                "signature": None,
                "verified_at": None,
            },
        },
        "author": user(u, author),
        "committer": user(u, author),
        "parents": [
            {"sha": p, "url": u.repo_api(repo, f"/commits/{p}"), "html_url": u.html(f"{repo.full_name}/commit/{p}")}
            for p in parents
        ],
        "stats": {"additions": 12, "deletions": 3, "total": 15},
        "files": [],
    }


def pull_request_minimal(u: Urls, repo: Repo, pr: PullRequest) -> Json:
    ref = {"id": repo.id, "url": u.repo_api(repo), "name": repo.name}
    return {
        "id": pr.id,
        "number": pr.number,
        "url": pull_api(u, repo, pr),
        "head": {"ref": pr.head_ref, "sha": pr.head_sha, "repo": ref},
        "base": {"ref": pr.base_ref, "sha": pr.base_sha, "repo": ref},
    }


def check_run(u: Urls, repo: Repo, run: CheckRun) -> Json:
    api = u.repo_api(repo, f"/check-runs/{run.id}")
    html = u.html(f"{repo.full_name}/runs/{run.id}")
    pulls = [p for p in repo.pulls.values() if p.state == "open" and p.head_sha == run.head_sha]
    return {
        "id": run.id,
        "head_sha": run.head_sha,
        "node_id": node_id("CheckRun", run.id),
        "external_id": run.external_id if run.external_id is not None else "",
        "url": api,
        "html_url": html,
        "details_url": run.details_url if run.details_url is not None else html,
        "status": run.status,
        "conclusion": run.conclusion,
        "started_at": run.started_at,
        "completed_at": run.completed_at,
        "output": {
            "title": run.output_title,
            "summary": run.output_summary,
            "text": run.output_text,
            "annotations_count": len(run.annotations),
            "annotations_url": f"{api}/annotations",
        },
        "name": run.name,
        "check_suite": {"id": run.check_suite_id},
        "app": actions_app(u),
        "pull_requests": [pull_request_minimal(u, repo, p) for p in pulls],
    }


def check_annotation(u: Urls, repo: Repo, run: CheckRun, ann: Annotation) -> Json:
    return {
        "path": ann.path,
        "blob_href": u.html(f"{repo.full_name}/blob/{run.head_sha}/{quote(ann.path)}"),
        "start_line": ann.start_line,
        "end_line": ann.end_line,
        "start_column": ann.start_column,
        "end_column": ann.end_column,
        "annotation_level": ann.annotation_level,
        "title": ann.title,
        "message": ann.message,
        "raw_details": ann.raw_details,
    }
