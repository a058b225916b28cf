"""Running one of your own commands: no shell, ever (`asyncio.create_subprocess_exec` with
the argument list as it is), standard input the view's rows or nothing, killed at its
timeout, the last lines of its output kept, its failure said in one line."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections import deque
from collections.abc import Sequence
from typing import NamedTuple

from screen_analysis.safe_text import one_line

TAIL_LINES = 5  # of stdout (the pane) and of stderr (a failure's line)
TAIL_BYTES = 64 * 1024  # at most this much of the end of each stream is kept
KILL_GRACE_S = 2.0  # after SIGTERM at the timeout, SIGKILL


class CommandResult(NamedTuple):
    """How a command ended: its exit code (None when it never ran or was killed), the last
    lines of its output and of its errors, and whether it ran past its timeout."""

    program: str
    code: int | None
    stdout: tuple[str, ...] = ()
    stderr: tuple[str, ...] = ()
    timed_out: bool = False
    missing: str = ""  # why it could not start (not found, not executable)

    @property
    def ok(self) -> bool:
        """Whether it ran and exited 0."""
        return self.code == 0 and not self.timed_out and not self.missing

    def line(self) -> str:
        """One line: "open-image: exit 2: curl: (6) Could not resolve host", "… killed
        after 30 s", "… not found"; the last stderr lines joined."""
        if self.missing:
            said = self.missing
        elif self.timed_out:
            said = "killed at its timeout"
        elif self.code is not None and self.code < 0:
            said = f"ended by signal {-self.code}"
        else:
            said = f"exit {self.code}"
        tail = " / ".join(line for line in self.stderr if line.strip())
        return one_line(f"{self.program}: {said}" + (f": {tail}" if tail else ""))


async def run_command(
    argv: Sequence[str], *, stdin: bytes | None = None, timeout: float, name: str = ""
) -> CommandResult:
    """Run `argv` (no shell), with `stdin` on its standard input (else none), for at most
    `timeout` seconds: then SIGTERM to its process group, SIGKILL after a grace. A
    cancelled run kills the command too."""
    program = name or argv[0]
    try:
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE if stdin is not None else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,  # its own group: what it starts is stopped with it
        )
    except FileNotFoundError:
        return CommandResult(program, None, missing=f"{argv[0]} not found")
    except PermissionError:
        return CommandResult(program, None, missing=f"{argv[0]} cannot be run (permission)")
    except OSError as exc:
        return CommandResult(program, None, missing=f"{argv[0]} cannot be run ({exc.strerror})")
    talk = asyncio.ensure_future(_talk(process, stdin))
    timed_out = False
    try:
        try:
            out, err = await asyncio.wait_for(asyncio.shield(talk), timeout)
        except TimeoutError:
            timed_out = True
            await _stop(process)
            out, err = await talk
    except BaseException:
        await _stop(process)
        talk.cancel()
        raise
    code = None if timed_out else process.returncode
    return CommandResult(program, code, _tail(out), _tail(err), timed_out)


async def _talk(process: asyncio.subprocess.Process, stdin: bytes | None) -> tuple[bytes, bytes]:
    """Feed `stdin`, read both streams to their end keeping only their last bytes."""

    async def feed() -> None:
        if process.stdin is None:
            return
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            process.stdin.write(stdin or b"")
            await process.stdin.drain()
        process.stdin.close()

    async def read(stream: asyncio.StreamReader | None) -> bytes:
        kept: deque[bytes] = deque()
        size = 0
        while stream is not None and (chunk := await stream.read(8192)):
            kept.append(chunk)
            size += len(chunk)
            while size - len(kept[0]) > TAIL_BYTES:
                size -= len(kept.popleft())
        return b"".join(kept)[-TAIL_BYTES:]

    _, out, err = await asyncio.gather(feed(), read(process.stdout), read(process.stderr))
    await process.wait()
    return out, err


async def _stop(process: asyncio.subprocess.Process) -> None:
    """SIGTERM to the command's group, SIGKILL if it is still there after a grace."""
    for sig, grace in ((signal.SIGTERM, KILL_GRACE_S), (signal.SIGKILL, None)):
        if process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, sig)
        try:
            await asyncio.wait_for(process.wait(), grace)
            return
        except TimeoutError:
            continue


def _tail(data: bytes) -> tuple[str, ...]:
    lines = data.decode("utf-8", errors="replace").splitlines()
    return tuple(lines[-TAIL_LINES:])
