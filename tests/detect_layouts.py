"""Layouts that mirror real projects of every adapter: each a tree of manifests and the stack it is."""

from __future__ import annotations

import json

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
