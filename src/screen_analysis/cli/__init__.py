"""The command line: `screen-analysis` launches the app; subcommands script the API."""

from screen_analysis.cli.root import main

__all__ = ["main"]
