"""The command line: `screen-analysis` launches the app; subcommands script the API."""

from __future__ import annotations


def main() -> None:
    """Console-script entry point: the collector waits while the program starts."""
    from screen_analysis import collector

    collector.hold()
    from screen_analysis.cli.failures import end_on_signals
    from screen_analysis.cli.root import main as run

    end_on_signals()
    run()


__all__ = ["main"]
