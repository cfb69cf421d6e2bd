"""`python -m evidence_gate` runs the same command line as the `evidence-gate` script."""

import sys

from evidence_gate.cli import main

sys.exit(main())
