"""The config file as declared (`config_file.ConfigTable`): a value of the wrong kind is one
line naming its key and exit 2 before any request; a key this version does not know is a
warning naming it, and the command runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from screen_analysis.config import ConfigError, check_tables, default_config_path, load_settings


def config_at(text: str) -> Path:
    path = default_config_path()  # in the suite's isolated XDG_CONFIG_HOME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("theme = 42", "theme: should be a string, not a number"),
        ('projects = ["proj_a", 3]', "projects.1: should be a string, not a number"),
        ("cache_max_mb = 0", "cache_max_mb: should be > 0"),
        ("cache_max_mb = true", "cache_max_mb: should be a number, not a boolean"),
        ('cache = "yes"', "cache: should be true or false, not a string"),
        ("refresh_interval = nan", "refresh_interval: should be a finite number"),
        ("keymap = 1", "keymap: should be a table, not a number"),
        ("profiles = 3", "profiles: should be a table, not a number"),
        (
            '[profiles.staging]\nrefresh_interval = "fast"',
            "profiles.staging.refresh_interval: should be a number, not a string",
        ),
    ],
)
def test_a_value_of_the_wrong_kind_names_its_key(text: str, says: str) -> None:
    path = config_at(text)
    with pytest.raises(ConfigError) as caught:
        load_settings(config_path=path, environ={})
    assert str(caught.value) == f"config file {path}: {says}"


def test_a_checks_entry_that_is_not_a_table_names_it() -> None:
    path = config_at("[checks]\nnightly = 1\n")
    with pytest.raises(ConfigError, match=r": checks\.nightly: should be a table, not a number$"):
        check_tables(path)


def test_a_bad_value_is_exit_2_in_one_line_before_any_request(
    fresh_demo_server, against, invoke
) -> None:
    against(fresh_demo_server.base_url, fresh_demo_server.api_key)
    path = config_at('[profiles.staging]\ncache_max_mb = "lots"\n')
    result = invoke("analyses", "list", "--limit", "1")
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert lines == [
        f"Error: config file {path}: profiles.staging.cache_max_mb: should be a number, "
        "not a string"
    ]
    assert [e for e in fresh_demo_server.request_log if e.path.startswith("/v1/")] == []


def test_an_unknown_key_is_a_warning_naming_it_and_the_command_runs(
    demo_server, against, invoke
) -> None:
    against(demo_server.base_url, demo_server.api_key)
    path = config_at('thme = "dark"\n[profiles.staging]\nbase_urll = "https://x.example"\n')
    result = invoke("analyses", "list", "--limit", "1", "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert (
        f"config file {path}: profiles.staging.base_urll: not a known key; thme: not a known "
        "key (left out)"
    ) in result.stderr
    settings = load_settings(config_path=path, environ={})
    assert settings.profiles == ("staging",)
    assert settings.theme is None
