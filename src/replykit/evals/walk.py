"""The files ``replykit audit`` reads under its paths (§8 conversations as stored).

A directory is walked depth-first; a directory's entries (files and subdirectories
together) are taken in code-point order of their names, and entries whose name starts
with ``.`` are skipped, so the order is the same on every file system. Links are
followed; a link back to a directory being walked (a directory loop) is not. No
file-system condition raises: a link that leads nowhere, an entry that cannot be
examined, a directory that cannot be listed, a loop, or a file that is not a regular
file (a FIFO, a socket, a device) inside a directory is an :class:`Unreadable` entry,
which the audit counts as an input error with its path.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator

import attrs

#: The path that names standard input.
STDIN = "-"
#: A directory being listed: its path, its names still to take, its ancestors' ids.
_Frame = tuple[str, Iterator[str], frozenset[tuple[int, int]]]


@attrs.frozen
class Unreadable:
    """A path found while walking that cannot be read, and why (one line)."""

    path: str
    reason: str


def _reason(exc: OSError) -> str:
    return f"cannot read: {exc.strerror or exc}"


def _entries(directory: str) -> list[str] | Unreadable:
    try:
        names = os.listdir(directory)
    except OSError as exc:
        return Unreadable(directory, _reason(exc))
    return sorted(name for name in names if not name.startswith("."))


def _walk(top: str, suffixes: tuple[str, ...]) -> Iterator[str | Unreadable]:
    """Depth-first with an explicit stack of directories being listed (no recursion
    limit); each holds its remaining names and the identities of its ancestors."""
    try:
        info = os.stat(top)
    except OSError as exc:
        yield Unreadable(top, _reason(exc))
        return
    stack: list[_Frame] = []
    entries = _entries(top)
    if isinstance(entries, Unreadable):
        yield entries
        return
    stack.append((top, iter(entries), frozenset({(info.st_dev, info.st_ino)})))
    while stack:
        directory, names, ancestors = stack[-1]
        name = next(names, None)
        if name is None:
            stack.pop()
            continue
        path = os.path.join(directory, name)
        try:
            info = os.stat(path)
        except OSError as exc:
            # A link that leads nowhere, an entry gone or not examinable.
            if name.lower().endswith(suffixes) or os.path.islink(path):
                yield Unreadable(path, _reason(exc))
            continue
        if stat.S_ISDIR(info.st_mode):
            identity = (info.st_dev, info.st_ino)
            if identity in ancestors:
                yield Unreadable(path, "a directory loop: a link back to a directory above it")
                continue
            listed = _entries(path)
            if isinstance(listed, Unreadable):
                yield listed
                continue
            stack.append((path, iter(listed), ancestors | {identity}))
        elif name.lower().endswith(suffixes):
            if stat.S_ISREG(info.st_mode):
                yield path
            else:
                yield Unreadable(path, "not a regular file (a FIFO, socket or device)")


def find_files(paths: Iterable[str], suffixes: tuple[str, ...]) -> Iterator[str | Unreadable]:
    """The files to read: each path that is not a directory (whatever its name and
    kind, so ``-`` for standard input and ``/dev/fd/N`` work), and under each directory
    the files whose names end with one of ``suffixes`` (lower-cased), in the order of
    the module doc; what cannot be read is an :class:`Unreadable`. Raises
    ``FileNotFoundError`` for a path that does not exist, not even as a link."""
    for path in paths:
        if path == STDIN:
            yield path
        elif os.path.isdir(path):
            yield from _walk(path, suffixes)
        elif os.path.lexists(path):
            yield path
        else:
            raise FileNotFoundError(path)
