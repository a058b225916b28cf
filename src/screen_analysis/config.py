"""Settings: command-line flags over environment (SCREEN_ANALYSIS_*) over the config file.

The config file is TOML in the user config dir (platformdirs), e.g.
`~/.config/screen-analysis/config.toml`:

    base_url = "https://api.example.com"
    projects = ["proj_123", "proj_456"]     # pinned in the sidebar
    theme = "screen-analysis-dark"
    refresh_interval = 30.0                 # seconds (default 30, 5 with --demo); 0: off
    images = "auto"                         # auto | kitty | sixel | halfcell | off

    default_profile = "staging"             # optional; else the top level is the default

    [keymap]                                # binding ids to keys (see docs/app.md)
    find = "ctrl+f"

    [profiles.staging]                      # any top-level setting, plus the network's
    base_url = "https://staging.example.com"
    proxy = "http://proxy.corp:3128"        # http(s):// or socks5:// (the `socks` extra)
    ca_bundle = "~/corp-ca.pem"             # a PEM file of the CAs to trust

A profile is chosen with `--profile/-P NAME` or SCREEN_ANALYSIS_PROFILE, else
`default_profile`; its keys replace the top level's (its `[keymap]` is merged over the top
level's). Flags beat env beat profile beat top level.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import platformdirs

from screen_analysis.config_plain import read_plain_tables
from screen_analysis.file_reads import NESTED_TOO_DEEP, RefusedFile, read_limited, too_deep
from screen_analysis.secret import SecretStr

APP_NAME = "screen-analysis"
ENV_PREFIX = "SCREEN_ANALYSIS_"
SERVER_REFRESH_INTERVAL = 30.0  # a real, metered service
DEMO_REFRESH_INTERVAL = 5.0  # the embedded demo, whose data moves while you watch
MAX_CONFIG_BYTES = 1024 * 1024  # a config file is a few kilobytes


class ConfigError(Exception):
    """The config file cannot be read or holds a value of the wrong kind."""


def config_dir() -> Path:
    """The user config directory (honours XDG_CONFIG_HOME)."""
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    """The user data directory, for state such as remembered projects."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def default_config_path() -> Path:
    """Where the config file lives unless SCREEN_ANALYSIS_CONFIG names another."""
    override = os.environ.get(f"{ENV_PREFIX}CONFIG")
    return Path(override) if override else config_dir() / "config.toml"


@dataclass(frozen=True)
class Settings:
    """Everything the app and the command line need to know, resolved once at start."""

    base_url: str | None = None
    projects: tuple[str, ...] = ()
    theme: str | None = None
    refresh_interval: float | None = None  # None: 30 s to a server, 5 s to the demo
    allow_insecure_http: bool = False
    images: str | None = None  # auto | kitty | sixel | halfcell | off (None: auto)
    keymap: Mapping[str, object] = field(
        default_factory=dict
    )  # binding id -> keys, checked by the app
    profile: str | None = None  # the chosen `[profiles.NAME]`; None: the top level
    profiles: tuple[str, ...] = ()  # every profile the config file names
    proxy: str | None = None  # http(s):// or socks5:// URL; None: the environment's
    ca_bundle: str | None = None  # a PEM file of trusted CAs; None: the system's
    cache: bool = True  # the local cache of what was seen (`cache = false`, --no-cache: off)
    cache_max_mb: float = 200.0  # the cache's bound on disk (also 50,000 analyses)
    commands: Mapping[str, Any] = field(default_factory=dict)  # [commands.NAME], checked by
    # user_commands.parse_commands where they are used
    notify: Any = None  # how a watched analysis's end is told; checked by the app
    views: Mapping[str, object] = field(default_factory=dict)  # `[views.NAME]`: browse.saved_views
    view: str | None = None  # --view: the saved view the app opens on
    flags: Mapping[str, Any] = field(default_factory=dict)  # given on the command line
    config_path: Path = field(default_factory=default_config_path)
    config_note: str | None = None  # the keys of the file this version does not know
    state_path: Path = field(default_factory=lambda: data_dir() / "state.json")

    def with_overrides(self, **changes: Any) -> Settings:
        """A copy with the given fields replaced where the value is not None."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def read_config_file(path: Path) -> dict[str, Any]:
    """The config file's table, or {} when there is none. ConfigError in one line for a
    file that is not a regular one (a link to one is read), over `MAX_CONFIG_BYTES`, not
    UTF-8, not TOML, or nested deeper than `file_reads.MAX_NESTING`."""
    try:
        data = read_limited(path, max_bytes=MAX_CONFIG_BYTES)
    except RefusedFile as exc:
        raise ConfigError(f"cannot read config file {path}: {exc.reason}") from None
    if data is None:
        return {}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = f"byte 0x{data[exc.start]:02x} at offset {exc.start}"
        raise ConfigError(
            f"cannot read config file {path}: it is not UTF-8 text ({where})"
        ) from None
    return _parse(text, path)


def _parse(text: str, path: Path) -> dict[str, Any]:
    """The TOML table of `text`; ConfigError for what is not TOML or nests deeper than
    `file_reads.MAX_NESTING`. The one check of a config's text, for a read and a save."""
    import tomllib  # only when there is a file to read

    try:
        table = tomllib.loads(text)
    except RecursionError:
        table = None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc}") from exc
    if table is None or too_deep(table):
        raise ConfigError(f"cannot read config file {path}: {NESTED_TOO_DEEP}")
    return table


def config_tables(data: Mapping[str, Any], path: Path) -> tuple[dict[str, Any], str | None]:
    """The parsed file's values as declared (`config_file.ConfigTable`; the keys it does
    not set left out), and a warning naming the keys this version does not know, which are
    left out too (None when there are none). ConfigError names each value of the wrong
    kind: "config file PATH: profiles.staging.theme: should be a valid string, not a
    number". A file whose keys are all known and values all of their kinds is read without
    pydantic (`config_plain`), into the same values."""
    if not data:
        return {}, None  # nothing to check: pydantic stays unloaded
    plain = read_plain_tables(data)  # every value of its kind: pydantic stays unloaded too
    return (plain, None) if plain is not None else declared_tables(data, path)


def declared_tables(data: Mapping[str, Any], path: Path) -> tuple[dict[str, Any], str | None]:
    """`config_tables` by pydantic alone (`config_file.read_tables`): the reading any file
    gets whose plain reading is declined, and the one the plain reading is held equal to."""
    import dataclasses

    from pydantic import ValidationError

    from screen_analysis.config_file import TOML_WORDS, read_tables
    from screen_analysis.validation import describe_errors

    try:
        tables, unknown = read_tables(data)
    except ValidationError as exc:
        words = describe_errors(exc, words=TOML_WORDS)
        raise ConfigError(f"config file {path}: {words}") from None
    values = {k: v for k, v in dataclasses.asdict(tables).items() if v is not None}
    note = f"config file {path}: {describe_errors(unknown)} (left out)" if unknown else None
    return values, note


class UnknownProfileError(ConfigError):
    """The profile asked for is not in the config file; the message lists the known ones."""


PROFILE_ENV = f"{ENV_PREFIX}PROFILE"
_NETWORK_KEYS = ("proxy", "ca_bundle")


def profiles_in(path: Path) -> tuple[str, ...]:
    """The profiles the config file at `path` names now (ConfigError when it is damaged)."""
    values, _ = config_tables(read_config_file(path), path)
    return tuple(values.get("profiles", {}))


def choose_profile(
    values: Mapping[str, Any], wanted: str | None, env: Mapping[str, str]
) -> str | None:
    """The profile in use among the checked `values` (`config_tables`): the flag, else
    SCREEN_ANALYSIS_PROFILE, else `default_profile` (None: the top level; `wanted=""` asks
    for it). UnknownProfileError names the known ones."""
    names = tuple(values.get("profiles", {}))
    if wanted == "":
        return None
    name = wanted or env.get(PROFILE_ENV) or values.get("default_profile")
    if name and name not in names:
        known = ", ".join(names) if names else "none (add a [profiles.NAME] table)"
        raise UnknownProfileError(f"unknown profile {name!r}; known profiles: {known}")
    return name or None


def _with_profile(values: Mapping[str, Any], name: str | None) -> dict[str, Any]:
    """The top level with the profile's keys laid over it (keymaps merged)."""
    merged = {k: v for k, v in values.items() if k not in ("profiles", *_NETWORK_KEYS)}
    if name is None:
        return {**merged, **{k: values[k] for k in _NETWORK_KEYS if k in values}}
    table = {k: v for k, v in values["profiles"][name].items() if v is not None}
    keymap = {**merged.get("keymap", {}), **table.pop("keymap", {})}
    return {**merged, **table, "keymap": keymap}


def load_settings(
    *,
    base_url: str | None = None,
    projects: tuple[str, ...] = (),
    theme: str | None = None,
    refresh_interval: float | None = None,
    allow_insecure_http: bool = False,
    images: str | None = None,
    profile: str | None = None,
    no_cache: bool = False,
    environ: Mapping[str, str] | None = None,
    config_path: Path | None = None,
) -> Settings:
    """Resolve settings: the arguments (flags) win, then SCREEN_ANALYSIS_* env, then the
    chosen profile, then the file's top level. ConfigError for a value of the wrong kind,
    UnknownProfileError for a profile the file does not name; keys the file holds that
    this version does not know are left out and named in `Settings.config_note`."""
    env = os.environ if environ is None else environ
    path = config_path or default_config_path()
    values, note = config_tables(read_config_file(path), path)
    chosen = choose_profile(values, profile, env)
    data = _with_profile(values, chosen)
    env_interval = env.get(f"{ENV_PREFIX}REFRESH_INTERVAL")
    interval: float | None = data.get("refresh_interval")
    if refresh_interval is not None:
        interval = refresh_interval
    elif env_interval:
        try:
            interval = float(env_interval)
        except ValueError as exc:
            raise ConfigError(f"{ENV_PREFIX}REFRESH_INTERVAL is not a number") from exc
    pinned = tuple(dict.fromkeys([*projects, *data.get("projects", ())]))
    flags = {
        "base_url": base_url,
        "projects": projects,
        "theme": theme,
        "refresh_interval": refresh_interval,
        "allow_insecure_http": allow_insecure_http,
        "no_cache": no_cache,
    }
    ca_bundle = data.get("ca_bundle")
    return Settings(
        base_url=base_url or env.get(f"{ENV_PREFIX}BASE_URL") or data.get("base_url"),
        projects=pinned,
        theme=theme or env.get(f"{ENV_PREFIX}THEME") or data.get("theme"),
        refresh_interval=None if interval is None else max(0.0, interval),
        allow_insecure_http=allow_insecure_http,
        images=images or env.get(f"{ENV_PREFIX}IMAGES") or data.get("images"),
        keymap=dict(data.get("keymap", {})),
        profile=chosen,
        profiles=tuple(values.get("profiles", {})),
        proxy=data.get("proxy") or None,
        ca_bundle=str(Path(ca_bundle).expanduser()) if ca_bundle else None,
        cache=not no_cache and data.get("cache") is not False,
        cache_max_mb=data.get("cache_max_mb", 200.0),
        commands=dict(data.get("commands") or {}),
        notify=data.get("notify"),
        views=dict(data.get("views") or {}),
        flags={k: v for k, v in flags.items() if v},
        config_path=path,
        config_note=note,
    )


def check_tables(path: Path) -> dict[str, dict[str, Any]]:
    """The `[checks.NAME]` tables of a config file (or of a file of checks), by name; {}
    when the file or the tables are missing; ConfigError when `checks` or one of them is
    not a table. The gate (`screen-analysis check NAME`) checks their keys and values."""
    data = read_config_file(path)
    if "checks" not in data:
        return {}
    from pydantic import ValidationError

    from screen_analysis.config_file import TOML_WORDS, read_checks
    from screen_analysis.validation import describe_errors, dotted

    try:
        return read_checks(data)
    except ValidationError as exc:
        words = describe_errors(exc, name=lambda loc: dotted(("checks", *loc)), words=TOML_WORDS)
        raise ConfigError(f"config file {path}: {words}") from None


def settings_for_profile(settings: Settings, name: str | None) -> Settings:
    """The settings as they would be with `--profile name` and the same flags (the config
    file re-read); None: the top level. UnknownProfileError for an unknown name."""
    found = load_settings(**settings.flags, profile=name or "", config_path=settings.config_path)
    return found.with_overrides(state_path=settings.state_path)


def refresh_interval(settings: Settings, *, demo: bool) -> float:
    """Seconds between auto-refreshes: the setting, else 5 s for the demo and 30 s for a
    server (0: off)."""
    if settings.refresh_interval is not None:
        return settings.refresh_interval
    return DEMO_REFRESH_INTERVAL if demo else SERVER_REFRESH_INTERVAL


@dataclass(frozen=True)
class Connection:
    """Where to talk to and with which key; built by the composition root."""

    base_url: str
    api_key: SecretStr
    key_source: str = "env"  # env | keyring | file | session | demo
    is_demo: bool = False
    profile: str | None = None  # the `[profiles.NAME]` it came from, for messages
    proxy: str | None = None  # None: the environment's (HTTPS_PROXY, NO_PROXY)
    ca_bundle: str | None = None  # None: the system's CAs

    def label(self) -> str:
        """How messages name this connection: the profile, else the address."""
        return self.profile or self.base_url
