"""One running adapter process, read and written without threads (docs/fuzzing.md).

:class:`AdapterProcess` starts the adapter command in a new session (its own process
group) with pipes for stdin, stdout and stderr, all non-blocking. Every wait has a
deadline; what is read is bounded (:data:`READ_CAP` for an answer line, the last
:data:`STDERR_KEPT` bytes of stderr); :meth:`AdapterProcess.kill` kills the whole
process group, every process left in its session and every live descendant, whether
or not the first process has exited, and closing the pipes never blocks (no thread holds them).

POSIX only (process groups, ``select``).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import time
from collections.abc import Sequence
from typing import Final, Literal

#: Bytes of one answer line (its newline included) at most: a longer line, with or
#: without its newline, is an ``adapter.oversized`` failure. Memory stays bounded by
#: this figure plus one read (:data:`CHUNK`) and the stderr tail.
READ_CAP: Final = 8 * 1024 * 1024
#: Bytes read from a pipe at once.
CHUNK: Final = 65536
#: Bytes of the adapter's stderr kept (the last ones) for failure details.
STDERR_KEPT: Final = 2000
#: Reads of stderr at most when the adapter is killed (a pipe holds 64 KiB to 1 MiB).
STDERR_READS: Final = 16
#: Seconds between two checks whether the first process is still alive while waiting.
POLL: Final = 0.1
#: Seconds to wait for the process to be reaped after SIGKILL.
REAP: Final = 5.0

ReadFailure = Literal["timeout", "closed", "oversized", "exited"]


class AdapterStartError(OSError):
    """The adapter command cannot be started (not found, not executable)."""


def _left_behind(leader: int) -> list[int]:
    """The processes of the adapter whose first process is ``leader``: those in its
    session or process group, and every descendant of those or of ``leader`` still
    alive (Linux ``/proc``; elsewhere none are found and the process group alone is
    killed). A process that started its own session after its parent exited cannot be
    told from any other process, and is left alone."""
    parents: dict[int, int] = {}
    found: set[int] = {leader}
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            with contextlib.suppress(OSError, ValueError, IndexError):
                with open(f"/proc/{name}/stat", "rb") as handle:
                    stat = handle.read()
                # The fields after the command name (which may hold spaces or ")").
                fields = stat[stat.rindex(b")") + 2 :].split()
                pid = int(name)
                parents[pid] = int(fields[1])
                if leader in (int(fields[2]), int(fields[3])):
                    found.add(pid)
    grew = True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in found} - found
        found |= more
        grew = bool(more)
    found.discard(leader)
    return sorted(found)


class AdapterProcess:
    """One adapter process. ``command``: the argument vector (no shell); ``cwd``: its
    working directory. Raises :class:`AdapterStartError` when it cannot be started."""

    def __init__(self, command: Sequence[str], cwd: str | None) -> None:
        try:
            self.popen = subprocess.Popen(
                list(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                start_new_session=True,
                bufsize=0,
            )
        except (OSError, ValueError) as exc:
            raise AdapterStartError(f"cannot start adapter {command[0]!r}: {exc}") from None
        assert self.popen.stdin and self.popen.stdout and self.popen.stderr
        self.fds = (self.popen.stdin.fileno(), self.popen.stdout.fileno())
        self.err_fd: int | None = self.popen.stderr.fileno()
        self.out_open = True
        for fd in (*self.fds, self.err_fd):
            os.set_blocking(fd, False)
        self.answered = False  # the first answer may take the start-up allowance
        self.buffer = bytearray()
        self._searched = 0  # the start of buffer bytes not yet searched for a newline
        self.stderr = bytearray()

    def stderr_tail(self) -> str:
        """The last :data:`STDERR_KEPT` bytes of stderr read so far, decoded."""
        return bytes(self.stderr).decode("utf-8", "replace").strip()

    def _drain_stderr(self) -> None:
        if self.err_fd is None:
            return
        with contextlib.suppress(BlockingIOError, InterruptedError):
            chunk = os.read(self.err_fd, CHUNK)
            if not chunk:
                self.err_fd = None
                return
            self.stderr += chunk
            del self.stderr[:-STDERR_KEPT]

    def write(self, data: bytes, deadline: float) -> Literal["ok", "timeout", "closed"]:
        """Write ``data`` to stdin by ``deadline`` (``time.monotonic``), draining
        stderr meanwhile."""
        view = memoryview(data)
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                return "timeout"
            wait = [self.err_fd] if self.err_fd is not None else []
            _, ready, _ = select.select(wait, [self.fds[0]], [], min(left, POLL))
            self._drain_stderr()
            if ready:
                try:
                    view = view[os.write(self.fds[0], view) :]
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    return "closed"
        return "ok"

    def _take_line(self) -> bytes | None:
        # Bytes already searched hold no newline: only what came since is searched.
        end = self.buffer.find(b"\n", self._searched)
        if end < 0:
            self._searched = len(self.buffer)
            return None
        line = bytes(self.buffer[: end + 1])
        del self.buffer[: end + 1]
        self._searched = 0
        return line

    def _read_out(self) -> None:
        with contextlib.suppress(BlockingIOError, InterruptedError):
            chunk = os.read(self.fds[1], CHUNK)
            if chunk:
                self.buffer += chunk
            else:
                self.out_open = False

    def read_line(self, deadline: float) -> bytes | ReadFailure:
        """The next line of stdout (with its newline; the last bytes before the end
        of output count as a line), or why there is none by ``deadline``: ``timeout``,
        ``closed`` (end of output), ``exited`` (the first process exited and nothing
        more came), ``oversized`` (more than :data:`READ_CAP` bytes without a newline)."""
        while True:
            line = self._take_line()
            if line is not None:
                return line if len(line) <= READ_CAP else "oversized"
            if len(self.buffer) > READ_CAP:
                return "oversized"
            if not self.out_open:
                if self.buffer:
                    line, self.buffer, self._searched = bytes(self.buffer), bytearray(), 0
                    return line
                return "closed"
            left = deadline - time.monotonic()
            if left <= 0:
                return "timeout"
            if self.popen.poll() is not None:
                before = len(self.buffer)
                self._read_out()  # what it wrote before exiting is still answered
                if len(self.buffer) == before and self.out_open:
                    return "exited"
                continue
            wait = [self.fds[1]] + ([self.err_fd] if self.err_fd is not None else [])
            ready, _, _ = select.select(wait, [], [], min(left, POLL))
            self._drain_stderr()
            if self.fds[1] in ready:
                self._read_out()

    def close_input(self) -> None:
        """Close stdin (the adapter sees the end of its input)."""
        assert self.popen.stdin is not None
        with contextlib.suppress(OSError):
            self.popen.stdin.close()

    def kill(self) -> None:
        """SIGKILL the process group and every process the adapter left (whether or not
        the first process has exited), close the pipes, reap within :data:`REAP`."""
        with contextlib.suppress(OSError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        for pid in _left_behind(self.popen.pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self.popen.kill()
        # What the killed processes wrote last to stderr is the failure's best clue:
        # read what the pipe holds (a bounded amount once no writer is left).
        for _ in range(STDERR_READS):
            if self.err_fd is None or not select.select([self.err_fd], [], [], 0)[0]:
                break
            self._drain_stderr()
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=REAP)


__all__ = ["CHUNK", "READ_CAP", "STDERR_KEPT", "AdapterProcess", "AdapterStartError"]
