"""The release: the scripts the release workflow runs, on the real action.yml and on real git
repositories (a bare repository stands in for GitHub's), and the workflow's own rules (what
triggers it, which job may write what, every action pinned, no expression inside a script, the
image built from the same Dockerfile and context as the container check)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from .conftest import git

ROOT = Path(__file__).resolve().parent.parent
PIN_IMAGE = ROOT / "scripts" / "release" / "pin-image.py"
CHECK_TAG = ROOT / "scripts" / "release" / "check-tag.py"
TAG_RELEASE = ROOT / "scripts" / "release" / "tag-release.sh"
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
IMAGE = "ghcr.io/octo-org/evidence-gate"
DIGEST = "sha256:" + "0123456789abcdef" * 4
PINNED = re.compile(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}")


def run(*args: str | Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(cwd)}
    return subprocess.run([str(arg) for arg in args], cwd=cwd, env=environ, capture_output=True, text=True, check=False)


def pin(
    action: Path, image: str = IMAGE, version: str = "1.2.3", digest: str = DIGEST
) -> subprocess.CompletedProcess[str]:
    return run(sys.executable, PIN_IMAGE, "--image", image, "--version", version, "--digest", digest, action)


def load(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return document


# pin-image.py


def test_the_real_action_yml_on_main_builds_the_dockerfile() -> None:
    assert load(ROOT / "action.yml")["runs"] == {"using": "docker", "image": "Dockerfile"}


def test_pinning_the_real_action_yml_names_the_image_by_version_and_digest_and_changes_nothing_else(
    tmp_path: Path,
) -> None:
    action = tmp_path / "action.yml"
    shutil.copyfile(ROOT / "action.yml", action)
    result = pin(action)
    assert result.returncode == 0, result.stderr
    reference = f"docker://{IMAGE}:1.2.3@{DIGEST}"
    assert result.stdout.strip() == reference
    before, after = load(ROOT / "action.yml"), load(action)
    assert after["runs"] == {"using": "docker", "image": reference}
    assert {**after, "runs": before["runs"]} == before
    changed = [
        (old, new)
        for old, new in zip(
            (ROOT / "action.yml").read_text().splitlines(), action.read_text().splitlines(), strict=True
        )
        if old != new
    ]
    assert changed == [("  image: Dockerfile", f"  image: {reference}")]


def test_a_pinned_action_yml_is_never_pinned_again(tmp_path: Path) -> None:
    action = tmp_path / "action.yml"
    shutil.copyfile(ROOT / "action.yml", action)
    assert pin(action).returncode == 0
    pinned = action.read_text()
    again = pin(action, version="1.2.4")
    assert again.returncode == 2
    assert "never pinned again" in again.stderr
    assert action.read_text() == pinned


@pytest.mark.parametrize(
    ("option", "value", "reason"),
    [
        ("image", "ghcr.io/Octo-Org/evidence-gate", "lower case"),
        ("image", "docker.io/octo-org/evidence-gate", "ghcr.io/OWNER/REPO"),
        ("image", "ghcr.io/octo-org/evidence-gate:1.2.3", "ghcr.io/OWNER/REPO"),
        ("image", "ghcr.io/octo-org/evidence-gate\n  entrypoint: /bin/sh", "ghcr.io/OWNER/REPO"),
        ("version", "v1.2.3", "three numbers"),
        ("version", "1.2", "three numbers"),
        ("version", "1.2.3; rm -rf /", "three numbers"),
        ("digest", "sha256:" + "0" * 63, "64 lower-case hex"),
        ("digest", "sha256:" + "A" * 64, "64 lower-case hex"),
        ("digest", "sha512:" + "0" * 128, "64 lower-case hex"),
        ("digest", DIGEST + "\nfoo", "64 lower-case hex"),
    ],
)
def test_a_malformed_image_version_or_digest_is_refused_and_nothing_is_written(
    tmp_path: Path, option: str, value: str, reason: str
) -> None:
    action = tmp_path / "action.yml"
    shutil.copyfile(ROOT / "action.yml", action)
    result = pin(action, **{option: value})
    assert result.returncode == 2
    assert reason in result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert action.read_bytes() == (ROOT / "action.yml").read_bytes()


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("name: x\nruns:\n  using: composite\n  steps: []\n", "not a Docker action"),
        ("name: x\nruns:\n  using: docker\n  image: docker://alpine:3\n", "not a Docker action"),
        ("name: x\nruns: [1, 2]\n", "no runs mapping"),
        ("name: x\nruns:\n  using: docker\n  image: Dockerfile\n  args: [\n", "not valid YAML"),
        ("\x00\x01binary", "not valid YAML"),
        # The same line twice, once in a block scalar: the text edit cannot tell which one is runs.image.
        (
            "name: x\ndescription: |\n  image: Dockerfile\nruns:\n  using: docker\n  image: Dockerfile\n",
            "not one",
        ),
        # Written as a flow mapping: there is no line to rewrite.
        ("name: x\nruns: {using: docker, image: Dockerfile}\n", "not one"),
    ],
)
def test_an_action_yml_that_cannot_be_pinned_is_refused_with_the_reason(tmp_path: Path, text: str, reason: str) -> None:
    action = tmp_path / "action.yml"
    action.write_text(text)
    result = pin(action)
    assert result.returncode == 2
    assert reason in result.stderr
    assert action.read_text() == text


def test_a_symlinked_or_missing_action_yml_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.yml"
    shutil.copyfile(ROOT / "action.yml", target)
    link = tmp_path / "action.yml"
    link.symlink_to(target)
    result = pin(link)
    assert result.returncode == 2
    assert "symlink" in result.stderr
    assert target.read_bytes() == (ROOT / "action.yml").read_bytes()
    missing = pin(tmp_path / "absent.yml")
    assert missing.returncode == 2
    assert "No such file" in missing.stderr


# check-tag.py


def project(tmp_path: Path, version: str = "1.2.3", module: str = "1.2.3", image: str = "Dockerfile") -> Path:
    root = tmp_path / "project"
    (root / "src" / "evidence_gate").mkdir(parents=True)
    (root / "pyproject.toml").write_text(f'[project]\nname = "pr-evidence-gate"\nversion = "{version}"\n')
    (root / "src" / "evidence_gate" / "__init__.py").write_text(f'"""Doc."""\n\n__version__ = "{module}"\n')
    (root / "action.yml").write_text(f"name: x\nruns:\n  using: docker\n  image: {image}\n")
    return root


def test_the_repository_s_own_version_is_releasable_under_its_tag() -> None:
    version = load_version()
    result = run(sys.executable, CHECK_TAG, f"v{version}")
    assert (result.returncode, result.stdout, result.stderr) == (0, f"{version}\n", "")


def load_version() -> str:
    version: str = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    return version


def test_a_tag_naming_the_version_of_pyproject_and_the_package_prints_it(tmp_path: Path) -> None:
    result = run(sys.executable, CHECK_TAG, "v1.2.3", project(tmp_path))
    assert (result.returncode, result.stdout) == (0, "1.2.3\n")


@pytest.mark.parametrize(
    ("tag", "files", "reason"),
    [
        ("1.2.3", {}, "not a release tag"),
        ("v1.2", {}, "not a release tag"),
        ("v1.2.3-rc1", {}, "not a release tag"),
        ("v01.2.3", {}, "not a release tag"),
        ("v1.2.3", {"version": "1.2.4"}, "pyproject.toml's [project] version is '1.2.4'"),
        ("v1.2.3", {"module": "1.2.0"}, "evidence_gate.__version__ is '1.2.0'"),
        ("v1.2.3", {"image": "docker://ghcr.io/o/r:1.2.3@" + DIGEST}, "not a release commit"),
    ],
)
def test_a_tag_that_cannot_be_released_is_refused_with_the_reason(
    tmp_path: Path, tag: str, files: dict[str, str], reason: str
) -> None:
    result = run(sys.executable, CHECK_TAG, tag, project(tmp_path, **files))
    assert result.returncode == 2
    assert reason in result.stderr
    assert result.stdout == ""


def test_a_broken_pyproject_is_refused_not_a_traceback(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / "pyproject.toml").write_text("[project\nversion = 1")
    result = run(sys.executable, CHECK_TAG, "v1.2.3", root)
    assert result.returncode == 2
    assert "no [project] version" in result.stderr
    assert "Traceback" not in result.stderr


# tag-release.sh, against a bare repository as origin


class Origin:
    """A bare repository as GitHub's, and a clone of it where the release runs."""

    def __init__(self, tmp_path: Path) -> None:
        self.bare = tmp_path / "origin.git"
        self.clone = tmp_path / "clone"
        git(tmp_path, "init", "--quiet", "--bare", "--initial-branch=main", str(self.bare))
        git(tmp_path, "clone", "--quiet", str(self.bare), str(self.clone))
        shutil.copyfile(ROOT / "action.yml", self.clone / "action.yml")
        (self.clone / "README.md").write_text("source\n")
        self.source = self.commit("source")
        git(self.clone, "push", "--quiet", "origin", "main")

    def commit(self, message: str) -> str:
        git(self.clone, "add", "--all")
        git(self.clone, "commit", "--quiet", "--allow-empty", "-m", message)
        return git(self.clone, "rev-parse", "HEAD")

    def push_tag(self, tag: str, commit: str) -> None:
        git(self.clone, "tag", "--annotate", "-m", tag, tag, commit)
        git(self.clone, "push", "--quiet", "origin", f"refs/tags/{tag}")

    def release(self, tag: str, source: str) -> subprocess.CompletedProcess[str]:
        environ = {
            **os.environ,
            "GIT_CONFIG_NOSYSTEM": "1",
            "HOME": str(self.clone),
            "GIT_AUTHOR_NAME": "Release Bot",
            "GIT_AUTHOR_EMAIL": "release@example.com",
            "GIT_COMMITTER_NAME": "Release Bot",
            "GIT_COMMITTER_EMAIL": "release@example.com",
        }
        return subprocess.run(
            ["bash", str(TAG_RELEASE), tag, source, IMAGE, DIGEST],
            cwd=self.clone,
            env=environ,
            capture_output=True,
            text=True,
            check=False,
        )

    def tag_commit(self, tag: str) -> str:
        return git(self.bare, "rev-parse", f"refs/tags/{tag}^{{commit}}")

    def action_at(self, rev: str) -> dict[str, Any]:
        document: dict[str, Any] = yaml.safe_load(git(self.bare, "show", f"{rev}:action.yml"))
        return document


def test_a_release_commit_on_the_source_commit_gets_the_version_tag_and_the_major_tag(tmp_path: Path) -> None:
    origin = Origin(tmp_path)
    origin.push_tag("v1.2.3", origin.source)
    result = origin.release("v1.2.3", origin.source)
    assert result.returncode == 0, result.stderr
    release = origin.tag_commit("v1.2.3")
    assert release != origin.source
    assert git(origin.bare, "rev-parse", f"{release}^") == origin.source
    assert origin.tag_commit("v1") == release
    assert origin.action_at(release)["runs"] == {"using": "docker", "image": f"docker://{IMAGE}:1.2.3@{DIGEST}"}
    assert git(origin.bare, "diff", "--name-only", origin.source, release) == "action.yml"
    # main keeps building the Dockerfile.
    assert git(origin.bare, "rev-parse", "main") == origin.source
    assert origin.action_at("main")["runs"]["image"] == "Dockerfile"


def test_a_fix_to_an_older_minor_version_leaves_the_major_tag_on_the_highest_release(tmp_path: Path) -> None:
    origin = Origin(tmp_path)
    origin.push_tag("v1.3.0", origin.source)
    assert origin.release("v1.3.0", origin.source).returncode == 0
    newest = origin.tag_commit("v1")
    (origin.clone / "README.md").write_text("a fix\n")
    git(origin.clone, "switch", "--quiet", "main")
    fix = origin.commit("a fix for 1.2")
    origin.push_tag("v1.2.4", fix)
    result = origin.release("v1.2.4", fix)
    assert result.returncode == 0, result.stderr
    assert "v1 stays at v1.3.0" in result.stdout
    assert origin.tag_commit("v1") == newest
    assert git(origin.bare, "rev-parse", f"{origin.tag_commit('v1.2.4')}^") == fix


def test_a_tag_released_already_or_moved_meanwhile_is_left_alone(tmp_path: Path) -> None:
    origin = Origin(tmp_path)
    origin.push_tag("v1.2.3", origin.source)
    assert origin.release("v1.2.3", origin.source).returncode == 0
    released = origin.tag_commit("v1.2.3")
    again = origin.release("v1.2.3", origin.source)
    assert again.returncode == 2
    assert "no longer names" in again.stderr
    assert origin.tag_commit("v1.2.3") == released


def test_a_tag_on_a_release_commit_is_refused_and_nothing_is_pushed(tmp_path: Path) -> None:
    origin = Origin(tmp_path)
    origin.push_tag("v1.2.3", origin.source)
    assert origin.release("v1.2.3", origin.source).returncode == 0
    release = origin.tag_commit("v1.2.3")
    origin.push_tag("v1.2.4", release)
    result = origin.release("v1.2.4", release)
    assert result.returncode == 2
    assert "never pinned again" in result.stderr
    assert origin.tag_commit("v1.2.4") == release
    assert origin.tag_commit("v1") == release


@pytest.mark.parametrize(
    ("tag", "source", "reason"),
    [
        ("v1.2", "0" * 40, "not a release tag"),
        ("v1.2.3", "HEAD", "full commit SHA"),
        ("v9.9.9", "0" * 40, "origin has no tag v9.9.9"),
    ],
)
def test_bad_arguments_are_refused_before_anything_changes(tmp_path: Path, tag: str, source: str, reason: str) -> None:
    origin = Origin(tmp_path)
    result = origin.release(tag, source)
    assert result.returncode == 2
    assert reason in result.stderr
    assert git(origin.bare, "tag") == ""


# The workflow


def workflow() -> dict[Any, Any]:
    document: dict[Any, Any] = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    return document


def steps(job: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = workflow()["jobs"][job].get("steps", [])
    return found


def test_the_workflow_runs_on_version_tags_only() -> None:
    # PyYAML reads the key `on` as True (YAML 1.1).
    assert workflow()[True] == {"push": {"tags": ["v[0-9]+.[0-9]+.[0-9]+"]}}


def test_each_job_asks_for_the_least_it_needs_and_only_one_job_can_write_each_thing() -> None:
    document = workflow()
    assert document["permissions"] == {}
    granted = {name: job.get("permissions") for name, job in document["jobs"].items()}
    assert all(isinstance(permissions, dict) for permissions in granted.values()), granted
    writers = {
        scope: sorted(name for name, permissions in granted.items() if permissions.get(scope) == "write")
        for scope in ("contents", "packages", "id-token")
    }
    assert writers == {"contents": ["release"], "packages": ["image"], "id-token": ["pypi"]}
    assert document["jobs"]["pypi"]["permissions"] == {"id-token": "write"}
    assert document["jobs"]["pypi"]["environment"]["name"] == "pypi"


def test_publishing_waits_for_the_checks_and_pypi_comes_last() -> None:
    jobs = workflow()["jobs"]
    assert jobs["checks"]["uses"] == "./.github/workflows/ci.yml"
    assert {"version", "checks"} <= set(jobs["image"]["needs"])
    assert {"version", "checks"} <= set(jobs["dist"]["needs"])
    assert {"image"} <= set(jobs["release"]["needs"])
    assert {"dist", "release"} <= set(jobs["pypi"]["needs"])


def test_the_called_ci_never_shares_the_release_s_concurrency_group() -> None:
    """A called workflow's own group is honoured: the caller's group there would deadlock the run."""
    ci = yaml.safe_load((ROOT / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8"))
    assert "workflow_call" in ci[True]
    assert ci[True]["push"] == {"branches": ["**"]}, "a version tag is checked by the release, not twice"
    assert workflow()["concurrency"]["group"].startswith("release-")
    assert ci["concurrency"]["group"].startswith("ci-")


def test_every_action_is_pinned_by_full_commit_sha_with_its_version_named() -> None:
    text = WORKFLOW.read_text(encoding="utf-8")
    uses = re.findall(r"^\s*(?:-\s+)?uses:\s*(\S+)(.*)$", text, re.MULTILINE)
    assert uses
    for action, rest in uses:
        if action.startswith("./"):
            continue
        assert PINNED.fullmatch(action), action
        assert re.fullmatch(r"\s*# v\d+(\.\d+)*", rest), (action, rest)


def test_no_expression_is_expanded_inside_a_script() -> None:
    """`${{ }}` inside `run:` is pasted into the script before bash reads it: values go through env."""
    for name, job in workflow()["jobs"].items():
        for step in job.get("steps", []):
            assert "${{" not in step.get("run", ""), (name, step.get("name"))


def test_only_the_release_job_keeps_the_token_in_its_checkout() -> None:
    for name, job in workflow()["jobs"].items():
        for step in job.get("steps", []):
            if str(step.get("uses", "")).startswith("actions/checkout@"):
                assert step["with"]["persist-credentials"] is (name == "release"), name
                assert step["with"]["ref"] == "${{ github.sha }}", name


def test_the_released_image_is_built_from_the_dockerfile_and_context_the_container_check_builds() -> None:
    """tests/container/e2e.py builds the repository's root with scripts/container/build.sh, which
    builds `--file "$context/Dockerfile"` with that context: the release builds the same pair,
    the whole file (no target stage, no build arguments)."""
    build = next(step for step in steps("image") if str(step.get("uses", "")).startswith("docker/build-push-action@"))
    assert build["with"]["context"] == "."
    assert build["with"]["file"] == "Dockerfile"
    assert "target" not in build["with"]
    assert "build-args" not in build["with"]
    assert '--file "$context/Dockerfile"' in (ROOT / "scripts" / "container" / "build.sh").read_text()
    assert (
        'str(ROOT / "scripts/container/build.sh"), str(ROOT)' in (ROOT / "tests" / "container" / "e2e.py").read_text()
    )
