"""`screen-analysis serve`: the terminal app in a web browser (textual-serve), on loopback."""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import sys
from ipaddress import ip_address

import click

from screen_analysis.cli.exit_codes import CliError, ExitCode
from screen_analysis.cli.launch import check_theme_flag, theme_flag
from screen_analysis.cli.root import CliContext

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8566
TOKEN_ENV = "SCREEN_ANALYSIS_SERVE_TOKEN"
MIN_TOKEN_LENGTH = 16
_TOKEN_CHARS = re.compile(r"[A-Za-z0-9._~-]+")


def check_token(token: str) -> str:
    """A token given with --token: long enough not to be guessed, and URL-safe."""
    if len(token) < MIN_TOKEN_LENGTH or not _TOKEN_CHARS.fullmatch(token):
        raise CliError(
            f"--token needs at least {MIN_TOKEN_LENGTH} characters, each a letter, a digit "
            "or one of . _ ~ -",
            ExitCode.USAGE,
        )
    return token


def is_loopback(host: str) -> bool:
    """Whether `host` only accepts connections from this machine."""
    if host == "localhost":
        return True
    try:
        return ip_address(host).is_loopback
    except ValueError:
        return False


def app_command(ctx: CliContext, *, demo: bool, theme: str | None) -> str:
    """The shell command textual-serve runs for each browser session: this app, same flags."""
    args = [sys.executable, "-m", "screen_analysis"]
    if ctx.settings.base_url and not demo:
        args += ["--base-url", ctx.settings.base_url]
    for project in ctx.settings.projects:
        args += ["--project", project]
    if theme:
        args += ["--theme", theme]
    if ctx.settings.allow_insecure_http:
        args.append("--allow-insecure-http")
    if demo:
        args.append("--demo")
    # A browser terminal has no kitty or sixel graphics, and must not be asked.
    args += ["--images", "off" if ctx.settings.images == "off" else "halfcell"]
    return shlex.join(args)


@click.command()
@click.option("--host", default=DEFAULT_HOST, show_default=True, help="Address to listen on.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(1, 65535))
@click.option("--demo", is_flag=True, help="Serve the app on the embedded reference server.")
@click.option(
    "--token",
    envvar=TOKEN_ENV,
    metavar="TOKEN",
    help=f"The token the browser must present (default: a new random one each run; "
    f"${TOKEN_ENV} keeps it out of the process list).",
)
@click.option(
    "--allow-commands",
    is_flag=True,
    help="Let the served app run your own [commands] (on this machine, as you).",
)
@click.pass_obj
def serve(
    ctx: CliContext, host: str, port: int, demo: bool, token: str | None, allow_commands: bool
) -> None:
    """Serve the app in a web browser, on this machine only (127.0.0.1) unless --host says
    otherwise. Open the printed address: it carries this run's token, without which the
    page and its websocket are refused. From another machine, forward the port over SSH:
    ssh -L 8566:127.0.0.1:8566 HOST, then open the printed address."""

    def run() -> None:
        from screen_analysis.cli.serve_app import GuardedServer
        from screen_analysis.cli.serve_guard import ServeGuard, new_token, served_url
        from screen_analysis.tui.own_commands import SERVE_ALLOWS_ENV
        from screen_analysis.tui.themes import load_themes, user_theme_dir

        check_theme_flag(theme_flag(), load_themes(user_theme_dir()))
        command = app_command(ctx, demo=demo or ctx.demo, theme=theme_flag())
        if not is_loopback(host):
            click.echo(
                f"Warning: listening on {host}, over plain HTTP: anyone who sees the address "
                "with its token on the way can use the app, with your key.",
                err=True,
            )
        guard = ServeGuard(check_token(token) if token else new_token(), host, port)
        os.environ.pop(TOKEN_ENV, None)  # the app processes have no use for it
        # Only this flag lets a served app run your commands (not an inherited variable).
        os.environ.pop(SERVE_ALLOWS_ENV, None)
        if allow_commands:
            os.environ[SERVE_ALLOWS_ENV] = "allow"
        url = served_url(host, port, guard.token)
        click.echo(f"Serving screen-analysis on {url}  (Ctrl+C to stop)")
        # A loop of its own, set as current: textual-serve 1.1.0 asks for the current loop,
        # which a process that already ran asyncio.run() no longer has.
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            GuardedServer(command, guard, title="screen-analysis").serve()
        finally:
            asyncio.set_event_loop(None)
            loop.close()

    ctx.run(run)
