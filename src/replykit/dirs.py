"""An output directory made for a report or an export, or a clear refusal."""

from __future__ import annotations

import errno
import os


def make_directory(path: str) -> None:
    """Create the directory ``path`` and its parents unless it exists. Raises
    ``NotADirectoryError`` ("Not a directory") when ``path`` exists and is no directory
    (a file, a device: ``os.makedirs`` would say "File exists", which reads as a refusal
    to overwrite), and ``OSError`` when it cannot be made."""
    if os.path.exists(path) and not os.path.isdir(path):
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), path)
    os.makedirs(path, exist_ok=True)
