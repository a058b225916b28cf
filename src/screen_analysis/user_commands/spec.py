"""`[commands.NAME]` in the config file, checked by pydantic (`extra="forbid"`: a misspelt
key is an error, not a silent default), its errors in the project's one wording
(`api.parsing.describe_errors`).

    [commands.open-image]
    key = "ctrl+o"                               # optional; remappable as every key is
    run = ["firefox", "--new-window", "{image_url}"]
    output = "none"                              # notify (default) | pane | none
    confirm = false                              # ask first
    timeout = 30                                 # seconds, then the command is killed

    [commands.post-weak]
    key = "ctrl+p"
    run = ["curl", "-sS", "--data-binary", "@-", "https://hooks.example.com/design"]
    stdin = "rows"                               # the view's rows as JSON Lines
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from screen_analysis.api.parsing import describe_errors
from screen_analysis.user_commands.placeholders import check_argument

MAX_COMMANDS = 50
MAX_ARGUMENTS = 200
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")


class CommandConfigError(ValueError):
    """A `[commands.NAME]` table, or a command line, that cannot be used; one line."""


class CommandSpec(BaseModel):
    """One command of your own (see the module)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    name: str = ""
    key: str | None = Field(default=None, min_length=1, max_length=40)
    run: tuple[str, ...] = Field(min_length=1, max_length=MAX_ARGUMENTS)
    output: Literal["notify", "pane", "none"] = "notify"
    stdin: Literal["rows"] | None = None
    confirm: bool = False
    timeout: float = Field(default=30.0, gt=0, le=3600)
    description: str | None = Field(default=None, max_length=200)

    @field_validator("run")
    @classmethod
    def _whole_placeholders(cls, run: tuple[str, ...]) -> tuple[str, ...]:
        if not run[0]:
            raise ValueError("the program is empty")
        for argument in run:
            why = check_argument(argument)
            if why is not None:
                raise ValueError(why)
        return run

    @property
    def binding_id(self) -> str:
        """The id its key has in `[keymap]`: `command.NAME`."""
        return f"command.{self.name}"

    @property
    def title(self) -> str:
        """What the help and the palette call it."""
        return self.description or f"Run {self.name}"


def parse_commands(raw: object) -> dict[str, CommandSpec]:
    """The `[commands]` table's commands by name; CommandConfigError in one line."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise CommandConfigError("'commands' must be a table of [commands.NAME] tables")
    if len(raw) > MAX_COMMANDS:
        raise CommandConfigError(f"at most {MAX_COMMANDS} commands, found {len(raw)}")
    found: dict[str, CommandSpec] = {}
    for name, table in raw.items():
        if not NAME.fullmatch(str(name)):
            raise CommandConfigError(
                f"commands.{str(name)[:40]!r}: a name is letters, digits, - and _ (40 at most)"
            )
        if not isinstance(table, Mapping):
            raise CommandConfigError(f"commands.{name}: must be a table")
        try:
            found[name] = CommandSpec.model_validate({**_lists_as_tuples(table), "name": name})
        except ValidationError as exc:
            raise CommandConfigError(f"commands.{name}: {describe_errors(exc)}") from None
    return found


def parse_template(line: str, extra: tuple[str, ...] = ()) -> list[str]:
    """A command given on the command line (`watch --exec`), split as a POSIX shell would
    split the words the user typed (no shell runs it), each placeholder a whole argument."""
    try:
        argv = shlex.split(line)
    except ValueError as exc:
        raise CommandConfigError(f"cannot split the command: {exc}") from None
    if not argv:
        raise CommandConfigError("the command is empty")
    for argument in argv:
        why = check_argument(argument, extra)
        if why is not None:
            raise CommandConfigError(why)
    return argv


def _lists_as_tuples(table: Mapping[str, Any]) -> dict[str, Any]:
    """TOML arrays as tuples, for the strict model (its `run` is a tuple)."""
    return {key: tuple(v) if isinstance(v, list) else v for key, v in table.items()}
