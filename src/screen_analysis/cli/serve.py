"""`screen-analysis serve`: the terminal app in a web browser (textual-serve), on loopback."""

from __future__ import annotations

import shlex
import sys
from ipaddress import ip_address

import click

from screen_analysis.cli.launch import check_theme_flag, theme_flag
from screen_analysis.cli.root import CliContext

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8566


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
@click.pass_obj
def serve(ctx: CliContext, host: str, port: int, demo: bool) -> None:
    """Serve the app in a web browser, on this machine only (127.0.0.1) unless --host says
    otherwise. From another machine, forward the port over SSH:
    ssh -L 8566:127.0.0.1:8566 HOST, then open http://127.0.0.1:8566."""

    def run() -> None:
        from textual_serve.server import Server

        from screen_analysis.tui.themes import load_themes, user_theme_dir

        check_theme_flag(theme_flag(), load_themes(user_theme_dir()))
        command = app_command(ctx, demo=demo or ctx.demo, theme=theme_flag())
        if not is_loopback(host):
            click.echo(
                f"Warning: listening on {host}: anyone who can reach this address can use "
                "the app, with your key.",
                err=True,
            )
        click.echo(f"Serving screen-analysis on http://{host}:{port}  (Ctrl+C to stop)")
        Server(command, host=host, port=port, title="screen-analysis").serve()

    ctx.run(run)
