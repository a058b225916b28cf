"""The opt-in key file (`login --insecure-storage`) for machines without a usable keyring.

The keys lie in plain text, protected only by file permissions: a 0600 file in a 0700
directory under the user data dir, changed under its lock and written atomically
(`user_files`). Every use is announced through `warn`; nothing ever falls back to this
file silently.
"""

from __future__ import annotations

import json
import logging
import os
import stat
from collections.abc import Callable
from pathlib import Path

from screen_analysis.auth.base_url import normalise_base_url
from screen_analysis.auth.errors import InsecureFileError
from screen_analysis.config import data_dir
from screen_analysis.secret import SecretStr
from screen_analysis.user_files import UserFileError, check_writable, locked, write_atomic

FILE_NAME = "api-keys.json"
_log = logging.getLogger(__name__)


def default_key_file() -> Path:
    """Where the opt-in key file lives: `<user data dir>/credentials/api-keys.json`."""
    return data_dir() / "credentials" / FILE_NAME


def _log_warning(message: str) -> None:
    _log.warning("%s", message)


class InsecureFileStore:
    """API keys by normalised base URL in a JSON file readable only by its owner."""

    def __init__(self, path: Path | None = None, *, warn: Callable[[str], None] | None = None):
        self.path = path or default_key_file()
        self._warn = warn or _log_warning

    def __repr__(self) -> str:
        return f"InsecureFileStore(path={str(self.path)!r})"

    def get(self, base_url: str) -> SecretStr | None:
        """The key stored for `base_url` (with a warning), or None."""
        value = self._read().get(normalise_base_url(base_url))
        if not value:
            return None
        self._warn(f"Using the API key stored in plain text in {self.path} (not in a keyring).")
        return SecretStr(value)

    def set(self, base_url: str, api_key: SecretStr) -> None:
        """Store `api_key` for `base_url` (with a warning); the file is changed under its
        lock, so a `login` in another terminal keeps its key too."""
        url = normalise_base_url(base_url)
        self._prepare_folder()
        with locked(self.path):
            keys = self._read()
            keys[url] = api_key.get_secret_value()
            write_atomic(self.path, _dump(keys), mode=0o600)
        self._warn(
            f"The API key is stored in plain text in {self.path}, readable by you and root; "
            "prefer a keyring or SCREEN_ANALYSIS_API_KEY where you can."
        )

    def check_writable(self) -> None:
        """UserFileError (naming the file) unless a key could be stored now; the folder is
        made 0700, nothing else changes."""
        self._prepare_folder()
        check_writable(self.path)

    def delete(self, base_url: str) -> bool:
        """Remove the key for `base_url`; False when there was none. An empty file goes."""
        url = normalise_base_url(base_url)
        if not self.path.exists():
            return False
        with locked(self.path):
            keys = self._read()
            if keys.pop(url, None) is None:
                return False
            if keys:
                write_atomic(self.path, _dump(keys), mode=0o600)
            else:
                self.path.unlink(missing_ok=True)
        return True

    def _read(self) -> dict[str, str]:
        try:
            info = self.path.stat()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise InsecureFileError(f"cannot read {self.path}: {exc.strerror}") from None
        if info.st_mode & 0o077:
            raise InsecureFileError(
                f"{self.path} can be read by other users (mode {stat.S_IMODE(info.st_mode):o}); "
                f"run `chmod 600 {self.path}` or remove it"
            )
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            # The message names the file only: a decode error can quote its content.
            raise InsecureFileError(f"cannot read {self.path} ({type(exc).__name__})") from None
        if not isinstance(data, dict):
            raise InsecureFileError(f"{self.path} is not a table of keys")
        return {str(k): v for k, v in data.items() if isinstance(v, str)}

    def _prepare_folder(self) -> None:
        """The folder, made 0700 (mkdir's mode does not apply to a folder that exists)."""
        directory = self.path.parent
        try:
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.chmod(directory, 0o700)
        except OSError as exc:
            raise UserFileError.cannot("write", self.path, exc) from exc


def _dump(keys: dict[str, str]) -> str:
    return json.dumps(keys, indent=2, sort_keys=True)
