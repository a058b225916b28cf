"""Settings: command-line flags over environment (SCREEN_ANALYSIS_*) over the config file.

The config file is TOML in the user config dir (platformdirs), e.g.
`~/.config/screen-analysis/config.toml`:

    base_url = "https://api.example.com"
    projects = ["proj_123", "proj_456"]     # pinned in the sidebar
    theme = "screen-analysis-dark"
    refresh_interval = 30.0                 # seconds (default 30, 5 with --demo); 0: off

    [keymap]                                # binding ids to keys (see the README)
    find = "ctrl+f"
"""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import platformdirs

from screen_analysis.secret import SecretStr

APP_NAME = "screen-analysis"
ENV_PREFIX = "SCREEN_ANALYSIS_"
SERVER_REFRESH_INTERVAL = 30.0  # a real, metered service
DEMO_REFRESH_INTERVAL = 5.0  # the embedded demo, whose data moves while you watch


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
    keymap: Mapping[str, object] = field(
        default_factory=dict
    )  # binding id -> keys, checked by the app
    config_path: Path = field(default_factory=default_config_path)
    state_path: Path = field(default_factory=lambda: data_dir() / "state.json")

    def with_overrides(self, **changes: Any) -> Settings:
        """A copy with the given fields replaced where the value is not None."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def read_config_file(path: Path) -> dict[str, Any]:
    """The config file's table, or {} when there is none."""
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        return {}
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read config file {path}: {exc}") from exc


def _expect(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], path: Path) -> Any:
    value = data.get(key)
    if value is not None and not isinstance(value, kind):
        raise ConfigError(f"config file {path}: '{key}' has the wrong type")
    return value


def load_settings(
    *,
    base_url: str | None = None,
    projects: tuple[str, ...] = (),
    theme: str | None = None,
    refresh_interval: float | None = None,
    allow_insecure_http: bool = False,
    environ: Mapping[str, str] | None = None,
    config_path: Path | None = None,
) -> Settings:
    """Resolve settings: the arguments (flags) win, then SCREEN_ANALYSIS_* env, then the file."""
    env = os.environ if environ is None else environ
    path = config_path or default_config_path()
    data = read_config_file(path)
    file_projects = _expect(data, "projects", list, path) or []
    if not all(isinstance(p, str) for p in file_projects):
        raise ConfigError(f"config file {path}: 'projects' must be a list of strings")
    env_interval = env.get(f"{ENV_PREFIX}REFRESH_INTERVAL")
    interval: float | None = None
    file_interval = _expect(data, "refresh_interval", (int, float), path)
    if refresh_interval is not None:
        interval = refresh_interval
    elif env_interval:
        try:
            interval = float(env_interval)
        except ValueError as exc:
            raise ConfigError(f"{ENV_PREFIX}REFRESH_INTERVAL is not a number") from exc
    elif file_interval is not None:
        interval = float(file_interval)
    pinned = tuple(dict.fromkeys([*projects, *file_projects]))
    return Settings(
        base_url=base_url
        or env.get(f"{ENV_PREFIX}BASE_URL")
        or _expect(data, "base_url", str, path),
        projects=pinned,
        theme=theme or env.get(f"{ENV_PREFIX}THEME") or _expect(data, "theme", str, path),
        refresh_interval=None if interval is None else max(0.0, interval),
        allow_insecure_http=allow_insecure_http,
        keymap=dict(_expect(data, "keymap", dict, path) or {}),
        config_path=path,
    )


def save_config_values(path: Path, **values: Any) -> None:
    """Set top-level keys in the config file and keep everything else the user wrote.

    Comments, blank lines, order, unknown keys and tables stay as they were (tomlkit edits
    the document in place). The file is re-read under its lock and replaced atomically
    (`user_files.update_text`), so two processes saving different keys at once both keep
    their change. None values are skipped. Raises ConfigError when the file is not TOML,
    `UserFileError` (an OSError) when it stays locked, and the OSError of a failed write.
    """
    # Only a save needs these; start-up reads the file with tomllib.
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    from screen_analysis.user_files import update_text

    wanted = {key: _plain(value) for key, value in values.items() if value is not None}

    def change(text: str | None) -> str | None:
        try:
            document = tomlkit.parse(text or "")
        except TOMLKitError as exc:
            raise ConfigError(f"cannot read config file {path}: {exc}") from exc
        for key, value in wanted.items():
            if document.get(key) != value:
                document[key] = value
        return tomlkit.dumps(document)

    update_text(path, change, mode=_mode_of(path))


def _mode_of(path: Path) -> int | None:
    """The permissions the user gave the file, kept across the replace (None: a new file)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return None


def _plain(value: Any) -> Any:
    """The value as TOML types: tuples become arrays; anything TOML cannot hold is refused."""
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    raise ConfigError(f"cannot write {type(value).__name__} to the config file")


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
