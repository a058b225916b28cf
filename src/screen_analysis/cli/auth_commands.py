"""`login`, `logout` and `auth status`: the API key in the OS keyring, checked with the server.

Exit codes: 0 ok; 2 usage (no base URL, plain http to a remote host, no terminal to prompt
on, a file that cannot be written: the config file or the key file, which `login` tries
before it stores anything); 3 auth (key rejected, no key, or nowhere usable to store it);
5 network or API. The key is never a command-line argument and is never printed unmasked.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import click

from screen_analysis.auth import (
    InsecureFileError,
    InsecureFileStore,
    KeyringUnavailableError,
    KeySource,
    KeyStore,
    mask_key,
)
from screen_analysis.auth.connection import (
    NotConnected,
    configured_base_url,
    resolve_address,
    resolve_connection,
    with_network,
)
from screen_analysis.auth.errors import ENV_VAR
from screen_analysis.auth.key_check import KeyCheckError, KeyProblem
from screen_analysis.auth.key_check import check_key as check_key_with_server
from screen_analysis.auth.network import network_problem
from screen_analysis.cli.exit_codes import CliError, ExitCode
from screen_analysis.cli.failures import run_reporting, warn
from screen_analysis.cli.param_types import PROFILE
from screen_analysis.cli.root import CliContext, exit_error, make_client
from screen_analysis.config import (
    ConfigError,
    Connection,
    Settings,
    load_settings,
    settings_for_profile,
)
from screen_analysis.config_saves import base_url_saved, save_base_url
from screen_analysis.secret import SecretStr
from screen_analysis.user_files import check_writable

if TYPE_CHECKING:
    from screen_analysis.api.client import ScreenAnalysisClient

T = TypeVar("T")
V = TypeVar("V")

_STDIN_HINT = (
    "stdin is not a terminal, so the key cannot be prompted for: pipe it in with "
    '--api-key-stdin (e.g. `printf %s "$KEY" | screen-analysis login --api-key-stdin`), '
    f"or set {ENV_VAR}"
)

_ARGUMENT_REFUSED = (
    "login takes no arguments, and never the key (it would stay in shell history and "
    "process lists): type it at the prompt or pipe it in with --api-key-stdin"
)


def _context(click_ctx: click.Context) -> CliContext:
    """The root group's context, or a fresh one when a command is invoked on its own."""
    found = click_ctx.find_object(CliContext)
    if found is None:
        found = CliContext(settings=load_settings())
        click_ctx.obj = found
        click_ctx.call_on_close(found.close)
    return found


def _run(ctx: CliContext, action: Callable[[], T], secrets: list[str]) -> T:
    """The project's one-line error reporting, also redacting the key being handled."""
    return run_reporting(action, debug=ctx.debug, secrets=lambda: [*ctx.secrets(), *secrets])


def _settings_for(
    ctx: CliContext,
    base_url: str | None,
    *,
    allow_http: bool = False,
    profile: str | None = None,
    new_profile_ok: bool = False,
) -> Settings:
    """The settings with this command's own `--profile`, `--base-url` and
    `--allow-insecure-http` (a profile the file does not name yet only when `new_profile_ok`:
    login makes it)."""
    settings = ctx.settings
    if profile is not None and profile != settings.profile:
        if profile in settings.profiles or not new_profile_ok:
            settings = settings_for_profile(settings, profile)
        else:
            settings = settings_for_profile(settings, None).with_overrides(profile=profile)
            settings = dataclasses.replace(settings, base_url=None, proxy=None, ca_bundle=None)
    return settings.with_overrides(
        base_url=base_url, allow_insecure_http=True if allow_http else None
    )


def _required(found: V | NotConnected) -> V:
    if isinstance(found, NotConnected):
        raise exit_error(found)
    return found


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


def check_key(connection: Connection) -> None:
    """The one key check, once and without retries; CliError 3 if rejected, 2 if the
    address or key cannot be used, 5 if the server could not be asked."""

    def client(conn: Connection) -> ScreenAnalysisClient:
        return make_client(conn, max_retries=0)

    try:
        asyncio.run(check_key_with_server(connection, client))
    except KeyCheckError as exc:
        if exc.problem is KeyProblem.REFUSED:
            raise CliError(f"the server rejected the key: {exc.error}", ExitCode.AUTH) from None
        if exc.problem is KeyProblem.INVALID:
            raise CliError(str(exc.error), ExitCode.USAGE) from None
        named = network_problem(exc.error, connection)
        if named is not None:
            raise CliError(named, ExitCode.API) from None
        raise CliError(
            f"could not check the key with {connection.base_url}: {exc.error}", ExitCode.API
        ) from None


_PROFILE_OPTION = click.option(
    "--profile",
    "-P",
    type=PROFILE,
    metavar="NAME",
    help="The config's [profiles.NAME] (default: the root's).",
)


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
@_PROFILE_OPTION
@click.argument("stray", nargs=-1, metavar="")
@click.pass_context
def login(
    click_ctx: click.Context,
    base_url: str | None,
    api_key_stdin: bool,
    insecure_storage: bool,
    allow_insecure_http: bool,
    profile: str | None,
    stray: tuple[str, ...],
) -> None:
    """Check an API key with the server and store it in the OS keyring.

    The key is prompted for without echo, or read from stdin with --api-key-stdin; it is
    never taken as an argument. The base URL becomes the configured default, or with
    --profile NAME the base URL of `[profiles.NAME]` (made when missing).
    """
    ctx = _context(click_ctx)
    secrets: list[str] = list(stray)

    def action() -> None:
        if stray:
            # Caught here rather than by click, whose message would echo the argument.
            raise CliError(_ARGUMENT_REFUSED, ExitCode.USAGE)
        settings = _settings_for(
            ctx, base_url, allow_http=allow_insecure_http, profile=profile, new_profile_ok=True
        )
        url = _required(resolve_address(settings))
        keystore = KeyStore()
        files = InsecureFileStore(warn=warn)
        if not insecure_storage:
            try:
                keystore.check(url)  # before asking for a key there is nowhere to keep
            except KeyringUnavailableError as exc:
                raise _keyring_error(exc) from None
        saving = not base_url_saved(settings.config_path, url, settings.profile)
        # Files that will be written are tried first: nothing is stored unless all can be.
        if saving:
            check_writable(settings.config_path)
        if insecure_storage:
            files.check_writable()
        api_key = _read_key(api_key_stdin)
        secrets.append(api_key.get_secret_value())
        check_key(with_network(Connection(url, api_key, key_source="session"), settings))
        where = _store(url, api_key, keystore, files, insecure=insecure_storage)
        named = f" (profile {settings.profile})" if settings.profile is not None else ""
        if saving:
            try:
                save_base_url(settings.config_path, url, settings.profile)
            except (OSError, ConfigError) as exc:
                raise CliError(
                    f"the key was stored in {where}, but the base URL was not saved: {exc}; "
                    f"pass --base-url {url} or set SCREEN_ANALYSIS_BASE_URL to use it",
                    ExitCode.USAGE,
                ) from exc
        click.echo(f"Logged in to {url}{named} with key {mask_key(api_key)}, stored in {where}.")

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
    except InsecureFileError as exc:
        raise CliError(f"could not store the key: {exc}", ExitCode.AUTH) from None
    except OSError as exc:
        raise CliError(f"could not store the key: {exc}", ExitCode.USAGE) from None


@click.command(short_help="Remove the stored API key for a server.")
@click.option("--base-url", metavar="URL", help="The server to log out of (default: configured).")
@_PROFILE_OPTION
@click.pass_context
def logout(click_ctx: click.Context, base_url: str | None, profile: str | None) -> None:
    """Remove the stored API key for a server (from the keyring and the opt-in file); with
    --profile NAME, for that profile's base URL (the config is left as it is)."""
    ctx = _context(click_ctx)

    def action() -> None:
        url = _required(configured_base_url(_settings_for(ctx, base_url, profile=profile)))
        removed: list[str] = []
        problem: KeyringUnavailableError | None = None
        try:
            if KeyStore().delete(url):
                removed.append("the keyring")
        except KeyringUnavailableError as exc:
            problem = exc
        files = InsecureFileStore(warn=warn)
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
            warn(f"the keyring could not be checked: {problem.cause}")
        if os.environ.get(ENV_VAR, "").strip():
            warn(f"{ENV_VAR} is set in this environment and still provides a key.")

    _run(ctx, action, [])


@click.group(short_help="The API key in use: source, masked key, verdict.")
def auth() -> None:
    """The stored API key: see where it comes from and whether the server accepts it."""


@auth.command(short_help="Where the key comes from and whether it is accepted.")
@click.option("--base-url", metavar="URL", help="The server to check (default: configured).")
@click.option("--check", is_flag=True, help="With profiles: check each profile's key too.")
@_PROFILE_OPTION
@click.pass_context
def status(
    click_ctx: click.Context, base_url: str | None, check: bool, profile: str | None
) -> None:
    """Show the base URL, where the key comes from, the key masked, and the server's verdict.

    When the config has profiles (and neither --base-url nor --profile is given), every
    profile is listed; --check asks each one's server.
    """
    ctx = _context(click_ctx)
    secrets: list[str] = []

    def action() -> None:
        if base_url is None and profile is None and ctx.settings.profiles:
            _status_of_profiles(ctx, check=check, secrets=secrets)
            return
        settings = _settings_for(ctx, base_url, profile=profile)
        click.echo(f"Base URL:   {_required(configured_base_url(settings))}")
        files = InsecureFileStore(warn=warn)
        found = resolve_connection(settings, file_store=files)
        if isinstance(found, NotConnected):
            if not found.reason.is_usage:
                click.echo("Key:        none")
            raise exit_error(found)
        secrets.append(found.api_key.get_secret_value())
        click.echo(f"Key source: {_describe_source(KeySource(found.key_source), files)}")
        click.echo(f"Key:        {mask_key(found.api_key)}")
        check_key(found)
        click.echo("Server:     accepts the key")

    _run(ctx, action, secrets)


def _describe_source(source: KeySource, files: InsecureFileStore) -> str:
    if source is KeySource.ENV:
        return f"env ({ENV_VAR})"
    if source is KeySource.FILE:
        return f"file ({files.path}, plain text)"
    return "keyring"


def _status_of_profiles(ctx: CliContext, *, check: bool, secrets: list[str]) -> None:
    """Every profile (and the top level when it names a server): base URL, key source,
    masked key, and with `check` the server's verdict. Exit code of the worst problem."""
    names: list[str | None] = [None, *ctx.settings.profiles]
    worst: CliError | None = None
    files = InsecureFileStore(warn=warn)
    for name in names:
        settings = settings_for_profile(ctx.settings, name)
        if name is None and not settings.base_url:
            continue
        in_use = " (in use)" if name == ctx.settings.profile else ""
        click.echo(f"{name or '(top level)'}{in_use}")
        problem = _status_of_one(settings, files, check=check, secrets=secrets)
        if problem is not None and (worst is None or problem.code > worst.code):
            worst = problem
    if worst is not None:
        raise CliError("not every profile is ready: " + str(worst), worst.code)


def _status_of_one(
    settings: Settings, files: InsecureFileStore, *, check: bool, secrets: list[str]
) -> CliError | None:
    """One profile's lines, indented; the problem, if any, as the CliError it would be."""
    address = configured_base_url(settings)
    if isinstance(address, NotConnected):
        click.echo(f"  Base URL:   none ({address.message})")
        return exit_error(address)
    click.echo(f"  Base URL:   {address}")
    found = resolve_connection(settings, file_store=files)
    if isinstance(found, NotConnected):
        click.echo(f"  Key:        none ({found.message})")
        return exit_error(found)
    secrets.append(found.api_key.get_secret_value())
    click.echo(f"  Key source: {_describe_source(KeySource(found.key_source), files)}")
    click.echo(f"  Key:        {mask_key(found.api_key)}")
    if not check:
        return None
    try:
        check_key(found)
    except CliError as exc:
        click.echo(f"  Server:     {exc}")
        return exc
    click.echo("  Server:     accepts the key")
    return None
