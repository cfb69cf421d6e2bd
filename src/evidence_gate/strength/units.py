"""The smallest runnable unit that holds exactly one test file's tests, as the slots of its stack's
per-file command (`test_file`, or `test_module` for Rust unit tests).

Most runners take the file itself. Where a runner cannot select a file, the file is mapped, and the
unit says so (`scope`), so the evidence shows what really ran:

- Go: the file's package, with `-run` anchored to the Test, Example and Fuzz functions the file
  defines (the whole package would judge its neighbours' tests too);
- Rust: an integration test under `tests/` by its target (`--test <stem>`); a module in `src/` by
  its module path (`cart::tax::`, through the `test_module` command); the crate root (`src/lib.rs`),
  whose module path holds every module's tests, by the names of the tests it defines itself
  (`tests::parses`, through the `test_names` command);
- JVM: the test class, named in full from the file's `package` line;
- Django: the dotted module.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from evidence_gate.inline_tests import rust_test_names
from evidence_gate.stacks.commands import SlotValue

_GO_TEST = re.compile(r"^func\s+((?:Test|Example|Fuzz)(?:[^a-z]\w*)?)\s*\(", re.MULTILINE)
_JVM_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)", re.MULTILINE)


@dataclass(frozen=True, kw_only=True)
class Unit:
    path: str  # the test file
    command: str = "test_file"  # the stack's command that runs it
    slots: Mapping[str, SlotValue] = field(default_factory=dict)
    scope: str | None = None  # what runs, where it is not the file alone
    problem: str | None = None  # why no unit holds exactly this file's tests


def unit_for(
    path: str, adapter_id: str, language: str, text: str, test_functions: Sequence[re.Pattern[str]] = ()
) -> Unit:
    """`text` is the file's content at the head (what defines its tests); `test_functions`, the
    attributes that make a function a test, where tests are named from the file (Rust's crate root)."""
    pure = PurePosixPath(path)
    slots: dict[str, SlotValue] = {"file": path, "dir": pure.parent.as_posix(), "stem": pure.stem, "name": pure.stem}
    if language == "go":
        return _go(path, slots, text)
    if language == "rust":
        return _rust(path, slots, text, test_functions)
    if language in ("java", "kotlin"):
        package = _JVM_PACKAGE.search(text)
        name = f"{package.group(1)}.{pure.stem}" if package else pure.stem
        return Unit(path=path, slots={**slots, "name": name}, scope=f"the test class {name}")
    if adapter_id == "django":
        dotted = ".".join(pure.with_suffix("").parts)
        return Unit(path=path, slots={**slots, "name": dotted}, scope=f"the test module {dotted}")
    return Unit(path=path, slots=slots)


def _go(path: str, slots: dict[str, SlotValue], text: str) -> Unit:
    names = list(dict.fromkeys(_GO_TEST.findall(text)))
    folder = PurePosixPath(path).parent.as_posix()
    package = "./" + folder if folder != "." else "."
    if not names:
        return Unit(path=path, slots=slots, problem="it defines no Test, Example or Fuzz function")
    pattern = names[0] if len(names) == 1 else f"({'|'.join(names)})"
    return Unit(
        path=path,
        slots={**slots, "name": pattern, "package": package},
        scope=f"package {package}, -run ^{pattern}$ (the functions this file defines)",
    )


def _rust(path: str, slots: dict[str, SlotValue], text: str, test_functions: Sequence[re.Pattern[str]]) -> Unit:
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
        if modules == ["lib"]:
            return _crate_root(path, slots, text, test_functions)
        if modules == ["main"] or not modules:
            return Unit(path=path, slots=slots, problem="the crate root's tests cannot be told from its modules'")
        module = "::".join(modules) + "::"
        return Unit(
            path=path, command="test_module", slots={**slots, "name": module}, scope=f"the unit tests of {module}"
        )
    return Unit(path=path, slots=slots, problem="it is neither under tests/ nor under src/")


def _crate_root(path: str, slots: dict[str, SlotValue], text: str, test_functions: Sequence[re.Pattern[str]]) -> Unit:
    """A library's root file by the names of the tests it defines itself, run each exactly."""
    if not test_functions:
        return Unit(path=path, slots=slots, problem="the crate root's tests cannot be told from its modules'")
    names = rust_test_names(text, test_functions)
    if not names:
        why = "it defines no test function the reader can name" if names == () else "its text could not be read"
        return Unit(path=path, slots=slots, problem=f"the crate root's tests are run by their names, and {why}")
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    return Unit(
        path=path,
        command="test_names",
        slots={**slots, "names": names},
        scope=f"the unit tests the crate root defines itself, each by its name ({shown})",
    )
