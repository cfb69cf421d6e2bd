"""The end-to-end fixtures of harness.py (the fake GitHub, the action in a real process), for every
module here."""

from tests.action.harness import action, server

__all__ = ["action", "server"]
