"""A workflow file executed the way GitHub's runner executes it, step by step, on this machine.

What runs for real: every `run:` step (with `bash --noprofile --norc -eo pipefail`, GitHub's `shell:
bash`), the runner step's composite steps from run/action.yml (its own install step included), and
the container step's entry point (entrypoint.py, as the image starts it) against the fake GitHub API
that validates every request against GitHub's OpenAPI description. What is stood in for, because it
only makes the machine ready: `actions/checkout` (the fixture repository is the checkout, at the
pull request's head with its whole history; the credential header it leaves with its default
`persist-credentials: true` is written into .git/config, as it does) and `actions/setup-*` (the
toolchain is this machine's; setup-python's interpreter is a virtualenv of its own, so an install
step never writes into this machine's Python).

`${{ }}` expressions are evaluated for the few forms the workflows use (context paths, `||`, `&&`,
`!cancelled()`, `contains(a.*.name, 'x')`); any other form fails the test, so an example cannot use
one unseen.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import venv
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from tests.github_fake import DEFAULT_TOKEN, FakeGitHub
from tests.github_fake.runner_files import read_outputs

ROOT = Path(__file__).parent.parent.parent
REPO = "octo-org/shop"
PR = 12
CHECKOUT_HEADER = "AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46"  # what actions/checkout persists, the token after it
_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
_PATH = re.compile(r"[A-Za-z_][\w-]*(?:\.(?:[\w-]+|\*))*")
_CONTAINS = re.compile(r"contains\((?P<within>[^,]+),\s*'(?P<item>[^']*)'\)")


class Unsupported(Exception):
    """An expression form the harness does not evaluate."""


def evaluate(expression: str, context: Mapping[str, Any]) -> Any:
    """One `${{ }}` expression's value."""
    text = expression.strip()
    if "||" in text:
        last: Any = ""
        for part in text.split("||"):
            last = evaluate(part, context)
            if last:
                return last
        return last
    if "&&" in text:
        for part in text.split("&&"):
            last = evaluate(part, context)
            if not last:
                return last
        return last
    contains = _CONTAINS.fullmatch(text)
    if contains:
        within = evaluate(contains["within"], context)
        return contains["item"] in within if isinstance(within, (list, str)) else False
    if text in ("!cancelled()", "success()", "always()"):
        return True
    if text == "cancelled()":
        return False
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1]
    if not _PATH.fullmatch(text):
        raise Unsupported(text)
    found: Any = context
    for part in text.split("."):
        if part == "*":  # an object filter: the next part is taken from each item
            found = found if isinstance(found, list) else []
        elif isinstance(found, list):
            found = [item.get(part, "") for item in found if isinstance(item, Mapping)]
        else:
            found = found.get(part, "") if isinstance(found, Mapping) else ""
    return found


def substitute(text: str, context: Mapping[str, Any]) -> str:
    def replaced(match: re.Match[str]) -> str:
        value = evaluate(match.group(1), context)
        return value if isinstance(value, str) else json.dumps(value) if value not in (None, "") else ""

    return _EXPRESSION.sub(replaced, text)


def condition(text: object, context: Mapping[str, Any]) -> bool:
    if text is None:
        return True
    found = _EXPRESSION.fullmatch(str(text).strip())
    return bool(evaluate(found.group(1) if found else str(text), context))


def _text(value: object) -> str:
    """A YAML value as GitHub hands it to an action: `false`, not Python's `False`."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def read_step_file(path: Path) -> dict[str, str]:
    """A step's GITHUB_OUTPUT file, which may not have been written."""
    return read_outputs(path.read_text()) if path.exists() else {}


@dataclass
class StepRun:
    name: str
    code: int
    output: str
    outputs: dict[str, str]


@dataclass
class WorkflowRun:
    """A workflow's job run on the fixture repository `workspace`, its files under `home`."""

    workflow: Path
    workspace: Path
    home: Path
    server: FakeGitHub
    event: dict[str, Any]
    extra_env: dict[str, str] = field(default_factory=dict)
    cli_environment: Path | None = None  # an installed runner step's virtualenv, shared by the tests
    steps: list[StepRun] = field(default_factory=list)
    outputs: dict[str, dict[str, str]] = field(default_factory=dict)
    path_prefix: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.temp = self.home / "runner-temp"
        self.temp.mkdir(parents=True)
        self.event_path = self.home / "event.json"
        self.event_path.write_text(json.dumps(self.event))
        if self.cli_environment is not None:
            (self.temp / "evidence-gate-venv").symlink_to(self.cli_environment, target_is_directory=True)

    @property
    def head(self) -> str:
        """The commit the run is about: the pull request's head, or the commit a push made."""
        if "pull_request" in self.event:
            return str(self.event["pull_request"]["head"]["sha"])
        return str(self.event["after"])

    @property
    def event_name(self) -> str:
        return "pull_request" if "pull_request" in self.event else "push"

    def context(self, **more: Any) -> dict[str, Any]:
        return {
            "github": {
                "event": self.event,
                "sha": self.head,
                "token": DEFAULT_TOKEN,
                "workspace": str(self.workspace),
                "repository": REPO,
                "event_name": self.event_name,
            },
            "runner": {"temp": str(self.temp), "os": "Linux"},
            "steps": {name: {"outputs": values} for name, values in self.outputs.items()},
            "env": {},
            **more,
        }

    def runner_environment(self) -> dict[str, str]:
        """What a `run:` step gets from the runner: no token (GitHub gives one only where the
        workflow names it)."""
        kept = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith(("GITHUB_", "INPUT_", "RUNNER_", "ACTIONS_", "PYTEST_")) and name != "CI"
        }
        path = os.pathsep.join([*self.path_prefix, kept.get("PATH", os.defpath)])
        return {**kept, "PATH": path, **self.github_environment(), "RUNNER_OS": "Linux", **self.extra_env}

    def github_environment(self) -> dict[str, str]:
        """What GitHub sets for every step, a `run:` step's and a Docker action's alike."""
        return {
            "CI": "true",
            "GITHUB_ACTIONS": "true",
            "GITHUB_REPOSITORY": REPO,
            "GITHUB_EVENT_NAME": self.event_name,
            "GITHUB_EVENT_PATH": str(self.event_path),
            "GITHUB_SHA": self.head,
            "GITHUB_WORKSPACE": str(self.workspace),
            "GITHUB_API_URL": self.server.url,
            "GITHUB_SERVER_URL": self.server.url,
            "RUNNER_TEMP": str(self.temp),
        }

    def run_job(self, job: str | None = None) -> None:
        document = yaml.safe_load(self.workflow.read_text())
        jobs = document["jobs"]
        spec = jobs[job] if job else next(iter(jobs.values()))
        defaults = spec.get("defaults", {}).get("run", {})
        for step in spec["steps"]:
            self.run_step(step, defaults)

    def run_step(self, step: Mapping[str, Any], defaults: Mapping[str, Any]) -> None:
        context = self.context()
        if not condition(step.get("if"), context):
            return
        uses = str(step.get("uses", ""))
        inputs = {key: substitute(_text(value), context) for key, value in (step.get("with") or {}).items()}
        name = str(step.get("name") or uses or step.get("run", "")[:40])
        if uses.startswith("actions/checkout@"):
            self._checkout(inputs)
        elif uses.startswith("actions/setup-"):
            self._setup(uses, inputs)
        elif uses.startswith("taiki-e/install-action@"):
            self._installed(inputs)
        elif uses.startswith("your-org/evidence-gate/run@"):
            outputs = self._composite(ROOT / "run" / "action.yml", inputs, name)
            self._record(step, name, 0, "", outputs)
        elif uses.startswith("your-org/evidence-gate@"):
            self._container(inputs, name, step)
        elif uses:
            raise Unsupported(f"the step uses {uses}")
        else:
            env = {key: substitute(str(value), context) for key, value in (step.get("env") or {}).items()}
            cwd = self.workspace / substitute(str(step.get("working-directory", ".")), context)
            shell = str(step.get("shell") or defaults.get("shell") or "bash")
            run = self._shell(substitute(str(step["run"]), context), shell, env, cwd)
            self._record(step, name, run.code, run.output, run.outputs)

    def _record(self, step: Mapping[str, Any], name: str, code: int, output: str, outputs: dict[str, str]) -> None:
        self.steps.append(StepRun(name=name, code=code, output=output, outputs=outputs))
        if step.get("id"):
            self.outputs[str(step["id"])] = outputs

    def _checkout(self, inputs: Mapping[str, str]) -> None:
        assert inputs.get("ref") == self.head, "the checkout is not of the commit the run is about"
        assert inputs.get("fetch-depth") == "0", "the base commit is not fetched"
        if inputs.get("persist-credentials", "true") != "false":
            subprocess.run(
                ["git", "config", "--local", "http.https://github.com/.extraheader", CHECKOUT_HEADER + DEFAULT_TOKEN],
                cwd=self.workspace,
                check=True,
            )

    def _setup(self, uses: str, inputs: Mapping[str, str]) -> None:
        if uses.startswith("actions/setup-python@"):
            interpreter = self.home / "setup-python"
            venv.EnvBuilder(system_site_packages=True, with_pip=False, symlinks=True).create(interpreter)
            # pip comes from this machine's Python (its site packages): no download to make the interpreter.
            self.path_prefix.insert(0, str(interpreter / "bin"))

    def _installed(self, inputs: Mapping[str, str]) -> None:
        """install-action's tools are this machine's (scripts/test.sh installs them): each must be on PATH."""
        path = self.runner_environment()["PATH"]
        for tool in re.split(r"[\s,]+", inputs.get("tool", "").strip()):
            name = tool.split("@", 1)[0]
            if name and shutil.which(name, path=path) is None:
                raise Unsupported(f"{name}, which the step installs, is not on this machine (scripts/test.sh)")

    def _shell(self, script: str, shell: str, env: Mapping[str, str], cwd: Path) -> StepRun:
        assert shell == "bash", f"shell {shell!r}"
        script_file = self.home / f"step-{len(self.steps)}.sh"
        script_file.write_text(script)
        output_file = self.home / f"output-{len(self.steps)}"
        output_file.touch()
        environ = {**self.runner_environment(), **env, "GITHUB_OUTPUT": str(output_file)}
        result = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script_file)],
            cwd=cwd,
            env=environ,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            check=False,
            timeout=900,
        )
        return StepRun(
            name=script[:40],
            code=result.returncode,
            output=result.stdout + result.stderr,
            outputs=read_step_file(output_file),
        )

    def _composite(self, action: Path, given: Mapping[str, str], name: str) -> dict[str, str]:
        document = yaml.safe_load(action.read_text())
        inputs = {key: str(spec.get("default", "")) for key, spec in document.get("inputs", {}).items()}
        inputs.update(given)
        unknown = set(given) - set(document.get("inputs", {}))
        assert not unknown, f"{name}: no such input {sorted(unknown)}"
        inner: dict[str, dict[str, str]] = {}
        for step in document["runs"]["steps"]:
            context = self.context(inputs=inputs, steps={key: {"outputs": value} for key, value in inner.items()})
            context["github"]["action_path"] = str(action.parent)
            if not condition(step.get("if"), context):
                continue
            env = {key: substitute(str(value), context) for key, value in (step.get("env") or {}).items()}
            cwd = self.workspace / substitute(str(step.get("working-directory", ".")), context)
            run = self._shell(substitute(str(step["run"]), context), str(step["shell"]), env, cwd)
            self.steps.append(StepRun(name=f"{name}: {step.get('name')}", code=run.code, output=run.output, outputs={}))
            assert run.code == 0, f"{name}: {step.get('name')} exited {run.code}:\n{run.output}"
            if step.get("id"):
                inner[str(step["id"])] = run.outputs
        context = self.context(inputs=inputs, steps={key: {"outputs": value} for key, value in inner.items()})
        return {
            key: substitute(str(spec.get("value", "")), context) for key, spec in document.get("outputs", {}).items()
        }

    def _container(self, given: Mapping[str, str], name: str, step: Mapping[str, Any]) -> None:
        """The container step: entrypoint.py with the inputs GitHub hands a Docker action (every
        input, defaults included, as INPUT_<NAME>)."""
        document = yaml.safe_load((ROOT / "action.yml").read_text())
        context = self.context()
        inputs = {key: substitute(str(spec.get("default", "")), context) for key, spec in document["inputs"].items()}
        unknown = set(given) - set(inputs)
        assert not unknown, f"{name}: no such input {sorted(unknown)}"
        inputs.update(given)
        output_file = self.home / "container-output"
        summary = self.home / "container-summary"
        output_file.touch()
        summary.touch()
        environ = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.home),
            **self.github_environment(),
            "GITHUB_OUTPUT": str(output_file),
            "GITHUB_STEP_SUMMARY": str(summary),
            **{f"INPUT_{key.upper()}": value for key, value in inputs.items()},
        }
        result = subprocess.run(
            [sys.executable, str(ROOT / "entrypoint.py")],
            cwd=self.workspace,
            env=environ,
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
        )
        assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
        self._record(step, name, result.returncode, result.stdout + result.stderr, read_step_file(output_file))

    def step(self, name: str) -> StepRun:
        return next(run for run in self.steps if run.name == name)


def push_event(before: str, after: str) -> dict[str, Any]:
    return {"ref": "refs/heads/main", "before": before, "after": after, "repository": {"full_name": REPO}}


def pull_request_event(base: str, head: str, body: str, labels: tuple[str, ...] = ()) -> dict[str, Any]:
    def side(sha: str) -> dict[str, Any]:
        return {"sha": sha, "ref": "fix", "repo": {"full_name": REPO}}

    return {
        "action": "synchronize",
        "number": PR,
        "pull_request": {
            "number": PR,
            "body": body,
            "head": side(head),
            "base": side(base),
            "labels": [{"name": label} for label in labels],
        },
        "repository": {"full_name": REPO},
        "sender": {"login": "octocat"},
    }
