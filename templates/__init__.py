"""The Markdown templates (Jinja2) of every rendered output; users override them with templates-dir."""
