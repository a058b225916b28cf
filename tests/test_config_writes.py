"""Config writes keep what the user wrote, and two processes saving at once both win."""

from __future__ import annotations

import multiprocessing
import tomllib
from pathlib import Path

import pytest

from screen_analysis.config import ConfigError, load_settings
from screen_analysis.config_saves import base_url_saved, save_config_values

USER_FILE = """\
# My screen-analysis settings
base_url = "https://api.example.com"   # production

theme = "screen-analysis-dark"  # easy on the eyes
projects = ["proj_1", "proj_2"]
future_option = "kept"          # a key this version does not know

[keymap]
find = "ctrl+f"   # like everywhere else

[profiles.staging]
base_url = "https://staging.example.com"
"""


def test_a_save_changes_one_value_and_keeps_every_other_byte(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(USER_FILE)
    save_config_values(config, theme="screen-analysis-light")
    expected = USER_FILE.replace('"screen-analysis-dark"', '"screen-analysis-light"')
    assert config.read_text() == expected
    settings = load_settings(config_path=config, environ={})
    assert settings.theme == "screen-analysis-light"
    assert settings.base_url == "https://api.example.com"


def test_a_new_key_goes_before_the_tables(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(USER_FILE)
    save_config_values(config, refresh_interval=10.0, projects=("proj_9",), theme=None)
    data = tomllib.loads(config.read_text())
    assert data["refresh_interval"] == 10.0 and data["projects"] == ["proj_9"]
    assert data["keymap"] == {"find": "ctrl+f"}
    assert data["profiles"] == {"staging": {"base_url": "https://staging.example.com"}}
    assert "# like everywhere else" in config.read_text()


def test_no_file_yet_and_nothing_left_behind(tmp_path: Path) -> None:
    config = tmp_path / "new" / "config.toml"
    save_config_values(config, base_url="https://api.example.com")
    assert config.read_text() == 'base_url = "https://api.example.com"\n'
    assert sorted(p.name for p in config.parent.iterdir()) == [".config.toml.lock", "config.toml"]


def test_a_damaged_file_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("theme = \n")
    with pytest.raises(ConfigError, match="cannot read config file"):
        save_config_values(config, theme="screen-analysis-light")
    assert config.read_text() == "theme = \n"


def _save_many(path: str, key: str, rounds: int, start: multiprocessing.synchronize.Event) -> None:
    start.wait()
    for number in range(rounds):
        save_config_values(Path(path), **{key: f"{key}-{number}"})


def test_two_processes_saving_different_keys_both_keep_their_change(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(USER_FILE)
    rounds = 25
    context = multiprocessing.get_context("spawn")  # real, separate interpreters
    start = context.Event()
    writers = [
        context.Process(target=_save_many, args=(str(config), key, rounds, start))
        for key in ("theme", "base_url")
    ]
    for writer in writers:
        writer.start()
    start.set()
    for writer in writers:
        writer.join(timeout=60)
        assert writer.exitcode == 0
    data = tomllib.loads(config.read_text())
    assert data["theme"] == f"theme-{rounds - 1}"
    assert data["base_url"] == f"base_url-{rounds - 1}"
    assert data["future_option"] == "kept" and "# My screen-analysis settings" in config.read_text()
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []


def test_the_file_keeps_its_permissions(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(USER_FILE)
    config.chmod(0o640)
    save_config_values(config, theme="screen-analysis-light")
    assert config.stat().st_mode & 0o777 == 0o640


def test_a_file_without_profiles_has_no_profiles_base_url_saved(tmp_path: Path) -> None:
    """`login --profile work` on a config that has no profiles yet: the URL is saved."""
    path = tmp_path / "config.toml"
    path.write_text('base_url = "https://a.example"\n', encoding="utf-8")
    assert base_url_saved(path, "https://a.example") is True
    assert base_url_saved(path, "https://a.example", profile="work") is False
