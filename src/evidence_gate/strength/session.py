"""One strength run: each changed test file run alone in a worktree of the head (it must pass
there), then again with the production change taken away (plan.py), and once more at the head
when that second run failed, to rule out a flaky test.

Worktrees are made once per job, not per test: a job runs all its files at the head, reverts the
production files once (a file that holds its own tests: its production lines alone, partial.py),
runs the ones that passed, and resets to the head for the reruns. `jobs`
worktrees run side by side. Each file's verdict is reported as soon as it is final.

Where the job's own reports of this head show a file's cases passing (`Options.reported`), its first
head run is left out: the base run comes first, and the head is run alone after it where the verdict
needs it (red, still-green), so each verdict still rests on the file's own runs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from evidence_gate.changes import PathClassifier
from evidence_gate.effects import Effects
from evidence_gate.errors import GitError
from evidence_gate.git import WORKTREE, Git
from evidence_gate.ledger.payloads.strength import Verdict
from evidence_gate.markers import Claim, markers_for
from evidence_gate.model import Change, Counts, FileKind, Shard
from evidence_gate.stacks.commands import parse_template
from evidence_gate.stacks.detect import command_for
from evidence_gate.stacks.table import Adapter, AdapterTable
from evidence_gate.strength.evidence import RunEvidence, errors_for, new_symbols, read_run
from evidence_gate.strength.generated import copy_generated, generated_files
from evidence_gate.strength.isolation import LOCKFILES, Install, Setup, prepare
from evidence_gate.strength.partial import Tangled, production_reverted
from evidence_gate.strength.plan import Plan, needs_head_tests, plan
from evidence_gate.strength.sandbox import kill_processes_in, sandbox, sweep_stale, terminations_interrupt
from evidence_gate.strength.units import Unit, unit_for
from evidence_gate.strength.verdict import Judged, judge_base, judge_head
from evidence_gate.summary.read import candidate_parsers

Progress = Callable[[Judged, int], None]  # a final verdict, and how many files this run judges
HEAD_TESTS_READ = 5_000  # test files read to find those a changed helper's users
HEAD_TEST_BYTES = 256 * 1024  # of each


@dataclass(frozen=True, kw_only=True)
class Options:
    timeout: float  # seconds per run of one file
    jobs: int = 1
    template: str | None = None  # a shell command with {file}, {dir}, {stem}, instead of the stack's
    shard: Shard | None = None
    install: str | None = None  # run once in each worktree before its tests (`npm ci`)
    # the head's own test run as the job's reports tell it: a test file (relative to the checkout) or
    # `class <name>` -> its cases' outcomes (facts.py, `ReportedCases.by_source`); None: not this head's
    reported: Mapping[str, Counts] | None = None


@dataclass(frozen=True, kw_only=True)
class Stack:
    table: AdapterTable
    adapter: Adapter
    root: str = "."  # where the stack's project sits, relative to the top
    classifier: PathClassifier | None = None  # which of the head's files are tests; None: the adapter's at `root`

    def kinds(self) -> PathClassifier:
        return self.classifier or PathClassifier.of_adapter(self.table, self.adapter, self.root)


@dataclass(frozen=True, kw_only=True)
class Outcome:
    judged: tuple[Judged, ...]  # in the diff's order
    changed_tests: int  # before sharding
    note: str | None = None  # why there is nothing to judge
    copied: tuple[str, ...] = ()  # the ignored files of the checkout copied into each worktree (generated.py)


def judge_change(effects: Effects, change: Change, stack: Stack, options: Options, progress: Progress) -> Outcome:
    git = effects.checkout()
    sweep_stale(git, effects.clock)
    head = None
    if needs_head_tests(change):
        head = git.snapshot() if change.head == WORKTREE else change.head
        the_plan = plan(change, _head_tests(git, head, stack.kinds()))
    else:
        the_plan = plan(change)
    tests = [path for path in the_plan.tests if options.shard is None or options.shard.holds(path)]
    if not the_plan.tests:
        touched = "production code and " if change.of_kind(FileKind.PRODUCTION) else ""
        note = the_plan.note or f"the change touches {touched}no test: nothing to judge"
        return Outcome(judged=(), changed_tests=0, note=note)
    if not the_plan.reverts:
        why = (
            "no production change to revert: the production files' changes are comments and blank lines only"
            if the_plan.comments_only
            else "no production change to revert: only tests changed"
        )
        judged = [Judged(path=path, verdict=Verdict.NOT_RUN, reason=why) for path in tests]
        for item in judged:
            progress(item, len(judged))
        return Outcome(judged=tuple(judged), changed_tests=len(the_plan.tests))
    if not tests:
        held = f"this shard holds none of the {len(the_plan.tests)} changed test files"
        return Outcome(judged=(), changed_tests=len(the_plan.tests), note=held)
    if head is None:
        head = git.snapshot() if change.head == WORKTREE else change.head
    partial, tangled = _partial(git, change, the_plan, head)
    if tangled:  # such a file goes back whole for the other tests' second run; its own are not judged
        kept = tuple(path for path in the_plan.partial if path not in tangled)
        the_plan = replace(the_plan, partial=kept, restore=(*the_plan.restore, *tangled))
    before = _texts(git, the_plan.merge_base, the_plan.restore)
    before.update({path: content.decode("utf-8", "replace") for path, (content, _) in partial.items()})
    run = _Run(
        effects=effects,
        stack=stack,
        options=options,
        plan=the_plan,
        head=head,
        partial=partial,
        tangled=tangled,
        symbols=new_symbols(_texts(git, head, the_plan.production), before),
        install=Install(
            command=options.install,
            link=options.install is None
            and not any(PurePosixPath(changed.path).name in LOCKFILES for changed in change.files),
            timeout=options.timeout,
        ),
        progress=progress,
        total=len(tests),
    )
    slices = [tests[index :: options.jobs] for index in range(min(options.jobs, len(tests)))]
    with terminations_interrupt(), sandbox(git, head) as box:
        trees = [box.tree() for _ in slices]
        wanted = generated_files(git, git.files_at(head))
        copies = [copy_generated(git.top, tree.top, wanted) for tree in trees]  # the same for each: one head
        executor = ThreadPoolExecutor(max_workers=len(slices), thread_name_prefix="strength")
        futures: list[Future[list[Judged]]] = [
            executor.submit(run.judge_slice, tree, files) for tree, files in zip(trees, slices, strict=True)
        ]
        try:
            results = [item for future in futures for item in future.result()]
        except BaseException:
            run.cancelled.set()
            kill_processes_in(box.root)
            executor.shutdown(wait=True, cancel_futures=True)
            raise
        executor.shutdown()
    order = {path: index for index, path in enumerate(tests)}
    return Outcome(
        judged=tuple(sorted(results, key=lambda item: order[item.path])),
        changed_tests=len(the_plan.tests),
        copied=copies[0],
    )


def _partial(
    git: Git, change: Change, the_plan: Plan, head: str
) -> tuple[dict[str, tuple[bytes, str]], dict[str, str]]:
    """Each file that holds its own tests and goes back in part: its content for the second run (its
    production lines the base's, its tests the head's) and its mode; and the files whose production
    and test lines change side by side, each with why its tests are not judged."""
    files = {changed.path: changed for changed in change.files}
    contents = {}
    tangled = {}
    for path in the_plan.partial:
        changed = files[path]
        base = git.file_at(the_plan.merge_base, PurePosixPath(changed.old_path or path))
        now = git.file_at(head, PurePosixPath(path))
        if base is None or now is None:
            raise GitError(f"{path}: not a file at both the base and the head; refusing to guess")
        try:
            contents[path] = (production_reverted(changed, base, now), changed.new_mode or "100644")
        except Tangled as found:
            tangled[path] = (
                f"its production code and its own tests change side by side at line {found.line}, so the one cannot"
                " be taken away without the other: its tests are not judged (the file goes back whole for the"
                " other tests' second run)"
            )
    return contents, tangled


def _head_tests(git: Git, head: str, kinds: PathClassifier) -> dict[str, str]:
    """The head's test files (the first HEAD_TESTS_READ of them) with their text."""
    tests = [path for path in git.files_at(head) if kinds.kind(path) is FileKind.TEST][:HEAD_TESTS_READ]
    texts = {}
    for path in tests:
        content = git.read_at(head, path, HEAD_TEST_BYTES)
        if content is not None:
            texts[path] = content.decode("utf-8", "replace")
    return texts


def _texts(git: Git, commit: str, paths: Sequence[str]) -> dict[str, str]:
    texts = {}
    for path in paths:
        content = git.file_at(commit, PurePosixPath(path))
        if content is not None:
            texts[path] = content.decode("utf-8", "replace")
    return texts


@dataclass(kw_only=True)
class _Run:
    effects: Effects
    stack: Stack
    options: Options
    plan: Plan
    head: str
    partial: dict[str, tuple[bytes, str]]  # a file holding its own tests: its content and mode for the second run
    tangled: dict[str, str]  # a file holding its own tests that goes back whole: why they are not judged
    symbols: frozenset[str]
    install: Install
    progress: Progress
    total: int

    def __post_init__(self) -> None:
        self.cancelled = threading.Event()
        self._lock = threading.Lock()
        adapter = self.stack.adapter
        self._parsers = candidate_parsers(None, adapter.parsers)
        self._markers = markers_for(self.stack.table, Claim.TEST, (adapter,))
        self._errors = errors_for(adapter.language)

    def judge_slice(self, tree: Git, tests: list[str]) -> list[Judged]:
        logs = tree.top.parent / f"{tree.top.name}-logs"
        logs.mkdir()
        language = self.stack.adapter.language
        root = self.stack.root
        inline = self.stack.adapter.inline_tests
        functions = inline.functions if inline is not None else ()
        setup = prepare(self.effects, tree.top, root, language, self.plan.production, self.install, logs / "setup")
        done: list[Judged] = []
        passed: dict[str, tuple[Unit, RunEvidence | None]] = {}  # None: the job's reports show it passing
        for number, path in enumerate(tests):
            if self.cancelled.is_set():
                return done
            if path in self.tangled:
                done.append(self._report(Judged(path=path, verdict=Verdict.UNJUDGED, reason=self.tangled[path])))
                continue
            unit = unit_for(self._in_root(path), self.stack.adapter.id, language, _read(tree.top / path), functions)
            head = None
            why = _not_runnable(unit, setup, linked=(tree.top / path).is_symlink())
            if why is None and self._passed_in_reports(path, unit) is not None:
                passed[path] = (unit, None)
                continue
            if why is None:
                head = self._run(tree, unit, setup, logs / f"{number}-head")
                why = judge_head(head)
            if why is None and head is not None:
                passed[path] = (unit, head)
            else:
                judged = Judged(
                    path=path,
                    verdict=Verdict.NOT_RUN,
                    reason=why or "",
                    scope=unit.scope,
                    head=head,
                    loaded_from=setup.loaded_from,
                )
                done.append(self._report(judged))
        if not passed or self.cancelled.is_set():
            return done
        tree.restore_paths(self.plan.merge_base, self.plan.restore)
        tree.remove_paths(self.plan.remove)
        for path, (content, mode) in self.partial.items():
            tree.write_file(path, content, mode)
        reverted = tree.tree_differs(self.head, self.plan.production)
        again: dict[str, tuple[RunEvidence, tuple[Verdict, str]]] = {}  # run at the head after the base run
        for number, (path, (unit, head)) in enumerate(passed.items()):
            if self.cancelled.is_set():
                return done
            base = self._run(tree, unit, setup, logs / f"{number}-base")
            decided = judge_base(base, None, reverted)
            # red needs the head run again (a flaky test); still-green, a head run alone, where the
            # job's reports stood for it
            if decided[0] is Verdict.RED or (head is None and decided[0] is Verdict.STILL_GREEN):
                again[path] = (base, decided)
                continue
            judged = self._judged(path, unit, setup, decided, (head, base, None))
            if head is None:
                judged = replace(judged, head_skipped=self._skipped(path, unit))
            done.append(self._report(judged))
        tree.reset_to(self.head)
        for number, (path, (base, decided)) in enumerate(again.items()):
            if self.cancelled.is_set():
                return done
            unit, head = passed[path]
            rerun = self._run(tree, unit, setup, logs / f"{number}-rerun")
            if head is None:
                done.append(self._report(self._alone(path, unit, setup, decided, (base, rerun))))
                continue
            decided = judge_base(base, rerun, reverted)
            done.append(self._report(self._judged(path, unit, setup, decided, (head, base, rerun))))
        return done

    def _passed_in_reports(self, path: str, unit: Unit) -> Counts | None:
        """The counts of this file's cases in the job's reports of this head, when they passed (none
        failed, one or more passed): its first head run is left out. A file is looked up by its path,
        a JVM test by its class too."""
        reported = self.options.reported
        if not reported:
            return None
        keys = [path, self._in_root(path)]
        name = unit.slots.get("name")
        if self.stack.adapter.language in ("java", "kotlin") and isinstance(name, str):
            keys.append(f"class {name}")
        counts = next((reported[key] for key in keys if key in reported), None)
        return counts if counts is not None and counts.passed and not counts.failed else None

    def _alone(
        self,
        path: str,
        unit: Unit,
        setup: Setup,
        decided: tuple[Verdict, str],
        runs: tuple[RunEvidence, RunEvidence],
    ) -> Judged:
        """The verdict of a file whose first head run the job's reports stood for: the base run's,
        once the head run that followed it passed alone."""
        base, head = runs
        skipped = self._skipped(path, unit)
        why = judge_head(head)
        if why is not None:
            decided = (Verdict.NOT_RUN, f"{why}, though {skipped}")
        judged = self._judged(path, unit, setup, decided, (head, base, None))
        return replace(judged, head_skipped=skipped)

    def _skipped(self, path: str, unit: Unit) -> str:
        counts = self._passed_in_reports(path, unit)
        shown = f"{counts.passed} passed" if counts else "passed"
        return f"the job's reports of this head have its cases passing ({shown})"

    def _judged(
        self,
        path: str,
        unit: Unit,
        setup: Setup,
        decided: tuple[Verdict, str],
        runs: tuple[RunEvidence | None, RunEvidence, RunEvidence | None],
    ) -> Judged:
        head, base, rerun = runs
        return Judged(
            path=path,
            verdict=decided[0],
            reason=decided[1],
            scope=unit.scope,
            loaded_from=setup.loaded_from,
            head=head,
            base=base,
            rerun=rerun,
        )

    def _run(self, tree: Git, unit: Unit, setup: Setup, log: Path) -> RunEvidence:
        root = tree.top / self.stack.root
        if self.options.template is not None:
            command = parse_template(self.options.template, "--test-command").render(unit.slots)
        else:
            command = command_for(
                self.stack.table, self.stack.adapter.id, unit.command, tree.top, self.stack.root, unit.slots
            )
        run = self.effects.commands(["sh", "-c", command], root, log, self.options.timeout, extra=setup.extra)
        return read_run(run, self._parsers, self._markers, self._errors, self.symbols, command=command)

    def _in_root(self, path: str) -> str:
        """A test file's path as its stack's commands see it: relative to the stack's root."""
        root = self.stack.root
        return path if root == "." else PurePosixPath(path).relative_to(root).as_posix()

    def _report(self, judged: Judged) -> Judged:
        why = self.plan.through.get(judged.path)
        if why is not None:
            judged = replace(judged, reason=f"{judged.reason} ({why})" if judged.reason else why)
        with self._lock:
            self.progress(judged, self.total)
        return judged


def _not_runnable(unit: Unit, setup: Setup, *, linked: bool) -> str | None:
    if linked:  # the pull request's file: a link may lead anywhere on the runner
        return "it is a symbolic link: strength runs no test file that leads elsewhere"
    if unit.problem is not None:
        return f"no unit runs exactly this file's tests: {unit.problem}"
    return setup.problem


def _read(path: Path) -> str:
    """A changed test file's text, to name its tests; a link is never followed (it is not run either)."""
    if path.is_symlink():
        return ""
    try:
        return path.read_text("utf-8", "replace")
    except OSError:
        return ""
