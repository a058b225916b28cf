"""Arguments are refused before any request is sent."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.api.support import MakeClient, api_requests, no_requests_since, pydantic_loaded_by

from screen_analysis.api import InvalidArgumentError, ScreenAnalysisClient, Timeouts, arguments
from screen_analysis.api.arguments import declared
from screen_analysis.api.models import AnalysisStatus
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr


@pytest.mark.parametrize(
    ("kwargs", "param"),
    [
        ({"limit": 0}, "limit"),
        ({"limit": 101}, "limit"),
        ({"limit": -5}, "limit"),
        ({"limit": "20"}, "limit"),
        ({"limit": 20.0}, "limit"),
        ({"limit": True}, "limit"),
        ({"limit": None}, "limit"),
        ({"status": "done"}, "status"),
        ({"status": "FAILED"}, "status"),
        ({"status": ""}, "status"),
        ({"status": 1}, "status"),
        ({"project_id": ""}, "project_id"),
        ({"project_id": "   "}, "project_id"),
        ({"project_id": "proj/1"}, "project_id"),
        ({"project_id": "proj\x1b[2J"}, "project_id"),
        ({"project_id": 7}, "project_id"),
        ({"after": ""}, "after"),
        ({"after": 3}, "after"),
    ],
)
async def test_list_arguments_are_refused_before_any_request(
    demo_server: DemoServer, make_client: MakeClient, kwargs: dict[str, Any], param: str
) -> None:
    before = len(api_requests(demo_server))
    client = make_client(demo_server)
    with pytest.raises(InvalidArgumentError) as caught:
        await client.list_analyses(**kwargs)
    with pytest.raises(InvalidArgumentError):
        client.iter_pages(**kwargs)  # refused when asked, not at the first page
    assert caught.value.param == param
    assert isinstance(caught.value, ValueError)
    assert "\n" not in str(caught.value) and "\x1b" not in str(caught.value)
    assert await no_requests_since(demo_server, before)


@pytest.mark.parametrize("max_items", [0, -1, 1.5])
async def test_max_items_is_refused_when_asked(
    demo_server: DemoServer, make_client: MakeClient, max_items: Any
) -> None:
    before = len(api_requests(demo_server))
    with pytest.raises(InvalidArgumentError) as caught:
        make_client(demo_server).iter_pages(max_items=max_items)
    assert caught.value.param == "max_items"
    assert await no_requests_since(demo_server, before)


@pytest.mark.parametrize("project_id", ["", "a/b", "..", ".", None, "x\ny"])
async def test_project_ids_are_refused_before_any_request(
    demo_server: DemoServer, make_client: MakeClient, project_id: Any
) -> None:
    before = len(api_requests(demo_server))
    with pytest.raises(InvalidArgumentError):
        await make_client(demo_server).get_project(project_id)
    assert await no_requests_since(demo_server, before)


def test_limit_messages_name_the_bounds() -> None:
    with pytest.raises(InvalidArgumentError, match=r"^limit: must be from 1 to 100, got '101'$"):
        from screen_analysis.api.arguments import check_limit

        check_limit(101)


@pytest.mark.parametrize(
    "base_url",
    [
        "",
        "example.com",
        "ftp://example.com",
        "http://",
        "http://h/?q=1",
        "http://h/#f",
        "http://user:pw@h/",
        "https://xn--/",  # IDNA names that do not decode: read only when the host is asked
        "https://xn--a/",
        42,
    ],
)
def test_bad_base_urls_are_refused(base_url: Any) -> None:
    with pytest.raises(InvalidArgumentError, match="base URL"):
        ScreenAnalysisClient(base_url, SecretStr("key"))


@pytest.mark.parametrize("key", ["", "has space", "tab\tkey", "é-key", "line\nbreak"])
def test_keys_that_cannot_be_a_header_are_refused(key: str) -> None:
    with pytest.raises(InvalidArgumentError, match="api_key") as caught:
        ScreenAnalysisClient("http://127.0.0.1:1", SecretStr(key))
    assert key not in str(caught.value) or not key


@pytest.mark.parametrize(
    "options",
    [{"max_retries": -1}, {"max_retries": 1.5}, {"max_retries": True}, {"timeout": 0}],
)
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidArgumentError):
        ScreenAnalysisClient("http://127.0.0.1:1", SecretStr("key"), **options)


@pytest.mark.parametrize("value", [0, -1.0, float("nan"), "5", True])
def test_timeouts_must_be_positive_numbers(value: Any) -> None:
    with pytest.raises(InvalidArgumentError):
        Timeouts(connect=value)
    with pytest.raises(InvalidArgumentError):
        Timeouts()._replace(connect=value)  # a copy is checked as well


async def test_timeouts_default_and_a_number_sets_them_all(make_client: MakeClient) -> None:
    assert Timeouts() == Timeouts(connect=5.0, read=30.0, write=30.0, pool=10.0)
    client = make_client(base_url="http://127.0.0.1:1", timeout=2.5)
    assert client.timeouts == Timeouts(2.5, 2.5, 2.5, 2.5)


@pytest.mark.parametrize(
    ("check", "value", "says"),
    [
        ("limit", "20", "limit: must be an integer from 1 to 100, got '20'"),
        ("limit", True, "limit: must be an integer from 1 to 100, got 'True'"),
        ("status", "done", "status: must be one of pending, processing, completed, failed"),
        ("cursor", "", "after: must be a non-empty cursor string, got ''"),
        ("max_items", 0, "max_items: must be a positive integer, got '0'"),
        ("id", "a/b", "project_id: must be a non-empty string without '/', control characters"),
    ],
)
def test_each_argument_is_refused_in_one_line_naming_it(check: str, value: Any, says: str) -> None:
    """The declared types word their own refusals through the one `describe_errors`."""
    from screen_analysis.api import arguments

    checks = {
        "limit": arguments.check_limit,
        "status": lambda value: arguments.check_list(None, value, 20),
        "cursor": arguments.check_cursor,
        "max_items": arguments.check_max_items,
        "id": lambda value: arguments.check_id(value, name="project_id"),
    }
    with pytest.raises(InvalidArgumentError) as caught:
        checks[check](value)
    assert str(caught.value).startswith(says)
    assert caught.value.param == says.split(":")[0]


def test_a_listing_names_each_bad_argument_in_one_line() -> None:
    from screen_analysis.api.arguments import check_list

    with pytest.raises(InvalidArgumentError) as caught:
        check_list("a/b", "done", 0)
    message = str(caught.value)
    assert caught.value.param == "project_id" and "\n" not in message
    for name in ("project_id: ", "; status: must be one of", "; limit: must"):
        assert name in message


def test_a_good_argument_is_given_back_as_it_was() -> None:
    """What the request sends: the id, page size and cursor as given; a listing's filters
    as their texts."""
    from screen_analysis.api import arguments

    assert arguments.check_id("proj_1", name="project_id") == "proj_1"
    assert arguments.check_limit(100) == 100
    assert arguments.check_cursor("c2") == "c2" and arguments.check_cursor(None) is None
    assert arguments.check_max_items(1) == 1 and arguments.check_max_items(None) is None
    listing = arguments.check_list("proj_1", "failed", 1)
    assert (listing.project_id, listing.status, listing.limit) == ("proj_1", "failed", 1)


class Text(str):
    """A string of another type: never taken plainly, taken by pydantic as a string."""


# Values of every kind an argument may be given: good ones, edge ones and wrong ones.
ANY_VALUE = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-3, max_value=130)
    | st.integers()
    | st.floats()
    | st.text(max_size=6)
    | st.sampled_from(["", " ", ".", "..", "...", "a/b", "proj_1", "x\x1b", "\x85", "é"])
    # What undecodable bytes on a command line become: not text a request can carry.
    | st.sampled_from(["\udcff", "p\udcff", "\ud800x"])
    | st.sampled_from([*AnalysisStatus, *(s.value for s in AnalysisStatus), "FAILED"])
    | st.binary(max_size=3)
    | st.lists(st.integers(), max_size=2)
    | st.sampled_from(["proj_1", "failed", "c2", "", "a/b"]).map(Text)
)


def outcome(check: Callable[[], object]) -> tuple[object, ...]:
    """What a check gave: the value and its type, or the refusal's words and argument."""
    try:
        value = check()
    except InvalidArgumentError as exc:
        return ("refused", str(exc), exc.param)
    return ("taken", type(value), value)


@settings(max_examples=400, deadline=None)
@given(ANY_VALUE)
def test_each_argument_is_taken_as_its_declaration_takes_it(value: object) -> None:
    """Read plainly or asked of pydantic, an argument comes out as its declaration (pydantic)
    takes it or refuses it, in the same words."""
    checks: list[tuple[str, Callable[[object], object], str]] = [
        ("id", lambda v: arguments.check_id(v, name="project_id"), "project_id"),
        ("limit", arguments.check_limit, "limit"),
        ("cursor", arguments.check_cursor, "after"),
        ("max_items", arguments.check_max_items, "max_items"),
    ]
    for kind, check, name in checks:
        as_declared = partial(declared.checked, declared.KINDS[kind], value, name)
        assert outcome(partial(check, value)) == outcome(as_declared), kind


@settings(max_examples=400, deadline=None)
@given(ANY_VALUE, ANY_VALUE, ANY_VALUE)
def test_a_listing_is_taken_as_its_declaration_takes_it(
    project_id: object, status: object, limit: object
) -> None:
    def as_declared() -> tuple[object, object, object]:
        values = {"project_id": project_id, "status": status, "limit": limit}
        listing = declared.checked(declared.Listing, values)
        return listing.project_id, listing.status, listing.limit

    def plain() -> tuple[object, object, object]:
        listing = arguments.check_list(project_id, status, limit)
        return listing.project_id, listing.status, listing.limit

    mine, theirs = outcome(plain), outcome(as_declared)
    assert mine == theirs
    if mine[0] == "taken":  # the status is the member, as pydantic gives it
        assert [type(v) for v in mine[2]] == [type(v) for v in theirs[2]]  # type: ignore[index]


@pytest.mark.parametrize("text", ["p\udcff", "\ud800"])
def test_text_with_a_lone_surrogate_is_refused_in_words(text: str) -> None:
    """What undecodable bytes on a command line become cannot be sent: refused as any bad
    id or cursor is, never an encoding error later."""
    for check, param in [
        (lambda: arguments.check_id(text, name="project_id"), "project_id"),
        (lambda: arguments.check_list(text, None, 20), "project_id"),
        (lambda: arguments.check_cursor(text), "after"),
    ]:
        with pytest.raises(InvalidArgumentError) as caught:
            check()
        assert caught.value.param == param


def test_plainly_good_arguments_are_not_asked_of_their_declarations(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What a request usually carries is read plainly (asking a declaration here fails the
    test), each bound included; a string of another type is asked, and taken."""

    def asked(kind: object, value: object, name: str | None = None) -> object:
        raise AssertionError(f"{name or kind!r} was asked of its declaration")

    with monkeypatch.context() as patched:
        patched.setattr(declared, "checked", asked)
        for limit in (1, 100):
            assert arguments.check_limit(limit) == limit
        for status, member in [
            ("failed", AnalysisStatus.FAILED),
            *((s, s) for s in AnalysisStatus),
        ]:
            listing = arguments.check_list("proj_1", status, 100)
            assert (listing.project_id, listing.status, listing.limit) == ("proj_1", member, 100)
            assert type(listing.status) is AnalysisStatus
        listing = arguments.check_list(None, None, 1)
        assert (listing.project_id, listing.status, listing.limit) == (None, None, 1)
        assert arguments.check_id(".x", name="project_id") == ".x"
        assert arguments.check_cursor("c") == "c" and arguments.check_cursor(None) is None
        assert arguments.check_max_items(1) == 1 and arguments.check_max_items(None) is None
    listing = arguments.check_list(Text("proj_1"), Text("failed"), 7)
    assert (listing.project_id, listing.status, listing.limit) == ("proj_1", "failed", 7)


def test_a_plainly_good_request_is_checked_without_pydantic() -> None:
    """The common arguments are read without pydantic, so the first request is sent before
    pydantic is loaded (a fresh interpreter)."""
    code = (
        "from screen_analysis.api import arguments\n"
        "arguments.check_list('proj_1', 'failed', 100)\n"
        "arguments.check_list(None, None, 20)\n"
        "arguments.check_cursor('c2'); arguments.check_max_items(None)\n"
        "arguments.check_id('proj_1', name='project_id')\n"
    )
    assert pydantic_loaded_by(code) == []
