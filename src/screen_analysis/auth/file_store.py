"""The opt-in key file (`login --insecure-storage`) for machines without a usable keyring.

The keys lie in plain text, protected only by file permissions: a 0600 file in a 0700
directory under the user data dir, written atomically (a temporary file renamed over
it). Every use is announced through `warn`; nothing ever falls back to this file silently.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from screen_analysis.auth.base_url import normalise_base_url
from screen_analysis.auth.errors import InsecureFileError
from screen_analysis.config import data_dir
from screen_analysis.secret import SecretStr

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
        """Store `api_key` for `base_url` (with a warning)."""
        keys = self._read()
        keys[normalise_base_url(base_url)] = api_key.get_secret_value()
        self._write(keys)
        self._warn(
            f"The API key is stored in plain text in {self.path}, readable by you and root; "
            "prefer a keyring or SCREEN_ANALYSIS_API_KEY where you can."
        )

    def delete(self, base_url: str) -> bool:
        """Remove the key for `base_url`; False when there was none. An empty file goes."""
        keys = self._read()
        if keys.pop(normalise_base_url(base_url), None) is None:
            return False
        if keys:
            self._write(keys)
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

    def _write(self, keys: dict[str, str]) -> None:
        directory = self.path.parent
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(directory, 0o700)  # mkdir's mode does not apply to a directory that exists
        handle, tmp_name = tempfile.mkstemp(prefix=".api-keys-", dir=directory)  # mode 0600
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as tmp:
                json.dump(keys, tmp, indent=2, sort_keys=True)
                tmp.flush()
                os.fsync(tmp.fileno())
            os.replace(tmp_name, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)
            raise
