"""Replay the corpus of real merged pull requests (corpus.yaml) through Evidence Gate as a workflow would.

For each pull request: clone the project (from a local mirror, else its GitHub URL), check out the head with
its whole history, install it and run its tests as docs/examples/<stack>.yml does (the project's own steps,
writing the reports its CI would), then the runner step as run/action.yml runs it (`evidence-gate run
--runner-step`), then the container step's entry point (entrypoint.py, no token: it writes the ledger, the
step outputs and the job summary without publishing). Every gate's verdict and the overall verdict are
compared with the truth established by hand, one row per pull request; any mismatch exits 1.

    python3 scripts/real-prs/replay.py --mirrors DIR [--only NAME ...] [--markdown F] [--jobs N]

The pure parts (loading and validating the corpus, reading a ledger, comparing, the table) take and return
values; the effects (git, the project's commands, the two steps) are in `replay_one` and below.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CORPUS = HERE / "corpus.yaml"
SCHEMA = HERE / "corpus.schema.json"

GATE_IDS = (
    "type-check",
    "lint",
    "evidence",
    "gate-integrity",
    "strength",
    "coverage",
    "scope",
    "criteria",
    "suppressions",
    "references",
    "smoke",
)
COMMENT_LIMIT = 20_000  # characters: what a PR comment may hold with room to spare under GitHub's 65,536
REFACTOR_LABEL = "refactor"  # the label the recommended workflow maps to `gates-off: strength`
NOISE = ("no exit code recorded",)  # phrases a rendered comment must never say
BLOCKING = ("BLOCKED", "STAGNATION")

INSTALL_TIMEOUT = 1500  # seconds, per command
TEST_TIMEOUT = 1500
RUNNER_STEP_TIMEOUT = 2400
CONTAINER_STEP_TIMEOUT = 600
GIT_TIMEOUT = 600


# ---------------------------------------------------------------- the corpus (pure)


@dataclass(frozen=True)
class GateTruth:
    expect: tuple[str, ...]  # acceptable verdicts; ("any",) accepts every one
    why: str

    def accepts(self, verdict: str) -> bool:
        return "any" in self.expect or verdict in self.expect


@dataclass(frozen=True)
class Truth:
    verdict: str  # PASS or BLOCKED (BLOCKED accepts STAGNATION too)
    why: str
    tags: tuple[str, ...]
    gates: Mapping[str, GateTruth]


@dataclass(frozen=True)
class Entry:
    name: str
    project: str
    repository: str
    pr: int
    kind: str
    head_note: str
    base: str
    head: str
    base_tree: str
    head_tree: str
    stack: str
    gates_off: tuple[str, ...]
    labels: tuple[str, ...]  # the pull request's labels, as its maintainers set them
    install: tuple[str, ...]
    test: tuple[str, ...]
    reports: tuple[str, ...]
    truth: Truth


class CorpusError(ValueError):
    """The corpus breaks its schema or one of the rules the schema cannot say."""


def _gate_truth(raw: Mapping[str, Any]) -> GateTruth:
    expect = raw["expect"]
    return GateTruth(expect=(expect,) if isinstance(expect, str) else tuple(expect), why=raw["why"])


def load_corpus(text: str, schema: Mapping[str, Any]) -> tuple[Entry, ...]:
    """The corpus's entries, each with a truth for every gate (its own, else the corpus's default)."""
    document = yaml.safe_load(text)
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(document), key=lambda e: list(e.path))
    if errors:
        where = "/".join(str(part) for part in errors[0].path) or "(top)"
        raise CorpusError(f"corpus.yaml at {where}: {errors[0].message}")
    defaults = {gate: _gate_truth(raw) for gate, raw in document["default_gates"].items()}
    entries: list[Entry] = []
    for raw in document["prs"]:
        gates = {**defaults, **{gate: _gate_truth(item) for gate, item in raw["truth"]["gates"].items()}}
        labels = tuple(raw.get("labels", ()))
        for gate_id in _gates_off(tuple(raw.get("gates_off", ())), labels):
            if gates.get(gate_id, GateTruth(("off",), "")).expect != ("off",):
                raise CorpusError(f"{raw['name']}: {gate_id} is switched off, so its truth must be off")
        missing = [gate for gate in GATE_IDS if gate not in gates]
        if missing:
            raise CorpusError(f"{raw['name']}: no truth for {', '.join(missing)}")
        truth = Truth(
            verdict=raw["truth"]["verdict"],
            why=raw["truth"]["why"],
            tags=tuple(raw["truth"].get("tags", ())),
            gates=gates,
        )
        entries.append(
            Entry(
                name=raw["name"],
                project=raw["project"],
                repository=raw["repository"],
                pr=raw["pr"],
                kind=raw["kind"],
                head_note=raw.get("head_note", ""),
                base=raw["base"],
                head=raw["head"],
                base_tree=raw["base_tree"],
                head_tree=raw["head_tree"],
                stack=raw["stack"],
                gates_off=_gates_off(tuple(raw.get("gates_off", ())), labels),
                labels=labels,
                install=tuple(raw["install"]),
                test=tuple(raw["test"]),
                reports=tuple(raw["reports"]),
                truth=truth,
            )
        )
    names = [entry.name for entry in entries]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise CorpusError(f"names used twice: {', '.join(duplicates)}")
    return tuple(entries)


# ---------------------------------------------------------------- what the tool said (pure)


@dataclass(frozen=True)
class GateGot:
    verdict: str
    headline: str


@dataclass(frozen=True)
class Got:
    verdict: str
    stack: str
    gates: Mapping[str, GateGot]
    tags: tuple[str, ...]


def read_ledger(document: Mapping[str, Any]) -> Got:
    """The overall verdict, the stack, each gate's verdict and headline and the gate-integrity tags."""
    gates = {
        str(gate["id"]): GateGot(verdict=str(gate.get("verdict", "")), headline=str(gate.get("headline", "")))
        for gate in document.get("gates", ())
    }
    tags: tuple[str, ...] = ()
    for gate in document.get("gates", ()):
        if gate.get("id") == "gate-integrity" and isinstance(gate.get("data"), Mapping):
            tags = tuple(sorted(str(tag) for tag in gate["data"].get("tagged", {})))
    return Got(verdict=str(document.get("verdict", "")), stack=str(document.get("stack", "")), gates=gates, tags=tags)


def parse_outputs(text: str) -> dict[str, str]:
    """A GITHUB_OUTPUT file: `name=value` lines and `name<<DELIMITER` blocks."""
    outputs: dict[str, str] = {}
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            end = lines.index(delimiter, index + 1) if delimiter in lines[index + 1 :] else len(lines)
            outputs[name] = "\n".join(lines[index + 1 : end])
            index = end + 1
            continue
        if "=" in line:
            name, value = line.split("=", 1)
            outputs[name] = value
        index += 1
    return outputs


@dataclass(frozen=True)
class Mismatch:
    what: str  # a gate id, "verdict", "stack", "tags", "comment" or "replay"
    expected: str
    got: str
    headline: str


def compare(entry: Entry, got: Got) -> tuple[Mismatch, ...]:
    """Every way the tool's verdicts differ from the truth."""
    found: list[Mismatch] = []
    expected_verdicts = BLOCKING if entry.truth.verdict == "BLOCKED" else ("PASS",)
    if got.verdict not in expected_verdicts:
        found.append(Mismatch("verdict", entry.truth.verdict, got.verdict, entry.truth.why))
    if got.stack != entry.stack:
        found.append(Mismatch("stack", entry.stack, got.stack, "the stack the tool detected"))
    missing_tags = [tag for tag in entry.truth.tags if tag not in got.tags]
    if missing_tags:
        found.append(Mismatch("tags", ",".join(entry.truth.tags), ",".join(got.tags) or "none", "gate-integrity tags"))
    for gate_id in GATE_IDS:
        truth = entry.truth.gates[gate_id]
        result = got.gates.get(gate_id)
        if result is None:
            found.append(Mismatch(gate_id, "|".join(truth.expect), "absent", "the ledger has no such gate"))
        elif not truth.accepts(result.verdict):
            found.append(Mismatch(gate_id, "|".join(truth.expect), result.verdict, result.headline))
    return tuple(found)


def comment_problems(comment: str) -> tuple[Mismatch, ...]:
    """What a rendered comment must never be: longer than the limit, or saying a noise phrase."""
    found: list[Mismatch] = []
    if len(comment) > COMMENT_LIMIT:
        found.append(
            Mismatch("comment", f"<= {COMMENT_LIMIT} chars", f"{len(comment)} chars", "the comment is too long")
        )
    for phrase in NOISE:
        if phrase in comment:
            line = next(line for line in comment.splitlines() if phrase in line)
            found.append(Mismatch("comment", f"never '{phrase}'", "said", line.strip()[:200]))
    return tuple(found)


@dataclass(frozen=True)
class Outcome:
    entry: Entry
    got: Got | None
    mismatches: tuple[Mismatch, ...]
    seconds: float = 0.0


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table(outcomes: Sequence[Outcome]) -> str:
    """The Markdown table: one row per pull request, each mismatch with the tool's headline."""
    rows = [
        "| PR | kind | truth | the tool said | mismatches |",
        "| --- | --- | --- | --- | --- |",
    ]
    for outcome in outcomes:
        entry = outcome.entry
        link = f"[{entry.project}#{entry.pr}]({entry.repository}/pull/{entry.pr})"
        truth = entry.truth.verdict + (f" ({', '.join(entry.truth.tags)})" if entry.truth.tags else "")
        said = outcome.got.verdict if outcome.got else "no ledger"
        if outcome.got and outcome.got.tags:
            said += f" ({', '.join(outcome.got.tags)})"
        problems = "<br>".join(
            f"**{m.what}**: expected {m.expected}, got {m.got}: {_cell(m.headline)[:300]}" for m in outcome.mismatches
        )
        rows.append(f"| {link} `{entry.name}` | {entry.kind} | {truth} | {said} | {problems or 'none'} |")
    return "\n".join(rows) + "\n"


def console_row(outcome: Outcome) -> str:
    entry = outcome.entry
    said = outcome.got.verdict if outcome.got else "no ledger"
    status = "ok" if not outcome.mismatches else "MISMATCH"
    lines = [f"{status:8} {entry.name:18} expected {entry.truth.verdict:8} got {said:10} ({outcome.seconds:.0f}s)"]
    lines += [
        f"         - {m.what}: expected {m.expected}, got {m.got}: {m.headline[:240]}" for m in outcome.mismatches
    ]
    return "\n".join(lines)


def _gates_off(listed: tuple[str, ...], labels: tuple[str, ...]) -> tuple[str, ...]:
    """The workflow's `gates-off` input: the entry's own, and strength for a pull request labelled
    `refactor`, as the recommended workflow's expression switches it off."""
    return tuple(dict.fromkeys([*listed, *(["strength"] if REFACTOR_LABEL in labels else [])]))


def event(entry: Entry) -> dict[str, Any]:
    """A pull_request event built from the entry's SHAs, with a short body (no criteria, no scope)."""
    return {
        "action": "synchronize",
        "number": entry.pr,
        "pull_request": {
            "number": entry.pr,
            "title": f"{entry.project}#{entry.pr} ({entry.kind})",
            "body": f"Replay of {entry.repository}/pull/{entry.pr} from the real-PR corpus.",
            "draft": False,
            "labels": [{"name": label} for label in entry.labels],
            "base": {"sha": entry.base, "ref": "main"},
            "head": {"sha": entry.head, "ref": f"pr-{entry.pr}"},
        },
        "repository": {"full_name": entry.project, "default_branch": "main"},
    }


# ---------------------------------------------------------------- the effects


@dataclass(frozen=True)
class Step:
    command: str
    code: int | None  # None: timed out or could not start
    output: str


def _run(command: Sequence[str] | str, cwd: Path, env: Mapping[str, str], timeout: int) -> Step:
    shown = command if isinstance(command, str) else shlex.join(command)
    argv = ["bash", "-o", "pipefail", "-c", command] if isinstance(command, str) else list(command)
    try:
        done = subprocess.run(
            argv,
            cwd=cwd,
            env=dict(env),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            timeout=timeout,
            check=False,
            start_new_session=True,
        )
    except subprocess.TimeoutExpired as expired:
        output = expired.output.decode(errors="replace") if isinstance(expired.output, bytes) else ""
        return Step(shown, None, output + f"\n(timed out after {timeout}s)")
    except OSError as error:
        return Step(shown, None, str(error))
    return Step(shown, done.returncode, done.stdout.decode(errors="replace"))


def _source(entry: Entry, mirrors: Path | None) -> str:
    if mirrors is not None:
        local = mirrors / entry.project.replace("/", "+") / "repo"
        if local.is_dir():
            return str(local)
    return entry.repository + ".git"


def _project_env(entry: Entry, work: Path, cache: Path) -> dict[str, str]:
    """The project's steps' environment: its own caches, the tools it installs on PATH, CI set."""
    own = cache / entry.project.replace("/", "+")
    tools = work / "tools" / "bin"
    path = os.pathsep.join([str(tools), os.environ.get("PATH", "")])
    home_cargo = Path.home() / ".cargo" / "bin"
    if home_cargo.is_dir():
        path = os.pathsep.join([path, str(home_cargo)])
    scratch = work / "tmp"  # each its own: golangci-lint refuses to start beside another using the same one
    scratch.mkdir(exist_ok=True)
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "INPUT_", "RUNNER_"))},
        "CI": "true",
        "TMPDIR": str(scratch),
        "PATH": path,
        "TOOLS": str(tools.parent),
        "GOBIN": str(tools),
        "GOMODCACHE": str(own / "gomod"),
        "GOFLAGS": "-modcacherw",
        "CARGO_HOME": str(own / "cargo"),
        "npm_config_cache": str(own / "npm"),
        "PIP_CACHE_DIR": str(own / "pip"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PYTHONPATH": "",
    }


def _github_env(entry: Entry, repo: Path, work: Path, base_env: Mapping[str, str]) -> dict[str, str]:
    runner_temp = work / "runner-temp"
    runner_temp.mkdir(exist_ok=True)
    event_path = work / "event.json"
    event_path.write_text(json.dumps(event(entry), indent=2), encoding="utf-8")
    env = {
        **base_env,
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        "GITHUB_REPOSITORY": entry.project,
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event_path),
        "GITHUB_WORKSPACE": str(repo),
        "GITHUB_SHA": entry.head,
        "GITHUB_RUN_ID": "1",
        "GITHUB_RUN_ATTEMPT": "1",
        "RUNNER_TEMP": str(runner_temp),
        "PYTHONPATH": str(ROOT / "src"),
        "INPUT_REPORTS": "\n".join(entry.reports),
    }
    if entry.gates_off:
        env["INPUT_GATES-OFF"] = "\n".join(entry.gates_off)
    return env


def replay_one(entry: Entry, mirrors: Path | None, cache: Path, keep: Path | None) -> Outcome:
    """Clone, install, test, the runner step and the container step; the ledger compared with the truth."""
    started = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix=f"real-pr-{entry.name}-", dir=keep))
    repo = work / "repo"
    log = work / "replay.log"
    env = _project_env(entry, work, cache)

    def fail(what: str, step: Step) -> Outcome:
        tail = " / ".join(step.output.strip().splitlines()[-3:])
        mismatch = Mismatch("replay", "completes", f"{what} exit {step.code}", f"{step.command}: {tail}"[:400])
        return Outcome(entry, None, (mismatch,), time.monotonic() - started)

    def record(step: Step) -> Step:
        with log.open("a", encoding="utf-8") as out:
            out.write(f"$ {step.command}\n{step.output}\n[exit {step.code}]\n\n")
        return step

    clone = record(_run(["git", "clone", "--quiet", _source(entry, mirrors), str(repo)], work, env, GIT_TIMEOUT))
    if clone.code != 0:
        return fail("clone", clone)
    checkout = record(_run(["git", "checkout", "--quiet", "--detach", entry.head], repo, env, GIT_TIMEOUT))
    if checkout.code != 0:
        return fail("checkout", checkout)
    trees = record(_run(["git", "rev-parse", f"{entry.base}^{{tree}}", f"{entry.head}^{{tree}}"], repo, env, 60))
    if trees.output.split() != [entry.base_tree, entry.head_tree]:
        return fail("tree check", trees)
    (repo / "evidence").mkdir(exist_ok=True)
    for command in entry.install:
        step = record(_run(command, repo, env, INSTALL_TIMEOUT))
        if step.code != 0:
            return fail("install", step)
    for command in entry.test:
        record(_run(command, repo, env, TEST_TIMEOUT))  # a failing test run goes on: the verdict says what failed

    github = _github_env(entry, repo, work, env)
    runner_outputs = work / "runner-outputs"
    runner = record(
        _run(
            [
                sys.executable,
                "-m",
                "evidence_gate",
                "run",
                "--runner-step",
                "--base",
                entry.base,
                "--head",
                entry.head,
                "--ledger-out",
                "evidence-gate-ledger.json",
            ],
            repo,
            {**github, "GITHUB_OUTPUT": str(runner_outputs)},
            RUNNER_STEP_TIMEOUT,
        )
    )
    if runner.code is None or runner.code > 1:
        return fail("runner step", runner)
    runner_ledger = repo / "evidence-gate-ledger.json"
    digest = hashlib.sha256(runner_ledger.read_bytes()).hexdigest() if runner_ledger.is_file() else ""
    outputs_file = work / "container-outputs"
    summary_file = work / "job-summary.md"
    outputs_file.touch()
    summary_file.touch()
    container = record(
        _run(
            [sys.executable, str(ROOT / "entrypoint.py")],
            repo,
            {
                **github,
                "INPUT_LEDGER": "evidence-gate-ledger.json",
                "INPUT_LEDGER-SHA256": digest,
                "GITHUB_OUTPUT": str(outputs_file),
                "GITHUB_STEP_SUMMARY": str(summary_file),
            },
            CONTAINER_STEP_TIMEOUT,
        )
    )
    outputs = parse_outputs(outputs_file.read_text(encoding="utf-8", errors="replace"))
    ledger_path = Path(outputs.get("ledger", str(work / "runner-temp" / "evidence-gate-ledger.json")))
    if container.code is None or not ledger_path.is_file():
        return fail("container step", container)
    got = read_ledger(json.loads(ledger_path.read_text(encoding="utf-8")))
    mismatches = list(compare(entry, got))
    report = Path(outputs.get("report", str(ledger_path.with_suffix(".md"))))
    if report.is_file():
        mismatches += comment_problems(report.read_text(encoding="utf-8", errors="replace"))
    else:
        mismatches.append(Mismatch("comment", "a rendered report", "none", f"no report at {report.name}"))
    return Outcome(entry, got, tuple(mismatches), time.monotonic() - started)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mirrors", type=Path, help="a folder of <owner>+<name>/repo bare git directories")
    parser.add_argument("--only", action="append", default=[], help="replay only this entry (repeatable)")
    parser.add_argument("--markdown", type=Path, help="write the Markdown table here")
    parser.add_argument("--jobs", type=int, default=1, help="pull requests replayed side by side")
    parser.add_argument("--cache", type=Path, help="the per-project caches (default: a folder in the temp dir)")
    parser.add_argument("--keep", type=Path, help="replay inside this folder and keep the clones and logs")
    args = parser.parse_args(argv)
    entries = load_corpus(CORPUS.read_text(encoding="utf-8"), json.loads(SCHEMA.read_text(encoding="utf-8")))
    if args.only:
        unknown = sorted(set(args.only) - {entry.name for entry in entries})
        if unknown:
            parser.error(f"no such entry: {', '.join(unknown)}")
        entries = tuple(entry for entry in entries if entry.name in args.only)
    cache = args.cache or Path(tempfile.gettempdir()) / "evidence-gate-real-prs-cache"
    cache.mkdir(parents=True, exist_ok=True)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)

    def one(entry: Entry) -> Outcome:
        scratch = args.keep or Path(tempfile.mkdtemp(prefix="evidence-gate-real-prs-"))
        outcome = replay_one(entry, args.mirrors, cache, scratch)
        if args.keep is None:
            shutil.rmtree(scratch, ignore_errors=True)
        print(console_row(outcome), flush=True)
        return outcome

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        outcomes = list(pool.map(one, entries))
    mismatched = [outcome for outcome in outcomes if outcome.mismatches]
    print(f"\n{len(outcomes) - len(mismatched)} of {len(outcomes)} pull requests as the truth says")
    if args.markdown:
        args.markdown.write_text(table(outcomes), encoding="utf-8")
    return 1 if mismatched else 0


if __name__ == "__main__":
    sys.exit(main())
