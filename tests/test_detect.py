"""Detection on layouts that mirror real projects of every adapter."""

from __future__ import annotations

import io
import json
import os
import pickle
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from evidence_gate.cli import main
from evidence_gate.model import Detection
from evidence_gate.stacks.detect import detect
from evidence_gate.stacks.table import default_table

from .conftest import CliResult, write_tree
from .detect_layouts import (
    ANDROID_APP_GROOVY,
    CARGO_MEMBER,
    EXPRESS_API,
    GO_MOD,
    LAYOUTS,
    NEST_API,
    NEXT_APP,
    PYPROJECT,
    VITE_REACT,
)


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_detects_the_stack_of_a_real_project_layout(tmp_path: Path, name: str) -> None:
    files, primary, stack_class, expected = LAYOUTS[name]
    write_tree(tmp_path, files)
    detection = detect(tmp_path, default_table())
    assert detection.primary.adapter_id == primary
    assert detection.primary.stack_class == stack_class
    assert [(match.adapter_id, match.root) for match in detection.matches] == expected
    assert detection.warnings == ()


def test_android_does_not_also_report_a_plain_jvm_build(tmp_path: Path) -> None:
    write_tree(tmp_path, LAYOUTS["android-groovy-app"][0])
    detection = detect(tmp_path, default_table())
    assert "jvm" not in {match.adapter_id for match in detection.matches}


def test_evidence_names_every_manifest_folded_into_a_match(tmp_path: Path) -> None:
    write_tree(tmp_path, LAYOUTS["rust-workspace"][0])
    (match,) = detect(tmp_path, default_table()).matches
    assert match.evidence == ("Cargo.toml", "crates/cli/Cargo.toml", "crates/core/Cargo.toml")


def test_a_manifest_at_the_root_outranks_a_nested_one(tmp_path: Path) -> None:
    write_tree(tmp_path, {"web/package.json": VITE_REACT, "pyproject.toml": PYPROJECT})
    detection = detect(tmp_path, default_table())
    assert detection.primary.adapter_id == "python"
    assert [(m.adapter_id, m.root) for m in detection.matches] == [("python", "."), ("web", "web")]


def test_a_monorepo_lists_every_matching_sub_root(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "services/api/go.mod": GO_MOD,
            "services/worker/Cargo.toml": CARGO_MEMBER,
            "apps/site/package.json": NEXT_APP,
            "apps/mobile/settings.gradle": "include ':app'\n",
            "apps/mobile/app/build.gradle": ANDROID_APP_GROOVY,
        },
    )
    detection = detect(tmp_path, default_table())
    assert [(m.adapter_id, m.root) for m in detection.matches] == [
        ("go", "services/api"),
        ("rust", "services/worker"),
        ("web", "apps/site"),
        ("android", "apps/mobile/app"),
    ]


def test_a_manifest_deeper_than_three_levels_is_not_searched(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a/b/c/d/go.mod": GO_MOD})
    assert detect(tmp_path, default_table()).primary.adapter_id == "unknown"
    write_tree(tmp_path, {"a/b/c/go.mod": GO_MOD})
    assert detect(tmp_path, default_table()).primary.root == "a/b/c"


def test_commands_resolve_through_the_package_manager_of_the_lockfile(tmp_path: Path) -> None:
    write_tree(tmp_path, {"package.json": VITE_REACT, "index.html": "", "pnpm-lock.yaml": "lockfileVersion: '9.0'\n"})
    commands = detect(tmp_path, default_table()).primary.commands
    assert commands["test"] == "pnpm run test"
    assert commands["test_file"] == "npx --no-install vitest run {file}"
    assert "typecheck" not in commands  # plain JavaScript: no tsc


def test_package_manager_field_outranks_the_lockfile(tmp_path: Path) -> None:
    manifest = json.loads(NEST_API) | {"packageManager": "yarn@4.3.1"}
    write_tree(tmp_path, {"package.json": json.dumps(manifest), "package-lock.json": "{}"})
    assert detect(tmp_path, default_table()).primary.commands["build"] == 'yarn run build 2>&1; echo "EXIT_CODE=$?"'


def test_a_script_the_package_json_lacks_is_not_offered(tmp_path: Path) -> None:
    write_tree(tmp_path, {"package.json": EXPRESS_API})
    commands = detect(tmp_path, default_table()).primary.commands
    assert commands["test"] == "npm run test"
    assert "build" not in commands
    assert "lint" not in commands


def test_variants_pick_the_build_tool_actually_used(tmp_path: Path) -> None:
    write_tree(tmp_path, LAYOUTS["gradle-jvm-service"][0])
    assert detect(tmp_path, default_table()).primary.commands["test"] == "./gradlew test --console=plain"
    django = tmp_path / "django"
    write_tree(django, LAYOUTS["django-app-with-requirements-only"][0])
    assert detect(django, default_table()).primary.commands["test"] == "python manage.py test --verbosity 2"


def test_a_malformed_manifest_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    write_tree(tmp_path, {"package.json": '{"dependencies": {"react": "18",}', "go.mod": GO_MOD})
    detection = detect(tmp_path, default_table())
    assert detection.primary.adapter_id == "go"
    assert len(detection.warnings) == 1
    assert detection.warnings[0].startswith("package.json: not valid JSON (")


@pytest.mark.parametrize(
    ("document", "warning"),
    [
        ('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", "package.json: nested too deep to read"),
        ('{"a": ' + "1" * 5_000 + "}", "package.json: a number too long to read"),
    ],
    ids=["nested-100000-deep", "number-of-5000-digits"],
)
def test_a_hostile_manifest_is_a_warning_not_an_internal_error(tmp_path: Path, document: str, warning: str) -> None:
    write_tree(tmp_path, {"package.json": document, "go.mod": GO_MOD})
    detection = detect(tmp_path, default_table())
    assert detection.primary.adapter_id == "go"
    assert detection.warnings == (f"{warning}; rules on it did not match",)


def test_a_binary_manifest_is_a_warning(tmp_path: Path) -> None:
    write_tree(tmp_path, {"package.json": b"\x00\x01\x02PK"})
    detection = detect(tmp_path, default_table())
    assert detection.primary.adapter_id == "unknown"
    assert detection.warnings == ("package.json: binary content; rules on it did not match",)


def test_symlink_loops_are_not_followed(tmp_path: Path) -> None:
    write_tree(tmp_path, {"go.mod": GO_MOD, "sub/": ""})
    (tmp_path / "sub" / "loop").symlink_to(tmp_path, target_is_directory=True)
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    (tmp_path / "package.json").symlink_to(tmp_path / "package.json")
    detection = detect(tmp_path, default_table())
    assert [(m.adapter_id, m.root) for m in detection.matches] == [("go", ".")]


def test_a_dangling_or_looping_symlinked_manifest_is_reported(tmp_path: Path) -> None:
    write_tree(tmp_path, {"go.mod": GO_MOD})
    (tmp_path / "package.json").symlink_to(tmp_path / "package.json")
    detection = detect(tmp_path, default_table())
    assert detection.primary.adapter_id == "go"
    assert len(detection.warnings) == 1
    assert detection.warnings[0] == "package.json: a symlink; it is not followed"


def test_detect_json_has_the_documented_shape(tmp_path: Path, cli: Callable[..., CliResult]) -> None:
    write_tree(tmp_path, LAYOUTS["go-service-with-web-front-end-and-vendored-node-modules"][0])
    result = cli("detect", tmp_path, "--json")
    assert result.code == 0, result.err
    document = json.loads(result.out)
    assert document["primary"] == "go"
    assert document["class"] == "backend"
    assert document["commands"]["test"] == "go test -v -count=1 ./..."
    assert [(m["id"], m["root"], m["evidence"]) for m in document["matches"]] == [
        ("go", ".", ["go.mod"]),
        ("web", "web", ["web/package.json", "web/index.html"]),
    ]
    assert document["matches"][1]["commands"]["test"] == "npm run test"
    assert document["tools"] == {
        "typecheck": "go vet: the default, no other is configured",
        "lint": "go vet: the default, no other is configured",
    }


def test_detect_of_an_empty_tree_is_unknown_not_an_error(tmp_path: Path, cli: Callable[..., CliResult]) -> None:
    result = cli("detect", tmp_path, "--json")
    assert result.code == 0
    assert json.loads(result.out)["primary"] == "unknown"


def test_detect_bad_inputs_are_one_line_errors(tmp_path: Path, cli: Callable[..., CliResult]) -> None:
    missing = cli("detect", tmp_path / "nope")
    assert (missing.code, missing.err) == (
        2,
        f"evidence-gate: error: {tmp_path / 'nope'}: no such directory\n",
    )
    (tmp_path / "file").write_text("x")
    not_dir = cli("detect", tmp_path / "file")
    assert (not_dir.code, not_dir.err) == (2, f"evidence-gate: error: {tmp_path / 'file'}: not a directory\n")


def test_detect_with_a_malformed_manifest_exits_3_with_the_warning(
    tmp_path: Path, cli: Callable[..., CliResult]
) -> None:
    write_tree(tmp_path, {"package.json": "{not json", "go.mod": GO_MOD})
    result = cli("detect", tmp_path)
    assert result.code == 3
    assert result.out.startswith("primary: go (backend, go) at .\n")
    assert result.err.count("\n") == 1
    assert result.err.startswith("evidence-gate: warning: package.json: not valid JSON (")


def unprivileged(function: Callable[[], object]) -> object:
    """Call `function` where file permissions apply: in a forked child as `nobody` when we are root
    (root reads any directory, so that is the only way to meet a real "Permission denied")."""
    if os.geteuid() != 0:
        return function()
    default_table()  # loaded (and cached) while we may still read the installed package
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop privileges, run, send the result back, and leave at once
        try:
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            payload = pickle.dumps(function())
        except BaseException as error:  # any failure travels back to the test as a value
            payload = pickle.dumps(error)
        os.write(write_end, payload)
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as reader:
        payload = reader.read()
    os.waitpid(pid, 0)
    return pickle.loads(payload)  # noqa: S301 -- our own child's bytes, through our own pipe


@pytest.fixture
def public_tmp() -> Iterator[Path]:
    """A temp dir that an unprivileged user may enter (pytest's own tmp_path is private to root)."""
    path = Path(tempfile.mkdtemp(prefix="evidence-gate-"))
    path.chmod(0o755)
    yield path
    for inner in path.rglob("*"):
        if inner.is_dir() and not inner.is_symlink():
            inner.chmod(0o755)
    shutil.rmtree(path)


def test_an_unreadable_sub_directory_is_skipped_with_a_warning(public_tmp: Path) -> None:
    write_tree(public_tmp, {"go.mod": GO_MOD, "private/package.json": VITE_REACT})
    (public_tmp / "go.mod").chmod(0o644)
    (public_tmp / "private").chmod(0o000)
    detection = unprivileged(lambda: detect(public_tmp, default_table()))
    assert isinstance(detection, Detection), detection
    assert [(m.adapter_id, m.root) for m in detection.matches] == [("go", ".")]
    assert detection.warnings == ("private/: cannot list (Permission denied); skipped",)


def test_an_unreadable_root_is_a_one_line_error(public_tmp: Path) -> None:
    target = public_tmp / "locked"
    target.mkdir(mode=0o000)

    def run() -> tuple[int, str]:
        sys.stderr = io.StringIO()
        code = main(["detect", str(target)], out=io.StringIO())
        return code, sys.stderr.getvalue()

    assert unprivileged(run) == (
        2,
        f"evidence-gate: error: {target}: cannot read this directory (Permission denied)\n",
    )


@pytest.mark.parametrize(
    ("dev", "test_file"),
    [
        ({"jest": "^29.7.0"}, "npx --no-install jest --ci {file}"),
        ({"c8": "^10.1.2"}, "node --test {file}"),
    ],
)
def test_a_package_with_only_a_test_script_is_node_with_a_per_file_command(
    tmp_path: Path, dev: dict[str, str], test_file: str
) -> None:
    manifest = {"name": "checks", "private": True, "scripts": {"test": "jest"}, "devDependencies": dev}
    write_tree(tmp_path, {"package.json": json.dumps(manifest)})
    primary = detect(tmp_path, default_table()).primary
    assert (primary.adapter_id, primary.evidence) == ("backend-node", ("package.json",))
    assert primary.commands["test_file"] == test_file


def test_npm_inits_placeholder_test_script_is_no_node_project(tmp_path: Path) -> None:
    manifest = {"name": "x", "scripts": {"test": 'echo "Error: no test specified" && exit 1'}}
    write_tree(tmp_path, {"package.json": json.dumps(manifest)})
    assert detect(tmp_path, default_table()).primary.adapter_id == "unknown"
