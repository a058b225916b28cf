"""Real places that refuse a write, for root as for anyone: a read-only mount, a full disk.

Root ignores file permissions, so a `chmod` proves nothing under root. These fixtures use
what the kernel refuses to everyone: a read-only bind mount (EROFS) and a tiny tmpfs
(ENOSPC: out of bytes, or out of files). Both need the right to mount (root in most CI
containers); elsewhere the read-only folder falls back to permissions (which bind a user
that is not root) and the full disks are skipped.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


def _mount(*args: str) -> bool:
    try:
        done = subprocess.run(["mount", *args], capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def _unmount(path: Path) -> None:
    subprocess.run(["umount", "-l", str(path)], capture_output=True, timeout=10, check=False)


@contextlib.contextmanager
def read_only_folder(folder: Path) -> Iterator[Path]:
    """`folder` (made, with what it holds now) turned read-only for the block: a read-only
    bind mount onto itself when mounting is allowed, else mode 0555 for a user that is not
    root. Skips the test when neither refuses a write."""
    folder.mkdir(parents=True, exist_ok=True)
    if _mount("--bind", "-o", "ro", str(folder), str(folder)):
        try:
            yield folder
        finally:
            _unmount(folder)
        return
    if os.geteuid() == 0:
        pytest.skip("root may not mount here, and permissions do not bind root")
    folder.chmod(0o555)
    try:
        yield folder
    finally:
        folder.chmod(0o755)


@contextlib.contextmanager
def full_disk(folder: Path, size: str = "64k", free: int = 0) -> Iterator[Path]:
    """`folder` as a tmpfs of `size`, filled so that only a few bytes are free (and `free`
    bytes more): a write past them meets ENOSPC. Skips the test where mounting is not
    allowed."""
    folder.mkdir(parents=True, exist_ok=True)
    if not _mount("-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)):
        pytest.skip("a tmpfs cannot be mounted here (not root)")
    try:
        filler = folder / ".filler"
        with contextlib.suppress(OSError), filler.open("wb") as stream:
            while True:
                stream.write(b"\0" * 4096)
                stream.flush()
        if free:
            os.truncate(filler, max(filler.stat().st_size - free, 0))
        yield folder
    finally:
        _unmount(folder)


@contextlib.contextmanager
def no_files_left(folder: Path, *, keep: tuple[str, ...] = ()) -> Iterator[Path]:
    """`folder` as a tmpfs that can hold no more files (ENOSPC on a create; bytes are left):
    the files named in `keep` are made first, and stay writable. Skips the test where
    mounting is not allowed."""
    folder.mkdir(parents=True, exist_ok=True)
    if not _mount("-t", "tmpfs", "-o", "size=1m,nr_inodes=32", "tmpfs", str(folder)):
        pytest.skip("a tmpfs cannot be mounted here (not root)")
    try:
        for name in keep:
            (folder / name).touch()
        with contextlib.suppress(OSError):
            for index in range(64):
                (folder / f".filler{index}").touch()
        yield folder
    finally:
        _unmount(folder)
