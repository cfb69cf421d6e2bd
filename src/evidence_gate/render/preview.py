"""The demo's preview: the comment's Markdown as one self-contained HTML page styled like a GitHub
comment (CommonMark with GitHub's tables and strikethrough), that works offline and runs nothing."""

from __future__ import annotations

import html

from markdown_it import MarkdownIt

# GitHub's markdown body, in small: system fonts only, nothing loaded from anywhere.
_STYLE = """\
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --subtle: #f6f8fa;
  --border: #d1d9e0; --code: rgba(129, 139, 152, 0.12); }
@media (prefers-color-scheme: dark) {
  :root { --fg: #f0f6fc; --muted: #9198a1; --bg: #0d1117; --subtle: #151b23; --border: #3d444d;
    --code: rgba(101, 108, 118, 0.2); }
}
body { margin: 0; padding: 32px 16px; background: var(--bg); color: var(--fg);
  font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif,
  "Apple Color Emoji", "Segoe UI Emoji"; }
.comment { max-width: 880px; margin: 0 auto; border: 1px solid var(--border); border-radius: 6px; }
.comment > header { padding: 8px 16px; background: var(--subtle); border-bottom: 1px solid var(--border);
  border-radius: 6px 6px 0 0; color: var(--muted); }
.markdown-body { padding: 16px; overflow-wrap: break-word; }
.markdown-body > :first-child { margin-top: 0; }
.markdown-body > :last-child { margin-bottom: 0; }
h1, h2, h3 { margin: 24px 0 16px; font-weight: 600; line-height: 1.25; }
h3 { font-size: 1.25em; }
p, ul, ol, table, pre, details { margin: 0 0 16px; }
ul, ol { padding-left: 2em; }
li + li { margin-top: 0.25em; }
table { display: block; width: max-content; max-width: 100%; overflow: auto; border-collapse: collapse;
  border-spacing: 0; }
th, td { padding: 6px 13px; border: 1px solid var(--border); }
th { font-weight: 600; }
tr { background: var(--bg); border-top: 1px solid var(--border); }
tr:nth-child(2n) { background: var(--subtle); }
code, pre { font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
  font-size: 85%; }
code { padding: 0.2em 0.4em; border-radius: 6px; background: var(--code); }
pre { padding: 16px; overflow: auto; line-height: 1.45; border-radius: 6px; background: var(--subtle); }
pre code { padding: 0; font-size: 100%; background: transparent; white-space: pre; }
summary { cursor: pointer; }
details[open] > summary { margin-bottom: 16px; }
"""


def preview_html(markdown: str, title: str) -> str:
    """`markdown` as a page styled like a GitHub comment, self-contained and safe to open.

    Raw HTML is on because the templates write `<details>` blocks and marker comments, as GitHub
    keeps them; untrusted text in the Markdown is already escaped by evidence_gate.render (entities in text and
    summaries, fenced code for logs), so the only HTML in it is the templates' own. The page's
    Content-Security-Policy allows its inline style and nothing else, no script, no request: if
    anything slipped through, it could neither run nor reach the network."""
    renderer = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    return page_html(renderer.render(markdown), title)


def page_html(body: str, title: str) -> str:
    """Markdown already rendered to HTML (`body`) as the preview's page: GitHub's comment style, no
    script and no request allowed."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>\n{_STYLE}</style>\n</head>\n<body>\n"
        '<article class="comment">\n'
        "<header>Preview of the pull-request comment, rendered as CommonMark with GitHub's tables</header>\n"
        f'<div class="markdown-body">\n{body}</div>\n</article>\n</body>\n</html>\n'
    )
