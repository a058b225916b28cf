"""`serve` in a real headless Chromium: the page renders the app, and nothing it asks for
leaves 127.0.0.1 (every request is recorded; any to another host is refused)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from tests.cli.serve_support import running_serve
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, needs_chromium

from screen_analysis.cli.serve_guard import served_url

pytestmark = [pytest.mark.e2e, needs_chromium]


async def test_the_page_renders_the_app_and_asks_nothing_of_another_host(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    from playwright.async_api import Route, async_playwright

    requested: list[str] = []
    elsewhere: list[str] = []

    async def only_loopback(route: Route) -> None:
        url = route.request.url
        requested.append(url)
        if url.startswith(origin + "/"):
            await route.continue_()
        else:
            elsewhere.append(url)
            await route.abort()

    shot = tmp_path / "page.png"
    with running_serve(tmp_path / "home") as served:
        origin = served.origin
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
            )
            try:
                context = await browser.new_context(viewport={"width": 1280, "height": 800})
                await context.route("**/*", only_loopback)
                page = await context.new_page()
                sockets: list[str] = []
                page.on("websocket", lambda socket: sockets.append(socket.url))
                await page.goto(served_url("127.0.0.1", served.port, served.token))
                assert "token=" not in page.url  # swapped for the cookie
                # The terminal shows once the app's first bytes arrive.
                await page.wait_for_selector("body.-first-byte", timeout=30_000)
                await page.wait_for_function(
                    "document.querySelector('.xterm-rows, canvas') !== null", timeout=10_000
                )
                await page.wait_for_timeout(3000)  # the first rows painted
                splash = await page.locator(".intro-dialog").first.is_visible()
                assert not splash
                # The text font and the symbols it lacks (the header's ⭘, ●, ◐) are loaded.
                check = "document.fonts.check('16px \"Roboto Mono\"', '\\u2b58\\u25cf\\u25d0')"
                assert await page.evaluate(check)
                await page.screenshot(path=str(shot))
            finally:
                await browser.close()
    assert elsewhere == []
    fonts = [url for url in requested if url.endswith(".ttf")]  # from this server
    assert f"{origin}/fonts/symbols.ttf" in fonts and len(fonts) >= 2
    assert sockets and all(url.startswith(f"ws://127.0.0.1:{served.port}/ws") for url in sockets)
    # Rendered: the page is not one flat colour (splash or blank) but many.
    colours = Image.open(shot).convert("RGB").getcolors(maxcolors=1 << 20) or []
    assert len(colours) > 50
