"""The action's end-to-end fixtures (the fake GitHub server, the action run through entrypoint.py),
shared by every test module of the action."""

from tests.action.test_action_e2e import action, server  # noqa: F401 - fixtures, registered for this folder
