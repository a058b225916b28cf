"""`screen-analysis projects get ID`."""

from __future__ import annotations

import asyncio

import click

from screen_analysis.api.models import CRITERIA, Project
from screen_analysis.cli.output import dumps_json
from screen_analysis.cli.root import CliContext
from screen_analysis.numbers import format_count
from screen_analysis.safe_text import clean


@click.group()
def projects() -> None:
    """Read projects."""


@projects.command("get")
@click.argument("project_id", metavar="ID")
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
        if fmt == "json":
            click.echo(dumps_json(project.model_dump(mode="json"), indent=2))
        else:
            click.echo(format_project(project))

    ctx.run(lambda: asyncio.run(run()))


def format_project(project: Project) -> str:
    """A project as aligned `name: value` lines, server text cleaned."""
    avg = "—" if project.avg_score is None else f"{project.avg_score:g}"
    count = format_count(project.analysis_count)
    rows = [
        ("ID", clean(project.id)),
        ("Name", clean(project.name)),
        ("Description", clean(project.description) if project.description else "—"),
        ("Analyses", count),
        ("Average score", avg),
        ("Created", project.created_at.isoformat() if project.created_at else "—"),
        ("Updated", project.updated_at.isoformat() if project.updated_at else "—"),
    ]
    if project.default_criteria is None:
        rows.append(("Weights", "platform defaults"))
    else:
        for criterion in CRITERIA:
            weight = project.default_criteria.get(criterion.value)
            rows.append((f"Weight: {criterion.title}", "—" if weight is None else f"{weight:g}"))
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name + ':':<{width + 1}} {value}" for name, value in rows)
