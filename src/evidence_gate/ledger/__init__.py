"""The ledger: what a run found, the one artifact that crosses every boundary (CLI verbs, the runner
step and the container step, matrix shards, a fork's run and the `workflow_run` that publishes it, a
base commit's run and the pull request's). Its model, JSON form, digest, quality record, baseline,
stagnation and catalog of gates live here, below every reader and gate, so that render/ and github/
read a ledger without loading a gate."""
