"""Your own commands in the app: `[commands.NAME]` as bindings of the main screen (keys are
data: the id `command.NAME`, remappable in `[keymap]`, shown in help, the key bar's overflow
and the palette), a clash with a built-in key said in one line at start, and each run in a
named worker of the screen: asked first when `confirm`, its output told as configured, its
failure in one line. Under `serve`, commands run only with `serve --allow-commands`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from textual.binding import Binding, BindingType
from textual.screen import Screen

from screen_analysis.api.models import Analysis, AnalysisItem, as_sent
from screen_analysis.safe_text import clean
from screen_analysis.tui.keys import key_help, normalise_keys
from screen_analysis.user_commands import fill, run_command, values_of

if TYPE_CHECKING:
    from screen_analysis.user_commands import CommandSpec

SERVE_ALLOWS_ENV = "SCREEN_ANALYSIS_SERVE_COMMANDS"  # set by `serve --allow-commands` only
S = TypeVar("S", bound=Screen[Any])
NOT_SERVED = "Your own commands run in the browser only with `serve --allow-commands`."


def command_bindings(specs: Mapping[str, CommandSpec]) -> list[BindingType]:
    """A binding per command with a key (id `command.NAME`), in the config's order."""
    return [
        Binding(
            normalise_keys(spec.key),
            f"run_command({json.dumps(name)})",
            spec.title,
            tooltip=spec.title + ": " + clean(" ".join(spec.run), limit=120),
            id=spec.binding_id,
        )
        for name, spec in specs.items()
        if spec.key
    ]


def clashes(
    commands: Sequence[BindingType],
    builtins: Sequence[Sequence[BindingType]],
    keymap: Mapping[str, str],
) -> list[str]:
    """One line per command whose key (the keymap applied) a built-in of the same screen
    has: the built-in keeps it (it is tried first)."""
    taken: dict[str, str] = {}
    for scope in builtins:
        for entry in key_help(scope, keymap):
            for key in entry.keys.split():
                taken.setdefault(key, f"{entry.description} ({entry.binding_id})")
    lines = []
    for entry in key_help(commands, keymap):
        for key in entry.keys.split():
            if key in taken:
                lines.append(
                    f"The key {key} of your command {entry.binding_id} is {taken[key]}'s: the "
                    f"built-in keeps it; give the command another in [keymap]."
                )
    return lines


def with_commands(screen: type[S], bindings: Sequence[BindingType]) -> type[S]:
    """`screen` with the commands' bindings after its own (Textual merges a subclass's
    BINDINGS over its bases', so the built-ins are tried first)."""
    if not bindings:
        return screen
    return type(screen.__name__, (screen,), {"BINDINGS": list(bindings), "__module__": __name__})


class CommandHost(Protocol):
    """What running a command asks of the screen."""

    def say(self, text: str, severity: str = "information") -> None:
        """One notification."""

    def say_problem(self, words: str) -> None:
        """One error notification."""

    async def ask(self, screen: Screen[Any]) -> Any:
        """Push `screen` and wait for its answer."""

    def background(self, work: Any, group: str) -> None:
        """Run `work` in a named worker."""


def rows_as_jsonl(rows: Sequence[AnalysisItem]) -> bytes:
    """The view's rows as JSON Lines, each as the server sent it."""
    lines = (json.dumps(as_sent(item), ensure_ascii=False) for item in rows)
    return "".join(line + "\n" for line in lines).encode("utf-8")


class CommandDesk:
    """Runs the configured commands on the highlighted analysis or the view's rows."""

    def __init__(
        self,
        specs: Mapping[str, CommandSpec],
        host: CommandHost,
        *,
        web: Callable[[], bool],
        environ: Mapping[str, str] | None = None,
    ) -> None:
        """Run `specs` through `host`; `web` tells whether the app is served in a browser
        (then only when `serve --allow-commands` set SERVE_ALLOWS_ENV)."""
        self.specs = specs
        self._host = host
        self._web = web
        self._environ = os.environ if environ is None else environ

    def run(
        self, name: str, highlighted: AnalysisItem | None, rows: Sequence[AnalysisItem]
    ) -> None:
        """Run command `name` (in its worker, `command-NAME`)."""
        spec = self.specs.get(name)
        if spec is None:
            return
        if self._web() and self._environ.get(SERVE_ALLOWS_ENV) != "allow":
            self._host.say(NOT_SERVED, "warning")
            return
        needs_row = any(arg.startswith("{") and arg.endswith("}") for arg in spec.run)
        if needs_row and not isinstance(highlighted, Analysis):
            self._host.say("No analysis is highlighted.", "warning")
            return
        values = values_of(highlighted) if isinstance(highlighted, Analysis) else {}
        argv = fill(spec.run, values)
        stdin = rows_as_jsonl(rows) if spec.stdin == "rows" else None
        self._host.background(self._run(spec, argv, stdin), f"command-{name}")

    async def _run(self, spec: CommandSpec, argv: list[str], stdin: bytes | None) -> None:
        # A dialog, as every dialog, is imported when it is first shown (not with the app).
        from screen_analysis.tui.dialogs.choice import Choice, ChoiceDialog

        if spec.confirm:
            question = f"Run {spec.name}?\n" + clean(" ".join(argv), limit=300)
            yes = Choice("y", "yes", "Run (y)")
            no = Choice("n", "no", "Cancel (n)")
            if await self._host.ask(ChoiceDialog(question, [yes, no])) != "yes":
                return
        result = await run_command(argv, stdin=stdin, timeout=spec.timeout, name=spec.name)
        if not result.ok:
            self._host.say_problem(result.line())
        elif spec.output == "notify":
            last = clean(result.stdout[-1]) if result.stdout else "done"
            self._host.say(f"{spec.name}: {last}")
        elif spec.output == "pane":
            lines = "\n".join(clean(line) for line in result.stdout) or "(no output)"
            await self._host.ask(ChoiceDialog(f"{spec.name}\n{lines}", [Choice("o", "ok", "OK")]))


class OwnSettings:
    """Your commands and how watched ends are told, read from the settings once at start;
    `problems` holds one line per thing left out (said at start, as `[keymap]`'s are)."""

    def __init__(self, commands: object, notify: object) -> None:
        """Check `[commands]` and `notify` (a refused table leaves every command out)."""
        from screen_analysis.tui.watching.tell import parse_notify

        self.problems: list[str] = []
        self.specs: dict[str, CommandSpec] = {}
        if commands is not None and commands != {}:  # else the model (pydantic) stays unloaded
            from screen_analysis.user_commands import CommandConfigError, parse_commands

            try:
                self.specs = parse_commands(commands)
            except CommandConfigError as exc:
                self.problems.append(f"[commands] left out: {exc}")
        self.bindings = command_bindings(self.specs)
        self.notify, problem = parse_notify(notify)
        if problem:
            self.problems.append(problem + " (toasts only)")

    @property
    def ids(self) -> set[str]:
        """The binding ids `[keymap]` may name for the commands."""
        return {spec.binding_id for spec in self.specs.values() if spec.key}
