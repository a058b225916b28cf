"""Your own commands, headless: `[commands.NAME]` in the config (`spec`), the highlighted
analysis's values as whole arguments (`placeholders`), and running one without a shell,
killed at its timeout, its failure in one line (`run`).

The names below are imported from their modules on first use (PEP 562, as the api package
does): the app's first screen fills and runs commands without loading `spec`, whose model
brings pydantic, until the config's `[commands]` are read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from screen_analysis.lazy_names import names_on_first_use

if TYPE_CHECKING:
    from screen_analysis.user_commands.placeholders import PLACEHOLDERS, fill, values_of
    from screen_analysis.user_commands.run import CommandResult, run_command
    from screen_analysis.user_commands.spec import (
        CommandConfigError,
        CommandSpec,
        parse_commands,
        parse_template,
    )

_MODULE_OF = {
    "PLACEHOLDERS": "placeholders",
    "fill": "placeholders",
    "values_of": "placeholders",
    "CommandResult": "run",
    "run_command": "run",
    "CommandConfigError": "spec",
    "CommandSpec": "spec",
    "parse_commands": "spec",
    "parse_template": "spec",
}


__getattr__ = names_on_first_use(__name__, _MODULE_OF)


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
