"""What a change's lint, type-check and coverage configuration files loosen, read whole at the
merge base and at the head and compared across the whole change (RH-8; RH-7 for coverage left out):
a list that switches checks off or leaves code out gaining an entry (`extend-ignore`,
`per-file-ignores`, pylint's `disable`, `.golangci`'s `disable`, coverage's `omit`); a setting
turned loose (an eslint rule `"off"`, a clippy lint `allow`) or no longer tight (`strict` true no
more, pyright's `typeCheckingMode` lowered). The rules are data (`idioms.yaml`, `configs`).

One reader serves INI, TOML, YAML, JSON and a JS config's object: each setting's dotted path (its
section, the keys it is nested in by indentation, its key), its value and its list entries. A
setting keeps its identity by the rule's key and the path after the rule's match, never by file,
section or indentation: moved to another file, under a renamed section or re-indented, it is the
same, and a value kept is no change. Pure functions over file texts."""

from __future__ import annotations

import fnmatch
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from evidence_gate.model import Change, ChangedFile, FileStatus, Hunk

Read = Callable[[str, str], str | None]  # (revision, path) -> the file's text there, None without one

_SECTION = re.compile(r"^\s*\[+\s*(?P<name>[^\[\]]+?)\s*\]+\s*$")
_SETTING = re.compile(
    r"""^(?P<indent>\s*)(-\s+)?(?:(?P<q>["'])(?P<quoted>[^"']+)(?P=q)|(?P<key>[\w@$][\w@.$*/-]*))\s*(?P<sep>[:=])(?!=)\s*(?P<value>.*)$"""
)
_ITEM = re.compile(r"^(?P<indent>\s*)(-\s+)?(?P<value>.*)$")
_TOKEN = re.compile(r"[\w@*][\w@.*/-]*")
_COMMENT = re.compile(r"(^|\s)(#|//|;).*$")
_OPENS = "{[(|>"  # a value that opens a container (nothing at all opens one too)


@dataclass(frozen=True, kw_only=True)
class Setting:
    path: str  # `tool.ruff.lint.extend-ignore`, `rules.no-console`
    value: str  # the value's text on its line, comment gone
    entries: tuple[tuple[str, int], ...]  # the words of its value and of the list lines under it, each's line
    line: int


@dataclass(frozen=True, kw_only=True)
class ConfigRule:
    key: str  # what the setting is, whichever tool's file says it (`lint-ignore`)
    path: re.Pattern[str]  # searched in a setting's dotted path
    kind: str  # list: an entry gained loosens; kept: an entry lost does; loose: a value become loose;
    # tight: a tight value gone
    value: re.Pattern[str] | None = None  # loose or tight: the value that is
    tag: str = "RH-8"


@dataclass(frozen=True, kw_only=True)
class ConfigRules:
    files: tuple[str, ...]  # globs of the last part of a config file's path
    rules: tuple[ConfigRule, ...]

    def reads(self, path: str) -> bool:
        name = path.rpartition("/")[2]
        return any(fnmatch.fnmatchcase(name, glob) for glob in self.files)


def settings(text: str) -> list[Setting]:
    """Every setting of a config file's text, with its dotted path and its list entries."""
    found: list[tuple[str, str, list[tuple[str, int]], int]] = []  # path, value, entries, line
    section: list[str] = []
    stack: list[tuple[int, str, int]] = []  # the open containers: indent, key, index in found
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _COMMENT.sub("", raw).rstrip()
        if not line.strip():
            continue
        header = _SECTION.match(line)
        if header and not _SETTING.match(line):
            section = [part.strip("\"' ") for part in re.split(r"[.\s]+", header.group("name")) if part]
            stack = []
            continue
        setting = _SETTING.match(line)
        indent = len(line) - len(line.lstrip())
        if setting is not None:
            while stack and stack[-1][0] >= indent:
                stack.pop()
            key = setting.group("quoted") or setting.group("key")
            value = setting.group("value").strip()
            path = ".".join([*section, *(entry[1] for entry in stack), key])
            found.append((path, value, [(word, number) for word in _TOKEN.findall(value)], number))
            if value.rstrip(",;")[-1:] in _OPENS:
                stack.append((indent, key, len(found) - 1))
            continue
        item = _ITEM.match(line)
        if item is None:
            continue
        dash = item.group(2) is not None  # a YAML list item may stand at its key's indent
        while stack and (stack[-1][0] > indent or (stack[-1][0] == indent and not dash)):
            stack.pop()
        if stack:
            found[stack[-1][2]][2].extend((word, number) for word in _TOKEN.findall(item.group("value")))
    return [Setting(path=path, value=value, entries=tuple(words), line=at) for path, value, words, at in found]


@dataclass(frozen=True, kw_only=True)
class _Seen:
    identity: tuple[str, str]  # the rule's key; the path's `name` group and what follows the match
    rule: ConfigRule
    setting: Setting
    path: str  # the file


def relaxed(change: Change, rules: ConfigRules, read: Read) -> dict[tuple[str, int], set[str]]:
    """The tags of every hunk, by (path, hunk index), where the change loosens a config setting."""
    files = [changed for changed in change.files if rules.reads(changed.path) and not changed.binary]
    before = [seen for changed in files for seen in _seen(changed, read, change.merge_base, old=True, rules=rules)]
    after = [seen for changed in files for seen in _seen(changed, read, change.head, old=False, rules=rules)]
    by_path = {changed.path: changed for changed in files}
    tags: dict[tuple[str, int], set[str]] = {}

    def mark(seen: _Seen, line: int, old: bool) -> None:
        index = _hunk_at(by_path[seen.path].hunks, line, old)
        if index is not None:
            tags.setdefault((seen.path, index), set()).add(seen.rule.tag)

    gained = Counter(_entries(after, "list")) - Counter(_entries(before, "list"))
    lost = Counter(_entries(before, "kept")) - Counter(_entries(after, "kept"))
    for seen in after:
        for word, line in seen.setting.entries if seen.rule.kind == "list" else ():
            if (seen.identity, word) in gained:
                mark(seen, line, old=False)
    for seen in before:
        for word, line in seen.setting.entries if seen.rule.kind == "kept" else ():
            if (seen.identity, word) in lost:
                mark(seen, line, old=True)
    for identity in {seen.identity for seen in (*before, *after) if seen.rule.kind in ("loose", "tight")}:
        was = [seen for seen in before if seen.identity == identity]
        now = [seen for seen in after if seen.identity == identity]
        rule = (was or now)[0].rule
        if rule.kind == "loose" and not any(_is(seen) for seen in was):
            for seen in now:
                if _is(seen):
                    mark(seen, seen.setting.line, old=False)
        if rule.kind == "tight" and any(_is(seen) for seen in was) and not any(_is(seen) for seen in now):
            for seen in was:
                mark(seen, seen.setting.line, old=True)
            for seen in now:
                mark(seen, seen.setting.line, old=False)
    return tags


def _is(seen: _Seen) -> bool:
    return seen.rule.value is not None and seen.rule.value.search(seen.setting.value) is not None


def _entries(seen: Iterable[_Seen], kind: str) -> list[tuple[tuple[str, str], str]]:
    return [(item.identity, word) for item in seen if item.rule.kind == kind for word, _ in item.setting.entries]


def _seen(changed: ChangedFile, read: Read, revision: str, *, old: bool, rules: ConfigRules) -> list[_Seen]:
    if old and changed.status in (FileStatus.ADDED, FileStatus.COPIED):  # a copy is new: its source stays
        return []
    if not old and changed.status is FileStatus.DELETED:
        return []
    text = read(revision, changed.old_path or changed.path if old else changed.path)
    if text is None:
        return []
    found = []
    for setting in settings(text):
        for rule in rules.rules:
            match = rule.path.search(setting.path)
            if match is not None:
                where = f"{match.groupdict().get('name') or ''}{setting.path[match.end() :]}"
                found.append(_Seen(identity=(rule.key, where), rule=rule, setting=setting, path=changed.path))
    return found


def _hunk_at(hunks: tuple[Hunk, ...], line: int, old: bool) -> int | None:
    """The hunk that adds (or, `old`, removes) this line."""
    for index, hunk in enumerate(hunks):
        lines = hunk.removed if old else hunk.added
        if any(changed.number == line for changed in lines):
            return index
    return None


def load_rules(document: Mapping[str, Any], compile_one: Callable[[str, str], re.Pattern[str]]) -> ConfigRules:
    """The `configs` part of the idiom table (checked by its schema), patterns compiled."""
    items = document["rules"]
    return ConfigRules(
        files=tuple(document["files"]),
        rules=tuple(
            ConfigRule(
                key=item["key"],
                path=compile_one(item["path"], f"configs/{n}.path"),
                kind=item["kind"],
                value=compile_one(item["value"], f"configs/{n}.value") if "value" in item else None,
                tag=item.get("tag", "RH-8"),
            )
            for n, item in enumerate(items)
        ),
    )
