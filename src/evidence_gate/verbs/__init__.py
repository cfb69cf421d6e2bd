"""One module per CLI verb, named for it. Each has EPILOG (its exit codes), `configure(parser)` to
add its flags, and `run(args, out, environ)` returning the exit code. The verbs and their one-line
help are listed here, in the order `--help` shows them, so the command line imports a verb's module
only when that verb runs."""

VERBS: dict[str, str] = {
    "detect": "which toolchains (stacks) a repository uses, and their build/test commands",
    "changes": "what a change touched: files, their status and kind, and the added/removed lines",
    "inventory": (
        "every gate edit of a change (tests, CI, gate config, snapshots), the relaxing hunks tagged RH-1..RH-15"
    ),
    "summary": "test counts read from what the runners printed: executed, passed, failed, skipped",
    "evidence": 'is the claim "the build passed" or "the tests passed" backed by the log?',
    "criteria": "per-criterion evidence: is each acceptance criterion proven by a named, passing test?",
    "freeze": "prove test files red at HEAD and freeze them, so no later change edits them to reach green",
    "strength": "does each changed test fail without the production change? (red, still-green, unjudged, not-run)",
    "coverage": "the share of the change's executable lines the tests run, weighted by test strength",
    "quality": "every numbered check, run here with the project's own tools -> the quality-gate report",
    "baseline": "run the checks at a revision and write what they measured: a baseline for `quality --baseline F`",
    "run": "the whole pipeline: detect, changes, every check -> the ledger, the quality-gate report and the verdict",
    "merge": "merge the ledgers of several jobs (a test matrix) into one",
    "publish": "publish a ledger made elsewhere (the fork recipe's workflow_run step)",
    "demo": "show the PR comment on an example pull request the tool builds and tests for real",
}
