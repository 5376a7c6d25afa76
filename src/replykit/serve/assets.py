"""The playground's packaged files, read once when the server starts (docs/serve.md).

The page (``static/``) and the bundled examples (``examples/``) ship inside the
``replykit.serve`` package; they are read through :mod:`importlib.resources`, by the
fixed names below, never by a name that comes from a request.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

import attrs

#: URL path -> (file under ``static/``, Content-Type).
PAGES: dict[str, tuple[str, str]] = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.css": ("app.css", "text/css; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/view.js": ("view.js", "text/javascript; charset=utf-8"),
    "/permalink.js": ("permalink.js", "text/javascript; charset=utf-8"),
    "/actions.js": ("actions.js", "text/javascript; charset=utf-8"),
}
#: Keys of an entry of ``examples/index.json`` naming a file, and the key each file's
#: text takes in the examples endpoint.
EXAMPLE_FILES = {"message": "text", "answer": "answer", "context": "context"}


@attrs.frozen
class Assets:
    """Everything the server sends from the package: ``pages`` (URL path ->
    ``(bytes, content type)``) and ``examples`` (the examples endpoint's JSON list:
    ``{"name", "title", "text"[, "answer", "context"]}``, file texts as ``str``)."""

    pages: dict[str, tuple[bytes, str]]
    examples: list[dict[str, Any]]


def _text(folder: str, name: str) -> str:
    return (files("replykit.serve") / folder / name).read_text(encoding="utf-8")


def load_examples() -> list[dict[str, Any]]:
    """The bundled examples, in ``examples/index.json`` order: each entry's ``name`` and
    ``title`` with the text of its ``message`` (key ``text``) and, when given, of its
    ``answer`` and ``context`` JSON files (as text). Raises ``OSError`` or
    ``ValueError`` when the package is incomplete (a broken install)."""
    index = json.loads(_text("examples", "index.json"))
    out = []
    for entry in index:
        item = {"name": entry["name"], "title": entry["title"]}
        for key, shown in EXAMPLE_FILES.items():
            if key in entry:
                item[shown] = _text("examples", entry[key])
        out.append(item)
    return out


def load_assets() -> Assets:
    """Read every page file and example from the package (:data:`PAGES`,
    :func:`load_examples`). Raises ``OSError`` or ``ValueError`` for a broken install."""
    pages = {
        path: ((files("replykit.serve") / "static" / name).read_bytes(), kind)
        for path, (name, kind) in PAGES.items()
    }
    return Assets(pages, load_examples())
