"""Remembered projects: kept per server, merged between processes, damaged files survived."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from tests.support.hostile_files import read_only_folder

from screen_analysis.state import (
    DEMO_SERVER,
    Place,
    RememberedPlace,
    RememberedProjects,
    read_state,
    server_key,
)

API = "https://api.example.com"


def stored(path: Path) -> dict[str, list[str]]:
    servers: dict[str, list[str]] = json.loads(path.read_text(encoding="utf-8"))["servers"]
    return servers


def test_projects_are_kept_per_server_and_the_demo_under_one_key(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    demo = RememberedProjects(path).for_server(server_key("http://127.0.0.1:4711", is_demo=True))
    demo.add("proj_demo")
    real = RememberedProjects(path).for_server(server_key(API + "/", is_demo=False))
    assert real.ids == ()
    real.add("proj_real")
    # The demo server has another port next time: its projects are still its own.
    again = RememberedProjects(path).for_server(server_key("http://127.0.0.1:5999", is_demo=True))
    assert again.ids == ("proj_demo",)
    assert stored(path) == {DEMO_SERVER: ["proj_demo"], API: ["proj_real"]}


def test_a_write_applies_only_its_own_change(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    first = RememberedProjects(path, API)
    second = RememberedProjects(path, API)  # both read the empty file
    first.add("proj_a")
    second.add("proj_b")
    first.remove("proj_a")
    assert stored(path) == {API: ["proj_b"]}
    assert first.ids == ("proj_b",)  # each write also brings in what others added
    assert not list(tmp_path.glob("*.tmp"))


def test_an_object_without_a_server_remembers_in_memory_only(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    remembered = RememberedProjects(path)
    assert remembered.add("proj_a") and remembered.ids == ("proj_a",)
    assert not path.exists()


ADD_ONE = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from screen_analysis.state import RememberedProjects

    path, project, start = Path(sys.argv[1]), sys.argv[2], float(sys.argv[3])
    remembered = RememberedProjects(path, "https://api.example.com")
    time.sleep(max(0.0, start - time.time()))
    remembered.add(project)
    """
)


def test_twenty_processes_adding_at_once_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    RememberedProjects(path, API).add("proj_before")
    start = time.time() + 3.0  # every process has read the file before any writes
    processes = [
        subprocess.Popen([sys.executable, "-c", ADD_ONE, str(path), f"proj_{n:02}", str(start)])
        for n in range(20)
    ]
    assert all(process.wait(timeout=60) == 0 for process in processes)
    ids = stored(path)[API]
    assert sorted(ids) == sorted(["proj_before", *(f"proj_{n:02}" for n in range(20))])
    assert not list(tmp_path.glob("*.tmp"))


DAMAGED = [
    ("5", "a number"),
    ("null", "null"),
    ('"abc"', "a string"),
    ("[1, 2]", "a list"),
    ('{"projects": 5}', '"projects" is a number'),
    ('{"projects": [1]}', '"projects" holds something other than project ids'),
    ('{"servers": 7}', '"servers" is a number'),
    ('{"servers": {"https://api.example.com": [1, null]}}', "other than project ids"),
    ('{"servers": {"https://api.example.com": "abc"}}', "is a string where a list"),
    ('{"places": []}', '"places" is a list'),
    ('{"places": {"demo": {"": {"project": 5}}}}', "the place for 'demo' (no profile) is odd"),
    ("{not json", "not valid JSON"),
]


@pytest.mark.parametrize(("text", "what"), DAMAGED)
def test_a_state_file_of_the_wrong_shape_starts_empty_with_a_warning(
    tmp_path: Path, text: str, what: str
) -> None:
    path = tmp_path / "state.json"
    path.write_text(text, encoding="utf-8")
    remembered = RememberedProjects(path, API)
    assert remembered.ids == ()
    assert remembered.problem is not None
    assert str(path) in remembered.problem and what in remembered.problem
    bad = tmp_path / "state.json.bad"
    assert f"moved to {bad}" in remembered.problem
    assert bad.read_text(encoding="utf-8") == text  # kept as it was, for the user to mend
    remembered.add("proj_new")  # the next change writes a sound file beside it
    assert stored(path)[API] == ["proj_new"]
    assert RememberedProjects(path, API).problem is None
    assert bad.read_text(encoding="utf-8") == text


def test_sound_entries_survive_a_damaged_neighbour(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    damaged = json.dumps({"servers": {API: ["proj_a"], "demo": 3}})
    path.write_text(damaged, encoding="utf-8")
    remembered = RememberedProjects(path, API)
    assert remembered.ids == ("proj_a",)
    assert remembered.problem is not None and "'demo'" in remembered.problem
    assert "entries that could be read are kept" in remembered.problem
    assert stored(path) == {API: ["proj_a"]}  # written back at once, the rest set aside
    assert (tmp_path / "state.json.bad").read_text(encoding="utf-8") == damaged


def test_one_syntax_error_loses_no_server_on_the_next_add(tmp_path: Path) -> None:
    """Every server's projects, one comma missing: the next "add project" once wrote a
    fresh file over it. Now the file is set aside whole, and nothing is written over it."""
    path = tmp_path / "state.json"
    sound = json.dumps({"servers": {API: ["proj_a", "proj_b"], "demo": ["proj_9"]}}, indent=1)
    damaged = sound.replace('"proj_a",', '"proj_a"')
    path.write_text(damaged, encoding="utf-8")
    remembered = RememberedProjects(path).for_server(API)
    remembered.add("proj_c")
    assert (tmp_path / "state.json.bad").read_text(encoding="utf-8") == damaged
    assert stored(path) == {API: ["proj_c"]}


def test_a_file_damaged_after_it_was_read_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    remembered = RememberedProjects(path, API)
    path.write_text('{"servers": {', encoding="utf-8")  # another program, meanwhile
    remembered.add("proj_a")
    assert path.read_text(encoding="utf-8") == '{"servers": {'
    assert remembered.ids == ("proj_a",)  # in memory for this run


def test_a_damaged_file_that_cannot_be_moved_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "data" / "state.json"
    path.parent.mkdir()
    path.write_text("{not json", encoding="utf-8")
    with read_only_folder(path.parent):
        remembered = RememberedProjects(path, API)
        assert remembered.problem is not None and "could not be moved aside" in remembered.problem
        remembered.add("proj_a")
        assert path.read_text(encoding="utf-8") == "{not json"


def test_a_directory_in_place_of_the_file_is_a_warning_and_no_crash(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.mkdir()
    remembered = RememberedProjects(path, API)
    assert remembered.problem is not None and "directory" in remembered.problem
    assert remembered.add("proj_a") and remembered.ids == ("proj_a",)  # in memory
    assert path.is_dir()


def test_an_unreadable_file_is_a_warning_and_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.symlink_to(path)  # a symlink loop: unreadable even for root, and a link is refused
    remembered = RememberedProjects(path, API)
    assert remembered.problem is not None and "symbolic link" in remembered.problem
    remembered.add("proj_a")
    assert path.is_symlink()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_a_file_without_read_permission_is_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text('{"servers": {}}', encoding="utf-8")
    path.chmod(0)
    assert read_state(path)[1] is not None


def test_not_utf8_is_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_bytes(b"\xff\xfe{")
    remembered = RememberedProjects(path, API)
    assert remembered.problem is not None and "UTF-8" in remembered.problem
    assert (tmp_path / "state.json.bad").read_bytes() == b"\xff\xfe{"
    remembered.add("proj_a")
    assert remembered.ids == ("proj_a",)


def test_places_are_kept_per_server_and_profile_beside_the_projects(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    RememberedProjects(path, API).add("proj_a")
    RememberedPlace(path, API).remember(Place("proj_a", "failed", "ana_1"))
    RememberedPlace(path, API, "prod").remember(Place(None, None, "ana_2"))
    RememberedProjects(path, API).add("proj_b")  # a change of the projects keeps the places
    assert RememberedPlace(path, API).place == Place("proj_a", "failed", "ana_1")
    assert RememberedPlace(path, API, "prod").place == Place(None, None, "ana_2")
    assert RememberedPlace(path, DEMO_SERVER).place is None
    assert RememberedProjects(path, API).ids == ("proj_a", "proj_b")
    assert read_state(path)[1] is None


def test_a_place_in_a_damaged_file_is_not_used_nor_written(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text("{not json", encoding="utf-8")
    kept = RememberedPlace(path, API)
    assert kept.place is None
    kept.remember(Place("proj_a"))
    assert path.read_text(encoding="utf-8") == "{not json"
