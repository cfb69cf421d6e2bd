"""The fake GitHub the workflows publish to: the action tests' fixture, shared."""

from tests.action.harness import server

__all__ = ["server"]
