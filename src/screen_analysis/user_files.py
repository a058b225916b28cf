"""Files the user owns (config, state, the opt-in key file, reports, exports): one writer.

- `write_atomic(path, data)` replaces a file with new text or bytes;
- `replacing(path)` yields a text stream written beside the file and moved into place when
  the block ends well, removed when it raises or is cancelled (exports, reports, any output
  written as it is produced);
- `update_text(path, change)` reads, changes and writes a file under an inter-process lock
  beside it, so two processes changing the same file at once both keep their change;
- `read_locked_text(path)` reads a file about to be changed.

Every write goes to a temp file with a unique name in the target's folder, is flushed to
the disk (fsync), renamed over the target in one step, and the folder is synced where the
system allows, so a reader never sees half a file and a crash leaves the old one or the new
one. A symlink is followed: the link stays a link and its target gets the new content (dotfile
managers link `config.toml` into a repository) — unless the caller says `follow_links=False`
(the app's own state files, which nothing links on purpose: a planted link would have the
app write over another file), and then a link is refused. A file is read through
`file_reads.read_limited` (a named pipe or a device is refused, never waited on). A
replaced file keeps its permissions, a new one gets what the umask gives (or `mode`). Every
failure is a `UserFileError` naming the file, never the temp name, and leaves the file as
it was.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

from screen_analysis.file_reads import RefusedFile, read_limited

LOCK_TIMEOUT_S = 10.0
# What a write to an open stream can meet: the disk, the quota, the file system.
_WRITE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO, errno.EFBIG}


class UserFileError(OSError):
    """A user's file could not be read or written; `str()` is one line naming the file.

    `errno` is the cause's (EACCES, EROFS, ENOSPC, …; None for a lock held too long or a
    file that is not UTF-8), `strerror` the reason alone ("No space left on device") and
    `filename` the path the user gave (a link, not its target, never a temp file).
    """

    def __init__(
        self, path: Path, message: str, cause: OSError | None = None, reason: str = ""
    ) -> None:
        code = cause.errno if cause is not None else None
        why = reason or (cause.strerror or type(cause).__name__ if cause is not None else "")
        super().__init__(code, why or message, str(path))
        self.path = path
        self.message = message

    def __str__(self) -> str:
        return self.message

    @classmethod
    def cannot(cls, verb: str, path: Path, cause: OSError) -> UserFileError:
        """ "cannot write PATH: No space left on device" """
        reason = cause.strerror or type(cause).__name__
        return cls(path, f"cannot {verb} {path}: {reason}", cause)


def lock_path(path: Path) -> Path:
    """The lock file that guards `path` (a hidden sibling of the file a link points to)."""
    target = target_of(path)
    return target.with_name(f".{target.name}.lock")


def target_of(path: Path, *, follow_links: bool = True) -> Path:
    """The file a write to `path` changes: `path` itself, or what its symlinks lead to;
    with `follow_links=False`, a link is a `UserFileError`."""
    if not path.is_symlink():
        return path
    if not follow_links:
        why = "it is a symbolic link, which is not followed"
        raise UserFileError(path, f"cannot write {path}: {why}", reason=why)
    return Path(os.path.realpath(path))


def _existing_mode(target: Path) -> int | None:
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        return None


def _make_folder(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # a file where the folder should be
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR)) from None


def _open_temp(target: Path, mode: int | None) -> tuple[Path, int]:
    """A new, uniquely named file beside `target`, opened for writing."""
    _make_folder(target.parent)
    keep = _existing_mode(target) if mode is None else mode
    for _attempt in range(100):
        tmp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
        try:
            # 0o666 minus the umask for a new file, as any program creating it would get.
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
            handle = os.open(tmp, flags, 0o666 if keep is None else 0o600)
        except FileExistsError:
            continue
        if keep is not None:
            os.fchmod(handle, keep)
        return tmp, handle
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(target.parent))


def _sync_folder(folder: Path) -> None:
    """Make the rename durable; some systems cannot open or sync a folder, which is fine."""
    with contextlib.suppress(OSError):
        handle = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


def _place(tmp: Path, target: Path, *, exclusive: bool) -> None:
    if exclusive:
        os.link(tmp, target)  # FileExistsError when something appeared meanwhile
    else:
        os.replace(tmp, target)
    _sync_folder(target.parent)


@contextlib.contextmanager
def _writing(path: Path) -> Iterator[None]:
    """OSErrors of a write become one `UserFileError` naming `path`."""
    try:
        yield
    except (UserFileError, FileExistsError):
        raise
    except OSError as exc:
        raise UserFileError.cannot("write", path, exc) from exc


@contextlib.contextmanager
def replacing(
    path: Path, *, mode: int | None = None, exclusive: bool = False, sync: bool = True
) -> Iterator[TextIO]:
    """A UTF-8 text stream (newlines written as given) that becomes `path` when the block
    ends well; on an error or a cancellation the partial file is removed and `path` is
    untouched.

    `exclusive`: put the file in place only if nothing is there (FileExistsError
    otherwise, the file that appeared is kept). `sync=False` skips the fsyncs, for caches
    that may be lost.
    An OSError without a file name raised inside the block (a write to the stream: disk
    full) is reported as this file's.
    """
    target = target_of(path)
    with _writing(path):
        tmp, handle = _open_temp(target, mode)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            try:
                yield stream
            except OSError as exc:
                if exc.filename is None and exc.errno in _WRITE_ERRNOS:
                    raise UserFileError.cannot("write", path, exc) from exc
                raise
            with _writing(path):
                stream.flush()
                if sync:
                    os.fsync(stream.fileno())
        with _writing(path):
            _place(tmp, target, exclusive=exclusive)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def write_atomic(
    path: Path,
    data: str | bytes,
    *,
    mode: int | None = None,
    exclusive: bool = False,
    sync: bool = True,
    follow_links: bool = True,
) -> None:
    """Replace `path` with `data` (text is written as UTF-8), as `replacing` does
    (`follow_links`: see the module)."""
    target = target_of(path, follow_links=follow_links)
    with _writing(path):
        tmp, handle = _open_temp(target, mode)
    try:
        with _writing(path):
            with os.fdopen(handle, "wb") as stream:
                stream.write(data.encode("utf-8") if isinstance(data, str) else data)
                stream.flush()
                if sync:
                    os.fsync(stream.fileno())
            _place(tmp, target, exclusive=exclusive)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


@contextlib.contextmanager
def locked(path: Path, *, timeout_s: float = LOCK_TIMEOUT_S) -> Iterator[None]:
    """Hold the inter-process lock of `path` (a hidden file beside the file a link points
    to) for the block: a read-modify-write inside it cannot interleave with another's.

    `UserFileError` when the lock is not had within `timeout_s` or cannot be created.
    """
    from filelock import FileLock, Timeout  # a save needs it; start-up does not

    lock = lock_path(path)
    with _writing(path):
        _make_folder(lock.parent)
    try:
        acquired = FileLock(lock, timeout=timeout_s)
        acquired.acquire()
    except Timeout as exc:
        why = "locked by another process; try again"
        raise UserFileError(path, f"{path} is {why}", reason=why) from exc
    except OSError as exc:
        raise UserFileError.cannot("write", path, exc) from exc
    try:
        yield
    finally:
        acquired.release()


def read_locked_text(path: Path, *, follow_links: bool = True) -> str | None:
    """The text of a file about to be changed (None: absent); failures (not a regular file,
    over `file_reads.DEFAULT_MAX_BYTES`, not UTF-8) are `UserFileError`s."""
    try:
        data = read_limited(path, follow_links=follow_links)
        return None if data is None else data.decode("utf-8")
    except RefusedFile as exc:
        why = exc.reason
    except UnicodeDecodeError:
        why = "it is not UTF-8 text"
    raise UserFileError(path, f"cannot read {path}: {why}", reason=why)


def update_text(
    path: Path,
    change: Callable[[str | None], str | None],
    *,
    timeout_s: float = LOCK_TIMEOUT_S,
    mode: int | None = None,
    follow_links: bool = True,
) -> str | None:
    """Under the file's lock: read it (None: absent), apply `change`, write the result.

    `change` returning None leaves the file as it is. Returns what the file holds after.
    Raises `UserFileError` when the lock is not had within `timeout_s` or the file cannot
    be read or written (with `follow_links=False`, when it is a symbolic link), and
    whatever `change` raises (then nothing is written).
    """
    target_of(path, follow_links=follow_links)  # a link refused before the lock is made
    with locked(path, timeout_s=timeout_s):
        before = read_locked_text(path, follow_links=follow_links)
        after = change(before)
        if after is not None and after != before:
            write_atomic(path, after, mode=mode, follow_links=follow_links)
            return after
        return before


def check_writable(path: Path) -> None:
    """Raise `UserFileError` (naming `path`) unless a write to `path` could succeed now: its
    folder can be made, a file created in it, and its lock taken. Nothing is changed. For a
    command that must know before doing anything it cannot undo (`login` stores a key)."""
    target = target_of(path)
    if target.is_dir():
        cause = IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        raise UserFileError.cannot("write", path, cause)
    with locked(path, timeout_s=LOCK_TIMEOUT_S), _writing(path):
        tmp, handle = _open_temp(target, None)
        os.close(handle)
        tmp.unlink()
