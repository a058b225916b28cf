"""The report in a real browser (Debian's chromium, headless, driven by Playwright): it
renders its charts, logs no console error, fetches nothing, and runs no script from the data."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from tests.report.hostile_report import CANARY, PROJECT_ID, script
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, needs_chromium
from tests.support.scripted_server import ScriptedServer

from screen_analysis.cli.root import cli
from screen_analysis.demo.runner import DemoServer

pytestmark = [pytest.mark.e2e, needs_chromium]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def write_report(base_url: str, key: str, out: Path, *args: str) -> Path:
    env = {"SCREEN_ANALYSIS_BASE_URL": base_url, "SCREEN_ANALYSIS_API_KEY": key}
    # In a thread of its own: Playwright's sync API keeps an event loop in this one.
    with ThreadPoolExecutor(1) as pool:
        result = pool.submit(
            CliRunner().invoke, cli, ["report", *args, "-o", str(out)], env=env
        ).result()
    assert result.exit_code == 0, result.stderr
    return out


def open_report(browser: Any, path: Path, screenshot: Path | None = None) -> dict[str, Any]:
    """Load the page; what it logged, asked for and ran."""
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    problems: list[str] = []
    requests: list[str] = []
    dialogs: list[str] = []
    page.on(
        "console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None
    )
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    seen = {
        "problems": problems,
        "requests": [url for url in requests if url != path.as_uri()],
        "dialogs": dialogs,
        "pwned": page.evaluate(f"typeof {CANARY} === 'undefined' ? null : {CANARY}"),
        "charts": page.locator("figure.chart svg").count(),
        "chart_heights": page.eval_on_selector_all(
            "figure.chart svg", "els => els.map(e => e.getBoundingClientRect().height)"
        ),
        "title": page.title(),
        "text": page.inner_text("body"),
    }
    if screenshot is not None:
        page.screenshot(path=str(screenshot), full_page=True)
    page.emulate_media(media="print")
    seen["pdf"] = len(page.pdf(format="A4"))
    page.close()
    return seen


def test_demo_report_renders_without_errors(
    browser: Any, demo_server: DemoServer, tmp_path: Path
) -> None:
    project = demo_server.store.projects()[0]
    path = write_report(
        demo_server.base_url,
        demo_server.api_key,
        tmp_path / "report.html",
        "--project-id",
        project.id,
    )
    seen = open_report(browser, path, tmp_path / "report.png")
    assert seen["problems"] == [] and seen["requests"] == [] and seen["dialogs"] == []
    assert seen["charts"] == 4 and all(h > 50 for h in seen["chart_heights"])
    assert project.name in seen["title"] and "Best screens" in seen["text"]
    assert seen["pdf"] > 10_000


def test_hostile_server_text_never_runs(browser: Any, tmp_path: Path) -> None:
    with ScriptedServer(script) as server:
        path = write_report(server.base_url, "k", tmp_path / "r.html", "--project-id", PROJECT_ID)
    seen = open_report(browser, path)
    assert seen["pwned"] is None and seen["dialogs"] == []
    assert seen["problems"] == [] and seen["requests"] == []
    assert seen["charts"] == 4
    assert f"<script>{CANARY}=1</script>" in seen["text"]  # shown as text
    assert f"</svg><script>{CANARY}=2</script><svg>" in seen["title"]


# Each count beside a partial point ("n=16"), as the browser laid it out, against every
# segment of the line in the same chart: the points where a segment enters its box.
OVERLAPS = """() => {
  const hits = [];
  for (const svg of document.querySelectorAll("figure.chart svg")) {
    const segments = [...svg.querySelectorAll("line.line")].map(l =>
      ["x1", "y1", "x2", "y2"].map(a => parseFloat(l.getAttribute(a))));
    for (const text of svg.querySelectorAll("text.value.partial")) {
      const b = text.getBBox();
      for (const [x1, y1, x2, y2] of segments) {
        for (let i = 0; i <= 50; i++) {
          const x = x1 + (x2 - x1) * i / 50, y = y1 + (y2 - y1) * i / 50;
          if (x >= b.x && x <= b.x + b.width && y >= b.y && y <= b.y + b.height) {
            hits.push(text.textContent + " at " + [x.toFixed(1), y.toFixed(1)]);
            break;
          }
        }
      }
    }
  }
  return hits;
}"""


@pytest.fixture(scope="module")
def stories() -> Iterator[DemoServer]:
    from tests.conftest import demo_config

    with DemoServer(demo_config(analyses=3000)) as server:
        yield server


def test_the_counts_of_partial_points_stay_clear_of_the_line(
    browser: Any, stories: DemoServer, tmp_path: Path
) -> None:
    improving, declining = stories.store.projects()[:2]
    for project in (improving, declining):
        path = write_report(
            stories.base_url,
            stories.api_key,
            tmp_path / f"{project.id}.html",
            "--project-id",
            project.id,
        )
        page = browser.new_page(viewport={"width": 1000, "height": 800})
        page.goto(path.as_uri())
        counts = page.locator("text.value.partial").count()
        overlaps = page.evaluate(OVERLAPS)
        page.locator("figure.chart").first.screenshot(path=str(tmp_path / f"{project.id}.png"))
        page.close()
        assert counts >= 1 and overlaps == [], (project.name, overlaps)
