"""The smallest runnable unit that holds exactly one test file's tests, as the slots of its stack's
per-file command (`test_file`, or `test_module` for Rust unit tests).

Most runners take the file itself. Where a runner cannot select a file, the file is mapped, and the
unit says so (`scope`), so the evidence shows what really ran:

- Go: the file's package, with `-run` anchored to the Test, Example and Fuzz functions the file
  defines (the whole package would judge its neighbours' tests too);
- Rust: an integration test under `tests/` by its target (`--test <stem>`); a module in `src/` by
  its module path (`cart::tax::`, through the `test_module` command);
- JVM: the test class, named in full from the file's `package` line;
- Django: the dotted module.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath

_GO_TEST = re.compile(r"^func\s+((?:Test|Example|Fuzz)(?:[^a-z]\w*)?)\s*\(", re.MULTILINE)
_JVM_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)", re.MULTILINE)


@dataclass(frozen=True, kw_only=True)
class Unit:
    path: str  # the test file
    command: str = "test_file"  # the stack's command that runs it
    slots: Mapping[str, str] = field(default_factory=dict)
    scope: str | None = None  # what runs, where it is not the file alone
    problem: str | None = None  # why no unit holds exactly this file's tests


def unit_for(path: str, adapter_id: str, language: str, text: str) -> Unit:
    """`text` is the file's content at the head (what defines its tests)."""
    pure = PurePosixPath(path)
    slots = {"file": path, "dir": pure.parent.as_posix(), "stem": pure.stem, "name": pure.stem}
    if language == "go":
        return _go(path, slots, text)
    if language == "rust":
        return _rust(path, slots)
    if language in ("java", "kotlin"):
        package = _JVM_PACKAGE.search(text)
        name = f"{package.group(1)}.{pure.stem}" if package else pure.stem
        return Unit(path=path, slots={**slots, "name": name}, scope=f"the test class {name}")
    if adapter_id == "django":
        dotted = ".".join(pure.with_suffix("").parts)
        return Unit(path=path, slots={**slots, "name": dotted}, scope=f"the test module {dotted}")
    return Unit(path=path, slots=slots)


def _go(path: str, slots: dict[str, str], text: str) -> Unit:
    names = list(dict.fromkeys(_GO_TEST.findall(text)))
    package = "./" + slots["dir"] if slots["dir"] != "." else "."
    if not names:
        return Unit(path=path, slots=slots, problem="it defines no Test, Example or Fuzz function")
    pattern = names[0] if len(names) == 1 else f"({'|'.join(names)})"
    return Unit(
        path=path,
        slots={**slots, "name": pattern, "package": package},
        scope=f"package {package}, -run ^{pattern}$ (the functions this file defines)",
    )


def _rust(path: str, slots: dict[str, str]) -> Unit:
    parts = PurePosixPath(path).parts
    if "tests" in parts:
        below = parts[len(parts) - parts[::-1].index("tests") :]
        if len(below) == 1:
            target = below[0].removesuffix(".rs")
        elif len(below) == 2 and below[1] == "main.rs":
            target = below[0]
        else:
            return Unit(path=path, slots=slots, problem="it is a module of an integration test, not a test target")
        return Unit(path=path, slots={**slots, "name": target}, scope=f"the integration test target {target}")
    if "src" in parts:
        modules = list(parts[len(parts) - parts[::-1].index("src") :])
        modules[-1] = modules[-1].removesuffix(".rs")
        if modules[-1] == "mod":
            modules.pop()
        if modules in (["lib"], ["main"]) or not modules:
            return Unit(path=path, slots=slots, problem="the crate root's tests cannot be told from its modules'")
        module = "::".join(modules) + "::"
        return Unit(
            path=path, command="test_module", slots={**slots, "name": module}, scope=f"the unit tests of {module}"
        )
    return Unit(path=path, slots=slots, problem="it is neither under tests/ nor under src/")
