"""Reruns in a JUnit file, merged so each test counts once: a test written as a test case per run
(gotestsum's `--rerun-fails`) is remembered, while its suite is open, only once it has failed; and
the notes that name the flaky tests and count the reruns (Surefire's too). Kept apart from the
reader, which only asks whether a test case counts.
"""

from __future__ import annotations

import hashlib

from evidence_gate.summary.junit_tally import Scan, Suite
from evidence_gate.summary.xml_documents import one_line

# Failed test cases remembered at once (those of the open suites), to merge the reruns written as test cases.
_MAX_TRACKED = 200_000
_MAX_NAMED = 5  # flaky tests named in a note


def _key(identity: tuple[Suite | None, str, str, str]) -> bytes:
    """A test case's class, name and file as remembered: a digest, so a megabyte name costs no more than a short one."""
    _, classname, name, file = identity
    return hashlib.blake2b(f"{classname}\0{name}\0{file}".encode(errors="replace"), digest_size=16).digest()


def rerun_of(
    identity: tuple[Suite | None, str, str, str], outcome: str, suite: Suite | None, runs: dict[bytes, bool], scan: Scan
) -> bool:
    """Whether this test case counts. One that repeats a failed one of its suite (same class, name and
    file) is that test run again, written as a test case per run, and the test counts once: a failed
    run again counts in place of the earlier one; a pass or a skip after it is not counted, and the
    failure stands (a pass is named flaky). No attribute tells a retry from another run of the name
    (cmocka writes a test whose teardown failed as a failed test case, then a passed one), so a
    passing run never clears a failure. After a pass or a skip, a test case of the same name stays a
    test of its own. `runs` are the suite's failed test cases (the document's, outside any suite)."""
    if not runs and outcome != "failed":
        return True  # no failed test case in this suite yet: this one reruns nothing
    key = _key(identity)
    repeated = runs.get(key)
    if repeated is None:
        if outcome != "failed":
            return True
        if scan.tracked < _MAX_TRACKED:
            runs[key] = False
            scan.tracked += 1
        else:
            scan.untracked = True
        return True
    if suite is not None:
        suite.repeats += 1
    if not repeated:
        scan.reran += 1
    if outcome == "failed":
        scan.untally("failed", suite)  # the earlier failed run is taken back: this one counts for the test
        if suite is not None:
            suite.taken_back += 1
        runs[key] = True
        return True
    del runs[key]  # its last run did not fail: a later test case of this name is another test
    scan.tracked -= 1
    if outcome == "passed":
        name_flaky(scan.rerun_flaky, scan, identity)
    return False  # the failure stands: nothing in a repeated test case says it was a retry (cmocka's teardown)


def reruns_done(runs: dict[bytes, bool], scan: Scan) -> None:
    """A suite (or a document) ended: its failed test cases are no longer remembered."""
    scan.tracked -= len(runs)
    runs.clear()


def name_flaky(named: list[str], scan: Scan, identity: tuple[Suite | None, str, str, str]) -> None:
    """Count a flaky test, and name it in `named` (Surefire's, counted passed, or a repeated test
    case's, counted failed) while it holds fewer than `_MAX_NAMED`."""
    if named is scan.flaky:
        scan.flaky_count += 1
    else:
        scan.rerun_flaky_count += 1
    if len(named) < _MAX_NAMED:
        _, classname, name, _ = identity
        classname, name = classname.strip(), name.strip()
        named.append(one_line(f"{classname}::{name}" if classname and classname != name else name)[:200])


def rerun_notes(scan: Scan) -> list[str]:
    notes = []
    if scan.surefire_failed_reruns:
        notes.append(
            f"{scan.surefire_failed_reruns} failed test(s) failed on every rerun too (Surefire's <rerunFailure> or "
            "<rerunError>): each counted once, as failed"
        )
    if scan.reran:
        notes.append(
            f"{scan.reran} test(s) appear as a test case per run (a rerun): each counted once, failed if any run failed"
        )
    if scan.flaky_count:
        more = f" (and {scan.flaky_count - len(scan.flaky)} more)" if scan.flaky_count > len(scan.flaky) else ""
        notes.append(
            f"{scan.flaky_count} flaky test(s) failed and then passed on a rerun, counted as passed: "
            + ", ".join(scan.flaky)
            + more
        )
    if scan.rerun_flaky_count:
        count, named = scan.rerun_flaky_count, scan.rerun_flaky
        more = f" (and {count - len(named)} more)" if count > len(named) else ""
        notes.append(
            f"{count} test(s) failed and then passed in a later test case of the same name, counted as failed"
            " (a report that writes a test case per run says nothing that makes the pass a retry's): "
            + ", ".join(named)
            + more
        )
    if scan.untracked:
        notes.append(
            f"more than {_MAX_TRACKED:,} failed test cases at once: past those, a test case that repeats a failed "
            "one is counted as a test of its own"
        )
    return notes
