"""Writing the config file: the one edit (`_save_values`: the user's comments and layout
kept by tomlkit, written through `user_files`), and what the app and the command line save
with it (a theme, a profile's values, a base URL, a saved view). A file a read would refuse
is refused for a write too, in the same words (`config._parse`, `config.config_tables`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from screen_analysis.config import (
    ConfigError,
    _parse,
    config_tables,
    read_config_file,
)


def save_config_values(path: Path, **values: Any) -> None:
    """Set top-level keys in the config file and keep everything else the user wrote.

    Comments, blank lines, order, unknown keys and tables stay as they were (tomlkit edits
    the document in place); a value of the wrong kind in it is refused as a start refuses
    it, and nothing is written. The file is re-read under its lock and replaced atomically
    (`user_files.update_text`), so two processes saving different keys at once both keep
    their change; a symlinked file stays a link and its target changes. None values are
    skipped. Raises ConfigError when the file is not TOML, and `UserFileError` (an OSError
    naming the file) when it stays locked or cannot be read or written.
    """
    _save_values(path, None, values)


def save_profile_values(path: Path, profile: str, **values: Any) -> None:
    """Set keys in the `[profiles.NAME]` table (made when missing), keeping everything else
    the user wrote, as `save_config_values` does."""
    _save_values(path, profile, values)


def save_base_url(path: Path, url: str, profile: str | None = None) -> None:
    """`url` as the default base URL, or as `[profiles.NAME]`'s (`login`, the sign-in form)."""
    _save_values(path, profile, {"base_url": url})


def base_url_saved(path: Path, url: str, profile: str | None = None) -> bool:
    """Whether the config file names `url` as the base URL already (the profile's, with
    `profile`); False when it cannot be read (the save will say why)."""
    try:
        values, _ = config_tables(read_config_file(path), path)
    except ConfigError:
        return False
    if profile is not None:
        values = values.get("profiles", {}).get(profile) or {}
    return bool(values.get("base_url") == url)


def save_view_table(path: Path, profile: str | None, name: str, table: Mapping[str, Any]) -> None:
    """Write `[views.NAME]` (in `[profiles.PROFILE]` with `profile`) as `table` holds it:
    its keys set, those it no longer has removed; everything else kept, as
    `save_config_values` does."""
    _save_values(path, profile, table, within=("views", name), exact=True)


def _save_values(
    path: Path,
    profile: str | None,
    values: Mapping[str, Any],
    *,
    within: tuple[str, ...] = (),
    exact: bool = False,
) -> None:
    """The one config edit: `values` into the top level, or into `[profiles.NAME]`, or
    into a table `within` it (`exact`: keys of that table not in `values` removed)."""
    # Only a save needs these; start-up reads the file with tomllib.
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    from screen_analysis.user_files import update_text

    wanted = {key: _plain(value) for key, value in values.items() if value is not None}

    def change(text: str | None) -> str | None:
        # Refused as a read refuses it (a file the app would not read is not written over
        # as if it were sound), in the same words.
        _parse(text or "", path)
        try:
            document = tomlkit.parse(text or "")
        except TOMLKitError as exc:  # tomlkit stricter than tomllib
            raise ConfigError(f"cannot read config file {path}: {exc}") from exc
        config_tables(document.unwrap(), path)  # a value of the wrong kind: nothing written
        table: Any = document
        names = ([] if profile is None else ["profiles", profile]) + list(within)
        for key in names:
            table = _table_in(table, key)
        if exact:
            for key in [key for key in table if key not in wanted]:
                del table[key]
        for key, value in wanted.items():
            if table.get(key) != value:
                table[key] = value
        written = tomlkit.dumps(document)
        # tomlkit can lay a new table out where it reads back elsewhere (among dotted keys,
        # `profiles.work.theme = ...`): such a save would move the user's values.
        if _parse(written, path) != document.unwrap():
            where = ".".join(names) or "the top level"
            raise ConfigError(
                f"cannot save {where} to config file {path}: among its dotted keys it would "
                "not read back as saved (write them under [table] headers)"
            )
        return written

    update_text(path, change)


def _table_in(parent: Any, key: str) -> Any:
    """`parent[key]`, made when missing: inline in an inline table (a table header cannot go
    inside one), else a table (tomlkit writes one that holds only tables without a header
    of its own: `[profiles.work.views.mine]`, no `[profiles]`). What is there is a table:
    `config_tables` has refused the file otherwise."""
    import tomlkit
    from tomlkit.items import InlineTable

    table = parent.get(key)
    if table is None:
        new = tomlkit.inline_table() if isinstance(parent, InlineTable) else tomlkit.table()
        parent[key] = table = new
    return table


def _plain(value: Any) -> Any:
    """The value as TOML types: tuples become arrays; anything TOML cannot hold is refused."""
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    raise ConfigError(f"cannot write {type(value).__name__} to the config file")
