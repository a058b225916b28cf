"""The `screen-analysis` group and the one composition root.

Everything that runs — the app, a subcommand, a test — gets its Settings, its Connection
(from the one resolver, `auth.connection`) and its API client (from `make_client`, the one
factory) from here. Subcommands import this module; it imports them only by name, when
invoked, so there is no import circle.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from screen_analysis import __version__, collector
from screen_analysis.auth.connection import NotConnected, resolve_connection
from screen_analysis.auth.file_store import InsecureFileStore
from screen_analysis.cli.exit_codes import CliError, ExitCode
from screen_analysis.cli.failures import run_reporting, warn
from screen_analysis.cli.param_types import PROFILE, PROJECT_ID, THEME, VIEW_NAME
from screen_analysis.config import Connection, Settings, load_settings
from screen_analysis.safe_text import shorten_runs
from screen_analysis.secret import SecretStr

if TYPE_CHECKING:
    from screen_analysis.api.client import ScreenAnalysisClient

T = TypeVar("T")


DEFAULT_RETRIES = 2  # the client's own default: retries of idempotent reads

NO_SERVER_ADVICE = (
    "no server configured: pass --base-url URL, set SCREEN_ANALYSIS_BASE_URL, "
    "run `screen-analysis login`, or try the demo with --demo"
)


def make_client(
    connection: Connection, *, max_retries: int = DEFAULT_RETRIES
) -> ScreenAnalysisClient:
    """The one client factory: every client the CLI, the app and `login` use is built here.

    A key check passes `max_retries=0`: one answer, fast. The profile's proxy and CA bundle
    come with the connection (`auth.network.client_network`).
    """
    from screen_analysis.api.client import ScreenAnalysisClient
    from screen_analysis.auth.network import client_network

    return ScreenAnalysisClient(
        connection.base_url,
        connection.api_key,
        max_retries=max_retries,
        **client_network(connection),
    )


def exit_error(why: NotConnected) -> CliError:
    """A missing connection as the command line reports it: 2 for the address, 3 the key."""
    return CliError(why.message, ExitCode.USAGE if why.reason.is_usage else ExitCode.AUTH)


def require_connection(settings: Settings) -> Connection:
    """The resolved connection, or CliError with one line (the opt-in file warns on stderr)."""
    found = resolve_connection(settings, file_store=InsecureFileStore(warn=warn))
    if isinstance(found, NotConnected):
        raise exit_error(found)
    return found


class CliContext:
    """What every command receives: settings, flags, and the connection once resolved."""

    def __init__(self, settings: Settings, *, demo: bool = False, debug: bool = False) -> None:
        self.settings = settings
        self.demo = demo
        self.debug = debug
        self.demo_options: dict[str, Any] = {}  # DemoConfig fields
        self._connection: Connection | None = None
        self._stack = contextlib.ExitStack()

    def secrets(self) -> list[str]:
        """Secrets to redact from anything printed."""
        env_key = os.environ.get("SCREEN_ANALYSIS_API_KEY", "")
        known = [self._connection.api_key.get_secret_value()] if self._connection else []
        return [*known, env_key]

    def run(self, action: Callable[[], T]) -> T:
        """Run a command body with the project's error reporting (a network failure the
        profile's settings explain is named by the profile)."""
        return run_reporting(lambda: self._named(action), debug=self.debug, secrets=self.secrets)

    def _named(self, action: Callable[[], T]) -> T:
        from screen_analysis.api.errors import APIConnectionError
        from screen_analysis.auth.network import network_problem

        try:
            return action()
        except APIConnectionError as exc:
            why = network_problem(exc, self._connection) if self._connection else None
            if why is None:
                raise
            raise CliError(why, ExitCode.API) from exc

    def connection(self) -> Connection:
        """The server and key to use: the embedded demo, or the configured server."""
        if self._connection is None:
            if self.demo:
                return self.start_demo()
            if not self.settings.base_url:
                raise CliError(NO_SERVER_ADVICE, ExitCode.USAGE)
            self._connection = require_connection(self.settings)
        return self._connection

    def app_start(self) -> Connection | NotConnected:
        """What the app opens with: a connection, or why there is none (it then asks).

        Never raises for a missing key or a refused address: the app says it on its login
        or welcome screen. The keyring lookup is time-boxed, so it never hangs either.
        """
        if self.demo:
            return self.connection()
        found = resolve_connection(self.settings, file_store=InsecureFileStore(warn=warn))
        if isinstance(found, Connection):
            self._connection = found
        return found

    def use_connection(self, connection: Connection) -> None:
        """Adopt a connection resolved by the caller (its key is then redacted too)."""
        self._connection = connection

    def start_demo(self) -> Connection:
        """Switch to the embedded demo server (the welcome screen offers it)."""
        self._connection = start_demo_connection(self._stack, **self.demo_options)
        self.demo = True
        return self._connection

    def make_client(self) -> ScreenAnalysisClient:
        """A client for the connection; the caller owns it (async with)."""
        return make_client(self.connection())

    def close(self) -> None:
        """Stop what the context started (the embedded demo server)."""
        self._stack.close()


def start_demo_connection(stack: contextlib.ExitStack, **options: Any) -> Connection:
    """Start the embedded reference server on a free loopback port for the life of `stack`."""
    from screen_analysis.demo.config import DemoConfig
    from screen_analysis.demo.runner import DemoServer

    server = stack.enter_context(DemoServer(DemoConfig(**options)))
    return Connection(
        base_url=server.base_url,
        api_key=SecretStr(server.api_key),
        key_source="demo",
        is_demo=True,
    )


# Subcommands are imported when named, so opening the app imports none of them.
SUBCOMMANDS = {
    "analyses": "screen_analysis.cli.analyses:analyses",
    "projects": "screen_analysis.cli.projects:projects",
    "login": "screen_analysis.cli.auth_commands:login",
    "logout": "screen_analysis.cli.auth_commands:logout",
    "auth": "screen_analysis.cli.auth_commands:auth",
    "demo-server": "screen_analysis.cli.demo_server:demo_server",
    "serve": "screen_analysis.cli.serve:serve",
    "report": "screen_analysis.cli.report:report",
    "check": "screen_analysis.cli.check:check",
    "watch": "screen_analysis.cli.watch:watch",
    "cache": "screen_analysis.cli.cache_commands:cache",
    "completion": "screen_analysis.cli.completion:completion",
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every subcommand name, in the order of SUBCOMMANDS."""
        return [*super().list_commands(ctx), *SUBCOMMANDS]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The named subcommand, imported now."""
        target = SUBCOMMANDS.get(cmd_name)
        if target is None:
            return super().get_command(ctx, cmd_name)
        module_name, attr = target.split(":")
        command = getattr(importlib.import_module(module_name), attr)
        assert isinstance(command, click.Command)
        return command

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; a usage error repeats at most QUOTE_LIMIT characters of a value."""
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            exc.message = shorten_runs(exc.message)  # type: ignore[misc]  # Final in stubs only
            raise


@click.group(
    cls=LazyGroup,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.option(
    "--base-url", metavar="URL", help="The API's base URL (env SCREEN_ANALYSIS_BASE_URL)."
)
@click.option("--demo", is_flag=True, help="Use the embedded reference server: no key, no network.")
@click.option(
    "--project",
    "projects",
    type=PROJECT_ID,
    multiple=True,
    metavar="ID",
    help="Pin a project in the sidebar (repeatable).",
)
@click.option("--theme", type=THEME, metavar="NAME", help="Colour theme for the app.")
@click.option(
    "--profile",
    "-P",
    type=PROFILE,
    metavar="NAME",
    help="Use the config's [profiles.NAME] (env SCREEN_ANALYSIS_PROFILE).",
)
@click.option(
    "--allow-insecure-http",
    is_flag=True,
    help="Allow plain http:// to a host that is not this machine.",
)
@click.option(
    "--images",
    type=click.Choice(["auto", "kitty", "sixel", "halfcell", "off"]),
    help="How the app draws images (env SCREEN_ANALYSIS_IMAGES; default auto).",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Neither read nor write the local cache of what was seen (config: cache = false).",
)
@click.option(
    "--view", metavar="NAME", type=VIEW_NAME, help="Open the app on the config's [views.NAME]."
)
@click.option("--debug", is_flag=True, help="Show tracebacks (with the key redacted).")
@click.version_option(__version__, prog_name="screen-analysis")
@click.pass_context
def cli(
    click_ctx: click.Context,
    base_url: str | None,
    demo: bool,
    projects: tuple[str, ...],
    theme: str | None,
    profile: str | None,
    allow_insecure_http: bool,
    images: str | None,
    no_cache: bool,
    view: str | None,
    debug: bool,
) -> None:
    """Browse and script the Screen Analysis Service.

    Without a command, opens the terminal app. Try it with: screen-analysis --demo
    """
    if click_ctx.invoked_subcommand is not None:
        collector.release()  # the subcommand is imported: start-up is over (the app waits)
    try:
        settings = load_settings(
            base_url=base_url,
            projects=projects,
            theme=theme,
            allow_insecure_http=allow_insecure_http,
            images=images,
            profile=profile,
            no_cache=no_cache,
        ).with_overrides(view=view)
    except Exception as exc:  # a broken config file is a usage error, said in one line
        run_reporting(_raise(exc), debug=debug, secrets=list)
        raise
    if settings.config_note:  # keys this version does not know: left out, and said
        warn(settings.config_note)
    ctx = CliContext(settings=settings, demo=demo, debug=debug)
    click_ctx.obj = ctx
    click_ctx.call_on_close(ctx.close)
    if click_ctx.invoked_subcommand is None:
        ctx.run(lambda: _launch(ctx))


def _launch(ctx: CliContext) -> None:
    """Build the app from the settings, the resolved start and the one client factory."""
    from screen_analysis.cli.launch import launch_app, load_checked_themes
    from screen_analysis.cli.scope_options import saved_view

    themes = load_checked_themes()  # an unknown --theme stops here, before any lookup
    saved_view(ctx.settings.views, ctx.settings.view)  # a --view the config cannot give: exit 2
    ctx.demo_options.setdefault("live", True)  # the app's demo shows activity
    launch_app(
        ctx.settings,
        ctx.app_start(),
        themes=themes,
        start_demo=ctx.start_demo,
        make_client=make_client,
    )


def _raise(exc: Exception) -> Callable[[], None]:
    def action() -> None:
        raise exc

    return action


def main() -> None:
    """Console-script entry point."""
    cli.main(prog_name="screen-analysis", standalone_mode=True)
    sys.exit(0)
