"""`login`, `logout` and `auth status`: the API key in the OS keyring, checked with the server.

Exit codes: 0 ok; 2 usage (no base URL, plain http to a remote host, no terminal to prompt
on); 3 auth (key rejected, no key, or nowhere usable to store it); 5 network or API. The key
is never a command-line argument and is never printed unmasked.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import click

from screen_analysis.auth import (
    InsecureFileError,
    InsecureFileStore,
    InsecureTransportError,
    InvalidBaseURLError,
    KeyringUnavailableError,
    KeySource,
    KeyStore,
    NoKeyError,
    check_transport,
    mask_key,
    normalise_base_url,
    resolve_api_key,
)
from screen_analysis.auth.errors import ENV_VAR
from screen_analysis.cli.exit_codes import CliError, ExitCode
from screen_analysis.cli.failures import run_reporting
from screen_analysis.config import Connection, Settings, load_settings, save_config_values
from screen_analysis.secret import SecretStr

if TYPE_CHECKING:
    from screen_analysis.cli.root import CliContext

T = TypeVar("T")

_STDIN_HINT = (
    "stdin is not a terminal, so the key cannot be prompted for: pipe it in with "
    '--api-key-stdin (e.g. `printf %s "$KEY" | screen-analysis login --api-key-stdin`), '
    f"or set {ENV_VAR}"
)

_ARGUMENT_REFUSED = (
    "login takes no arguments, and never the key (it would stay in shell history and "
    "process lists): type it at the prompt or pipe it in with --api-key-stdin"
)


def _warn(message: str) -> None:
    click.echo(f"Warning: {message}", err=True)


def _context(click_ctx: click.Context) -> CliContext:
    """The root group's context, or a fresh one when a command is invoked on its own."""
    from screen_analysis.cli.root import CliContext

    found = click_ctx.find_object(CliContext)
    if found is None:
        found = CliContext(settings=load_settings())
        click_ctx.obj = found
        click_ctx.call_on_close(found.close)
    return found


def _run(ctx: CliContext, action: Callable[[], T], secrets: list[str]) -> T:
    """The project's one-line error reporting, also redacting the key being handled."""
    return run_reporting(action, debug=ctx.debug, secrets=lambda: [*ctx.secrets(), *secrets])


def target_base_url(settings: Settings, option: str | None) -> str:
    """The normalised base URL from the command's option or the settings; CliError if none."""
    value = option or settings.base_url
    if not value:
        raise CliError(
            "no server given: pass --base-url URL or set SCREEN_ANALYSIS_BASE_URL",
            ExitCode.USAGE,
        )
    try:
        return normalise_base_url(value)
    except InvalidBaseURLError as exc:
        raise CliError(str(exc), ExitCode.USAGE) from None


def enforce_transport(base_url: str, *, allow_insecure_http: bool) -> None:
    """The transport policy as a usage error (exit 2), before anything is sent."""
    try:
        check_transport(base_url, allow_insecure_http=allow_insecure_http)
    except InsecureTransportError as exc:
        raise CliError(str(exc), ExitCode.USAGE) from None


def resolve_connection(settings: Settings, *, base_url: str | None = None) -> Connection:
    """The server and key for a command: transport policy first, then the key from the
    environment, the keyring or the opt-in file (which warns on stderr). Raises CliError
    (2 for usage, 3 for no key) with one clear line."""
    url = target_base_url(settings, base_url)
    enforce_transport(url, allow_insecure_http=settings.allow_insecure_http)
    try:
        api_key, source = resolve_api_key(url, file_store=InsecureFileStore(warn=_warn))
    except (NoKeyError, InsecureFileError) as exc:
        raise CliError(str(exc), ExitCode.AUTH) from None
    return Connection(base_url=url, api_key=api_key, key_source=source.value)


def _stdin_is_terminal() -> bool:
    return sys.stdin is not None and sys.stdin.isatty()


def _read_key(from_stdin: bool) -> SecretStr:
    """The key from one line of stdin, or a prompt without echo on a terminal."""
    if from_stdin:
        line = sys.stdin.readline() if sys.stdin is not None else ""
    elif _stdin_is_terminal():
        line = click.prompt("API key", hide_input=True, err=True, show_default=False)
    else:
        raise CliError(_STDIN_HINT, ExitCode.USAGE)
    key = line.strip()
    if not key:
        raise CliError("no API key was given", ExitCode.USAGE)
    return SecretStr(key)


def check_key(base_url: str, api_key: SecretStr) -> None:
    """One GET /v1/analyses?limit=1 with the key; CliError 3 if rejected, 5 if unreachable."""
    from screen_analysis.api.client import ScreenAnalysisClient
    from screen_analysis.api.errors import (
        AuthenticationError,
        InvalidArgumentError,
        ScreenAnalysisError,
    )

    async def request() -> None:
        async with ScreenAnalysisClient(base_url, api_key, max_retries=0) as client:
            await client.list_analyses(limit=1)

    try:
        asyncio.run(request())
    except AuthenticationError as exc:
        raise CliError(f"the server rejected the key: {exc}", ExitCode.AUTH) from None
    except InvalidArgumentError as exc:
        raise CliError(str(exc), ExitCode.USAGE) from None
    except ScreenAnalysisError as exc:
        raise CliError(f"could not check the key with {base_url}: {exc}", ExitCode.API) from None


def _keyring_error(exc: KeyringUnavailableError) -> CliError:
    return CliError(str(exc), ExitCode.AUTH)


@click.command(short_help="Check an API key and keep it in the keyring.")
@click.option("--base-url", metavar="URL", help="The server to log in to (default: configured).")
@click.option("--api-key-stdin", is_flag=True, help="Read the key from one line of stdin.")
@click.option(
    "--insecure-storage",
    is_flag=True,
    help="Store the key in a plain-text file (mode 0600) instead of the OS keyring.",
)
@click.option(
    "--allow-insecure-http",
    is_flag=True,
    help="Allow plain http:// to a host that is not this machine.",
)
@click.argument("stray", nargs=-1, metavar="")
@click.pass_context
def login(
    click_ctx: click.Context,
    base_url: str | None,
    api_key_stdin: bool,
    insecure_storage: bool,
    allow_insecure_http: bool,
    stray: tuple[str, ...],
) -> None:
    """Check an API key with the server and store it in the OS keyring.

    The key is prompted for without echo, or read from stdin with --api-key-stdin; it is
    never taken as an argument. The base URL becomes the configured default.
    """
    ctx = _context(click_ctx)
    secrets: list[str] = list(stray)

    def action() -> None:
        if stray:
            # Caught here rather than by click, whose message would echo the argument.
            raise CliError(_ARGUMENT_REFUSED, ExitCode.USAGE)
        url = target_base_url(ctx.settings, base_url)
        allow = allow_insecure_http or ctx.settings.allow_insecure_http
        enforce_transport(url, allow_insecure_http=allow)
        keystore = KeyStore()
        files = InsecureFileStore(warn=_warn)
        if not insecure_storage:
            try:
                keystore.check(url)  # before asking for a key there is nowhere to keep
            except KeyringUnavailableError as exc:
                raise _keyring_error(exc) from None
        api_key = _read_key(api_key_stdin)
        secrets.append(api_key.get_secret_value())
        check_key(url, api_key)
        where = _store(url, api_key, keystore, files, insecure=insecure_storage)
        save_config_values(ctx.settings.config_path, base_url=url)
        click.echo(f"Logged in to {url} with key {mask_key(api_key)}, stored in {where}.")

    _run(ctx, action, secrets)


def _store(
    url: str, api_key: SecretStr, keystore: KeyStore, files: InsecureFileStore, *, insecure: bool
) -> str:
    """Store the checked key; returns where. Removes a copy elsewhere that would shadow it."""
    try:
        if insecure:
            files.set(url, api_key)
            with contextlib.suppress(KeyringUnavailableError):
                keystore.delete(url)  # a keyring entry would win over the file
            return str(files.path)
        keystore.set(url, api_key)
        files.delete(url)  # no stale plain-text copy stays behind
        return f"the keyring ({keystore.backend_name()})"
    except KeyringUnavailableError as exc:
        raise _keyring_error(exc) from None
    except (InsecureFileError, OSError) as exc:
        raise CliError(f"could not store the key: {exc}", ExitCode.AUTH) from None


@click.command(short_help="Remove the stored API key for a server.")
@click.option("--base-url", metavar="URL", help="The server to log out of (default: configured).")
@click.pass_context
def logout(click_ctx: click.Context, base_url: str | None) -> None:
    """Remove the stored API key for a server (from the keyring and the opt-in file)."""
    ctx = _context(click_ctx)

    def action() -> None:
        url = target_base_url(ctx.settings, base_url)
        removed: list[str] = []
        problem: KeyringUnavailableError | None = None
        try:
            if KeyStore().delete(url):
                removed.append("the keyring")
        except KeyringUnavailableError as exc:
            problem = exc
        files = InsecureFileStore(warn=_warn)
        try:
            if files.delete(url):
                removed.append(str(files.path))
        except InsecureFileError as exc:
            raise CliError(str(exc), ExitCode.AUTH) from None
        if removed:
            click.echo(f"Logged out of {url}: removed the key from {' and '.join(removed)}.")
        elif problem is not None:
            raise _keyring_error(problem)
        else:
            click.echo(f"No key was stored for {url}.")
        if problem is not None and removed:
            _warn(f"the keyring could not be checked: {problem.cause}")
        if os.environ.get(ENV_VAR, "").strip():
            _warn(f"{ENV_VAR} is set in this environment and still provides a key.")

    _run(ctx, action, [])


@click.group(short_help="The API key in use: source, masked key, verdict.")
def auth() -> None:
    """The stored API key: see where it comes from and whether the server accepts it."""


@auth.command(short_help="Where the key comes from and whether it is accepted.")
@click.option("--base-url", metavar="URL", help="The server to check (default: configured).")
@click.pass_context
def status(click_ctx: click.Context, base_url: str | None) -> None:
    """Show the base URL, where the key comes from, the key masked, and the server's verdict."""
    ctx = _context(click_ctx)
    secrets: list[str] = []

    def action() -> None:
        url = target_base_url(ctx.settings, base_url)
        click.echo(f"Base URL:   {url}")
        files = InsecureFileStore(warn=_warn)
        try:
            api_key, source = resolve_api_key(url, file_store=files)
        except (NoKeyError, InsecureFileError) as exc:
            click.echo("Key:        none")
            raise CliError(str(exc), ExitCode.AUTH) from None
        secrets.append(api_key.get_secret_value())
        click.echo(f"Key source: {_describe_source(source, files)}")
        click.echo(f"Key:        {mask_key(api_key)}")
        enforce_transport(url, allow_insecure_http=ctx.settings.allow_insecure_http)
        check_key(url, api_key)
        click.echo("Server:     accepts the key")

    _run(ctx, action, secrets)


def _describe_source(source: KeySource, files: InsecureFileStore) -> str:
    if source is KeySource.ENV:
        return f"env ({ENV_VAR})"
    if source is KeySource.FILE:
        return f"file ({files.path}, plain text)"
    return "keyring"
