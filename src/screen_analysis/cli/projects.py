"""`screen-analysis projects get ID`."""

from __future__ import annotations

import asyncio

import click

from screen_analysis.api.models import CRITERIA, Project
from screen_analysis.api.oddities import other_id
from screen_analysis.cli.failures import warn
from screen_analysis.cli.output import dumps_json
from screen_analysis.cli.param_types import PROJECT_ID
from screen_analysis.cli.root import CliContext
from screen_analysis.numbers import DASH, format_count, format_mean, format_weights
from screen_analysis.safe_text import clean
from screen_analysis.words import utc_time


@click.group()
def projects() -> None:
    """Read projects."""


@projects.command("get")
@click.argument("project_id", type=PROJECT_ID, metavar="ID")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json"]),
    default="table",
    show_default=True,
    help="table for people; json as received.",
)
@click.pass_obj
def get_project(ctx: CliContext, project_id: str, fmt: str) -> None:
    """Show one project: name, description, weights and statistics."""

    async def run() -> None:
        async with ctx.make_client() as client:
            project = await client.get_project(project_id)
        contradiction = other_id(project_id, project.id)
        if contradiction is not None:  # shown as sent, said so
            warn(clean(f"{contradiction}; shown as sent"))
        if project.flagged is not None:
            warn(clean(f"fields of the wrong kind shown as unknown: {project.flagged}"))
        if fmt == "json":
            click.echo(dumps_json(project.model_dump(mode="json"), indent=2))
        else:
            click.echo(format_project(project))

    ctx.run(lambda: asyncio.run(run()))


LABELS = ("ID", "Name", "Description", "Analyses", "Average score", "Created", "Updated")
LABEL_CELLS = max(len(label) for label in (*LABELS, "Weights")) + 2  # "Average score: "
CRITERION_CELLS = max(len(criterion.title) for criterion in CRITERIA) + 2


def format_project(project: Project) -> str:
    """A project as `name: value` lines with the values in one column for every project
    (the labels do not depend on the project), then its weights, one criterion a line;
    server text cleaned, numbers and times as everywhere else (`numbers`, `words`)."""
    values = (
        clean(project.id),
        clean(project.name),
        clean(project.description) if project.description else DASH,
        format_count(project.analysis_count),
        format_mean(project.avg_score),
        utc_time(project.created_at),
        utc_time(project.updated_at),
    )
    rows = zip(LABELS, values, strict=True)
    lines = [f"{label + ':':<{LABEL_CELLS}}{value}" for label, value in rows]
    if project.default_criteria is None:
        lines.append(f"{'Weights:':<{LABEL_CELLS}}platform defaults (the project sets none)")
        return "\n".join(lines)
    lines.append(f"{'Weights:':<{LABEL_CELLS}}set by the project")
    given = [_weight(project.default_criteria.get(criterion.value)) for criterion in CRITERIA]
    for criterion, weight in zip(CRITERIA, format_weights(given), strict=True):
        lines.append(f"  {criterion.title:<{CRITERION_CELLS}}{weight}")
    return "\n".join(lines)


def _weight(value: object) -> float | None:
    """A weight as a finite float, or None (a value the server sent that is not one)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return float(value)  # not finite: a dash, as `format_weights` shows it
    except OverflowError:  # an integer beyond 1e308
        return None
