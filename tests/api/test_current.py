"""The holder of the client in use: every part that asks the server asks through it, so a
client replaced between two pages serves the next one."""

from __future__ import annotations

import asyncio
import gc

import pytest
from tests.api.support import RecordingTransport

from screen_analysis.api import current as current_module
from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.api.current import CurrentClient, NoClientError
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr


def client_of(server: DemoServer, transport: RecordingTransport) -> ScreenAnalysisClient:
    return ScreenAnalysisClient(server.base_url, SecretStr(server.api_key), transport=transport)


async def test_nothing_held_is_not_connected() -> None:
    current = CurrentClient()
    assert not current.connected and current.base_url == ""
    with pytest.raises(NoClientError, match="not connected to a server"):
        current.client  # noqa: B018
    assert current.api_path("https://api.example.com/v1/x") is None


async def test_the_client_given_at_the_start_is_the_one_used(demo_server: DemoServer) -> None:
    async with ScreenAnalysisClient(demo_server.base_url, SecretStr(demo_server.api_key)) as api:
        current = CurrentClient(api)
        assert current.client is api and current.connected
        assert current.base_url == api.base_url


async def test_a_walk_goes_on_with_the_client_that_replaced_the_first(
    demo_server: DemoServer,
) -> None:
    first, second = RecordingTransport(), RecordingTransport()
    current = CurrentClient(client_of(demo_server, first))
    project = await _a_project(current)
    first.sent.clear()
    async with current.iter_pages(project, "completed", 2) as walk:
        pages = aiter(walk)
        one = await anext(pages)
        await current.swap(client_of(demo_server, second))
        two = await anext(pages)
    assert len(one.items) == len(two.items) == 2
    assert {item.project_id for item in [*one.items, *two.items]} == {project}
    assert [r.url.params.get("after") for r in first.sent] == [None]
    assert [dict(r.url.params) for r in first.sent] == [
        {"project_id": project, "status": "completed", "limit": "2"}
    ]
    assert [r.url.params.get("after") for r in second.sent] == [one.next_cursor]
    await current.swap(None)


async def _a_project(current: CurrentClient) -> str:
    """A project with completed analyses."""
    page = await current.client.list_analyses(status="completed", limit=1)
    project = page.analyses[0].project_id
    assert project is not None
    return project


async def test_an_image_is_fetched_with_the_client_in_use_and_its_etag(
    demo_server: DemoServer,
) -> None:
    current = CurrentClient(client_of(demo_server, RecordingTransport()))
    page = await current.client.list_analyses(limit=1)
    url = page.analyses[0].image_url
    assert url is not None
    image = await current.fetch_image(url)
    again = await current.fetch_image(url, etag=image.etag)
    assert image.data and again.not_modified and again.url == image.url
    await current.swap(None)


async def test_a_client_set_on_an_empty_holder_is_used(demo_server: DemoServer) -> None:
    api = client_of(demo_server, RecordingTransport())
    current = CurrentClient()
    await current.swap(api)
    assert current.client is api and not api.is_closed
    await current.swap(None)


async def test_the_client_replaced_is_closed_and_the_same_one_given_again_is_not(
    demo_server: DemoServer,
) -> None:
    first = client_of(demo_server, RecordingTransport())
    second = client_of(demo_server, RecordingTransport())
    current = CurrentClient(first)
    await current.swap(first)
    assert not first.is_closed, "the client in use, given again, is kept open"
    await current.swap(second)
    assert first.is_closed and not second.is_closed
    await current.swap(None)
    assert second.is_closed and not current.connected


async def test_a_holder_emptied_after_an_open_has_no_server(demo_server: DemoServer) -> None:
    current = CurrentClient()
    await current.open(lambda: client_of(demo_server, RecordingTransport()), "https://x.test")
    assert current.connected and current.base_url == "https://x.test"
    assert current.replace(None) is None, "never built: nothing to close"
    assert not current.connected and current.base_url == ""


async def test_an_address_on_the_server_in_use_is_its_path(demo_server: DemoServer) -> None:
    """The detail pane shows an image on the API's own server as its path: before the
    client is built (read without it) and after."""
    built: list[ScreenAnalysisClient] = []

    def build() -> ScreenAnalysisClient:
        built.append(client_of(demo_server, RecordingTransport()))
        return built[-1]

    current = CurrentClient()
    await current.open(build, demo_server.base_url)
    url = f"{demo_server.base_url}/images/an_01.png?size=2"
    assert current.api_path(url) == "/images/an_01.png?size=2"
    assert not built, "read without building the client"
    assert current.client is built[0]
    assert current.api_path(url) == "/images/an_01.png?size=2"
    assert current.api_path("https://elsewhere.example.com/images/an_01.png") is None
    await current.swap(None)


async def test_a_walk_asks_pages_of_twenty_unless_told(demo_server: DemoServer) -> None:
    sent = RecordingTransport()
    current = CurrentClient(client_of(demo_server, sent))
    async with current.iter_pages() as walk:
        await anext(aiter(walk))
    assert [r.url.params.get("limit") for r in sent.sent] == ["20"]
    await current.swap(None)


async def test_a_hold_keeps_the_asking_parts_waiting_until_it_is_let_go(
    demo_server: DemoServer,
) -> None:
    """Held, a walk's page and an image wait, and the client is not built, until the
    release; then both go on. A release with nothing held, and a second release, do nothing."""
    built: list[ScreenAnalysisClient] = []

    def build() -> ScreenAnalysisClient:
        built.append(ScreenAnalysisClient(demo_server.base_url, SecretStr(demo_server.api_key)))
        return built[-1]

    current = CurrentClient()
    current.release()
    await current.open(build, demo_server.base_url)
    current.hold()
    current.hold()  # one hold, however often asked
    async with current.iter_pages(limit=1) as walk:
        page = asyncio.ensure_future(anext(aiter(walk)))
        for _ in range(20):
            await asyncio.sleep(0)  # let the walk run as far as it may
        assert not page.done() and built == []
        current.release()
        first = await asyncio.wait_for(page, 30)
    assert len(first.items) == 1 and len(built) == 1
    current.release()
    await current.ready()  # nothing held: at once
    await current.swap(None)


async def test_a_hold_never_let_go_ends_for_every_part_after_its_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hold nobody releases (a start that never asked its first page) lets the parts go
    after START_HOLD_S, all of them: the next part does not wait again."""
    monkeypatch.setattr(current_module, "START_HOLD_S", 0.05)
    current = CurrentClient()
    current.hold()
    await asyncio.wait_for(current.ready(), 5)
    waited = asyncio.ensure_future(current.ready())
    await asyncio.sleep(0)
    assert waited.done(), "the hold was let go at its bound"


# A first page asked early (`ask_first`): a start with no kept rows to draw


async def _first_page(
    current: CurrentClient, status: str | None, limit: int, project: str | None = None
) -> list[str]:
    async with current.iter_pages(project, status, limit) as walk:
        page = await anext(aiter(walk))
    return [item.id for item in page.items]


async def test_a_first_page_asked_early_is_the_walk_s_first_page(demo_server: DemoServer) -> None:
    sent = RecordingTransport()
    current = CurrentClient(client_of(demo_server, sent))
    project = await _a_project(current)
    sent.sent.clear()
    current.ask_first(project, "completed", 3)
    await asyncio.sleep(0)  # asked now, before any walk: the server works on it meanwhile
    totals = await _first_page(current, "failed", 1)  # another page size: a total, not taken
    ids = await _first_page(current, "completed", 3, project)
    again = await _first_page(current, "completed", 3, project)  # taken once: asked again
    asked = sorted(tuple(sorted(r.url.params.items())) for r in sent.sent)
    listing = (("limit", "3"), ("project_id", project), ("status", "completed"))
    assert asked == [(("limit", "1"), ("status", "failed")), listing, listing]
    assert len(ids) == 3 and ids == again and len(totals) == 1
    await current.swap(None)


async def test_an_early_first_page_dropped_unread_leaves_nothing_unretrieved(
    demo_server: DemoServer,
) -> None:
    """One that failed and one still asking, both dropped unread: the event loop is told of
    no failure never retrieved, nor of a callback that failed."""
    told: list[dict[str, object]] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: told.append(context))
    try:
        failing = CurrentClient()  # nothing connected: its early ask fails
        failing.ask_first(None, None, 3)
        asking = CurrentClient(client_of(demo_server, RecordingTransport()))
        asking.ask_first(None, None, 3)
        for _ in range(5):  # the failure and its callbacks
            await asyncio.sleep(0)
        failing.replace(None)
        asking.replace(None)  # cancelled while it asks
        for _ in range(5):
            await asyncio.sleep(0)
        gc.collect()  # an unretrieved failure is told when its task is collected
        await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(None)
    assert told == []


async def test_a_first_page_asked_early_for_another_view_is_dropped(
    demo_server: DemoServer,
) -> None:
    sent = RecordingTransport()
    current = CurrentClient(client_of(demo_server, sent))
    current.ask_first(None, "completed", 3)
    await asyncio.sleep(0)
    assert len(await _first_page(current, "failed", 3)) == 3  # a view opened in its place
    sent.sent.clear()
    assert len(await _first_page(current, "completed", 3)) == 3
    assert [dict(r.url.params) for r in sent.sent] == [{"status": "completed", "limit": "3"}]
    await current.swap(None)


async def test_a_first_page_asked_early_is_dropped_with_its_client(
    demo_server: DemoServer,
) -> None:
    first, second = RecordingTransport(), RecordingTransport()
    current = CurrentClient(client_of(demo_server, first))
    current.ask_first(None, None, 3)
    await asyncio.sleep(0)  # sent with the first client
    await current.swap(client_of(demo_server, second))
    assert len(await _first_page(current, None, 3)) == 3
    assert [dict(r.url.params) for r in second.sent] == [{"limit": "3"}]  # the new client's
    await current.swap(None)


async def test_an_early_first_page_s_failure_is_the_walk_s(demo_server: DemoServer) -> None:
    current = CurrentClient()  # nothing connected: the early ask fails
    current.ask_first(None, None, 3)
    await asyncio.sleep(0)
    with pytest.raises(NoClientError):
        await _first_page(current, None, 3)
