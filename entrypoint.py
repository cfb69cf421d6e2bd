"""The container's front door: a thin call into the package (see evidence_gate/action.py)."""

import sys

from evidence_gate.action import main

sys.exit(main())
