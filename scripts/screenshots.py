"""Writes docs/images/first-screen-<case>.png: the comment of the demo, a passing fix, a relaxing change
and a run with 200 failing tests, rendered by GitHub's Markdown renderer (cmark-gfm) into the
preview's page and shot in headless Chromium at 1280x800, the way tests/render/test_first_screen.py
checks them.

    python3 scripts/screenshots.py [--out docs/images]

Needs what the tests need: cmark-gfm in tools/node_modules (scripts/install-test-tools.sh) and
Debian's chromium, with fonts-noto-color-emoji for the emoji.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "src")]

from tests.render.first_screen import CASES, comment  # noqa: E402
from tests.render.gfm import to_html  # noqa: E402
from tests.test_demo import CHROMIUM_FLAGS  # noqa: E402

from evidence_gate.render.preview import page_html  # noqa: E402  (after the path above, to run from a checkout)


def demo_comment(folder: Path) -> str:
    """The demo's comment, from a real run of `evidence-gate demo`."""
    done = subprocess.run(
        [sys.executable, "-m", "evidence_gate", "demo", "--preview", str(folder / "demo.html")],
        capture_output=True,
        text=True,
        check=True,
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    return done.stdout


def shoot(markdown: str, name: str, out: Path, folder: Path) -> Path:
    browser = shutil.which("chromium")
    if browser is None:
        raise SystemExit("screenshots: headless Chromium is not installed (Debian's chromium package)")
    (html,) = to_html(markdown)
    page = folder / f"{name}.html"
    page.write_text(page_html(html, f"Evidence Gate: {name}"), encoding="utf-8")
    profile = folder / f"profile-{name}"
    profile.mkdir()
    target = out / f"first-screen-{name}.png"
    subprocess.run(
        [
            browser,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            "--window-size=1280,800",
            "--hide-scrollbars",
            f"--screenshot={target}",
            page.as_uri(),
        ],
        capture_output=True,
        check=True,
        timeout=120,
    )
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="evidence-gate-shots-") as temp:
        folder = Path(temp)
        shots = {name: comment(name) for name in CASES}
        shots["demo"] = demo_comment(folder)
        for name, markdown in shots.items():
            print(shoot(markdown, name, args.out, folder).relative_to(ROOT))


if __name__ == "__main__":
    main()
