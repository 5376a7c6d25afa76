"""``replykit vectors export DIR``: the conformance vectors as language-neutral JSON.

The main CLI registers the subcommand with :func:`add_parser`. The export needs no
Hypothesis: the generated cases are the fuzzer's hand-written examples
(:mod:`replykit.fuzz.examples`, plain data) with replykit's answers.
"""

from __future__ import annotations

import argparse

from replykit.cli.io import fail, os_reason
from replykit.textout import escape, os_name


def add_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse.ArgumentParser:
    """Register ``vectors export DIR`` on the main parser's ``subparsers``. Output: the
    ``vectors`` subparser; its ``export`` subcommand has ``func`` set to
    :func:`run_vectors` (docs/fuzzing.md)."""
    vectors = subparsers.add_parser(
        "vectors",
        help="export the conformance vectors as language-neutral JSON",
        description="Conformance vectors for other implementations (docs/fuzzing.md).",
    )
    # The metavar names the choice in "the following arguments are required: {export}".
    commands = vectors.add_subparsers(dest="vectors_command", required=True, metavar="{export}")
    exp = commands.add_parser(
        "export",
        help="write the vector files and a README into DIR",
        description=(
            "Write segment.json (the test suite's vectors), segment_generated.json, "
            "questionnaire_async.json and sanitize_actions.json (edge cases with "
            "replykit's answers, each tagged with its rule), stream.json (streaming cases: "
            "chunks, what must not be committed after each, the final result) and "
            "README.md into DIR. "
            "Exit 0, or 2 when DIR cannot be written."
        ),
    )
    exp.add_argument("dir", metavar="DIR", help="output directory (created if missing)")
    exp.set_defaults(func=run_vectors)
    return vectors


def run_vectors(args: argparse.Namespace) -> int:
    """Run ``replykit vectors export DIR``: print the written paths, one a line, and
    exit 0, or 2 with one line on stderr when the files cannot be written."""
    from replykit.fuzz.vectors import export

    try:
        if not args.dir:
            return fail("vectors", "vectors export needs a directory name")
        paths = export(args.dir)
    except OSError as exc:
        return fail("vectors", f"cannot write {os_name(args.dir)}: {os_reason(exc)}")
    for path in paths:
        print(escape(path))
    return 0
