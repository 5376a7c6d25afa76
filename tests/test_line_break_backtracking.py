"""No pattern backtracks over the ways to cut a run of ``\\r\\n`` line endings (§1).

``\\r\\n`` is one line ending. A pattern that also reads it as ``\\r`` then ``\\n`` (two
line endings, or a line ending then a blank line) has 2**k ways to read k of them, and
tries them all when what follows fails to match: ``segment()`` of
``"a <questionnaire\\n" + "\\r\\n" * 24`` took 9 s (helper-131, session 18). Every
pattern that repeats a line ending reads it atomically, ``(?>\\r\\n|\\r|\\n)``; the inputs
below finish at once (a child process, so a regression fails instead of hanging).
"""

from __future__ import annotations

import re
import subprocess
import sys

import attrs

from replykit.questionnaire.payload import yaml_referee
from replykit.questionnaire.scan import runs
from replykit.questionnaire.scan.grammar import lexemes

# A line-ending alternation that is not atomic: "\r\n?" or "\r\n|" not after "(?>", in
# a pattern's text with its line-ending characters written as escapes (:func:`_text`).
_LOOSE = re.compile(r"\\r\\n\?|(?<!\(\?>)\\r\\n\|")
_ATOMIC = r"(?>\r\n|\r|\n)"


def _text(pattern: re.Pattern[str]) -> str:
    """The pattern's text, a carriage return or line feed in it written as an escape
    (Lark's terminals hold the characters, the run patterns their escapes)."""
    return pattern.pattern.replace("\r", r"\r").replace("\n", r"\n")


def _patterns() -> dict[str, re.Pattern[str]]:
    found = {f"ANY_EOL.{f.name}": getattr(runs.ANY_EOL, f.name) for f in attrs.fields(
        runs.LinePatterns)}  # fmt: skip
    lx = lexemes()
    found |= {f"lexemes.{f.name}": v for f in attrs.fields(type(lx))
              if isinstance(v := getattr(lx, f.name), re.Pattern)}  # fmt: skip
    found["yaml_referee._TAB_AFTER_BLOCK_SCALAR"] = yaml_referee._TAB_AFTER_BLOCK_SCALAR
    return found


def test_every_line_ending_alternation_is_atomic() -> None:
    patterns = _patterns()
    assert len(patterns) > 30
    loose = [name for name, p in patterns.items() if _LOOSE.search(_text(p))]
    assert loose == []
    # The three that were not, and are read the same way now.
    assert _ATOMIC in _text(runs.ANY_EOL.prose)
    assert _ATOMIC in _text(lexemes().tag_end)
    assert r"(?>\r\n|" in _text(yaml_referee._TAB_AFTER_BLOCK_SCALAR)


_CHILD = r"""
from replykit import StreamSegmenter, segment
from replykit.questionnaire.payload.yaml_referee import _TAB_AFTER_BLOCK_SCALAR
from replykit.questionnaire.scan.grammar import lexemes
from replykit.questionnaire.scan.runs import ANY_EOL
k = 64
texts = [
    "a <questionnaire\n" + "\r\n" * k,
    "a <questionnaire\r\n" + "\r\n" * k + "x",
    "a <b" + "  \r\n  " * k + "\r <questionnaire>{}</questionnaire>",
    "```questionnaire\ntitle: |\r\n  x\r\n" + "\r\n" * k + "y: 1\r\n```\r\n",
]
for text in texts:
    assert segment(text).to_json()["segments"]
    s = StreamSegmenter()
    for i in range(0, len(text), 7):
        s.push(text[i : i + 7])
    assert s.finish() == segment(text)
run = "a\r\n" + "\r\n" * k + "x"
assert ANY_EOL.prose.match(run) is not None
assert _TAB_AFTER_BLOCK_SCALAR.match(run) is None
assert lexemes().tag_end.match("  \r\n  " * k + "\r") is None
print("ok")
"""


def test_runs_of_crlf_line_endings_finish_at_once() -> None:
    # 2**64 ways would never finish; read atomically they take a few milliseconds.
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD], capture_output=True, text=True, timeout=120, check=False
    )
    assert (proc.returncode, proc.stdout.strip()) == (0, "ok"), proc.stderr
