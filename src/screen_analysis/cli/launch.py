"""Start the terminal app: the composition root hands it settings and a connection."""

from __future__ import annotations

from screen_analysis.cli.exit_codes import CliError, ExitCode
from screen_analysis.cli.root import CliContext
from screen_analysis.config import Connection
from screen_analysis.state import RememberedProjects


def launch_app(ctx: CliContext) -> None:
    """Run the app until the user quits; exit code 0 on `q`."""
    from screen_analysis.tui.app import ScreenAnalysisApp

    connection: Connection | None = None
    if ctx.demo:
        connection = ctx.connection()
    elif ctx.settings.base_url:
        try:
            connection = ctx.connection()
        except CliError as exc:
            if exc.code is not ExitCode.AUTH:
                raise
            connection = None  # no key yet: the app's welcome screen asks for one

    app = ScreenAnalysisApp(
        settings=ctx.settings,
        connection=connection,
        remembered=RememberedProjects(ctx.settings.state_path),
        start_demo=ctx.start_demo,
    )
    app.run()
    code = app.return_code or 0
    if code:
        raise SystemExit(code)
