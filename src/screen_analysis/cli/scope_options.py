"""The scope options `analyses list`, `report` and `check` share, defined once: `--view
NAME` (a `[views.NAME]` of the config) and the scope language's keys (`browse.scope`),
which replace the view's. Bad input is one line naming the option (or the view and its
key), exit 2, before any request."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

import click

from screen_analysis.api.models import STATUSES
from screen_analysis.browse.saved_views import read_views, view_error_name
from screen_analysis.browse.scope import option_name
from screen_analysis.browse.when import ScopeError
from screen_analysis.cli.exit_codes import CliError, ExitCode
from screen_analysis.cli.param_types import PROJECT_ID, VIEW_NAME

if TYPE_CHECKING:
    from screen_analysis.browse.scope_model import SavedView, Scope

F = TypeVar("F", bound=Callable[..., Any])

SCOPE_PARAMS = ("project_id", "status", "label", "since", "until", "score", "criteria", "last")
"""The click parameters the options below set (besides `view`)."""

_OPTIONS = (
    click.option("--view", metavar="NAME", type=VIEW_NAME, help="A [views.NAME] of the config."),
    click.option(
        "--project-id",
        type=PROJECT_ID,
        metavar="ID",
        multiple=True,
        help="Only analyses of this project (repeatable: any of them).",
    ),
    click.option(
        "--status",
        type=click.Choice([s.value for s in STATUSES]),
        help="Only analyses in this state.",
    ),
    click.option("--label", metavar="GLOB", help="Only labels matching this shell pattern."),
    click.option(
        "--since", metavar="WHEN", help="Created from a date, a date-time or e.g. 2h, 7d ago."
    ),
    click.option("--until", metavar="WHEN", help="Created before a date, a date-time or 2h ago."),
    click.option(
        "--score",
        metavar="RANGE",
        help="Overall score in a range: 40..60, ..60 or 70.. (inclusive).",
    ),
    click.option(
        "--criterion",
        "criteria",
        metavar="COND",
        multiple=True,
        help='A criterion\'s score: "color_contrast<50", "visual_clarity 40..60" (repeatable).',
    ),
    click.option("--last", metavar="N", help="Only the N newest analyses in scope."),
)


def scope_options(command: F) -> F:
    """Add the scope options (and `--view`) to a command."""
    for option in reversed(_OPTIONS):
        command = option(command)
    return command


def saved_view(settings_views: Mapping[str, object], name: str | None) -> SavedView | None:
    """The view `--view` names (None without it); a view the config cannot give is one
    line, exit 2."""
    if name is None:
        return None
    try:
        return read_views(settings_views).get(name)
    except ScopeError as exc:
        raise CliError(str(exc), ExitCode.USAGE) from None


def scope_values(view: SavedView | None, flags: Mapping[str, Any]) -> dict[str, Any]:
    """The view's scope keys with the options given laid over them."""
    values: dict[str, Any] = view.values() if view is not None else {}
    given = {key: flags[key] for key in SCOPE_PARAMS if flags.get(key) not in (None, ())}
    if "score" in given:
        values.pop("min_score", None)
        values.pop("max_score", None)
    return values | given


def chosen_scope(
    settings_views: Mapping[str, object], flags: Mapping[str, Any]
) -> tuple[Scope, SavedView | None]:
    """The scope the options and `--view` describe, and the view; CliError (exit 2) in
    one line naming the option, or the view and its key."""
    view = saved_view(settings_views, flags.get("view"))
    given = {key for key in SCOPE_PARAMS if flags.get(key) not in (None, ())}
    from_view = view_error_name(str(flags.get("view")))

    def named(key: str) -> str:
        return option_name(key) if key in given or view is None else from_view(key)

    # The scope's model (and pydantic) is imported when a scope is read, not by the app.
    from screen_analysis.browse.scope_model import read_scope

    try:
        return read_scope(scope_values(view, flags), named), view
    except ScopeError as exc:
        raise CliError(str(exc), ExitCode.USAGE) from None


def scope_at(scope: Scope, now: datetime) -> Any:
    """The scope's filter at `now`, its time words' errors as exit 2."""
    try:
        return scope.at(now)
    except ScopeError as exc:
        raise CliError(str(exc), ExitCode.USAGE) from None
