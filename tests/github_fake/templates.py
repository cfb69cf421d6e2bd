"""Complete, schema-valid GitHub REST objects built from the fake's state.

Shapes follow GitHub's own responses (the description's examples), with every `url`, `html_url` and `*_url`
pointing back at the fake's base URL: the API lives at `{base}/repos/...` and what GitHub serves on
github.com lives at `{base}/{owner}/{repo}/...` (the fake does not serve those pages; they are only addresses).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from .state import ACTIONS_BOT, Comment, Json, PullRequest, Repo, User

# The GitHub Actions app: the app behind every check run a workflow's GITHUB_TOKEN creates.
ACTIONS_APP_ID = 15368
GITHUB_ORG = User("github", 9919, "Organization")


def node_id(kind: str, number: int) -> str:
    return base64.b64encode(f"0{len(kind)}:{kind}{number}".encode()).decode()


@dataclass(frozen=True)
class Urls:
    """Address builder for one fake server."""

    base: str

    @property
    def host(self) -> str:
        return urlsplit(self.base).netloc

    def api(self, path: str) -> str:
        return f"{self.base}/{path.lstrip('/')}"

    def html(self, path: str) -> str:
        return f"{self.base}/{path.lstrip('/')}"

    def repo_api(self, repo: Repo, path: str = "") -> str:
        return self.api(f"repos/{repo.full_name}{path}")


def user(u: Urls, who: User) -> Json:
    login = quote(who.login, safe="")
    api = u.api(f"orgs/{login}") if who.type == "Organization" else u.api(f"users/{login}")
    html = u.html(f"apps/{who.login.removesuffix('[bot]')}") if who.type == "Bot" else u.html(who.login)
    users = u.api(f"users/{login}")
    return {
        "login": who.login,
        "id": who.id,
        "node_id": who.node_id,
        "avatar_url": u.api(f"avatars/u/{who.id}?v=4"),
        "gravatar_id": "",
        "url": api,
        "html_url": html,
        "followers_url": f"{users}/followers",
        "following_url": f"{users}/following{{/other_user}}",
        "gists_url": f"{users}/gists{{/gist_id}}",
        "starred_url": f"{users}/starred{{/owner}}{{/repo}}",
        "subscriptions_url": f"{users}/subscriptions",
        "organizations_url": f"{users}/orgs",
        "repos_url": f"{api}/repos",
        "events_url": f"{api}/events{{/privacy}}",
        "received_events_url": f"{users}/received_events",
        "type": who.type,
        "user_view_type": "public",
        "site_admin": False,
    }


def _repo_urls(u: Urls, repo: Repo) -> Json:
    api = u.repo_api(repo)
    return {
        "html_url": u.html(repo.full_name),
        "url": api,
        "archive_url": f"{api}/{{archive_format}}{{/ref}}",
        "assignees_url": f"{api}/assignees{{/user}}",
        "blobs_url": f"{api}/git/blobs{{/sha}}",
        "branches_url": f"{api}/branches{{/branch}}",
        "collaborators_url": f"{api}/collaborators{{/collaborator}}",
        "comments_url": f"{api}/comments{{/number}}",
        "commits_url": f"{api}/commits{{/sha}}",
        "compare_url": f"{api}/compare/{{base}}...{{head}}",
        "contents_url": f"{api}/contents/{{+path}}",
        "contributors_url": f"{api}/contributors",
        "deployments_url": f"{api}/deployments",
        "downloads_url": f"{api}/downloads",
        "events_url": f"{api}/events",
        "forks_url": f"{api}/forks",
        "git_commits_url": f"{api}/git/commits{{/sha}}",
        "git_refs_url": f"{api}/git/refs{{/sha}}",
        "git_tags_url": f"{api}/git/tags{{/sha}}",
        "hooks_url": f"{api}/hooks",
        "issue_comment_url": f"{api}/issues/comments{{/number}}",
        "issue_events_url": f"{api}/issues/events{{/number}}",
        "issues_url": f"{api}/issues{{/number}}",
        "keys_url": f"{api}/keys{{/key_id}}",
        "labels_url": f"{api}/labels{{/name}}",
        "languages_url": f"{api}/languages",
        "merges_url": f"{api}/merges",
        "milestones_url": f"{api}/milestones{{/number}}",
        "notifications_url": f"{api}/notifications{{?since,all,participating}}",
        "pulls_url": f"{api}/pulls{{/number}}",
        "releases_url": f"{api}/releases{{/id}}",
        "stargazers_url": f"{api}/stargazers",
        "statuses_url": f"{api}/statuses/{{sha}}",
        "subscribers_url": f"{api}/subscribers",
        "subscription_url": f"{api}/subscription",
        "tags_url": f"{api}/tags",
        "teams_url": f"{api}/teams",
        "trees_url": f"{api}/git/trees{{/sha}}",
    }


def repository(u: Urls, repo: Repo) -> Json:
    """The `repository` schema (as in a pull request's head and base)."""
    open_issues = sum(1 for p in repo.pulls.values() if p.state == "open")
    return {
        "id": repo.id,
        "node_id": node_id("Repository", repo.id),
        "name": repo.name,
        "full_name": repo.full_name,
        "private": repo.private,
        "owner": user(u, repo.owner),
        "description": "A shop, reviewed by Evidence Gate.",
        "fork": False,
        **_repo_urls(u, repo),
        "git_url": f"git://{u.host}/{repo.full_name}.git",
        "ssh_url": f"ssh://git@{u.host}/{repo.full_name}.git",
        "clone_url": u.html(f"{repo.full_name}.git"),
        "svn_url": u.html(repo.full_name),
        "mirror_url": None,
        "homepage": None,
        "language": "Python",
        "forks_count": 0,
        "forks": 0,
        "stargazers_count": 3,
        "watchers_count": 3,
        "watchers": 3,
        "size": 412,
        "default_branch": repo.default_branch,
        "open_issues_count": open_issues,
        "open_issues": open_issues,
        "is_template": False,
        "topics": [],
        "has_issues": True,
        "has_projects": True,
        "has_wiki": False,
        "has_pages": False,
        "has_downloads": True,
        "has_discussions": False,
        "archived": False,
        "disabled": False,
        "visibility": "private" if repo.private else "public",
        "pushed_at": repo.created_at,
        "created_at": repo.created_at,
        "updated_at": repo.created_at,
        "permissions": {"admin": False, "maintain": False, "push": True, "triage": True, "pull": True},
        "allow_forking": True,
        "web_commit_signoff_required": False,
        "license": {
            "key": "mit",
            "name": "MIT License",
            "spdx_id": "MIT",
            "url": u.api("licenses/mit"),
            "node_id": "MDc6TGljZW5zZTEz",
        },
    }


def full_repository(u: Urls, repo: Repo) -> Json:
    """GET /repos/{owner}/{repo}."""
    data = repository(u, repo)
    data.update(
        {
            "allow_rebase_merge": True,
            "allow_squash_merge": True,
            "allow_merge_commit": True,
            "allow_auto_merge": False,
            "allow_update_branch": False,
            "delete_branch_on_merge": True,
            "use_squash_pr_title_as_default": False,
            "squash_merge_commit_title": "COMMIT_OR_PR_TITLE",
            "squash_merge_commit_message": "COMMIT_MESSAGES",
            "merge_commit_title": "MERGE_MESSAGE",
            "merge_commit_message": "PR_TITLE",
            "subscribers_count": 2,
            "network_count": 0,
            "custom_properties": {},
        }
    )
    if repo.owner.type == "Organization":
        data["organization"] = user(u, repo.owner)
    return data


def label(u: Urls, repo: Repo, name: str, index: int) -> Json:
    """A label of the repository, as a pull request lists it."""
    return {
        "id": 9000 + index,
        "node_id": node_id("Label", 9000 + index),
        "url": u.repo_api(repo, f"/labels/{quote(name, safe='')}"),
        "name": name,
        "description": None,
        "color": "ededed",
        "default": False,
    }


def pull_api(u: Urls, repo: Repo, pr: PullRequest) -> str:
    return u.repo_api(repo, f"/pulls/{pr.number}")


def _issue_api(u: Urls, repo: Repo, number: int) -> str:
    return u.repo_api(repo, f"/issues/{number}")


def _branch(u: Urls, repo: Repo, ref: str, sha: str) -> Json:
    return {
        "label": f"{repo.owner.login}:{ref}",
        "ref": ref,
        "sha": sha,
        "user": user(u, repo.owner),
        "repo": repository(u, repo),
    }


def pull_request(u: Urls, repo: Repo, pr: PullRequest) -> Json:
    """GET/PATCH /repos/{owner}/{repo}/pulls/{pull_number}."""
    api = pull_api(u, repo, pr)
    issue_api = _issue_api(u, repo, pr.number)
    html = u.html(f"{repo.full_name}/pull/{pr.number}")
    statuses = u.repo_api(repo, f"/statuses/{pr.head_sha}")
    return {
        "url": api,
        "id": pr.id,
        "node_id": node_id("PullRequest", pr.id),
        "html_url": html,
        "diff_url": f"{html}.diff",
        "patch_url": f"{html}.patch",
        "issue_url": issue_api,
        "commits_url": f"{api}/commits",
        "review_comments_url": f"{api}/comments",
        "review_comment_url": u.repo_api(repo, "/pulls/comments{/number}"),
        "comments_url": f"{issue_api}/comments",
        "statuses_url": statuses,
        "number": pr.number,
        "state": pr.state,
        "locked": False,
        "title": pr.title,
        "user": user(u, pr.user),
        "body": pr.body,
        "labels": [label(u, repo, name, index) for index, name in enumerate(pr.labels)],
        "milestone": None,
        "active_lock_reason": None,
        "created_at": pr.created_at,
        "updated_at": pr.updated_at,
        "closed_at": None,
        "merged_at": None,
        "merge_commit_sha": None,
        "assignee": None,
        "assignees": [],
        "requested_reviewers": [],
        "requested_teams": [],
        "head": _branch(u, repo, pr.head_ref, pr.head_sha),
        "base": _branch(u, repo, pr.base_ref, pr.base_sha),
        "_links": {
            "self": {"href": api},
            "html": {"href": html},
            "issue": {"href": issue_api},
            "comments": {"href": f"{issue_api}/comments"},
            "review_comments": {"href": f"{api}/comments"},
            "review_comment": {"href": u.repo_api(repo, "/pulls/comments{/number}")},
            "commits": {"href": f"{api}/commits"},
            "statuses": {"href": statuses},
        },
        "author_association": "CONTRIBUTOR",
        "auto_merge": None,
        "draft": pr.draft,
        "merged": False,
        "mergeable": True,
        "rebaseable": True,
        "mergeable_state": "clean",
        "merged_by": None,
        "comments": len(repo.issue_comments(pr.number)),
        "review_comments": 0,
        "maintainer_can_modify": pr.maintainer_can_modify,
        "commits": 1,
        "additions": 12,
        "deletions": 3,
        "changed_files": 2,
    }


def _reactions(url: str) -> Json:
    counts = dict.fromkeys(("+1", "-1", "laugh", "confused", "heart", "hooray", "eyes", "rocket"), 0)
    return {"url": url, "total_count": 0, **counts}


def issue(u: Urls, repo: Repo, pr: PullRequest) -> Json:
    """GET /repos/{owner}/{repo}/issues/{issue_number} for a pull request (every pull request is an issue)."""
    api = _issue_api(u, repo, pr.number)
    html = u.html(f"{repo.full_name}/pull/{pr.number}")
    return {
        "id": pr.id + 1_000_000_000,
        "node_id": node_id("PullRequest", pr.id),
        "url": api,
        "repository_url": u.repo_api(repo),
        "labels_url": f"{api}/labels{{/name}}",
        "comments_url": f"{api}/comments",
        "events_url": f"{api}/events",
        "timeline_url": f"{api}/timeline",
        "html_url": html,
        "number": pr.number,
        "state": pr.state,
        "state_reason": None,
        "title": pr.title,
        "body": pr.body,
        "user": user(u, pr.user),
        "labels": [],
        "assignee": None,
        "assignees": [],
        "milestone": None,
        "locked": False,
        "active_lock_reason": None,
        "comments": len(repo.issue_comments(pr.number)),
        "pull_request": {
            "url": pull_api(u, repo, pr),
            "html_url": html,
            "diff_url": f"{html}.diff",
            "patch_url": f"{html}.patch",
            "merged_at": None,
        },
        "closed_at": None,
        "created_at": pr.created_at,
        "updated_at": pr.updated_at,
        "draft": pr.draft,
        "closed_by": None,
        "author_association": "CONTRIBUTOR",
        "performed_via_github_app": None,
        "reactions": _reactions(f"{api}/reactions"),
    }


def issue_comment(u: Urls, repo: Repo, comment: Comment) -> Json:
    api = u.repo_api(repo, f"/issues/comments/{comment.id}")
    return {
        "id": comment.id,
        "node_id": node_id("IssueComment", comment.id),
        "url": api,
        "html_url": u.html(f"{repo.full_name}/pull/{comment.issue_number}#issuecomment-{comment.id}"),
        "issue_url": _issue_api(u, repo, comment.issue_number),
        "body": comment.body,
        "user": user(u, comment.user),
        "created_at": comment.created_at,
        "updated_at": comment.updated_at,
        "author_association": "NONE" if comment.user == ACTIONS_BOT else "CONTRIBUTOR",
        "performed_via_github_app": None,
        "reactions": _reactions(f"{api}/reactions"),
    }


def error(u: Urls, message: str, status: int, doc: str = "rest") -> Json:
    """GitHub's `basic-error` body. Its documentation_url, on GitHub at docs.github.com, is under the fake's base
    too, so that no address the fake hands out leads off this machine."""
    return {"message": message, "documentation_url": u.html(f"docs/{doc}"), "status": str(status)}
