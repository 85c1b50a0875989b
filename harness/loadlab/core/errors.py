"""The harness's one error type and its exit codes, shared by every verb.

A `LoadlabError` carries the single line the user sees and the exit code it ends with; `cli.main` prints it as
`loadlab: <message>`. Subclasses only name where the error comes from (a parameter, a host, the JDK search).
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    # The run completed but cannot be trusted (a mode invalid or crashed), or a host/tool failed on the way.
    FAILED = 1
    # Refused before anything started: a bad parameter, a missing JDK or build, a busy port, another bench running.
    USAGE = 2
    # Ctrl-C or SIGTERM: every process of the run was stopped and what was written is kept (128 + SIGINT).
    INTERRUPTED = 130


class LoadlabError(Exception):
    """Something the user must act on; the message is one line per problem, without the `loadlab:` prefix."""

    exit_code: ExitCode = ExitCode.FAILED

    def __init__(self, message: str, exit_code: ExitCode | None = None):
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code


class DownstreamError(ValueError):
    """One bad downstream parameter (DELAY_DIST and its figures, DOWNSTREAM_*); the message is the single line the
    user sees."""
