"""The state and layout files as the app changes them: what stays in memory when a file
cannot be written, what a change leaves alone (a file laid out by hand, another copy's
change), and the words of each warning, the path in each."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.hostile_files import read_only_folder

from screen_analysis.state import (
    LayoutPreferences,
    Place,
    RememberedPlace,
    RememberedProjects,
    server_key,
)

API = "https://api.example.com"


def test_a_server_key_drops_only_the_trailing_slashes() -> None:
    assert server_key("https://example.com/BOX//", is_demo=False) == "https://example.com/BOX"


def test_the_last_project_removed_leaves_none(tmp_path: Path) -> None:
    remembered = RememberedProjects(tmp_path / "state.json", API)
    remembered.add("proj_a")
    remembered.remove("proj_a")
    assert remembered.ids == ()
    assert RememberedProjects(tmp_path / "state.json", API).ids == ()


def test_a_directory_in_place_of_the_state_file_is_named_in_the_warning(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.mkdir()
    assert RememberedProjects(path, API).problem == (
        f"The state file {path} was not used: it is a directory, not a regular file."
        " Remembered projects start empty."
    )


def test_a_damaged_file_that_cannot_be_moved_says_why(tmp_path: Path) -> None:
    path = tmp_path / "data" / "state.json"
    path.parent.mkdir()
    path.write_text("[]", encoding="utf-8")
    with read_only_folder(path.parent):
        problem = RememberedProjects(path, API).problem
    assert problem == (
        f"The state file {path} was not used: it holds a list where an object was expected."
        " It could not be moved aside (Read-only file system), so projects added now are"
        " not remembered."
    )


def test_a_layout_choice_lasts_the_run_when_its_file_cannot_be_written(tmp_path: Path) -> None:
    (tmp_path / "folder").write_text("a file where the folder should be")
    layout = LayoutPreferences(tmp_path / "folder" / "state.json")
    layout.remember_sidebar(True)
    layout.remember_detail_width(35)
    assert (layout.sidebar_folded, layout.detail_width) == (True, 35)


def test_remembering_the_place_read_leaves_a_file_laid_out_by_hand(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    place = {"project": "p", "status": "failed", "analysis": None, "view": None}
    by_hand = json.dumps({"servers": {}, "places": {API: {"": place}}})
    path.write_text(by_hand, encoding="utf-8")
    remembered = RememberedPlace(path, API)
    assert remembered.place == Place("p", "failed")
    remembered.remember(Place("p", "failed"))
    assert path.read_text(encoding="utf-8") == by_hand


def test_a_place_written_once_does_not_undo_another_copys_move(tmp_path: Path) -> None:
    """Two copies of the app on one server and profile: the one whose place did not change
    since it wrote it leaves the other's newer place in the file."""
    path = tmp_path / "state.json"
    first = RememberedPlace(path, API)
    first.remember(Place("p"))
    RememberedPlace(path, API).remember(Place("q"))
    first.remember(Place("p"))  # unchanged here: nothing to write
    assert RememberedPlace(path, API).place == Place("q")
