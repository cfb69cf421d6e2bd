"""The end-to-end fixtures of test_action_e2e (the fake GitHub, the action in a real process), for every
module here."""

from tests.action.test_action_e2e import action, server

__all__ = ["action", "server"]
