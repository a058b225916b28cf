"""Exit codes scripts rely on, and the mapping from errors to them."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """What the process exit status means."""

    OK = 0
    INTERNAL = 1  # an unexpected internal error (a bug)
    USAGE = 2  # invalid usage or input, caught before any request is sent
    AUTH = 3  # missing or rejected key
    NOT_FOUND = 4
    API = 5  # API, network or invalid-response failure after retries
    ASSERTION_FAILED = 6  # `check`: an assertion of the quality gate does not hold
    WAIT_TIMED_OUT = 7  # `check --wait`: analyses were still being scored at --timeout
    INTERRUPTED = 130


class CliError(Exception):
    """An error the command line reports in one line with a chosen exit code."""

    def __init__(self, message: str, code: ExitCode) -> None:
        super().__init__(message)
        self.code = code
