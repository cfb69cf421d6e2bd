"""GitHub's Markdown renderer for tests: the cmark-gfm npm package (node bindings of github/cmark-gfm),
run through node, its HTML parsed with lxml.

GitHub's own options: the table, strikethrough, autolink and tasklist extensions, and raw HTML kept
(github.com sanitizes it afterwards, and keeps `<details>`). The tagfilter extension is left out on
purpose: it rewrites `<script>` and a few other tags as text, which would hide exactly the raw HTML
these tests look for. Mentions and references are linked on github.com after rendering, from the
text outside code; `visible_text` returns that text so tests can look for them.

Found through CMARK_GFM_NODE_MODULES (a node_modules holding cmark-gfm), else tools/node_modules.
A missing renderer fails the test: it is never skipped.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import lxml.html
import pytest
from lxml.html import HtmlElement

from tests.tools import require, require_tool

NODE_MODULES_ENV = "CMARK_GFM_NODE_MODULES"
_REPO = Path(__file__).resolve().parents[2]
_SCRIPT = r"""
const cmark = require(require('path').join(process.env.CMARK_GFM_NODE_MODULES, 'cmark-gfm'));
const options = {unsafe: true, extensions: {table: true, strikethrough: true, autolink: true, tasklist: true}};
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => {
  const documents = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  process.stdout.write(JSON.stringify(documents.map((markdown) => cmark.renderHtmlSync(markdown, options))));
});
"""


def _node_modules() -> Path:
    configured = os.environ.get(NODE_MODULES_ENV)
    node_modules = Path(configured) if configured else _REPO / "tools" / "node_modules"
    require(
        (node_modules / "cmark-gfm" / "package.json").is_file(),
        f"GitHub's Markdown renderer (cmark-gfm) is not in {node_modules}: run scripts/install-test-tools.sh,"
        f" or set {NODE_MODULES_ENV} to a node_modules directory that holds cmark-gfm",
    )
    return node_modules


def to_html(*documents: str) -> list[str]:
    """Each Markdown document as GitHub's renderer makes it HTML; one node process for the batch."""
    node = require_tool("node", hint="it runs cmark-gfm; install Node.js, then run scripts/install-test-tools.sh")
    result = subprocess.run(
        [node, "-e", _SCRIPT],
        input=json.dumps(list(documents)).encode("utf-8"),
        capture_output=True,
        env={**os.environ, NODE_MODULES_ENV: str(_node_modules())},
        check=False,
        timeout=300,
    )
    if result.returncode != 0:
        pytest.fail(f"cmark-gfm failed: {result.stderr.decode('utf-8', 'replace')}")
    html: list[str] = json.loads(result.stdout.decode("utf-8"))
    return html


def parse(html: str) -> HtmlElement:
    """The HTML under one <div>, comments included."""
    return lxml.html.fragment_fromstring(html, create_parent="div")


def render(markdown: str) -> HtmlElement:
    return parse(to_html(markdown)[0])


def elements(root: HtmlElement) -> list[HtmlElement]:
    """Every element below the root, comments left out."""
    found: list[HtmlElement] = root.xpath(".//*")
    return found


def comments(root: HtmlElement) -> list[str]:
    """The HTML comments the renderer kept: raw HTML blocks of the Markdown."""
    found: list[HtmlElement] = root.xpath(".//comment()")
    return [f"<!--{node.text}-->" for node in found]


def visible_text(root: HtmlElement) -> str:
    """The text GitHub scans for mentions and references: every text node outside code."""
    found: list[str] = root.xpath(".//text()[not(ancestor::code) and not(ancestor::pre)]")
    return "".join(found)
