"""The tables and lists of the config file that load_settings hands on as written — saved
views, the user's own commands, how to be told — from the top level or the profile in use,
and the keys this version does not know, named once in `config_note`."""

from __future__ import annotations

from pathlib import Path

import pytest

from screen_analysis.config import ConfigError, load_settings
from screen_analysis.config_saves import save_profile_values, save_view_table

CONFIG = """\
notify = ["bell"]
surprise = 1

[views.failures]
status = "failed"

[commands.show]
key = "x"
run = ["echo", "{id}"]

[profiles.work]
notify = ["toast"]

[profiles.work.views.mine]
label = "Checkout*"
"""


def test_views_commands_and_notify_are_handed_on_and_unknown_keys_named(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    settings = load_settings(config_path=path, environ={})
    assert settings.notify == ["bell"]
    assert list(settings.views) == ["failures"] and settings.views["failures"]["status"] == "failed"
    assert list(settings.commands) == ["show"] and settings.commands["show"]["key"] == "x"
    assert settings.config_note is not None and "surprise" in settings.config_note
    assert settings.config_note.startswith(f"config file {path}: ")
    assert settings.config_note.endswith("(left out)")
    work = load_settings(config_path=path, environ={}, profile="work")
    assert work.notify == ["toast"] and list(work.views) == ["mine"]


def test_a_file_without_them_has_none(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('theme = "x"\n', encoding="utf-8")
    settings = load_settings(config_path=path, environ={})
    assert (settings.notify, settings.views, settings.commands) == (None, {}, {})
    assert settings.config_note is None


def test_a_saved_view_is_written_into_its_table_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('# mine\ntheme = "x"\n\n[profiles.work]\ntheme = "y"\n', encoding="utf-8")
    save_view_table(path, None, "weak", {"label": "Checkout*", "status": "failed"})
    save_view_table(path, "work", "mine", {"max_score": 50})
    text = path.read_text(encoding="utf-8")
    assert text.startswith('# mine\ntheme = "x"\n')  # the user's lines kept
    assert "[views.weak]" in text and "[profiles.work.views.mine]" in text
    assert "[views]" not in text and "[profiles.work.views]" not in text
    assert load_settings(config_path=path, environ={}).views == {
        "weak": {"label": "Checkout*", "status": "failed"}
    }
    work = load_settings(config_path=path, environ={}, profile="work")
    assert work.views == {"mine": {"max_score": 50}} and work.theme == "y"
    save_view_table(path, None, "weak", {"label": "Home*"})  # the keys it no longer has go
    assert load_settings(config_path=path, environ={}).views == {"weak": {"label": "Home*"}}


@pytest.mark.parametrize(
    ("text", "name"),
    [("views = 1\n", "views"), ("[views]\nweak = 2\n", "views.weak")],
)
def test_a_view_is_not_saved_into_what_is_not_a_table_in_the_reads_words(
    tmp_path: Path, text: str, name: str
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        save_view_table(path, None, "weak", {"label": "x"})
    assert str(raised.value) == f"config file {path}: {name}: should be a table, not a number"
    assert path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize(
    "text",
    [
        'profiles = {work = {base_url = "https://a.example"}}\n',
        'profiles.work = {base_url = "https://a.example"}\n',
        '[profiles]\nwork = {base_url = "https://a.example"}\n',
    ],
)
def test_a_view_of_a_profile_written_inline_is_saved_inline(tmp_path: Path, text: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    save_view_table(path, "work", "mine", {"status": "failed"})
    save_view_table(path, "other", "theirs", {"max_score": 50})
    work = load_settings(config_path=path, environ={}, profile="work")
    assert work.views == {"mine": {"status": "failed"}}
    assert work.base_url == "https://a.example"
    other = load_settings(config_path=path, environ={}, profile="other")
    assert other.views == {"theirs": {"max_score": 50}}


@pytest.mark.parametrize(
    "text",
    [
        'profiles.work.base_url = "https://a.example"\nprofiles.work.theme = "x"\n',
        '[profiles]\nwork.base_url = "https://a.example"\n',
    ],
)
def test_a_view_that_would_not_read_back_among_dotted_keys_is_refused(
    tmp_path: Path, text: str
) -> None:
    # tomlkit writes the new [profiles.work.views.mine] header before the profile's dotted
    # keys (which then belong to the view) or outside [profiles]: nothing is written.
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        save_view_table(path, "work", "mine", {"status": "failed"})
    assert str(raised.value) == (
        f"cannot save profiles.work.views.mine to config file {path}: among its dotted keys "
        "it would not read back as saved (write them under [table] headers)"
    )
    assert path.read_text(encoding="utf-8") == text


def test_dotted_keys_that_read_back_take_a_save(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('profiles.work.theme = "x"\n[views]\nmine.status = "failed"\n', "utf-8")
    save_view_table(path, None, "theirs", {"max_score": 50})
    save_profile_values(path, "work", base_url="https://a.example")
    settings = load_settings(config_path=path, environ={})
    assert settings.views == {"mine": {"status": "failed"}, "theirs": {"max_score": 50}}
    work = load_settings(config_path=path, environ={}, profile="work")
    assert (work.theme, work.base_url) == ("x", "https://a.example")
