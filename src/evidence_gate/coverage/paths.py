"""Which repository file a report's file name means.

Reports name files as their tool saw them: absolute (on the machine that ran the tests, which may
not be this one), relative to a `<source>` root, relative to the sub-project the tool ran in (an
LCOV written inside `packages/web/` names `src/x.js`), by Go import path, by JaCoCo package and
file name, with Windows separators. A name is tried, in order, as:

1. an absolute path inside the checkout; a relative one under each of the report's source roots,
   under the report's own directory, then under the top;
2. a Go import path under the module path of a `go.mod` of the repository (the longest that fits);
3. the one repository file its trailing path matches longest: an absolute path from another
   machine (`/build/checkout/app/src/x.py`), JaCoCo's `com/example/Cart.java` under
   `src/main/java/`, a name under a source root outside the checkout (`wait.py` under
   `/venv/site-packages/tenacity`: `tenacity/wait.py`). Two files that match equally well make the
   name ambiguous: unmapped, not guessed.

A name that matches no file of the repository is unmapped, and said so by the caller.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

_DRIVE = re.compile(r"^[A-Za-z]:/")


@dataclass(frozen=True, kw_only=True)
class Mapped:
    path: str | None  # the repository file, or None
    reason: str = ""  # why it is None


@dataclass(kw_only=True)
class PathMapper:
    """Maps report names onto `files` (the repository's files, relative to its top, `/`-separated)."""

    files: frozenset[str]
    top: str  # the checkout's absolute path, `/`-separated
    modules: Mapping[str, str] = field(default_factory=dict)  # Go module path -> its directory ("" at the top)
    _by_name: dict[str, list[tuple[str, ...]]] = field(default_factory=dict, init=False, repr=False)
    _by_tail: dict[str, dict[tuple[str, ...], list[str]]] = field(default_factory=dict, init=False, repr=False)
    _cache: dict[tuple[str, str | None, tuple[str, ...]], Mapped] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        for path in self.files:
            parts = tuple(path.split("/"))
            self._by_name.setdefault(parts[-1], []).append(parts)

    def map(self, name: str, report_dir: str | None, roots: Iterable[str] = ()) -> Mapped:
        """`name` as a repository file; `report_dir` is the report's directory relative to the top
        (None outside the checkout), `roots` the source roots the report names."""
        key = (name, report_dir, tuple(roots))
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._map(*key)
        return found

    def _map(self, name: str, report_dir: str | None, roots: tuple[str, ...]) -> Mapped:
        text = _normal(name)
        if not text:
            return Mapped(path=None, reason="an empty file name")
        for candidate in self._candidates(text, report_dir, roots):
            if candidate in self.files:
                return Mapped(path=candidate)
        if not _absolute(text):
            # A root outside the checkout (the installed package in a virtualenv's site-packages, the
            # package folder on another machine) still names the package: its folder's name comes with it.
            for root in map(_normal, roots):
                if _absolute(root) and self._inside(root) is None:
                    found = self._by_suffix(posixpath.join(root, text))
                    if found.path is not None:
                        return found
        return self._by_suffix(text)

    def _candidates(self, text: str, report_dir: str | None, roots: tuple[str, ...]) -> Iterable[str]:
        if _absolute(text):
            inside = self._inside(text)
            if inside is not None:
                yield inside
            return
        for root in map(_normal, roots):
            base = self._inside(root) if _absolute(root) else root
            if base is None:
                continue
            if report_dir is not None and not _absolute(root):
                yield _join(report_dir, base, text)
            yield _join(base, text)
        if report_dir is not None:
            yield _join(report_dir, text)
        yield _join(text)
        for module in sorted(self.modules, key=len, reverse=True):
            if text.startswith(module + "/"):
                yield _join(self.modules[module], text[len(module) + 1 :])
                break

    def _inside(self, text: str) -> str | None:
        """An absolute path relative to the top, or None when it is outside."""
        top, text = self.top.rstrip("/"), posixpath.normpath(text)
        if text == top:
            return ""
        if text.startswith(top + "/"):
            return text[len(top) + 1 :]
        return None

    def _by_suffix(self, text: str) -> Mapped:
        """The repository file whose trailing path matches: a relative name must match whole (the
        files it is a trailing path of; two make it ambiguous), an absolute one must hold the
        whole repository path (its longest trailing path that is a file). Looked up by trailing
        path, never compared file by file, so a thousand `__init__.py` cost no more per name."""
        parts = tuple(part for part in text.split("/") if part not in ("", "."))
        if not parts or ".." in parts:
            return Mapped(path=None, reason="not a file of this repository")
        if _absolute(text):
            for length in range(len(parts), 0, -1):
                if (candidate := "/".join(parts[-length:])) in self.files:
                    return Mapped(path=candidate)
            return Mapped(path=None, reason="not a file of this repository")
        best = self._tails(parts[-1]).get(parts, ())
        if len(best) == 1:
            return Mapped(path=best[0])
        if best:
            shown = ", ".join(best[:3])
            return Mapped(path=None, reason=f"ambiguous: it matches {len(best)} files ({shown})")
        return Mapped(path=None, reason="not a file of this repository")

    def _tails(self, name: str) -> dict[tuple[str, ...], list[str]]:
        """The files named `name` by each of their trailing paths, each list sorted; built once a
        name is first looked up."""
        tails = self._by_tail.get(name)
        if tails is None:
            tails = self._by_tail[name] = {}
            for parts in sorted(self._by_name.get(name, ()), key="/".join):
                path = "/".join(parts)
                for start in range(len(parts)):
                    tails.setdefault(parts[start:], []).append(path)
        return tails


def _normal(name: str) -> str:
    text = name.strip().replace("\\", "/")
    if text.startswith("file://"):
        text = text[len("file://") :]
    return text


def _absolute(text: str) -> bool:
    return text.startswith("/") or _DRIVE.match(text) is not None


def _join(*parts: str) -> str:
    joined = posixpath.normpath(posixpath.join(*[part for part in parts if part] or ["."]))
    return "" if joined == "." or joined.startswith("../") or joined == ".." else joined
