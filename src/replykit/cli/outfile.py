"""An output file written safely: never one of the inputs, and put in place whole.

:func:`check_out` refuses an ``--out`` that names an input (the same file, also
through links or another spelling) or a directory before anything is read or written;
:func:`replacing` writes to a temporary file beside the target and moves it into place
only when the report is complete, so an interrupted run leaves the old file as it was
(a device or a named pipe is written directly, never replaced).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO

from replykit.cli.io import InputError
from replykit.textout import os_name


def _identity(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_dev, info.st_ino


def check_out(out: str, inputs: Iterable[str]) -> None:
    """Raise :class:`InputError` when ``out`` is empty, a directory or the same file as
    one of ``inputs`` (``os.path.samefile``'s rule: device and inode, links followed).
    An ``out`` that does not exist yet is never an input."""
    if not out:
        raise InputError("--out needs a file name (or - for standard output)")
    if os.path.isdir(out):
        raise InputError(f"--out {os_name(out)} is a directory")
    target = _identity(out)
    if target is None:
        return
    for path in inputs:
        if _identity(path) == target:
            shown = f"--out {os_name(out)} is one of the inputs ({os_name(path)})"
            raise InputError(f"{shown}; write elsewhere")


def _special(path: str) -> bool:
    """Whether ``path`` exists (links followed) and is no regular file."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _mode() -> int:
    """The mode a new file gets (0o666 less the umask); the umask is read by setting
    it, then put back at once."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


@contextlib.contextmanager
def replacing(out: str) -> Iterator[IO[bytes]]:
    """A binary file to write ``out``'s new content to: a temporary file in the same
    directory (of the link's target, when ``out`` is a link), moved onto ``out`` when
    the block ends normally and removed when it raises. An ``out`` that exists and is
    no regular file (a device such as ``/dev/null`` or ``/dev/stdout``, a named pipe)
    is written directly: it is never replaced by a file. Raises ``OSError`` when the
    temporary file cannot be made (a missing or read-only directory) or ``out`` cannot
    be opened."""
    if _special(out):
        with open(out, "wb") as direct:
            yield direct
        return
    target = os.path.realpath(out)
    handle, temporary = tempfile.mkstemp(
        prefix=".", suffix=".tmp", dir=os.path.dirname(target) or "."
    )
    try:
        with os.fdopen(handle, "wb") as stream:
            yield stream
        try:
            mode = os.stat(target).st_mode & 0o7777
        except OSError:
            mode = _mode()
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
