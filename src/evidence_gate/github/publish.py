"""Publishing a rendered ledger: the sticky PR comment, the check run with its annotations, the PR
body's section, each unless switched off. Each step is attempted; a refusal GitHub will not heal
(a read-only token, missing permissions) is reported once, clearly, and the remaining writes are
skipped, as they are when GitHub stops answering (`GitHubDidNotAnswer`: the run's wait budget is spent).

Our comment is the one that carries our marker *and* was written by the token's own account: the
marker alone can be pasted by anyone, another bot included. The account is the GitHub App bot of
the check run this run created (`<app slug>[bot]`, as GitHub names an app's bot user), since an
installation token may not ask `GET /user` who it is; without that check run (switched off, or
refused), it is the author of a comment this run writes, which is removed again when an older one
of ours turns up.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TypeVar

from github import Github, GithubException, UnknownObjectException
from github.Issue import Issue
from github.IssueComment import IssueComment
from github.Repository import Repository

from evidence_gate.errors import UsageError
from evidence_gate.event import FORK_RECIPE, GitHubContext
from evidence_gate.github.client import GitHubDidNotAnswer
from evidence_gate.github.pr_body import BODY_LIMIT, replace_section, room_for_section
from evidence_gate.ledger.catalog import gives
from evidence_gate.ledger.digest import Digest, decode, encode
from evidence_gate.ledger.model import Annotation, GateResult, GateVerdict, Ledger, Verdict, overall_verdict
from evidence_gate.ledger.stagnation import comment_history
from evidence_gate.model import PullRequest
from evidence_gate.policy import conclusion
from evidence_gate.render import (
    CheckRunText,
    LimitError,
    check_slug,
    comment_marker,
    fit_annotation,
    links_for,
    render_check_run,
    render_comment,
    render_pr_section,
    reveal_invisible,
)
from evidence_gate.settings import CommentMode, FailOn, Settings
from evidence_gate.wording import plural

ANNOTATIONS_PER_REQUEST = 50
_VERDICT_MARKER = re.compile(r"<!-- QG:VERDICT:(PASS|BLOCKED|STAGNATION) -->")
T = TypeVar("T")


@dataclass
class Published:
    comment_url: str | None = None
    check_run_url: str | None = None
    problems: list[str] = field(default_factory=list)


class ReadOnlyToken(Exception):
    """GitHub refused a write in a way retries will not heal."""


def read_baseline(client: Github, context: GitHubContext, check_name: str) -> tuple[Digest | None, str]:
    """The base commit's digest, from its check run of the same name; the reason when there is none."""
    pull = context.pull_request
    if pull is None:
        return None, "not a pull request"
    try:
        repo = client.get_repo(context.repository, lazy=True)
        runs = repo.get_commit(pull.base_sha).get_check_runs(check_name=check_name)
        for run in runs:
            digest = decode(run.output.summary or "") if run.output else None
            if digest is not None:
                return digest, f"base {pull.base_sha[:12]}"
            return None, f"the base commit's {check_name!r} check run holds no readable digest"
    except GithubException as error:
        return None, f"reading the base commit's check runs failed ({describe(error)})"
    except GitHubDidNotAnswer as error:
        return None, f"{error}"
    return None, f"the base commit {pull.base_sha[:12]} has no {check_name!r} check run"


def read_history(client: Github, context: GitHubContext, check_name: str) -> tuple[tuple[dict[int, str], ...], str]:
    """The earlier runs' failed checks, from the history line of the sticky comment an earlier run
    left (the oldest with the marker, as the publisher keeps it); only a bot account's comment is
    read, so a comment the pull request's author writes cannot stand in for it."""
    pull = context.pull_request
    if pull is None:
        return (), "not a pull request: no earlier runs"
    marker = comment_marker(check_name)
    try:
        issue = client.get_repo(context.repository, lazy=True).get_issue(pull.number)
        for comment in sorted(issue.get_comments(), key=lambda found: found.id):
            if marker not in (comment.body or "") or comment.user is None or comment.user.type != "Bot":
                continue
            runs = comment_history(comment.body or "", check_slug(check_name))
            if runs is None:
                return (), "the sticky comment holds no readable history"
            return runs, f"{plural(len(runs), 'earlier run')} of this pull request, from its sticky comment"
    except GithubException as error:
        return (), f"reading the sticky comment failed ({describe(error)})"
    except GitHubDidNotAnswer as error:
        return (), f"{error}"
    return (), "no earlier run of this pull request left a comment"


class Publisher:
    def __init__(self, client: Github, context: GitHubContext, check_name: str) -> None:
        self.client = client
        self.context = context
        self.check_name = check_name
        self.repo: Repository = client.get_repo(context.repository, lazy=True)
        self.identity: str | None = None  # the token's own login, once a write has shown it

    def publish(
        self,
        ledger: Ledger,
        comment: str,
        check_run: CheckRunText | None,
        comment_mode: CommentMode,
        fail_on: FailOn,
        pr_body: bool,
    ) -> Published:
        """Write each surface that is on: no `check_run` text is the check run switched off."""
        result = Published()
        steps: list[Callable[[], None]] = []
        if check_run is not None:
            steps.append(lambda: self._check_run(ledger, check_run, fail_on, result))
        steps.append(lambda: self._comment(ledger, comment, comment_mode, result))
        if pr_body:
            steps.append(lambda: self._pr_body(ledger))
        for step in steps:
            try:
                step()
            except ReadOnlyToken as refusal:
                result.problems.append(str(refusal))
                break
            except GitHubDidNotAnswer:  # the caller reports it, once, from the client's budget
                break
            except GithubException as error:
                result.problems.append(describe(error))
            except LimitError as error:  # e.g. an author's body leaves no room for the section
                result.problems.append(error.one_line())
        return result

    def _check_run(self, ledger: Ledger, text: CheckRunText, fail_on: FailOn, result: Published) -> None:
        """Create the check run with the first 50 annotations, then PATCH the rest 50 at a time."""
        annotations = [
            _annotation(fit_annotation(_revealed(note))) for gate in ledger.gates for note in gate.annotations
        ]
        batches = [
            annotations[start : start + ANNOTATIONS_PER_REQUEST]
            for start in range(0, len(annotations), ANNOTATIONS_PER_REQUEST)
        ]

        def output(batch: list[dict[str, str | int]]) -> dict[str, str | list[dict[str, str | int]]]:
            return {"title": text.title, "summary": text.summary, "text": text.text, "annotations": batch}

        run = _write(
            lambda: self.repo.create_check_run(
                name=self.check_name,
                head_sha=ledger.head or self.context.sha,
                status="completed",
                conclusion=conclusion(ledger.verdict, fail_on),
                output=output(batches[0] if batches else []),
            )
        )
        if run.app is not None and run.app.slug:
            self.identity = f"{run.app.slug}[bot]"
        for batch in batches[1:]:
            _write(functools.partial(run.edit, output=output(batch)))
        result.check_run_url = run.html_url

    def _comment(self, ledger: Ledger, body: str, mode: CommentMode, result: Published) -> None:
        pull = self.context.pull_request
        if pull is None or mode is CommentMode.OFF:
            return
        issue = self.repo.get_issue(pull.number)
        marker = comment_marker(self.check_name)
        creates = not (mode is CommentMode.FAILURES and ledger.verdict is Verdict.PASS)
        ours = (
            self._our_comments(issue, marker) if self.identity else self._learn_identity(issue, marker, body, creates)
        )
        if not ours and not creates:
            return
        if ours and mode is CommentMode.CHANGES and _verdict_of(ours[0].body) == ledger.verdict:
            result.comment_url = ours[0].html_url
            return
        if not ours:
            created = _write(lambda: issue.create_comment(body))
            self.identity = self.identity or created.user.login
            # Two runs at once may both have created one: keep the oldest, remove the rest.
            ours = self._our_comments(issue, marker) or [created]
        keep = ours[0]
        if keep.body != body:
            try:
                _write(lambda: keep.edit(body))
            except UnknownObjectException:  # deleted since it was listed: by a person, or a concurrent run
                keep = _write(lambda: issue.create_comment(body))
        for extra in ours[1:]:
            try:
                _write(extra.delete)
            except UnknownObjectException:  # a concurrent run removed it first
                continue
        result.comment_url = keep.html_url

    def _learn_identity(self, issue: Issue, marker: str, body: str, creates: bool) -> list[IssueComment]:
        """Without a check run to name the token's account, a comment with our marker may be ours or
        anyone's: write the comment to learn the account, and keep it only when no older one of ours
        exists and the mode would create one. Our older comments, or the new one; none when no
        comment carries the marker (nothing is written then)."""
        if not any(marker in (comment.body or "") for comment in issue.get_comments()):
            return []
        created = _write(lambda: issue.create_comment(body))
        self.identity = created.user.login
        older = [comment for comment in self._our_comments(issue, marker) if comment.id != created.id]
        if older or not creates:
            with contextlib.suppress(UnknownObjectException):  # a concurrent run removed it as a duplicate
                _write(created.delete)
            return older
        return [created]

    def _our_comments(self, issue: Issue, marker: str) -> list[IssueComment]:
        """The comments with our marker by the token's own account, oldest first; none while the
        account is not known."""
        if self.identity is None:
            return []
        found = [
            comment
            for comment in issue.get_comments()
            if marker in (comment.body or "") and comment.user is not None and comment.user.login == self.identity
        ]
        return sorted(found, key=lambda comment: comment.id)

    def _pr_body(self, ledger: Ledger) -> None:
        pull_request = self.context.pull_request
        if pull_request is None:
            return
        pull = self.repo.get_pull(pull_request.number)
        body = pull.body or ""
        room = room_for_section(body, self.check_name)
        updated = replace_section(body, render_pr_section(ledger, room), self.check_name)
        if len(updated) > BODY_LIMIT:  # a CRLF body: each of our newlines became two characters
            section = render_pr_section(ledger, room - (len(updated) - BODY_LIMIT))
            updated = replace_section(body, section, self.check_name)
        if updated != body:
            _write(lambda: pull.edit(body=updated))


def publish_ledger(client: Github, context: GitHubContext, settings: Settings, ledger: Ledger) -> Published:
    check_run = None
    if settings.check_run:
        digest = encode(ledger) or ""
        check_run = render_check_run(ledger, settings.templates_dir, reserve=len(digest.encode()) + 1)
        check_run = check_run.with_summary(f"{check_run.summary}\n{digest}" if digest else check_run.summary)
    publisher = Publisher(client, context, settings.check_name)
    return publisher.publish(
        ledger,
        render_comment(ledger, settings.templates_dir, links_for(context.server_url, context.repository, ledger.head)),
        check_run,
        settings.comment_mode,
        settings.fail_on,
        pr_body=settings.pr_body,
    )


def checked_ledger(ledger: Ledger, context: GitHubContext, settings: Settings) -> Ledger:
    """A ledger made elsewhere (on the runner, or by a fork's run) is published only when it is about
    this pull request's head commit and under this configuration's check name."""
    pull = context.pull_request
    if ledger.head is None:
        raise UsageError("the ledger names no head commit, so it cannot be tied to this pull request")
    expected = pull.head_sha if pull else context.sha
    if ledger.head != expected:
        raise UsageError(f"the ledger is about {ledger.head[:12]}, not {expected[:12]}; refusing to publish it here")
    if ledger.check_name != settings.check_name:
        raise UsageError(
            f"the ledger was made for the check {ledger.check_name!r}, not {settings.check_name!r}; refusing it"
        )
    return _gates_off_here(ledger, settings)


def _gates_off_here(ledger: Ledger, settings: Settings) -> Ledger:
    """A ledger made elsewhere does not decide its own gate settings: a gate it shows as off counts
    as off only where this job's `gates-off` switches it off too; anywhere else it fails. Nor can it
    quiet a gate: a verdict that says nothing (`info`, `unverifiable`) stands only for a gate that
    gives it (the smoke test, the plan's manual items); for any other gate it fails."""

    def trusted(gate: GateResult) -> GateResult:
        if gate.verdict is GateVerdict.OFF and gate.id not in settings.gates_off:
            why = "the ledger shows this gate switched off, and this job's configuration does not switch it off"
            return replace(gate, verdict=GateVerdict.FAIL, headline=why)
        if gate.verdict in (GateVerdict.INFO, GateVerdict.UNVERIFIABLE) and not gives(gate.id, gate.verdict):
            why = f"the ledger shows this gate as {gate.verdict}, a verdict it never gives"
            return replace(gate, verdict=GateVerdict.FAIL, headline=why)
        return gate

    gates = tuple(trusted(gate) for gate in ledger.gates)
    return replace(ledger, gates=gates, verdict=overall_verdict(gates, ledger.quality.stagnation is not None))


def current_pull(client: Github, context: GitHubContext, number: int) -> PullRequest:
    """The pull request as GitHub has it now; one it does not know, or will not show, is an error."""
    where = f"pull request #{number} of {context.repository}"
    try:
        pull = client.get_repo(context.repository, lazy=True).get_pull(number)
        return PullRequest(
            number=pull.number,
            base_sha=pull.base.sha,
            head_sha=pull.head.sha,
            body=pull.body or "",
            labels=tuple(label.name for label in pull.labels),
        )
    except UnknownObjectException as error:
        raise UsageError(
            f"publish: GitHub has no {where} (404): check the event file, and that the token can read the repository"
        ) from error
    except GithubException as error:
        raise UsageError(f"publish: GitHub refused to show {where} ({describe(error)})") from error
    except GitHubDidNotAnswer as error:
        raise UsageError(f"publish: cannot read {where}: {error}") from error


def _write(call: Callable[[], T]) -> T:
    """Run one write; a 403 that names missing rights becomes ReadOnlyToken. A 404 is not one: the
    thing written to is gone (a comment deleted meanwhile), which the caller handles."""
    try:
        return call()
    except GithubException as error:
        if error.status == 403 and _not_accessible(error):
            raise ReadOnlyToken(
                f"GitHub refused to write ({describe(error)}): this token cannot write to the pull request."
                f" A pull request from a fork or from Dependabot gets a read-only token; see {FORK_RECIPE}."
                " Otherwise grant the workflow `checks: write` and `pull-requests: write`."
            ) from error
        raise


def _revealed(note: Annotation) -> Annotation:
    """An annotation's title and message with invisible characters shown (GitHub shows them as
    plain text); its path stays as it is, the file's own name, for GitHub to place it."""
    title = reveal_invisible(note.title) if note.title else note.title
    return replace(note, title=title, message=reveal_invisible(note.message))


def _annotation(note: Annotation) -> dict[str, str | int]:
    document: dict[str, str | int] = {
        "path": note.path,
        "start_line": note.line,
        "end_line": note.end_line,
        "annotation_level": note.level,
        "message": note.message,
    }
    if note.title:
        document["title"] = note.title
    return document


def _verdict_of(body: str | None) -> Verdict | None:
    found = _VERDICT_MARKER.search(body or "")
    return Verdict(found.group(1)) if found else None


def _not_accessible(error: GithubException) -> bool:
    data = error.data if isinstance(error.data, dict) else {}
    message = str(data.get("message", ""))
    return "not accessible" in message or "Must have admin rights" in message


def describe(error: GithubException) -> str:
    data = error.data if isinstance(error.data, dict) else {}
    return f"{error.status} {data.get('message', error.data)}"
