"""`screen-analysis check`: the quality gate on the command line (options, config tables,
output for people and for CI); the gate itself is headless, in `screen_analysis.gate`."""

from screen_analysis.cli.check.command import check

__all__ = ["check"]
