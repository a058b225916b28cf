"""Settings as a user writes them: which source wins, what each wrong value says, and what a
save keeps. (Profiles: tests/profiles/test_profile_settings.py; concurrent saves:
tests/test_config_writes.py.)"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from screen_analysis.config import (
    MAX_CONFIG_BYTES,
    ConfigError,
    Connection,
    Settings,
    UnknownProfileError,
    check_tables,
    choose_profile,
    config_dir,
    data_dir,
    default_config_path,
    load_settings,
    profiles_in,
    read_config_file,
    refresh_interval,
    settings_for_profile,
)
from screen_analysis.config_saves import (
    base_url_saved,
    save_base_url,
    save_config_values,
    save_profile_values,
)
from screen_analysis.secret import SecretStr


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def load(path: Path, env: dict[str, str] | None = None, **flags: object) -> Settings:
    return load_settings(config_path=path, environ=env or {}, **flags)  # type: ignore[arg-type]


def test_the_files_live_in_the_users_folders_unless_the_environment_names_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "conf"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert config_dir() == tmp_path / "conf" / "screen-analysis"
    assert data_dir() == tmp_path / "data" / "screen-analysis"
    assert default_config_path() == tmp_path / "conf" / "screen-analysis" / "config.toml"
    assert Settings().config_path == default_config_path()
    assert Settings().state_path == tmp_path / "data" / "screen-analysis" / "state.json"
    monkeypatch.setenv("SCREEN_ANALYSIS_CONFIG", str(tmp_path / "elsewhere.toml"))
    assert default_config_path() == tmp_path / "elsewhere.toml"
    assert load_settings(environ={}).config_path == tmp_path / "elsewhere.toml"
    monkeypatch.setenv("SCREEN_ANALYSIS_CONFIG", "")  # set but empty: the default
    assert default_config_path() == tmp_path / "conf" / "screen-analysis" / "config.toml"


def test_no_file_is_the_defaults(tmp_path: Path) -> None:
    settings = load(tmp_path / "none.toml")
    assert read_config_file(tmp_path / "none.toml") == {}
    assert settings.base_url is None and settings.theme is None and settings.images is None
    assert settings.projects == () and settings.keymap == {} and settings.flags == {}
    assert settings.refresh_interval is None and settings.profile is None
    assert settings.profiles == () and settings.proxy is None and settings.ca_bundle is None
    assert settings.cache is True and settings.cache_max_mb == 200.0
    assert settings.allow_insecure_http is False
    assert settings.config_path == tmp_path / "none.toml"


def test_a_flag_beats_the_environment_which_beats_the_file(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'base_url = "https://file.example"\ntheme = "file-theme"\nimages = "sixel"\n'
        "refresh_interval = 12\n",
    )
    env = {
        "SCREEN_ANALYSIS_BASE_URL": "https://env.example",
        "SCREEN_ANALYSIS_THEME": "env-theme",
        "SCREEN_ANALYSIS_IMAGES": "off",
        "SCREEN_ANALYSIS_REFRESH_INTERVAL": "7.5",
    }
    file_only = load(path)
    assert (file_only.base_url, file_only.theme, file_only.images) == (
        "https://file.example",
        "file-theme",
        "sixel",
    )
    assert file_only.refresh_interval == 12.0 and isinstance(file_only.refresh_interval, float)
    from_env = load(path, env)
    assert (from_env.base_url, from_env.theme, from_env.images) == (
        "https://env.example",
        "env-theme",
        "off",
    )
    assert from_env.refresh_interval == 7.5
    flagged = load(
        path,
        env,
        base_url="https://flag.example",
        theme="flag-theme",
        images="kitty",
        refresh_interval=3.0,
    )
    assert (flagged.base_url, flagged.theme, flagged.images) == (
        "https://flag.example",
        "flag-theme",
        "kitty",
    )
    assert flagged.refresh_interval == 3.0
    # an empty variable is no value: the file's
    assert load(path, {"SCREEN_ANALYSIS_REFRESH_INTERVAL": ""}).refresh_interval == 12.0


def test_a_refresh_interval_of_zero_is_off_and_below_zero_is_zero(tmp_path: Path) -> None:
    path = write(tmp_path, "refresh_interval = -4\n")
    assert load(path).refresh_interval == 0.0
    assert load(path, refresh_interval=0.0).refresh_interval == 0.0  # a flag of 0 is kept
    assert load(path, {"SCREEN_ANALYSIS_REFRESH_INTERVAL": "-1"}).refresh_interval == 0.0
    with pytest.raises(ConfigError) as refused:
        load(path, {"SCREEN_ANALYSIS_REFRESH_INTERVAL": "soon"})
    assert str(refused.value) == "SCREEN_ANALYSIS_REFRESH_INTERVAL is not a number"


def test_the_interval_in_use_is_the_setting_else_five_seconds_for_the_demo_else_thirty() -> None:
    assert refresh_interval(Settings(), demo=True) == 5.0
    assert refresh_interval(Settings(), demo=False) == 30.0
    assert refresh_interval(Settings(refresh_interval=0.0), demo=True) == 0.0
    assert refresh_interval(Settings(refresh_interval=42.0), demo=False) == 42.0


def test_pinned_projects_are_the_flags_then_the_files_each_once(tmp_path: Path) -> None:
    path = write(tmp_path, 'projects = ["proj_b", "proj_a", "proj_b"]\n')
    assert load(path).projects == ("proj_b", "proj_a")
    assert load(path, projects=("proj_a", "proj_c")).projects == ("proj_a", "proj_c", "proj_b")
    with pytest.raises(ConfigError) as refused:
        load(write(tmp_path, 'projects = ["proj_a", 5]\n'))
    assert str(refused.value) == f"config file {path}: projects.1: should be a string, not a number"


@pytest.mark.parametrize(
    ("line", "key", "kind"),
    [
        ("base_url = 5", "base_url", "should be a string, not a number"),
        ("theme = true", "theme", "should be a string, not a boolean"),
        ("images = 1", "images", "should be a string, not a number"),
        ('projects = "proj_a"', "projects", "should be an array, not a string"),
        ('refresh_interval = "5"', "refresh_interval", "should be a number, not a string"),
        ('keymap = "ctrl+f"', "keymap", "should be a table, not a string"),
        ("proxy = 3128", "proxy", "should be a string, not a number"),
        ("ca_bundle = false", "ca_bundle", "should be a string, not a boolean"),
        ('cache = "no"', "cache", "should be true or false, not a string"),
        ('cache_max_mb = "big"', "cache_max_mb", "should be a number, not a string"),
        ("default_profile = 1", "default_profile", "should be a string, not a number"),
        ("profiles = 1", "profiles", "should be a table, not a number"),
    ],
)
def test_a_value_of_the_wrong_kind_is_named(tmp_path: Path, line: str, key: str, kind: str) -> None:
    path = write(tmp_path, line + "\n")
    with pytest.raises(ConfigError) as refused:
        load(path)
    assert str(refused.value) == f"config file {path}: {key}: {kind}"


def test_the_cache_is_on_unless_the_file_or_the_flag_turns_it_off(tmp_path: Path) -> None:
    assert load(write(tmp_path, "cache = true\n")).cache is True
    assert load(write(tmp_path, "cache = true\n"), no_cache=True).cache is False
    assert load(write(tmp_path, "cache = false\n")).cache is False
    assert load(write(tmp_path, "cache = false\n")).flags == {}
    assert load(write(tmp_path, ""), no_cache=True).flags == {"no_cache": True}


@pytest.mark.parametrize(("value", "mb"), [("1", 1.0), ("0.5", 0.5), ("1024", 1024.0)])
def test_the_caches_size_is_any_positive_number(tmp_path: Path, value: str, mb: float) -> None:
    settings = load(write(tmp_path, f"cache_max_mb = {value}\n"))
    assert settings.cache_max_mb == mb and isinstance(settings.cache_max_mb, float)


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("0", "should be > 0"),
        ("-1", "should be > 0"),
        ("0.0", "should be > 0"),
        ("true", "should be a number, not a boolean"),
    ],
)
def test_a_caches_size_of_nothing_or_less_is_refused(tmp_path: Path, value: str, says: str) -> None:
    path = write(tmp_path, f"cache_max_mb = {value}\n")
    with pytest.raises(ConfigError) as refused:
        load(path)
    assert str(refused.value) == f"config file {path}: cache_max_mb: {says}"


def test_the_network_settings_are_the_levels_own(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'proxy = "http://top:3128"\nca_bundle = "~/top.pem"\n'
        '[profiles.bare]\nbase_url = "https://bare.example"\n'
        '[profiles.own]\nproxy = "socks5://own:1080"\nca_bundle = "/etc/own.pem"\n',
    )
    top = load(path)
    assert top.proxy == "http://top:3128" and top.ca_bundle == str(Path.home() / "top.pem")
    bare = load(path, profile="bare")
    assert (bare.proxy, bare.ca_bundle, bare.base_url) == (None, None, "https://bare.example")
    own = load(path, profile="own")
    assert (own.proxy, own.ca_bundle) == ("socks5://own:1080", "/etc/own.pem")
    assert load(write(tmp_path, 'proxy = ""\nca_bundle = ""\n')).proxy is None
    assert load(write(tmp_path, 'proxy = ""\nca_bundle = ""\n')).ca_bundle is None


def test_a_profile_chosen_by_flag_then_environment_then_default(tmp_path: Path) -> None:
    data = {"default_profile": "c", "profiles": {"a": {}, "b": {}, "c": {}}}
    env = {"SCREEN_ANALYSIS_PROFILE": "b"}
    assert choose_profile(data, None, {}) == "c"
    assert choose_profile(data, None, env) == "b"
    assert choose_profile(data, "a", env) == "a"
    assert choose_profile(data, "", env) is None  # the top level, asked for
    assert choose_profile({"profiles": {"a": {}}}, None, {}) is None
    assert choose_profile({"default_profile": "", "profiles": {}}, None, {}) is None


def test_an_unknown_profile_names_those_there_are_or_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(UnknownProfileError) as refused:
        choose_profile({}, "work", {})
    assert str(refused.value) == (
        "unknown profile 'work'; known profiles: none (add a [profiles.NAME] table)"
    )
    with pytest.raises(UnknownProfileError) as refused:
        choose_profile({"profiles": {"a": {}}}, None, {"SCREEN_ANALYSIS_PROFILE": "b"})
    assert str(refused.value) == "unknown profile 'b'; known profiles: a"
    assert isinstance(refused.value, ConfigError)  # one handler for every config error


def test_a_profile_that_is_not_a_table_is_named(tmp_path: Path) -> None:
    path = write(tmp_path, '[profiles]\nwork = "https://x"\n')
    with pytest.raises(ConfigError) as refused:
        profiles_in(path)
    assert (
        str(refused.value) == f"config file {path}: profiles.work: should be a table, not a string"
    )
    assert profiles_in(write(tmp_path, "[profiles.b]\n[profiles.a]\n")) == ("b", "a")
    assert profiles_in(tmp_path / "missing.toml") == ()


def test_a_profiles_keymap_is_laid_over_the_top_levels(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[keymap]\nfind = "ctrl+f"\nquit = "q"\n'
        '[profiles.p.keymap]\nquit = "ctrl+q"\n'
        '[profiles.empty]\nbase_url = "https://e"\n',
    )
    assert load(path).keymap == {"find": "ctrl+f", "quit": "q"}
    assert load(path, profile="p").keymap == {"find": "ctrl+f", "quit": "ctrl+q"}
    assert load(path, profile="empty").keymap == {"find": "ctrl+f", "quit": "q"}
    only_profile = write(tmp_path, '[profiles.p.keymap]\nquit = "ctrl+q"\n')
    assert load(only_profile, profile="p").keymap == {"quit": "ctrl+q"}


def test_only_flags_that_were_given_are_kept_to_load_again(tmp_path: Path) -> None:
    path = write(tmp_path, "[profiles.a]\n")
    settings = load(
        path,
        base_url="https://flag",
        projects=("proj_1",),
        allow_insecure_http=True,
        theme=None,
    )
    assert settings.flags == {
        "base_url": "https://flag",
        "projects": ("proj_1",),
        "allow_insecure_http": True,
    }
    assert settings.allow_insecure_http is True


def test_another_profile_keeps_the_flags_and_the_state_file(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'default_profile = "a"\nbase_url = "https://top"\n'
        '[profiles.a]\nbase_url = "https://a"\ntheme = "a-theme"\n'
        '[profiles.b]\nbase_url = "https://b"\n',
    )
    start = load(path, theme="flag-theme", refresh_interval=3.0, no_cache=True).with_overrides(
        state_path=tmp_path / "s.json"
    )
    b = settings_for_profile(start, "b")
    assert (b.profile, b.base_url, b.theme) == ("b", "https://b", "flag-theme")
    assert b.refresh_interval == 3.0 and b.cache is False  # every flag given is kept
    assert b.state_path == tmp_path / "s.json" and b.config_path == path
    top = settings_for_profile(start, None)  # the top level, not the default profile
    assert (top.profile, top.base_url) == (None, "https://top")


def test_overrides_replace_only_what_is_given() -> None:
    settings = Settings(base_url="https://a", theme="t")
    changed = settings.with_overrides(base_url="https://b", theme=None)
    assert (changed.base_url, changed.theme) == ("https://b", "t")


def test_a_file_is_read_up_to_its_limit_and_refused_past_it(tmp_path: Path) -> None:
    line = 'theme = "t"\n'
    path = write(tmp_path, line + "#" * (MAX_CONFIG_BYTES - len(line) - 1) + "\n")
    assert read_config_file(path) == {"theme": "t"}  # met exactly
    write(tmp_path, line + "#" * (MAX_CONFIG_BYTES - len(line)) + "\n")
    with pytest.raises(ConfigError) as refused:
        read_config_file(path)
    assert str(refused.value) == f"cannot read config file {path}: it is larger than 1 MiB"


def test_a_file_not_utf8_or_not_toml_says_where(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b'theme = "caf\xe9"\n')
    with pytest.raises(ConfigError) as refused:
        read_config_file(path)
    assert str(refused.value) == (
        f"cannot read config file {path}: it is not UTF-8 text (byte 0xe9 at offset 12)"
    )
    write(tmp_path, "theme = \n")
    with pytest.raises(ConfigError) as refused:
        read_config_file(path)
    assert str(refused.value).startswith(f"cannot read config file {path}: Invalid value")
    assert "line 1" in str(refused.value)


def test_a_file_nested_too_deep_is_refused_in_one_line(tmp_path: Path) -> None:
    deep = write(tmp_path, "x = " + "[" * 40 + "]" * 40 + "\n")
    with pytest.raises(ConfigError) as refused:
        read_config_file(deep)
    assert str(refused.value) == (
        f"cannot read config file {deep}: it is nested more than 32 levels deep"
    )
    very_deep = write(tmp_path, "x = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(ConfigError) as refused:
        read_config_file(very_deep)
    assert str(refused.value).endswith("it is nested more than 32 levels deep")
    assert "[" * 5000 in very_deep.read_text()


@pytest.mark.parametrize("levels", [40, 5000])
def test_a_save_refuses_a_file_nested_too_deep_as_a_read_does(tmp_path: Path, levels: int) -> None:
    text = "x = " + "[" * levels + "]" * levels + "\n"
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as refused:
        save_config_values(path, theme="t")
    assert str(refused.value) == (
        f"cannot read config file {path}: it is nested more than 32 levels deep"
    )
    assert path.read_text() == text  # left as it was


def test_checks_are_the_files_tables_by_name(tmp_path: Path) -> None:
    path = write(tmp_path, '[checks.release]\nmin_mean = 70\n[checks.nightly]\nlast = "7d"\n')
    assert check_tables(path) == {"release": {"min_mean": 70}, "nightly": {"last": "7d"}}
    assert check_tables(tmp_path / "missing.toml") == {}
    assert check_tables(write(tmp_path, 'theme = "t"\n')) == {}
    write(tmp_path, 'checks = "strict"\n')
    with pytest.raises(ConfigError) as refused:
        check_tables(path)
    assert str(refused.value) == f"config file {path}: checks: should be a table, not a string"
    write(tmp_path, '[checks]\nrelease = "strict"\n')
    with pytest.raises(ConfigError) as refused:
        check_tables(path)
    assert (
        str(refused.value) == f"config file {path}: checks.release: should be a table, not a string"
    )


def test_a_save_writes_only_what_changed_and_skips_nothing_values(tmp_path: Path) -> None:
    text = 'theme = "dark"  # my pick\nrefresh_interval = 10\n'
    path = write(tmp_path, text)
    save_config_values(path, theme="dark", base_url=None)
    assert path.read_text() == text  # the same value: the line and its comment untouched
    save_config_values(path, projects=("proj_1", "proj_2"), keymap={"find": "ctrl+f"})
    data = tomllib.loads(path.read_text())
    assert data["projects"] == ["proj_1", "proj_2"] and data["keymap"] == {"find": "ctrl+f"}
    assert data["theme"] == "dark" and data["refresh_interval"] == 10
    save_config_values(path, keymap={1: [("a", True)]})
    assert tomllib.loads(path.read_text())["keymap"] == {"1": [["a", True]]}


def test_a_value_toml_cannot_hold_is_refused_and_nothing_written(tmp_path: Path) -> None:
    path = write(tmp_path, 'theme = "dark"\n')
    for value in (object(), [1, None], {"a": {1, 2}}):
        with pytest.raises(ConfigError) as refused:
            save_config_values(path, theme="light", other=value)
        assert str(refused.value).startswith("cannot write ")
        assert str(refused.value).endswith(" to the config file")
    with pytest.raises(ConfigError) as refused:
        save_config_values(path, other=object())
    assert str(refused.value) == "cannot write object to the config file"
    assert path.read_text() == 'theme = "dark"\n'


def test_a_profile_save_makes_its_table_and_refuses_a_key_that_is_not_one(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, 'theme = "dark"\n')
    save_profile_values(path, "work", base_url="https://work", refresh_interval=0)
    data = tomllib.loads(path.read_text())
    assert data == {
        "theme": "dark",
        "profiles": {"work": {"base_url": "https://work", "refresh_interval": 0}},
    }
    assert "[profiles.work]" in path.read_text() and "[profiles]" not in path.read_text()
    write(tmp_path, 'profiles = "none"\n')
    with pytest.raises(ConfigError) as refused:
        save_profile_values(path, "work", base_url="https://work")
    assert str(refused.value) == f"config file {path}: profiles: should be a table, not a string"
    write(tmp_path, '[profiles]\nwork = "x"\n')
    with pytest.raises(ConfigError) as refused:
        save_profile_values(path, "work", base_url="https://work")
    assert (
        str(refused.value) == f"config file {path}: profiles.work: should be a table, not a string"
    )


def test_whether_a_base_url_is_saved_already(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    assert base_url_saved(path, "https://a") is False  # no file
    save_base_url(path, "https://a")
    save_base_url(path, "https://w", profile="work")
    assert base_url_saved(path, "https://a") is True
    assert base_url_saved(path, "https://b") is False
    assert base_url_saved(path, "https://w", profile="work") is True
    assert base_url_saved(path, "https://a", profile="work") is False
    assert base_url_saved(path, "https://w", profile="other") is False
    write(tmp_path, 'profiles = "x"\nbase_url = "https://a"\n')
    assert base_url_saved(path, "https://a", profile="work") is False
    assert base_url_saved(path, "https://a") is False  # a file that is refused names no URL
    write(tmp_path, "base_url = \n")
    assert base_url_saved(path, "https://a") is False  # unreadable: the save will say why


def test_a_connection_is_named_by_its_profile_else_its_address() -> None:
    key = SecretStr("sk-test-0000")
    assert Connection("https://a", key).label() == "https://a"
    assert Connection("https://a", key, profile="work").label() == "work"
    plain = Connection("https://a", key)
    assert (plain.key_source, plain.is_demo, plain.proxy, plain.ca_bundle) == (
        "env",
        False,
        None,
        None,
    )
