"""Hypothesis profiles for the fuzz targets, chosen by `EVIDENCE_GATE_FUZZ`.

- `smoke` (the default): each target tries a few derandomized examples, so the README's test command
  still runs every target (a target broken by a change is noticed there) and stays fast;
- `ci`: what `.ci/run`'s fuzz step runs (`-m fuzz`): enough examples per target for the whole step to
  take a few minutes on two cores, each example bounded in time; CI passes a fresh
  `--hypothesis-seed` and prints it. A failure is reported as found, not shrunk (shrinking a large
  input can take Hypothesis minutes, past the step's time limit, which would lose the report): its
  example and its `@reproduce_failure` blob are printed, and the same seed under `deep` shrinks it;
- `deep`: a long local run, for after a change to a reader.

No profile keeps an example database: a failure is reproduced from its seed and the minimal example
Hypothesis prints, and a plain regression test holds it once fixed.
"""

from __future__ import annotations

import os
from datetime import timedelta

from hypothesis import HealthCheck, Phase, settings

_SLOW_INPUTS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]

settings.register_profile(
    "smoke",
    max_examples=20,
    derandomize=True,
    database=None,
    deadline=timedelta(seconds=5),
    suppress_health_check=_SLOW_INPUTS,
    print_blob=True,
)
settings.register_profile(
    "ci",
    max_examples=int(os.environ.get("EVIDENCE_GATE_FUZZ_EXAMPLES", "250")),
    phases=(Phase.explicit, Phase.generate, Phase.target),
    database=None,
    deadline=timedelta(seconds=5),
    suppress_health_check=_SLOW_INPUTS,
    print_blob=True,
)
settings.register_profile(
    "deep",
    max_examples=5_000,
    database=None,
    deadline=timedelta(seconds=10),
    suppress_health_check=_SLOW_INPUTS,
    print_blob=True,
)
settings.load_profile(os.environ.get("EVIDENCE_GATE_FUZZ", "smoke"))
