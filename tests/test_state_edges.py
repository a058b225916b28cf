"""The state and layout files at their edges: each bound met exactly and passed by one, the
words for each wrong shape, what a read leaves alone and what a change writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from screen_analysis.state import (
    LayoutPreferences,
    Place,
    RememberedPlace,
    RememberedProjects,
    StateData,
    load_state,
    parse_state,
    read_state,
    server_key,
)
from screen_analysis.state.file import (
    MAX_ID_CHARS,
    MAX_PROFILES,
    MAX_REMEMBERED,
    MAX_SERVERS,
    change_state,
    dump_state,
)

API = "https://api.example.com"


def test_a_server_is_kept_by_its_address_without_a_trailing_slash() -> None:
    assert server_key(API + "//", is_demo=False) == API
    assert server_key(API, is_demo=True) == "demo"


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ("[]", "it holds a list where an object was expected"),
        ("5", "it holds a number where an object was expected"),
        ("2.5", "it holds a number where an object was expected"),
        ("true", "it holds a boolean where an object was expected"),
        ('"x"', "it holds a string where an object was expected"),
        ("null", "it holds null where an object was expected"),
        ('{"projects": {}}', '"projects" is an object where a list was expected'),
        ('{"projects": [1]}', '"projects" holds something other than project ids'),
        ('{"servers": []}', '"servers" is a list where an object was expected'),
        ('{"places": 1}', '"places" is a number where an object was expected'),
    ],
)
def test_each_wrong_shape_is_worded(data: str, problem: str) -> None:
    assert parse_state(data) == (StateData({}, {}), [problem])


def test_one_bad_entry_is_named_and_the_rest_kept() -> None:
    text = json.dumps(
        {
            "projects": ["proj_old"],  # an earlier version's list: accepted, not used
            "servers": {"a": ["p1", "p1", "p2"], "b": "p", "c": ["p", ""], "d": [1]},
            "places": {
                "a": {"": {"project": "p1"}, "x": {"colour": "red"}},
                "b": [],
                "c": {"p": {"project": "y" * (MAX_ID_CHARS + 1)}},
            },
        }
    )
    state, problems = parse_state(text)
    assert state.servers == {"a": ["p1", "p2"]}  # each id once
    assert state.places == {
        "a": {"": {"project": "p1", "status": None, "analysis": None, "view": None}}
    }
    assert problems == [
        "the entry for 'b' is a string where a list was expected",
        "the list for 'c' holds something other than project ids",
        "the list for 'd' holds something other than project ids",
        "the place for 'a' (x) is odd",
        "the places of 'b' are a list, not an object",
        "the place for 'c' (p) is odd",
    ]
    _, problems = parse_state(json.dumps({"places": {"a": {"": {"project": ""}}}}))
    assert problems == ["the place for 'a' (no profile) is odd"]  # an empty id is no id
    _, problems = parse_state(json.dumps({"places": {"a": {"": "p"}}}))
    assert problems == ["the place for 'a' (no profile) is odd"]


def test_an_id_up_to_its_length_is_a_place() -> None:
    longest = "y" * MAX_ID_CHARS
    state, problems = parse_state(json.dumps({"places": {"a": {"": {"analysis": longest}}}}))
    assert problems == [] and state.places["a"][""]["analysis"] == longest


def test_the_newest_of_each_bound_are_kept() -> None:
    ids = [f"p{i}" for i in range(MAX_REMEMBERED + 1)]
    state, _ = parse_state(json.dumps({"servers": {"a": ids}}))
    assert state.servers["a"] == ids[1:]  # the oldest gives way
    state, _ = parse_state(json.dumps({"servers": {"a": ids[1:]}}))
    assert state.servers["a"] == ids[1:]  # met exactly
    profiles = {f"pr{i}": {"project": "p"} for i in range(MAX_PROFILES + 1)}
    state, _ = parse_state(json.dumps({"places": {"a": profiles}}))
    assert list(state.places["a"]) == [f"pr{i}" for i in range(1, MAX_PROFILES + 1)]
    servers = {f"s{i}": ["p"] for i in range(MAX_SERVERS + 1)}
    places = {f"s{i}": {"": {"project": "p"}} for i in range(MAX_SERVERS + 1)}
    written = json.loads(dump_state(StateData(servers, places)))
    assert list(written["servers"]) == [f"s{i}" for i in range(1, MAX_SERVERS + 1)]
    assert list(written["places"]) == [f"s{i}" for i in range(1, MAX_SERVERS + 1)]
    assert json.loads(dump_state(StateData({"a": ["p"]}, {}))) == {"servers": {"a": ["p"]}}
    assert dump_state(StateData({}, {})) == '{\n "servers": {}\n}\n'


def test_a_read_leaves_a_damaged_file_where_it_is_and_a_load_moves_it(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text("[]", encoding="utf-8")
    state, warning = read_state(path)
    assert state == StateData({}, {}) and warning == (
        f"The state file {path} was not used: it holds a list where an object was expected."
        " Remembered projects start empty."
    )
    assert path.read_text(encoding="utf-8") == "[]"
    _, warning = load_state(path)
    bad = tmp_path / "state.json.bad"
    assert warning == (
        f"The state file {path} was damaged: it holds a list where an object was expected."
        f" It was moved to {bad}; nothing is remembered."
    )
    assert not path.exists() and bad.read_text(encoding="utf-8") == "[]"
    assert read_state(tmp_path / "none.json") == (StateData({}, {}), None)


def test_a_load_writes_back_what_could_be_read_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"servers": {API: ["p1"], "b": 3}}), encoding="utf-8")
    state, warning = load_state(path)
    assert state.servers == {API: ["p1"]}
    assert warning is not None
    assert warning.endswith("; the entries that could be read are kept.")
    assert "the entry for 'b' is a number where a list was expected" in warning
    assert read_state(path) == (StateData({API: ["p1"]}, {}), None)
    place_only = json.dumps({"places": {API: {"": {"project": "p"}}}, "servers": []})
    path.write_text(place_only, encoding="utf-8")
    state, _ = load_state(path)  # "servers" of the wrong shape: nothing at all is read
    assert state == StateData({}, {})


def test_a_change_of_a_file_damaged_meanwhile_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    assert change_state(path, lambda s: s._replace(servers={"a": ["p"]})) == StateData(
        {"a": ["p"]}, {}
    )
    path.write_text("{", encoding="utf-8")
    assert change_state(path, lambda s: s._replace(servers={"b": ["p"]})) is None
    assert path.read_text(encoding="utf-8") == "{"


def test_projects_added_and_removed_say_whether_anything_changed(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    projects = RememberedProjects(path, API)
    assert projects.problem is None
    assert projects.add("p1") is True and projects.add("p1") is False
    projects.remove("p9")  # not there: nothing
    projects.add("p2")
    projects.remove("p1")
    assert projects.ids == ("p2",) and RememberedProjects(path, API).ids == ("p2",)
    projects.remove("p2")  # the last one: the server is left out of the file
    assert json.loads(path.read_text(encoding="utf-8"))["servers"] == {}
    assert RememberedProjects(path).for_server(API).ids == ()


def test_the_newest_projects_are_kept_in_memory_and_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    ids = [f"p{i}" for i in range(MAX_REMEMBERED)]
    path.write_text(json.dumps({"servers": {API: ids}}), encoding="utf-8")
    projects = RememberedProjects(path, API)
    projects.add("new")
    assert projects.ids == (*ids[1:], "new")
    assert RememberedProjects(path, API).ids == (*ids[1:], "new")


def test_the_server_changed_last_is_written_last(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    RememberedProjects(path, "a").add("p")
    RememberedProjects(path, "b").add("p")
    RememberedProjects(path, "a").add("q")
    assert list(json.loads(path.read_text(encoding="utf-8"))["servers"]) == ["b", "a"]


def test_a_place_unchanged_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    place = RememberedPlace(path, API, None)
    assert place.profile == "" and place.place is None
    place.remember(Place())  # no place, as it was: not even a file
    place.remember(Place("p", "failed"))
    assert RememberedPlace(path, API).place == Place("p", "failed", None)
    path.write_text("{", encoding="utf-8")
    place.remember(Place("p", "failed"))  # as written: the damaged file is not looked at
    assert path.read_text(encoding="utf-8") == "{"


def test_the_place_changed_last_is_kept_of_many_profiles(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    profiles = {f"pr{i}": {"project": "p"} for i in range(MAX_PROFILES)}
    path.write_text(json.dumps({"places": {API: profiles}}), encoding="utf-8")
    RememberedPlace(path, API, "pr0").remember(Place("q"))  # the oldest, changed: now newest
    RememberedPlace(path, API, "new").remember(Place("r"))
    kept = json.loads(path.read_text(encoding="utf-8"))["places"][API]
    assert len(kept) == MAX_PROFILES and "pr1" not in kept
    assert list(kept)[-2:] == ["pr0", "new"] and kept["pr0"]["project"] == "q"


@pytest.mark.parametrize(
    ("text", "folded", "width"),
    [
        ('{"sidebar_folded": true, "detail_width": 10}', True, 10),
        ('{"sidebar_folded": false, "detail_width": 90}', False, 90),
        ('{"sidebar_folded": 1, "detail_width": 9}', None, None),
        ('{"sidebar_folded": "yes", "detail_width": 91}', None, None),
        ('{"detail_width": true}', None, None),
        ('{"detail_width": 40.0}', None, None),
        ("[1]", None, None),
        ("{", None, None),
        ('{"a": ' * 40 + "1" + "}" * 40, None, None),
        # a sound choice beside what is nested too deep, or in a file over its 64 KiB
        ('{"sidebar_folded": true, "a": ' + "[" * 40 + "]" * 40 + "}", None, None),
        ('{"sidebar_folded": true}' + " " * (64 * 1024), None, None),
    ],
)
def test_a_layout_choice_is_read_only_when_it_is_one(
    tmp_path: Path, text: str, folded: bool | None, width: int | None
) -> None:
    (tmp_path / "layout.json").write_text(text, encoding="utf-8")
    layout = LayoutPreferences(tmp_path / "state.json")
    assert (layout.sidebar_folded, layout.detail_width) == (folded, width)


def test_layout_choices_are_merged_into_the_file(tmp_path: Path) -> None:
    layout = LayoutPreferences(tmp_path / "state.json")
    assert layout.path == tmp_path / "layout.json"
    assert (layout.sidebar_folded, layout.detail_width) == (None, None)
    layout.remember_sidebar(True)
    LayoutPreferences(tmp_path / "state.json").remember_detail_width(35)
    assert json.loads(layout.path.read_text(encoding="utf-8")) == {
        "sidebar_folded": True,
        "detail_width": 35,
    }
    again = LayoutPreferences(tmp_path / "state.json")
    assert (again.sidebar_folded, again.detail_width) == (True, 35)
    for damaged in ("{", "[1]", '{"a": ' * 40 + "1" + "}" * 40):
        layout.path.write_text(damaged, encoding="utf-8")
        layout.remember_detail_width(50)  # a damaged file gives way to the choice
        assert json.loads(layout.path.read_text(encoding="utf-8")) == {"detail_width": 50}
    assert layout.path.read_text(encoding="utf-8") == '{\n "detail_width": 50\n}\n'


def test_a_file_not_utf8_and_one_of_two_faults_are_worded(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_bytes(b'{"servers": {"\xff": []}}')
    _, warning = read_state(path)
    assert warning == (
        f"The state file {path} was not used: it is not UTF-8 text."
        " Remembered projects start empty."
    )
    path.write_text(json.dumps({"servers": {"a": 1, "b": 2}}), encoding="utf-8")
    _, warning = read_state(path)
    assert (
        warning is not None
        and (
            "the entry for 'a' is a number where a list was expected; "
            "the entry for 'b' is a number where a list was expected."
        )
        in warning
    )
