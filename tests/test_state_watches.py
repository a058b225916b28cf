"""The watches file (`watches.json` beside the state file): a watch outlives a restart on
its own server, other servers' watches survive a write, each bound is met exactly and
passed by one, an entry of the wrong shape is left out and counted, and a file that cannot
be used is one line in `problem`, never an error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from screen_analysis.state.file import MAX_ID_CHARS, MAX_SERVERS
from screen_analysis.state.watches import MAX_CURSOR_CHARS, MAX_WATCHED, Entry, WatchedFile

DEMO = "demo"
API = "https://api.example.com"


def watches(tmp_path: Path, server: str = DEMO) -> WatchedFile:
    return WatchedFile(tmp_path / "state.json", server)


def write_raw(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "watches.json"
    path.write_text(json.dumps(data))
    return path


def test_no_file_is_no_watch_and_no_problem(tmp_path: Path) -> None:
    watched = watches(tmp_path)
    assert watched.read() == [] and watched.problem == ""
    assert watched.path == tmp_path / "watches.json"


def test_a_watch_outlives_a_restart_on_its_own_server_only(tmp_path: Path) -> None:
    entries: list[Entry] = [("ana_1", "pending", None), ("ana_2", "processing", "c2")]
    assert watches(tmp_path).write(entries)
    assert watches(tmp_path).read() == entries  # the next start
    assert watches(tmp_path, API).read() == []
    assert watches(tmp_path, API).problem == ""
    text = (tmp_path / "watches.json").read_text()
    # the documented shape, one value a line
    assert text == json.dumps({"servers": {DEMO: [list(e) for e in entries]}}, indent=1) + "\n"


def test_a_write_keeps_the_other_servers_and_an_empty_one_drops_its_own(tmp_path: Path) -> None:
    assert watches(tmp_path, API).write([("ana_9", None, None)])
    assert watches(tmp_path).write([("ana_1", "pending", None)])
    assert watches(tmp_path, API).read() == [("ana_9", None, None)]
    assert watches(tmp_path).write([])  # every watch finished
    assert watches(tmp_path).read() == []
    stored = json.loads((tmp_path / "watches.json").read_text())
    assert stored == {"servers": {API: [["ana_9", None, None]]}}


def test_the_newest_watches_and_servers_are_kept(tmp_path: Path) -> None:
    many: list[Entry] = [(f"ana_{i}", None, None) for i in range(MAX_WATCHED + 3)]
    assert watches(tmp_path).write(many)
    assert watches(tmp_path).read() == many[-MAX_WATCHED:]
    full = {f"{API}/{n}": [["ana_x", None, None]] for n in range(MAX_SERVERS)}
    write_raw(tmp_path, {"servers": full})
    assert watches(tmp_path, f"{API}/0").write([("ana_y", None, None)])  # the oldest, again
    assert watches(tmp_path, DEMO).write([("ana_z", None, None)])
    servers = list(json.loads((tmp_path / "watches.json").read_text())["servers"])
    assert len(servers) == MAX_SERVERS
    assert servers[-2:] == [f"{API}/0", DEMO], "the servers written last are kept last"
    assert servers[0] == f"{API}/2", "the least recently written give way"


def test_a_file_with_more_than_the_bounds_is_read_from_its_newest(tmp_path: Path) -> None:
    entries = [[f"ana_{i}", None, None] for i in range(MAX_WATCHED + 5)]
    servers = {f"{API}/{n}": [["ana_x", None, None]] for n in range(MAX_SERVERS + 1)}
    write_raw(tmp_path, {"servers": {**servers, DEMO: entries}})
    watched = watches(tmp_path)
    assert watched.read() == [tuple(e) for e in entries[-MAX_WATCHED:]]
    assert watched.problem == ""
    # 52 servers: the two oldest give way
    assert watches(tmp_path, f"{API}/2").read() == [("ana_x", None, None)]
    assert watches(tmp_path, f"{API}/1").read() == [], "the oldest servers are left out"


GOOD_ENTRIES: list[object] = [
    ["a", None, None],
    ["k" * MAX_ID_CHARS, "s" * MAX_ID_CHARS, "c" * MAX_CURSOR_CHARS],
    ["ana_1", "pending", "cursor"],
]
ODD_ENTRIES: list[object] = [
    "ana_1",
    {"id": "ana_1"},
    ["ana_1", None],
    ["ana_1", None, None, None],
    ["", None, None],
    ["k" * (MAX_ID_CHARS + 1), None, None],
    [1, None, None],
    ["ana_1", "s" * (MAX_ID_CHARS + 1), None],
    ["ana_1", 3, None],
    ["ana_1", None, "c" * (MAX_CURSOR_CHARS + 1)],
    ["ana_1", None, 7],
]


@pytest.mark.parametrize("entry", GOOD_ENTRIES, ids=range(len(GOOD_ENTRIES)))
def test_an_entry_up_to_its_bounds_is_a_watch(tmp_path: Path, entry: list[object]) -> None:
    write_raw(tmp_path, {"servers": {DEMO: [entry]}})
    watched = watches(tmp_path)
    assert watched.read() == [tuple(entry)] and watched.problem == ""


@pytest.mark.parametrize("entry", ODD_ENTRIES, ids=range(len(ODD_ENTRIES)))
def test_an_entry_of_the_wrong_shape_is_left_out_and_counted(tmp_path: Path, entry: object) -> None:
    path = write_raw(tmp_path, {"servers": {DEMO: [["ana_0", None, None], entry]}})
    watched = watches(tmp_path)
    assert watched.read() == [("ana_0", None, None)]
    assert watched.problem == f"The watches file {path}: 1 odd entries left out."


def test_odd_entries_are_counted_over_every_server_and_a_list_that_is_none(
    tmp_path: Path,
) -> None:
    path = write_raw(
        tmp_path,
        {
            "servers": {
                "x": [1, 2, ["ok", None, None]],
                API: "ana_1",
                "y": {},
                DEMO: [["ana_1", None, None]],
            }
        },
    )
    watched = watches(tmp_path)
    assert watched.read() == [("ana_1", None, None)], "read past the odd servers"
    assert watched.problem == f"The watches file {path}: 4 odd entries left out."
    assert watches(tmp_path, "x").read() == [("ok", None, None)]


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("{", "it is not valid JSON"),
        ("[" * 100_000 + "]" * 100_000, "it is not valid JSON"),
        ("[]", "it does not hold an object"),
        ('{"servers": ' * 40 + "{}" + "}" * 40, "it does not hold an object"),
        ('{"servers": []}', '"servers" is not an object'),
    ],
    ids=["syntax", "recursion", "list", "deep", "servers"],
)
def test_a_damaged_file_is_no_watch_and_one_line(tmp_path: Path, text: str, what: str) -> None:
    path = tmp_path / "watches.json"
    path.write_text(text)
    watched = watches(tmp_path)
    assert watched.read() == []
    assert watched.problem == f"The watches file {path}: {what}."


def test_a_file_without_servers_or_empty_is_no_watch_and_no_problem(tmp_path: Path) -> None:
    write_raw(tmp_path, {"other": 1})
    watched = watches(tmp_path)
    assert watched.read() == [] and watched.problem == ""
    (tmp_path / "watches.json").write_text("")
    assert watched.read() == [] and watched.problem == ""


def test_a_file_not_utf8_is_not_valid_json(tmp_path: Path) -> None:
    path = tmp_path / "watches.json"
    path.write_bytes(b'{"servers": {"demo": [["\xff", null, null]]}}')
    watched = watches(tmp_path)
    assert watched.read() == []
    assert watched.problem == f"The watches file {path}: it is not valid JSON."


def test_a_link_is_neither_read_nor_written_through(tmp_path: Path) -> None:
    precious = tmp_path / "precious.json"
    planted = json.dumps({"servers": {DEMO: [["ana_planted", None, None]]}})
    precious.write_text(planted)
    (tmp_path / "watches.json").symlink_to(precious)
    watched = watches(tmp_path)
    assert watched.read() == []
    assert watched.problem == (
        f"The watches file {tmp_path / 'watches.json'} was not used: "
        "it is a symbolic link, which is not followed."
    )
    assert watched.write([("ana_1", None, None)]) is False
    assert precious.read_text() == planted


def test_a_file_over_its_size_is_not_used(tmp_path: Path) -> None:
    path = write_raw(tmp_path, {"servers": {DEMO: [["a" * 190, None, None]] * 30_000}})
    watched = watches(tmp_path)
    assert watched.read() == []
    assert watched.problem == f"The watches file {path} was not used: it is larger than 4 MiB."


def test_a_write_that_cannot_be_made_says_so(tmp_path: Path) -> None:
    (tmp_path / "folder").write_text("a file where the folder should be")
    watched = WatchedFile(tmp_path / "folder" / "state.json", DEMO)
    assert watched.write([("ana_1", None, None)]) is False


def test_a_damaged_file_is_replaced_by_the_next_write(tmp_path: Path) -> None:
    (tmp_path / "watches.json").write_text("{")
    assert watches(tmp_path).write([("ana_1", None, None)])
    fresh = watches(tmp_path)
    assert fresh.read() == [("ana_1", None, None)] and fresh.problem == ""


IDS = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=8)
ENTRIES = st.lists(st.tuples(IDS, st.none() | IDS, st.none() | IDS), min_size=1, max_size=5)


@settings(max_examples=20, deadline=None)
@given(first=ENTRIES, second=ENTRIES)
def test_each_server_reads_back_what_it_wrote_last(
    tmp_path_factory: pytest.TempPathFactory, first: list[Entry], second: list[Entry]
) -> None:
    folder = tmp_path_factory.mktemp("w")
    assert watches(folder, API).write(first)
    assert watches(folder, DEMO).write(second)
    assert watches(folder, API).read() == first
    assert watches(folder, DEMO).read() == second
