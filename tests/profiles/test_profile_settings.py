"""Profiles in Settings: flags > env > profile > top level; unknown names are exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from screen_analysis.config import UnknownProfileError, load_settings, settings_for_profile
from screen_analysis.config_saves import save_profile_values

CONFIG = """\
# top
base_url = "https://top.example.com"
theme = "top-theme"
projects = ["proj_top"]
default_profile = "staging"

[keymap]
find = "ctrl+f"

[profiles.staging]  # staging server
base_url = "https://staging.example.com"
projects = ["proj_staging"]
refresh_interval = 10
proxy = "http://proxy.corp:3128"
ca_bundle = "~/ca.pem"

[profiles.staging.keymap]
refresh = "ctrl+r"

[profiles.prod]
base_url = "https://prod.example.com"
"""


@pytest.fixture
def path(tmp_path: Path) -> Path:
    file = tmp_path / "config.toml"
    file.write_text(CONFIG)
    return file


def test_default_profile_lays_over_the_top_level(path: Path) -> None:
    settings = load_settings(config_path=path, environ={})
    assert settings.profile == "staging"
    assert settings.profiles == ("staging", "prod")
    assert settings.base_url == "https://staging.example.com"
    assert settings.projects == ("proj_staging",)
    assert settings.theme == "top-theme"  # not in the profile: the top level's
    assert settings.refresh_interval == 10
    assert settings.keymap == {"find": "ctrl+f", "refresh": "ctrl+r"}
    assert settings.proxy == "http://proxy.corp:3128"
    assert settings.ca_bundle == str(Path("~/ca.pem").expanduser())


def test_flag_beats_env_beats_default(path: Path) -> None:
    env = {"SCREEN_ANALYSIS_PROFILE": "prod"}
    assert load_settings(config_path=path, environ=env).base_url == "https://prod.example.com"
    flagged = load_settings(config_path=path, environ=env, profile="staging")
    assert flagged.profile == "staging"
    # a flag beats the profile's value, the environment too
    over = load_settings(
        config_path=path, environ={"SCREEN_ANALYSIS_BASE_URL": "https://env.example.com"},
        profile="prod", theme="flag-theme",
    )  # fmt: skip
    assert over.base_url == "https://env.example.com"
    assert over.theme == "flag-theme"


def test_prod_has_no_network_settings_of_staging(path: Path) -> None:
    prod = load_settings(config_path=path, environ={}, profile="prod")
    assert (prod.proxy, prod.ca_bundle, prod.projects) == (None, None, ("proj_top",))


def test_top_level_on_request(path: Path) -> None:
    top = settings_for_profile(load_settings(config_path=path, environ={}), None)
    assert top.profile is None
    assert top.base_url == "https://top.example.com"


def test_unknown_profile_lists_known(path: Path) -> None:
    with pytest.raises(UnknownProfileError, match="known profiles: staging, prod"):
        load_settings(config_path=path, environ={}, profile="nope")


def test_unknown_profile_is_exit_2(invoke, config_file: Path) -> None:
    config_file.write_text(CONFIG)
    result = invoke("-P", "nope", "analyses", "list")
    assert result.exit_code == 2
    assert "unknown profile 'nope'; known profiles: staging, prod" in result.stderr


def test_save_profile_values_keeps_comments(path: Path) -> None:
    save_profile_values(path, "prod", base_url="https://prod2.example.com")
    save_profile_values(path, "new", base_url="https://new.example.com")
    text = path.read_text()
    assert "# top" in text and "# staging server" in text
    assert 'base_url = "https://prod2.example.com"' in text
    settings = load_settings(config_path=path, environ={}, profile="new")
    assert settings.base_url == "https://new.example.com"
    assert settings.profiles == ("staging", "prod", "new")


def test_any_top_level_setting_is_a_profile_setting(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        'images = "kitty"\n\n[profiles.plain]\nbase_url = "https://x.example"\nimages = "off"\n'
    )
    assert load_settings(config_path=path, environ={}).images == "kitty"
    assert load_settings(config_path=path, environ={}, profile="plain").images == "off"
