"""Errors a user can act on.

Each carries the exit code the command line returns for it and a one-line message that says what
went wrong and, where there is one, the fix. Anything else reaching the top of the CLI is a bug.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_USAGE = 2


class EvidenceGateError(Exception):
    """An error the user can act on; the message is shown as one line."""

    exit_code = EXIT_USAGE

    def one_line(self) -> str:
        return " ".join(str(self).split())


class UsageError(EvidenceGateError):
    """A bad flag value, a missing file, a path that is not what it should be."""


class ConfigError(EvidenceGateError):
    """A configuration or adapter-table file that does not validate."""


class GitError(EvidenceGateError):
    """Git refused, or the repository lacks what the command needs (a base commit, history)."""


class UnsafeRepository(GitError):
    """The directory given is a bare repository git found by itself: a work tree's folder can be
    one, planted to run a command, so it is refused rather than taken for "no repository"."""


class UnsafeSlotValue(EvidenceGateError):
    """A value that would change the meaning of a shell command if inserted into it."""
