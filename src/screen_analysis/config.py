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

import json
import os
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
    """Set top-level keys in the config file, keeping the others; written atomically."""
    data = read_config_file(path)
    data.update({k: v for k, v in values.items() if v is not None})
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(_to_toml(data), encoding="utf-8")
    tmp.replace(path)


def _to_toml(data: Mapping[str, Any]) -> str:
    """A minimal TOML writer for the flat table the config file holds."""
    lines = []
    for key, value in data.items():
        lines.append(f"{key} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid TOML basic string
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return (
            "{"
            + ", ".join(f"{_toml_value(str(k))} = {_toml_value(v)}" for k, v in value.items())
            + "}"
        )
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
