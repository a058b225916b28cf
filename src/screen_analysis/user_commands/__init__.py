"""Your own commands, headless: `[commands.NAME]` in the config (`spec`), the highlighted
analysis's values as whole arguments (`placeholders`), and running one without a shell,
killed at its timeout, its failure in one line (`run`)."""

from screen_analysis.user_commands.placeholders import PLACEHOLDERS, fill, values_of
from screen_analysis.user_commands.run import CommandResult, run_command
from screen_analysis.user_commands.spec import (
    CommandConfigError,
    CommandSpec,
    parse_commands,
    parse_template,
)

__all__ = [
    "PLACEHOLDERS",
    "CommandConfigError",
    "CommandResult",
    "CommandSpec",
    "fill",
    "parse_commands",
    "parse_template",
    "run_command",
    "values_of",
]
