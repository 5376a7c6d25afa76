"""``replykit serve``: the local playground page (docs/serve.md).

The server package is imported when the command runs, not when the parser tree is
built.
"""

from __future__ import annotations

import argparse
import webbrowser

from replykit.cli.io import fail, note
from replykit.cli.numbers import integer
from replykit.textout import escape

#: The port ``serve`` listens on when ``--port`` is not given.
DEFAULT_PORT = 8765
#: How to install what the playground renders with (docs/html.md).
HTML_EXTRA = "pip install 'replykit[html]'"
#: Where ``serve`` listens unless ``--host`` says otherwise.
DEFAULT_HOST = "127.0.0.1"


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """Register ``serve [--port N] [--host H] [--open]`` on the main parser's
    ``subparsers``. Output: the new subparser, with ``func`` set to :func:`run`."""
    parser = subparsers.add_parser(
        "serve",
        help="start the playground page on http://127.0.0.1:8765/ (docs/serve.md)",
        description=(
            "Serve the playground: edit a message and see its segments, diagnostics, "
            "forms, response text (§7), Self-check verdict (§8) and answer actions (§12) "
            "as you type. Listens on 127.0.0.1 only, unless --host names another address "
            "(then with a warning). Reads no file but its packaged page and examples, "
            "runs nothing, refuses request bodies over 2 MiB. Needs the replykit[html] extra. "
            "Runs until Ctrl-C (exit 130); exit 2 when the address cannot be bound."
        ),
    )
    parser.add_argument(
        "--port",
        type=integer(minimum=0, maximum=65535),
        default=DEFAULT_PORT,
        help=f"TCP port (default {DEFAULT_PORT}; 0 picks a free one)",
    )
    parser.add_argument(
        "--host",
        default=None,
        help=f"address to listen on (default {DEFAULT_HOST}); another than a loopback "
        "address makes the playground reachable from other machines and prints a warning",
    )
    parser.add_argument(
        "--open", action="store_true", help="open the page in the default web browser"
    )
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Run ``replykit serve`` on parsed arguments ``port``, ``host``, ``open``: print
    ``replykit serve: http://HOST:PORT/`` on stdout and serve until interrupted.
    Returns 2 (one line on stderr) for a port outside 0-65535, an address that cannot
    be bound, or markdown-it-py missing (the line names the ``replykit[html]`` extra);
    a ``KeyboardInterrupt`` reaches :func:`replykit.cli.main` (exit 130)."""
    try:
        from replykit.serve.server import make_server
        from replykit.serve.strict import bound_loopback
    except ModuleNotFoundError as exc:
        if exc.name != "markdown_it":
            raise
        return fail("serve", "needs markdown-it-py, which is not installed: " + HTML_EXTRA)
    host = DEFAULT_HOST if args.host is None else args.host
    if not bound_loopback(host):
        warning = (
            f"replykit serve: warning: listening on {host}, not a loopback address: "
            "anyone who can reach it can use the playground"
        )
        note(escape(warning))
    try:
        server = make_server(host, args.port, quiet=False)
    except OSError as exc:
        return fail("serve", f"cannot listen on {host}:{args.port}: {exc.strerror or exc}")
    with server:
        print(f"replykit serve: {server.url} (Ctrl-C to stop)", flush=True)
        if args.open:
            webbrowser.open(server.url)
        server.serve_forever()
    return 0
