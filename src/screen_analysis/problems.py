"""The one place that turns a failure into words for people: a title, the detail, advice.

`explain(error)` is used by the command line's error line (`cli/failures.py`), the app's
error dialog, and the sign-in path (the login and welcome forms), so a refused key, a server
that cannot be reached or a file that cannot be written reads the same everywhere. The
detail is `api.describe.describe_error`'s line (the failed request in front), the title
says what went wrong and the advice what to do about it, in words that fit every front end
(no keys to press: the app lists its own keys beside the advice).

Headless, a layer of its own between the front ends and `auth/`, since a failure may be the
API's, the network settings' (`auth.network.network_problem` names the profile and the
setting), the keyring's, the config file's or a user file's.
"""

from __future__ import annotations

import errno
from typing import NamedTuple

from screen_analysis.api.describe import describe_error, prefixed
from screen_analysis.api.errors import (
    APIConnectionError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    EmptyPagesError,
    InvalidArgumentError,
    InvalidResponseError,
    NotFoundError,
    PageBoundError,
    PaginationLoopError,
    RateLimitError,
    ServerError,
)
from screen_analysis.auth.errors import KeyringUnavailableError
from screen_analysis.auth.network import network_problem
from screen_analysis.config import ConfigError, Connection
from screen_analysis.safe_text import clean

# An answer that could not be used comes back the same when asked again ("try again" would
# mislead: `api.describe.retry_can_help`).
_SAME_AGAIN = "Asking again would get the same answer: tell whoever runs the server."

_FILE_ADVICE = {
    errno.EACCES: "Check the permissions of the file and its folder.",
    errno.EPERM: "Check the permissions of the file and its folder.",
    errno.EROFS: "The file system is read-only: choose a place that can be written.",
    errno.ENOSPC: "The disk is full: free some space and try again.",
    errno.EDQUOT: "The disk quota is used up: free some space and try again.",
    errno.ENOTDIR: "A file stands where a folder should be.",
    errno.EISDIR: "A folder stands where the file should be.",
}


class Problem(NamedTuple):
    """A failure explained: what went wrong (`title`), the error's own line, cleaned
    (`detail`: the request or the file it concerns), and what to do (`advice`, may be "")."""

    title: str
    detail: str
    advice: str = ""

    def line(self, prefix: str = "") -> str:
        """One line for a terminal's stderr or a notification: detail, then advice; what
        failed in front when `prefix` says it ("Nothing was written: …")."""
        return prefixed(prefix, f"{self.detail} — {self.advice}" if self.advice else self.detail)

    def sentence(self) -> str:
        """Title, detail and advice as one paragraph, for a line under a form."""
        said = f"{self.title} ({self.detail})." if self.detail else f"{self.title}."
        return f"{said} {self.advice}".strip()


def explain(
    error: BaseException,
    base_url: str | None = None,
    *,
    connection: Connection | None = None,
    signing_in: bool = False,
) -> Problem:
    """Words for `error`. `base_url` (or `connection`'s) names the server in titles; with
    `connection`, a failure its proxy or CA bundle explains names the profile and the
    setting. `signing_in`: the key concerned is the one just typed, nothing is stored yet."""
    detail = describe_error(error, with_request=True)
    where = clean(connection.base_url if connection is not None else base_url or "the server")
    named = network_problem(error, connection) if connection is not None else None
    if named is not None:
        return Problem(named, detail)
    if isinstance(error, AuthenticationError):
        if signing_in:
            return Problem(
                "The server refused this key", detail, "Check it and try again; nothing was stored."
            )
        return Problem(
            "The server refused the API key",
            detail,
            "Check SCREEN_ANALYSIS_API_KEY or the key stored for this server "
            "(`screen-analysis login` stores another).",
        )
    if isinstance(error, APITimeoutError):
        return Problem(
            f"The server at {where} did not answer in time",
            detail,
            "It may be overloaded or far away; try again.",
        )
    if isinstance(error, APIConnectionError):
        check = "" if signing_in else " Check --base-url or SCREEN_ANALYSIS_BASE_URL."
        return Problem(
            f"Cannot reach the server at {where}",
            detail,
            "Is it running, and is the address right?" + check,
        )
    return _other(error, detail, where)


def _other(error: BaseException, detail: str, where: str) -> Problem:
    """The failures that read the same whoever meets them."""
    if isinstance(error, PageBoundError):
        return Problem("The listing did not end", detail)  # again would go as far
    if isinstance(error, RateLimitError):
        return Problem("The server asks to slow down", detail, "Wait a moment and try again.")
    if isinstance(error, NotFoundError):
        return Problem("Not found", detail)
    if isinstance(error, BadRequestError):
        return Problem("The server refused the request", detail)
    if isinstance(error, ServerError):
        return Problem(f"The server at {where} failed", detail, "Try again later.")
    if isinstance(error, InvalidArgumentError):
        return Problem("Refused before sending anything", detail)
    if isinstance(error, PaginationLoopError):
        return Problem("The server's pages go round in a circle", detail, _SAME_AGAIN)
    if isinstance(error, InvalidResponseError):
        return Problem("The server's answer could not be used", detail, _SAME_AGAIN)
    if isinstance(error, EmptyPagesError):
        return Problem("Stopped reading pages that bring nothing", detail)
    if isinstance(error, KeyringUnavailableError):
        return Problem("No usable keyring", detail)
    if isinstance(error, ConfigError):
        return Problem("The config file cannot be used", detail)
    if isinstance(error, OSError):
        return _file_problem(error, detail)
    return Problem("Something went wrong", clean(f"{type(error).__name__}: {detail}"))


def _file_problem(error: OSError, detail: str) -> Problem:
    """A file, a stream or an address the system refused: a `user_files.UserFileError`
    names its file itself; a plain OSError is worded from its reason and file name."""
    if type(error).__str__ is OSError.__str__:
        reason = error.strerror or type(error).__name__
        detail = clean(f"{reason}: {error.filename}" if error.filename else reason)
        title = "The system refused it"
    else:
        title = "A file could not be " + ("read" if detail.startswith("cannot read") else "written")
    return Problem(title, detail, _FILE_ADVICE.get(error.errno or 0, ""))
