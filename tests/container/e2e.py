"""Build the action's image and run it the way GitHub runs a Docker action, against the fake GitHub
API on the host's loopback: the workspace mounted at /github/workspace (owned by another user, as a
runner's checkout is), the event file, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY mounted from temp
files, INPUT_* passed. Then check the comment, the check run, the outputs and the job summary.
Before that, the image's own contents: no installer (pip, setuptools, ensurepip) and every module
of its virtualenv compiled to bytecode that is never found stale (docs/release.md says why).

Run as root (podman, debootstrap): `python3 -m tests.container.e2e`. It prints one line per check
and exits non-zero on the first that fails. It is not a pytest test: it needs root and minutes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.github_fake import DEFAULT_TOKEN, FakeGitHub
from tests.github_fake.fixture import start_github_server
from tests.github_fake.runner_files import read_outputs

ROOT = Path(__file__).resolve().parent.parent.parent
REPO = "octo-org/shop"
PR = 7
RUNNER_UID = 1001  # a GitHub-hosted runner's user: the checkout is not owned by the container's root
TESTS = """\
import unittest


class CartTest(unittest.TestCase):
    def test_total(self):
        self.assertEqual(sum([1, 2]), 3)

    def test_empty(self):
        self.assertEqual(sum([]), 0)
"""


def git(cwd: Path, *args: str) -> str:
    environ = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Octo Cat",
        "GIT_AUTHOR_EMAIL": "octocat@example.com",
        "GIT_COMMITTER_NAME": "Octo Cat",
        "GIT_COMMITTER_EMAIL": "octocat@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
        "HOME": str(cwd),
    }
    return subprocess.run(
        ["git", *args], cwd=cwd, env=environ, capture_output=True, text=True, check=True
    ).stdout.strip()


def workspace(folder: Path) -> tuple[str, str]:
    """A checkout with a base and a head commit, and the test step's log written into build/."""
    folder.mkdir()
    git(folder, "init", "--quiet", "--initial-branch=main")
    (folder / "pyproject.toml").write_text("[project]\nname = 'shop'\n")
    (folder / ".gitignore").write_text("build/\n")
    git(folder, "add", "--all")
    git(folder, "commit", "--quiet", "-m", "base")
    base = git(folder, "rev-parse", "HEAD")
    (folder / "tests").mkdir()
    (folder / "tests" / "__init__.py").write_text("")
    (folder / "tests" / "test_cart.py").write_text(TESTS)
    git(folder, "add", "--all")
    git(folder, "commit", "--quiet", "-m", "cart tests")
    head = git(folder, "rev-parse", "HEAD")
    (folder / "build").mkdir()
    run = subprocess.run(
        [sys.executable, "-m", "unittest", "discover", "--verbose"], cwd=folder, capture_output=True, check=False
    )
    (folder / "build" / "unittest.log").write_bytes(run.stdout + run.stderr)
    # The workflow's type-check and lint steps, under the capture protocol: the container reads their logs.
    for name, tool in (("mypy", ["mypy", "--no-incremental", "tests"]), ("ruff", ["ruff", "check", "--no-cache", "."])):
        checked = subprocess.run([sys.executable, "-m", *tool], cwd=folder, capture_output=True, check=False)
        log = checked.stdout + checked.stderr + f"EXIT_CODE={checked.returncode}\n".encode()
        (folder / "build" / f"{name}.log").write_bytes(log)
    for path in [folder, *folder.rglob("*")]:
        os.lchown(path, RUNNER_UID, RUNNER_UID)
    return base, head


def check(ok: bool, what: str) -> None:
    print(f"{'ok' if ok else 'FAILED'}: {what}", flush=True)
    if not ok:
        raise SystemExit(1)


def build_image() -> str:
    result = subprocess.run(
        ["bash", str(ROOT / "scripts/container/build.sh"), str(ROOT)], capture_output=True, text=True
    )
    if result.returncode != 0:
        sys.stderr.write(result.stdout[-4000:] + result.stderr[-4000:])
        raise SystemExit(f"the image did not build (exit {result.returncode})")
    return result.stdout.strip().splitlines()[-1]


def run_action(server: FakeGitHub, image: str, scratch: Path) -> tuple[int, str, dict[str, str], str]:
    checkout = scratch / "workspace"
    base, head = workspace(checkout)
    server.add_pull(REPO, PR, head_sha=head, base_sha=base, body="Adds the cart's tests.")
    event = scratch / "event.json"
    event.write_text(
        json.dumps(
            {
                "action": "opened",
                "number": PR,
                "pull_request": {
                    "number": PR,
                    "body": "Adds the cart's tests.",
                    "head": {"sha": head, "repo": {"full_name": REPO}},
                    "base": {"sha": base, "repo": {"full_name": REPO}},
                },
            }
        )
    )
    output, summary = scratch / "output", scratch / "summary"
    output.touch()
    summary.touch()
    environ = {
        "PATH": os.environ["PATH"],
        "GITHUB_REPOSITORY": REPO,
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_SHA": head,
        "GITHUB_API_URL": server.url,
        "GITHUB_SERVER_URL": server.url,
        "GITHUB_OUTPUT": str(output),
        "GITHUB_STEP_SUMMARY": str(summary),
        "INPUT_GITHUB-TOKEN": DEFAULT_TOKEN,
        "INPUT_REPORTS": "build/unittest.log",
        "INPUT_LOGS": "type-check: build/mypy.log\nlint: build/ruff.log",
        "INPUT_COMMENT-MODE": "always",
        "INPUT_CHECK-NAME": "Evidence Gate",
        "INPUT_FAIL-ON": "stagnation",
        **{name: value for name, value in os.environ.items() if name.startswith("EVIDENCE_GATE_")},
    }
    script = ROOT / "scripts/container/run-action.sh"
    result = subprocess.run(
        ["bash", str(script), "--workspace", str(checkout), "--image", image],
        env=environ,
        capture_output=True,
        text=True,
        check=False,
    )
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr[-4000:])
    outputs = read_outputs(output.read_text())
    return result.returncode, head, outputs, summary.read_text()


# Run inside the image by its own interpreter: what the virtualenv holds, as JSON. A .pyc's flags
# word (bytes 4-8) is 1 for unchecked-hash bytecode, which no copy's modification time makes stale.
IMAGE_CONTENTS = """
import importlib.util, json, pathlib, sys
site = pathlib.Path(sys.prefix, "lib", f"python{sys.version_info[0]}.{sys.version_info[1]}", "site-packages")
sources = sorted(site.rglob("*.py"))
flags = [int.from_bytes(pathlib.Path(importlib.util.cache_from_source(str(source))).read_bytes()[4:8], "little")
         if pathlib.Path(importlib.util.cache_from_source(str(source))).is_file() else None for source in sources]
print(json.dumps({
    "installers": [name for name in ("pip", "setuptools", "ensurepip") if importlib.util.find_spec(name)],
    "sources": len(sources),
    "uncompiled": sum(flag is None for flag in flags),
    "timestamp_checked": sum(flag == 0 for flag in flags),
}))
"""


def image_contents(image: str) -> dict[str, object]:
    """What the image's virtualenv holds: installers, and how its modules are compiled."""
    result = subprocess.run(
        [
            "bash",
            str(ROOT / "scripts/container/run-action.sh"),
            "--image",
            image,
            "--entrypoint",
            "/opt/evidence-gate/venv/bin/python",
            "--",
            "-c",
            IMAGE_CONTENTS,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        sys.stderr.write(result.stderr[-4000:])
        raise SystemExit(f"the image's interpreter failed (exit {result.returncode})")
    contents: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return contents


def main() -> int:
    if os.geteuid() != 0:
        raise SystemExit("run as root: podman and debootstrap need it")
    image = build_image()
    print(f"ok: built {image}", flush=True)
    contents = image_contents(image)
    check(
        contents["installers"] == [], f"no pip, setuptools or ensurepip in the image (found {contents['installers']})"
    )
    check(
        contents["uncompiled"] == 0 and contents["timestamp_checked"] == 0,
        f"every module of the virtualenv is compiled, none timestamp-checked ({contents})",
    )
    server = start_github_server()
    scratch = Path(tempfile.mkdtemp(prefix="evidence-gate-container-e2e-"))
    try:
        code, head, outputs, summary = run_action(server, image, scratch)
        check(code == 0, f"the container exited 0 (got {code})")
        check(outputs.get("verdict") == "PASS", f"output verdict is PASS (got {outputs.get('verdict')!r})")
        check(outputs.get("executed") == "2", f"output executed is 2 (got {outputs.get('executed')!r})")
        check("<!-- QG:VERDICT:PASS -->" in summary, "the job summary holds the verdict marker")
        comments = server.comments(PR)
        check(len(comments) == 1 and "<!-- QG:VERDICT:PASS -->" in comments[0].body, "one sticky comment, PASS")
        runs = server.check_runs(head)
        check(len(runs) == 1 and runs[0].conclusion == "success", "one check run on the head, conclusion success")
        check(outputs.get("check-run-url", "").startswith(server.url), "the check run's URL points at the server")
        violations = server.pop_violations()
        check(
            not violations, "every request matched GitHub's OpenAPI description" + "".join(f"; {v}" for v in violations)
        )
    finally:
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    print("container end to end: ok", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
