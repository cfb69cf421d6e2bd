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

ANDROID_ROOT_GROOVY = """\
buildscript {
    repositories { google(); mavenCentral() }
    dependencies { classpath 'com.android.tools.build:gradle:8.5.0' }
}
"""
ANDROID_APP_GROOVY = """\
plugins {
    id 'com.android.application'
    id 'org.jetbrains.kotlin.android'
}
android {
    namespace 'com.example.notes'
    compileSdk 34
    defaultConfig { applicationId "com.example.notes"; minSdk 24 }
}
dependencies { testImplementation 'junit:junit:4.13.2' }
"""
ANDROID_ROOT_KTS = """\
plugins {
    alias(libs.plugins.android.application) apply false
    alias(libs.plugins.android.library) apply false
    alias(libs.plugins.kotlin.android) apply false
}
"""
VERSION_CATALOG = """\
[versions]
agp = "8.5.0"
kotlin = "2.0.0"

[plugins]
android-application = { id = "com.android.application", version.ref = "agp" }
android-library = { id = "com.android.library", version.ref = "agp" }
kotlin-android = { id = "org.jetbrains.kotlin.android", version.ref = "kotlin" }
"""
ANDROID_LIBRARY_KTS = """\
plugins {
    alias(libs.plugins.android.library)
    alias(libs.plugins.kotlin.android)
}
android { namespace = "com.example.core"; compileSdk = 34 }
"""
GRADLE_JVM_SERVICE = """\
plugins {
    id 'java'
    id 'application'
}
repositories { mavenCentral() }
dependencies { testImplementation 'org.junit.jupiter:junit-jupiter:5.10.2' }
application { mainClass = 'com.example.Service' }
test { useJUnitPlatform() }
"""
POM = """\
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>orders</artifactId>
  <version>1.0.0</version>
</project>
"""
PODFILE = """\
platform :ios, '16.0'
target 'Notes' do
  use_frameworks!
  pod 'Alamofire', '~> 5.9'
end
"""
PACKAGE_SWIFT = """\
// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "Parser",
    targets: [
        .target(name: "Parser"),
        .testTarget(name: "ParserTests", dependencies: ["Parser"]),
    ]
)
"""


def package_json(**fields: object) -> str:
    return json.dumps({"name": "example", "version": "1.0.0", **fields}, indent=2)


VITE_REACT = package_json(
    private=True,
    type="module",
    scripts={"dev": "vite", "build": "tsc -b && vite build", "test": "vitest run", "lint": "eslint ."},
    dependencies={"react": "^18.3.1", "react-dom": "^18.3.1"},
    devDependencies={
        "vite": "^5.4.0",
        "vitest": "^2.0.0",
        "@vitejs/plugin-react": "^4.3.1",
        "typescript": "^5.5.0",
    },
)
NEXT_APP = package_json(
    private=True,
    scripts={"dev": "next dev", "build": "next build", "lint": "next lint", "test": "jest"},
    dependencies={"next": "14.2.5", "react": "^18", "react-dom": "^18"},
    devDependencies={"jest": "^29.7.0", "eslint": "^8", "eslint-config-next": "14.2.5"},
)
ANGULAR_APP = package_json(
    private=True,
    scripts={"ng": "ng", "build": "ng build", "test": "ng test"},
    dependencies={"@angular/core": "^18.1.0", "@angular/common": "^18.1.0", "rxjs": "~7.8.0"},
    devDependencies={
        "@angular/cli": "^18.1.0",
        "@angular-devkit/build-angular": "^18.1.0",
        "karma": "~6.4.0",
    },
)
EXPRESS_API = package_json(
    main="src/server.js",
    scripts={"start": "node src/server.js", "test": "mocha"},
    dependencies={"express": "^4.19.2"},
    devDependencies={"mocha": "^10.7.0"},
)
NEST_API = package_json(
    scripts={"build": "nest build", "test": "jest", "lint": 'eslint "{src,test}/**/*.ts"'},
    dependencies={"@nestjs/core": "^10.0.0", "@nestjs/common": "^10.0.0", "reflect-metadata": "^0.2.0"},
    devDependencies={"@nestjs/cli": "^10.0.0", "jest": "^29.5.0", "typescript": "^5.1.3"},
)
PRETTIER_ONLY = package_json(
    private=True, scripts={"format": "prettier --write ."}, devDependencies={"prettier": "^3.3.3"}
)
PYPROJECT = """\
[project]
name = "textkit"
version = "0.3.0"
requires-python = ">=3.9"

[tool.pytest.ini_options]
testpaths = ["tests"]
"""
GO_MOD = "module example.com/shop\n\ngo 1.22\n"
CARGO_WORKSPACE = '[workspace]\nmembers = ["crates/*"]\nresolver = "2"\n'
CARGO_MEMBER = '[package]\nname = "core"\nversion = "0.1.0"\nedition = "2021"\n'


LAYOUTS: dict[str, tuple[dict[str, str], str, str, list[tuple[str, str]]]] = {
    # name: (files, primary id, primary class, [(id, root), ...] in order)
    "android-groovy-app": (
        {
            "settings.gradle": "include ':app'\n",
            "build.gradle": ANDROID_ROOT_GROOVY,
            "gradlew": "#!/bin/sh\n",
            "app/build.gradle": ANDROID_APP_GROOVY,
            "app/src/main/AndroidManifest.xml": '<manifest xmlns:android="http://schemas.android.com/apk/res/android"/>\n',
            "app/src/main/java/com/example/notes/MainActivity.kt": "class MainActivity\n",
        },
        "android",
        "android",
        [("android", ".")],
    ),
    "android-kotlin-dsl-with-library": (
        {
            "settings.gradle.kts": 'include(":app", ":core")\n',
            "build.gradle.kts": ANDROID_ROOT_KTS,
            "gradle/libs.versions.toml": VERSION_CATALOG,
            "app/build.gradle.kts": "plugins {\n    alias(libs.plugins.android.application)\n}\n",
            "core/build.gradle.kts": ANDROID_LIBRARY_KTS,
            "core/src/main/AndroidManifest.xml": "<manifest/>\n",
        },
        "android",
        "android",
        [("android", ".")],
    ),
    "gradle-jvm-service": (
        {
            "settings.gradle": "rootProject.name = 'service'\n",
            "build.gradle": GRADLE_JVM_SERVICE,
            "gradlew": "#!/bin/sh\n",
            "src/main/java/com/example/Service.java": "class Service {}\n",
            "src/test/java/com/example/ServiceTest.java": "class ServiceTest {}\n",
        },
        "jvm",
        "backend",
        [("jvm", ".")],
    ),
    "maven-jvm-service": (
        {"pom.xml": POM, "src/main/java/com/example/Orders.java": "class Orders {}\n"},
        "jvm",
        "backend",
        [("jvm", ".")],
    ),
    "xcode-app-with-podfile": (
        {
            "Notes.xcodeproj/project.pbxproj": "// !$*UTF8*$!\n{ archiveVersion = 1; }\n",
            "Notes.xcworkspace/contents.xcworkspacedata": "<Workspace version='1.0'/>\n",
            "Podfile": PODFILE,
            "Podfile.lock": "PODS:\n  - Alamofire (5.9.1)\n",
            "Pods/Alamofire/Package.swift": PACKAGE_SWIFT,
            "Notes/AppDelegate.swift": "import UIKit\n",
            "NotesTests/NotesTests.swift": "import XCTest\n",
        },
        "ios",
        "ios",
        [("ios", ".")],
    ),
    "swift-package": (
        {
            "Package.swift": PACKAGE_SWIFT,
            "Sources/Parser/Parser.swift": "public struct Parser {}\n",
            "Tests/ParserTests/ParserTests.swift": "import XCTest\n",
        },
        "swift",
        "backend",
        [("swift", ".")],
    ),
    "vite-react-app": (
        {
            "package.json": VITE_REACT,
            "package-lock.json": "{}\n",
            "index.html": "<!doctype html><div id=root></div>\n",
            "vite.config.ts": "export default {}\n",
            "src/App.tsx": "export default function App() { return null }\n",
        },
        "web",
        "web",
        [("web", ".")],
    ),
    "nextjs-app": (
        {
            "package.json": NEXT_APP,
            "next.config.mjs": "export default {}\n",
            "app/page.tsx": "export default 1\n",
        },
        "web",
        "web",
        [("web", ".")],
    ),
    "angular-app": (
        {"package.json": ANGULAR_APP, "angular.json": "{}\n", "src/main.ts": "bootstrap()\n"},
        "web",
        "web",
        [("web", ".")],
    ),
    "express-backend": (
        {"package.json": EXPRESS_API, "src/server.js": "require('express')\n", "test/server.test.js": "\n"},
        "backend-node",
        "backend",
        [("backend-node", ".")],
    ),
    "nestjs-backend": (
        {"package.json": NEST_API, "nest-cli.json": "{}\n", "src/main.ts": "NestFactory.create()\n"},
        "backend-node",
        "backend",
        [("backend-node", ".")],
    ),
    "python-package-with-prettier-only-package-json": (
        {
            "pyproject.toml": PYPROJECT,
            "package.json": PRETTIER_ONLY,
            "src/textkit/__init__.py": "",
            "tests/test_textkit.py": "def test_x(): pass\n",
        },
        "python",
        "backend",
        [("python", ".")],
    ),
    "django-app-with-requirements-only": (
        {
            "requirements.txt": "Django==5.0.6\npsycopg[binary]==3.1.19\n",
            "manage.py": "#!/usr/bin/env python\nimport django\n",
            "shop/settings.py": "INSTALLED_APPS = []\n",
        },
        "python",
        "backend",
        [("python", ".")],
    ),
    "go-service-with-web-front-end-and-vendored-node-modules": (
        {
            "go.mod": GO_MOD,
            "main.go": "package main\n",
            "web/package.json": VITE_REACT,
            "web/index.html": "<!doctype html>\n",
            "web/node_modules/express/package.json": package_json(main="index.js", dependencies={"express": "1"}),
            "web/node_modules/left-pad/package.json": package_json(main="index.js"),
        },
        "go",
        "backend",
        [("go", "."), ("web", "web")],
    ),
    "go-module-nested-two-levels-down": (
        {
            "README.md": "# platform\n",
            "services/api/go.mod": GO_MOD,
            "services/api/main.go": "package main\n",
        },
        "go",
        "backend",
        [("go", "services/api")],
    ),
    "rust-workspace": (
        {
            "Cargo.toml": CARGO_WORKSPACE,
            "Cargo.lock": "version = 3\n",
            "crates/core/Cargo.toml": CARGO_MEMBER,
            "crates/core/src/lib.rs": "",
            "crates/cli/Cargo.toml": CARGO_MEMBER.replace("core", "cli"),
            "target/debug/build/x/Cargo.toml": CARGO_MEMBER,
        },
        "rust",
        "backend",
        [("rust", ".")],
    ),
    "only-vendored-and-build-output-manifests": (
        {
            "vendor/github.com/pkg/errors/go.mod": GO_MOD,
            "node_modules/react/package.json": package_json(main="index.js", dependencies={"react": "18"}),
            "build/generated/pom.xml": POM,
            "dist/package.json": EXPRESS_API,
            "target/Cargo.toml": CARGO_MEMBER,
            ".venv/lib/pyproject.toml": PYPROJECT,
            "third_party/zlib/CMakeLists.txt": "project(zlib C)\n",
            "Pods/Thing/Podfile": PODFILE,
            "notes.txt": "nothing to build here\n",
        },
        "unknown",
        "unknown",
        [],
    ),
    "empty-repo": ({}, "unknown", "unknown", []),
    "dotnet-solution": (
        {
            "Shop.sln": "Microsoft Visual Studio Solution File, Format Version 12.00\n",
            "src/Shop/Shop.csproj": '<Project Sdk="Microsoft.NET.Sdk"></Project>\n',
            "tests/Shop.Tests/Shop.Tests.csproj": '<Project Sdk="Microsoft.NET.Sdk"></Project>\n',
        },
        "dotnet",
        "backend",
        [("dotnet", ".")],
    ),
    "rails-app": (
        {
            "Gemfile": "source 'https://rubygems.org'\ngem 'rails', '~> 7.1'\n",
            ".rspec": "--require spec_helper\n",
        },
        "ruby",
        "backend",
        [("ruby", ".")],
    ),
    "laravel-app": (
        {"composer.json": '{"require": {"laravel/framework": "^11.0"}}\n'},
        "php",
        "backend",
        [("php", ".")],
    ),
    "cmake-project": (
        {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.20)\nproject(codec C)\nenable_testing()\n"},
        "cpp",
        "backend",
        [("cpp", ".")],
    ),
    "elixir-app": (
        {"mix.exs": "defmodule Shop.MixProject do\nend\n"},
        "elixir",
        "backend",
        [("elixir", ".")],
    ),
    "dart-package": (
        {"pubspec.yaml": "name: parser\nenvironment:\n  sdk: ^3.4.0\n"},
        "dart",
        "backend",
        [("dart", ".")],
    ),
    "flutter-app": (
        {"pubspec.yaml": "name: notes\ndependencies:\n  flutter:\n    sdk: flutter\n"},
        "flutter",
        "mobile",
        [("flutter", ".")],
    ),
}


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
    assert "typecheck" in commands


def test_package_manager_field_outranks_the_lockfile(tmp_path: Path) -> None:
    manifest = json.loads(NEST_API) | {"packageManager": "yarn@4.3.1"}
    write_tree(tmp_path, {"package.json": json.dumps(manifest), "package-lock.json": "{}"})
    assert detect(tmp_path, default_table()).primary.commands["build"] == "yarn run build"


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
