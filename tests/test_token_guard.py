"""The runner step does not start while a repository token is within the tests' reach, and what it
starts never finds the runner's own tokens: not in its environment, not in its parent's."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from evidence_gate.child_env import scrubbed_environment
from evidence_gate.clean_start import RESTARTED, clean_environment
from evidence_gate.git import ConfigEntry, Git
from evidence_gate.token_guard import (
    CHECKOUT_FIX,
    CONFIG_FIX,
    ENV_FIX,
    URL_FIX,
    credentials_in_config,
    refusal,
    tokens_in_environment,
)

from .conftest import Repo, local_environment

TOKEN = "ghs_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4"
PAT = "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnop"
RUNTIME = "runtime-secret-" + "7f3a9c2e5b1d"
BASIC = base64.b64encode(f"x-access-token:{TOKEN}".encode()).decode()


def entry(key: str, value: str | None, scope: str = "local", origin: str = "file:.git/config") -> ConfigEntry:
    return ConfigEntry(scope=scope, origin=origin, key=key, value=value)


def test_the_repository_token_variables_are_found_by_name_and_any_token_by_its_shape() -> None:
    environ = {
        "GITHUB_TOKEN": "anything",
        "GH_TOKEN": "",  # set but empty: nothing in reach
        "INPUT_GITHUB-TOKEN": "x",
        "RELEASE_URL": f"https://x-access-token:{TOKEN}@github.com/o/r",
        "NPM_AUTH": PAT,
        "ACTIONS_RUNTIME_TOKEN": TOKEN,  # the runner's: dropped from every child, no refusal
        "PATH": "/usr/bin",
    }
    found = tokens_in_environment(environ)
    assert [item.what for item in found] == [
        "GITHUB_TOKEN is set in the environment",
        "INPUT_GITHUB-TOKEN is set in the environment",
        "NPM_AUTH in the environment holds a GitHub token",
        "RELEASE_URL in the environment holds a GitHub token",
    ]
    assert {item.fix for item in found} == {ENV_FIX}
    assert tokens_in_environment({"ACTIONS_RUNTIME_TOKEN": RUNTIME, "ACTIONS_ID_TOKEN_REQUEST_TOKEN": RUNTIME}) == ()


def test_git_settings_holding_a_credential_are_found_and_named_without_it() -> None:
    entries = [
        entry("http.https://github.com/.extraheader", f"AUTHORIZATION: basic {BASIC}"),
        entry("http.extraheader", "Authorization: bearer abc", origin="file:/runner/temp/git-credentials.config"),
        entry("remote.origin.url", "https://user:hunter22@example.com/o/r.git"),
        entry(f"url.https://{TOKEN}@github.com/.insteadof", "https://github.com/"),
        entry("http.https://github.com/.extraheader", f"AUTHORIZATION: basic {BASIC}", scope="command", origin=""),
        # Not credentials: a header without one, a URL with a user only, a credential helper, a flag.
        entry("http.extraheader", "X-Trace: 1"),
        entry("remote.upstream.url", "https://git@example.com/o/r.git"),
        entry("credential.https://example.com.helper", "store"),
        entry("core.bare", None),
    ]
    found = credentials_in_config(entries)
    assert [(item.what, item.fix) for item in found] == [
        ("`http.https://github.com/.extraheader` in .git/config (local) holds an Authorization header", CHECKOUT_FIX),
        (
            "`http.extraheader` in /runner/temp/git-credentials.config (local) holds an Authorization header",
            CHECKOUT_FIX,
        ),
        ("`remote.origin.url` in .git/config (local) is a URL with credentials", URL_FIX),
        ("`url.https://***@github.com/.insteadof` in .git/config (local) holds a GitHub token", CONFIG_FIX),
        (
            "`http.https://github.com/.extraheader` in git's configuration from the environment"
            " (GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT) holds an Authorization header",
            ENV_FIX,
        ),
    ]
    assert not any(secret in repr(found) for secret in (TOKEN, BASIC, "hunter22"))


def test_the_refusal_is_one_line_with_every_place_then_every_fix_once() -> None:
    assert refusal(()) is None
    message = refusal(tokens_in_environment({"GITHUB_TOKEN": TOKEN, "GH_TOKEN": TOKEN}))
    assert message == (
        "refusing to start the runner step, a token is within the tests' reach: GH_TOKEN is set in the environment;"
        f" GITHUB_TOKEN is set in the environment. Fix: {ENV_FIX}"
    )


def test_a_process_started_gets_no_variable_holding_a_token_whatever_its_name() -> None:
    environ = {"PATH": "/usr/bin", "DEPLOY": f"token {TOKEN}", "ACTIONS_RUNTIME_TOKEN": RUNTIME, "HOME": "/home/u"}
    assert scrubbed_environment(environ) == {"PATH": "/usr/bin", "HOME": "/home/u"}


def test_the_clean_environment_drops_the_runtime_tokens_once_and_never_asks_to_start_again() -> None:
    environ = {"PATH": "/usr/bin", "ACTIONS_RUNTIME_TOKEN": RUNTIME, "ACTIONS_ID_TOKEN_REQUEST_URL": "https://x"}
    clean = clean_environment(environ)
    assert clean == {"PATH": "/usr/bin", RESTARTED: "1"}
    assert clean_environment(clean) is None
    assert clean_environment({"PATH": "/usr/bin"}) is None
    assert clean_environment({**environ, RESTARTED: "1"}) is None  # the marker stops a loop whatever remains


def test_git_lists_the_checkouts_settings_with_their_files_and_what_they_include(repo: Repo, tmp_path: Path) -> None:
    repo.commit("init")
    included = tmp_path / "credentials.config"
    included.write_text(f'[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic {BASIC}\n')
    repo.git("config", "--local", f"includeIf.gitdir:{repo.path}/.git.path", str(included))
    repo.git("config", "--local", "core.flag-without-value", "true")
    entries = Git(repo.path, local_environment()).config_entries()
    header = [item for item in entries if item.key == "http.https://github.com/.extraheader"]
    assert header == [
        ConfigEntry(
            scope="local",
            origin=f"file:{included}",
            key="http.https://github.com/.extraheader",
            value=f"AUTHORIZATION: basic {BASIC}",
        )
    ]


def runner_step(repo: Path, environ: Mapping[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """`evidence-gate run --runner-step` as the workflow starts it: a process of its own."""
    command = [sys.executable, "-m", "evidence_gate", "run", "--runner-step", "--repo", str(repo), *args]
    return subprocess.run(command, env=dict(environ), capture_output=True, text=True, timeout=300, check=False)


def assert_refused(result: subprocess.CompletedProcess[str], *named: str) -> None:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("evidence-gate: error: refusing to start the runner step"), lines
    assert all(name in lines[0] for name in named), lines[0]
    assert not any(secret in result.stderr + result.stdout for secret in (TOKEN, PAT, BASIC, "hunter22"))


@pytest.mark.parametrize(
    ("name", "value"),
    [("GITHUB_TOKEN", TOKEN), ("GH_TOKEN", "not-shaped"), ("INPUT_GITHUB_TOKEN", TOKEN), ("MY_DEPLOY_KEY", PAT)],
)
def test_a_token_in_the_environment_is_refused_naming_the_variable(repo: Repo, name: str, value: str) -> None:
    repo.commit("init")
    result = runner_step(repo.path, {**local_environment(), name: value})
    assert_refused(result, name, "remove it from this step's `env:`")


def test_the_checkouts_credential_header_is_refused_with_the_checkout_fix(repo: Repo) -> None:
    repo.commit("init")
    repo.git("config", "--local", "http.https://github.com/.extraheader", f"AUTHORIZATION: basic {BASIC}")
    result = runner_step(repo.path, local_environment())
    assert_refused(result, "`http.https://github.com/.extraheader` in .git/config", CHECKOUT_FIX)


def test_a_remote_url_with_credentials_is_refused(repo: Repo) -> None:
    repo.commit("init")
    repo.git("remote", "add", "origin", "https://someone:hunter22@github.com/o/r.git")
    result = runner_step(repo.path, local_environment())
    assert_refused(result, "`remote.origin.url` in .git/config", URL_FIX)


PROBE = """\
import os, sys
secret = sys.argv[1].encode()
found = []
for entry in os.listdir("/proc"):
    if entry.isdigit():
        try:
            with open(f"/proc/{entry}/environ", "rb") as block:
                if secret in block.read():
                    found.append(entry)
        except OSError:
            pass
with open(sys.argv[2], "w") as out:
    out.write(f"parent={os.getppid()} own={sys.argv[1] in os.environ.values()} found={found}")
"""


def test_with_only_the_runtime_tokens_the_step_runs_and_no_process_can_read_them(repo: Repo, tmp_path: Path) -> None:
    """The probe, run as the type checker, reads every environment block it can: its own, the shell's
    that runs it and evidence-gate's (which started with the tokens, and started again without)."""
    seen = tmp_path / "seen.txt"
    config = f"type-check-command: python3 probe.py {RUNTIME} {seen}\nlint-command: 'true'\n"
    repo.commit("base", {".github/evidence-gate.yml": config, "probe.py": PROBE, "app.py": "x = 1\n"})
    repo.commit("head", {"app.py": "x = 2\n"})
    environ = {
        **local_environment(),
        "ACTIONS_RUNTIME_TOKEN": RUNTIME,
        "ACTIONS_ID_TOKEN_REQUEST_TOKEN": RUNTIME,
        "ACTIONS_ID_TOKEN_REQUEST_URL": f"https://token.actions.example/?sig={RUNTIME}",
    }
    result = runner_step(repo.path, environ, "--base", "HEAD~1", "--format", "json")
    assert result.returncode in (0, 1), result.stderr
    assert "refusing" not in result.stderr
    assert seen.read_text().endswith("own=False found=[]"), seen.read_text()
    # Without the flag the same probe finds evidence-gate's own block: the test can tell.
    seen.unlink()
    plain = ["run", "--repo", str(repo.path), "--base", "HEAD~1", "--format", "json"]
    subprocess.run(
        [sys.executable, "-m", "evidence_gate", *plain],
        env=environ,
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert "own=False found=[]" not in seen.read_text()


def test_in_process_the_verb_refuses_too_and_never_restarts_the_caller(repo: Repo) -> None:
    """`main([...])` from Python (a test, a wrapper) is refused alike; only the process's own command
    line starts again, so a caller is never replaced."""
    from evidence_gate.cli import main

    repo.commit("init")
    code = main(["run", "--runner-step", "--repo", str(repo.path)], environ={**os.environ, "GH_TOKEN": TOKEN})
    assert code == 2
