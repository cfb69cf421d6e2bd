"""Check 9 on real layouts: the references a change adds (a localisation key, a string resource,
an i18n key) against the truth-source files at head. A dangling one fails with its file and line;
the same references with their keys defined pass."""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest

from evidence_gate.gates.references import ID, MAX_SOURCES
from evidence_gate.ledger.model import GateVerdict
from evidence_gate.ledger.payload import read, write
from evidence_gate.ledger.payloads.references import MAX_REFERENCES, ReferencesData
from evidence_gate.settings import Settings
from tests.conftest import Repo, judge_repo

IOS_BASE = {
    "Shop.xcodeproj/project.pbxproj": "// !$*UTF8*$!\n{ archiveVersion = 1; objects = {}; }\n",
    "Shop/en.lproj/Localizable.strings": '/* Greetings */\n"greeting" = "Hello";\n"cart.empty" = "Nothing yet";\n',
    "Shop/en.lproj/Localizable.stringsdict": (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
        '<plist version="1.0"><dict><key>items.count</key><dict><key>NSStringLocalizedFormatKey</key>'
        "<string>%#@items@</string></dict></dict></plist>\n"
    ),
    "Shop/ContentView.swift": (
        "import SwiftUI\n\nstruct ContentView: View {\n    var body: some View { EmptyView() }\n}\n"
    ),
}
IOS_ADDED = (
    "import SwiftUI\n\nstruct ContentView: View {\n"
    '    let title = NSLocalizedString("greeting", comment: "")\n'
    '    let count = String(localized: "items.count")\n'
    '    let farewell = NSLocalizedString("{key}", comment: "")\n'
    "    var body: some View { EmptyView() }\n}\n"
)
ANDROID_BASE = {
    "settings.gradle.kts": 'include(":app")\n',
    "app/build.gradle.kts": 'plugins { id("com.android.application") }\n',
    "app/src/main/AndroidManifest.xml": '<manifest xmlns:android="http://schemas.android.com/apk/res/android" />\n',
    "app/src/main/res/values/strings.xml": (
        '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="app_name">Shop</string>\n'
        '    <plurals name="items"><item quantity="one">%d item</item></plurals>\n</resources>\n'
    ),
    "app/src/main/java/shop/MainActivity.kt": "package shop\n\nclass MainActivity\n",
}
ANDROID_ADDED = (
    "package shop\n\nclass MainActivity {\n"
    "    val name = R.string.app_name\n"
    "    val items = R.plurals.items\n"
    "    val title = R.string.{key}\n}\n"
)
WEB_BASE = {
    "package.json": '{"name": "shop", "dependencies": {"react": "18.3.1", "react-i18next": "15.0.0"}}\n',
    "index.html": "<div id=root></div>\n",
    "src/locales/en/translation.json": '{"home": {"title": "Welcome", "cta": "Shop now", "footer": "Bye"}}\n',
    "src/locales/de/translation.json": '{"home": {"title": "Willkommen"}}\n',
    "src/Home.jsx": "export function Home() {\n  return null;\n}\n",
}
WEB_ADDED = (
    "import { useTranslation } from 'react-i18next';\n\nexport function Home() {\n"
    "  const { t } = useTranslation();\n"
    "  return [t('home.title'), t(\"home.cta\"), t('{key}')];\n}\n"
)
LAYOUTS = {
    "ios": (IOS_BASE, "Shop/ContentView.swift", IOS_ADDED, "cart.empty", "farewell", 6),
    "android": (ANDROID_BASE, "app/src/main/java/shop/MainActivity.kt", ANDROID_ADDED, "app_name", "missing_title", 6),
    "web": (WEB_BASE, "src/Home.jsx", WEB_ADDED, "home.footer", "home.subtitle", 5),
}


def changed(repo: Repo, base: Mapping[str, str], path: str, text: str) -> None:
    repo.commit("base", dict(base))
    repo.commit("change", {path: text})


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_a_dangling_reference_fails_with_its_file_and_line(repo: Repo, layout: str) -> None:
    base, path, added, _, dangling, line = LAYOUTS[layout]
    changed(repo, base, path, added.replace("{key}", dangling))
    ledger = judge_repo(Settings(repo=repo.path, base="HEAD~1"))
    gate = ledger.gate(ID)
    assert gate is not None
    assert gate.verdict is GateVerdict.FAIL, gate
    assert gate.details == (f"{path}:{line}: {dangling!r} is not defined in any truth source",)
    assert [(note.path, note.line) for note in gate.annotations] == [(path, line)]


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_the_same_references_with_their_keys_defined_pass(repo: Repo, layout: str) -> None:
    base, path, added, defined, _, _ = LAYOUTS[layout]
    changed(repo, base, path, added.replace("{key}", defined))
    gate = judge_repo(Settings(repo=repo.path, base="HEAD~1")).gate(ID)
    assert gate is not None
    assert gate.verdict is GateVerdict.PASS, gate
    assert gate.headline.startswith("all 3 references defined in")


def test_an_android_layout_reference_is_checked_too(repo: Repo) -> None:
    layout = '<TextView xmlns:android="http://schemas.android.com/apk/res/android" android:text="@string/welcome" />\n'
    changed(repo, ANDROID_BASE, "app/src/main/res/layout/main.xml", layout)
    gate = judge_repo(Settings(repo=repo.path, base="HEAD~1")).gate(ID)
    assert gate is not None and gate.verdict is GateVerdict.FAIL
    assert gate.details == ("app/src/main/res/layout/main.xml:1: 'welcome' is not defined in any truth source",)


def test_a_change_without_references_or_an_app_without_truth_sources_is_not_applicable(repo: Repo) -> None:
    changed(
        repo, {k: v for k, v in WEB_BASE.items() if "locales" not in k}, "src/Home.jsx", WEB_ADDED.replace("{key}", "x")
    )
    gate = judge_repo(Settings(repo=repo.path, base="HEAD~1")).gate(ID)
    assert gate is not None and gate.verdict is GateVerdict.NOT_APPLICABLE
    assert "no truth-source file" in gate.headline
    repo.commit("no reference", {"src/Other.jsx": "export const other = 1;\n"})
    gate = judge_repo(Settings(repo=repo.path, base="HEAD~1")).gate(ID)
    assert gate is not None and (gate.verdict, gate.headline) == (
        GateVerdict.NOT_APPLICABLE,
        "the change adds no reference to a truth source (web)",
    )


def test_a_truth_source_with_an_internal_dtd_is_unreadable_and_a_dangling_key_is_not_guessed(repo: Repo) -> None:
    entity = '<!DOCTYPE r [<!ENTITY x "y">]>'
    hostile = f'<?xml version="1.0"?>\n{entity}\n<resources><string name="other">&x;</string></resources>\n'
    base = {**ANDROID_BASE, "app/src/main/res/values-de/strings.xml": hostile}
    changed(repo, base, "app/src/main/java/shop/MainActivity.kt", ANDROID_ADDED.replace("{key}", "other"))
    gate = judge_repo(Settings(repo=repo.path, base="HEAD~1")).gate(ID)
    assert gate is not None and gate.verdict is GateVerdict.UNAVAILABLE
    assert any(detail.startswith("app/src/main/res/values-de/strings.xml: ") for detail in gate.details)


def test_with_the_work_tree_as_head_the_uncommitted_truth_sources_are_read(repo: Repo) -> None:
    repo.commit("base", dict(WEB_BASE))
    repo.write(
        {
            "src/Home.jsx": WEB_ADDED.replace("{key}", "home.banner"),
            "src/locales/en/translation.json": '{"home": {"title": "Hi", "cta": "Go", "banner": "Sale"}}\n',
        }
    )
    gate = judge_repo(Settings(repo=repo.path, base="HEAD", head="worktree")).gate(ID)
    assert gate is not None and gate.verdict is GateVerdict.PASS, gate
    repo.write({"src/Home.jsx": WEB_ADDED.replace("{key}", "home.sidebar")})
    gate = judge_repo(Settings(repo=repo.path, base="HEAD", head="worktree")).gate(ID)
    assert gate is not None and gate.verdict is GateVerdict.FAIL
    assert gate.details == ("src/Home.jsx:5: 'home.sidebar' is not defined in any truth source",)


def test_a_dangling_reference_after_the_listing_cap_of_defined_ones_still_fails(repo: Repo) -> None:
    defined = [f"key{index}" for index in range(MAX_REFERENCES)]
    translation = json.dumps(dict.fromkeys(defined, "text"))
    calls = "".join(f"  t('{key}');\n" for key in [*defined, "missing.key"])
    base = {**WEB_BASE, "src/locales/en/translation.json": translation}
    changed(repo, base, "src/Home.jsx", f"export function Home() {{\n  const {{ t }} = useTranslation();\n{calls}}}\n")
    gate = judge_repo(Settings(repo=repo.path, base="HEAD~1")).gate(ID)
    assert gate is not None
    assert (gate.verdict, gate.headline) == (GateVerdict.FAIL, f"1 dangling reference of {MAX_REFERENCES + 1:,}")
    assert gate.details == (f"src/Home.jsx:{MAX_REFERENCES + 3}: 'missing.key' is not defined in any truth source",)
    assert isinstance(gate.data, ReferencesData)
    assert (len(gate.data.references), gate.data.total, gate.data.dangling_total) == (
        MAX_REFERENCES,
        MAX_REFERENCES + 1,
        1,
    )
    assert read(ReferencesData, write(gate.data)) == gate.data


def test_past_the_listing_cap_every_defined_reference_is_counted(repo: Repo) -> None:
    defined = [f"key{index}" for index in range(MAX_REFERENCES + 2)]
    translation = json.dumps(dict.fromkeys(defined, "text"))
    calls = "".join(f"  t('{key}');\n" for key in defined)
    base = {**WEB_BASE, "src/locales/en/translation.json": translation}
    changed(repo, base, "src/Home.jsx", f"export function Home() {{\n{calls}}}\n")
    gate = judge_repo(Settings(repo=repo.path, base="HEAD~1")).gate(ID)
    assert gate is not None
    assert gate.verdict is GateVerdict.PASS, gate
    assert gate.headline.startswith(f"all {MAX_REFERENCES + 2:,} references defined in")


def test_past_the_truth_sources_read_a_missing_key_is_unavailable_not_dangling(repo: Repo) -> None:
    locales = {f"src/locales/l{index:04}/translation.json": "{}\n" for index in range(MAX_SOURCES + 1)}
    changed(repo, {**WEB_BASE, **locales}, "src/Home.jsx", "export function Home() {\n  t('nowhere');\n}\n")
    gate = judge_repo(Settings(repo=repo.path, base="HEAD~1")).gate(ID)
    assert gate is not None
    assert gate.verdict is GateVerdict.UNAVAILABLE, gate
    unread = len(locales) + 2 - MAX_SOURCES  # and the base's en and de
    assert gate.details[-1] == f"{unread} more truth sources: not read, past the first {MAX_SOURCES:,}"
