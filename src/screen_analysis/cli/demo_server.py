"""`screen-analysis demo-server`: the reference server of the API, in the foreground."""

from __future__ import annotations

import click

from screen_analysis.cli.root import CliContext


@click.command("demo-server")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--analyses",
    default=5000,
    show_default=True,
    type=click.IntRange(0, 10_000_000),
    help="How many analyses to generate.",
)
@click.option(
    "--projects", "project_count", default=8, show_default=True, type=click.IntRange(1, 1000)
)
@click.option("--seed", default=42, show_default=True, type=int, help="Seed of the generator.")
@click.option(
    "--latency",
    "latency_ms",
    default=0,
    show_default=True,
    type=click.IntRange(0, 60_000),
    help="Added latency per request, in ms.",
)
@click.option(
    "--error-rate",
    default=0.0,
    show_default=True,
    type=click.FloatRange(0, 1),
    help="Share of requests answered with a 5xx.",
)
@click.option(
    "--rate-limit-rate",
    default=0.0,
    show_default=True,
    type=click.FloatRange(0, 1),
    help="Share of requests answered with 429 and Retry-After.",
)
@click.option(
    "--live/--no-live",
    default=False,
    show_default=True,
    help="New analyses arrive and progress over time.",
)
@click.pass_obj
def demo_server(
    ctx: CliContext,
    host: str,
    port: int,
    analyses: int,
    project_count: int,
    seed: int,
    latency_ms: int,
    error_rate: float,
    rate_limit_rate: float,
    live: bool,
) -> None:
    """Run the reference server of the API (demo data; key printed at start)."""
    from screen_analysis.demo.config import DemoConfig
    from screen_analysis.demo.runner import serve_forever

    config = DemoConfig(
        analyses=analyses,
        projects=project_count,
        seed=seed,
        latency_ms=latency_ms,
        error_rate=error_rate,
        rate_limit_rate=rate_limit_rate,
        live=live,
    )
    ctx.run(lambda: serve_forever(config, host=host, port=port))
