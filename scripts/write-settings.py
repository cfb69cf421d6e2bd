"""Writes action.yml's inputs and docs/usage.md's inputs table from the settings table,
src/evidence_gate/settings.yaml (tests/test_settings_table.py fails until they are written).

    python3 scripts/write-settings.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from evidence_gate.settings_table import rewritten  # noqa: E402 - importable only once src is on the path


def main() -> int:
    action, usage = ROOT / "action.yml", ROOT / "docs" / "usage.md"
    new_action, new_usage = rewritten(action.read_text("utf-8"), usage.read_text("utf-8"))
    for path, text in ((action, new_action), (usage, new_usage)):
        if path.read_text("utf-8") != text:
            path.write_text(text, "utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
