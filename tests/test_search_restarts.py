"""Searches that retried a long run at every position: quadratic, now linear (§1).

A pattern searched for (``search``, ``sub``, ``finditer``) that reads a whole run of
characters and then fails, such as ``X+$`` on a run that stops short of the end, costs
the run's length at each of its positions. Each such place (found by helper-133's
audit) is rewritten so that each run is read once; the rewritten forms give the same
answers as the old patterns (checked here against them) except where a comment in the
source says otherwise (the fuzzer's features, a classification heuristic). The whole
entry points run in a child process on inputs where the old code took minutes, so a
regression fails instead of hanging the suite; they take well under a second each.
"""

from __future__ import annotations

import re
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from replykit.questionnaire.conversation.selfcheck import _WRITTEN
from replykit.questionnaire.conversation.texts import last_field
from replykit.text import BLANK_CLASS, trim_blank

_CHILD = r"""
from replykit import questionnaire_async_json, segment, self_check
from replykit.fuzz.features import key_features

n = 200_000
run = "\u00e9" + " " * n + "\u00e9"  # blanks between two characters that are not ASCII
# A fence's info string, an XML+JSON form's title, a §9 payload, a tool form's option.
segment("Intro\n\n```questionnaire" + run + "\ntitle: T\n```\n")
q = '"questions": [{"id": "q1", "type": "free_text", "text": "S", "default": ""}]'
segment('Intro\n\n<questionnaire>{"title": "' + run + '", ' + q + "}</questionnaire>\n")
segment(run, compat="sage")
questionnaire_async_json('{"title": "T", "questions": [{"type": "single_choice", '
    '"text": "Q", "options": ["' + run + '"], "default": "\u00e9"}]}')
# The Chinese message of a diagnostic whose path ends in a long key (written twice).
k = '"' + "a" * n + '-"'
p = '{"title":"T","questions":[{"id":"q1","type":"free_text","text":"S",' + k + ":1," + k + ":2}]}"
message = "Intro\n\n<questionnaire>" + p + "</questionnaire>\n"
self_check([{"role": "assistant", "content": message}], locale="zh")
# The fuzzer's features of a message and of tool arguments.
key_features("segment", {"text": "<questionnaire " * (n // 8), "message_id": "m"})
key_features("questionnaire_async", {"arguments": {"title": "1_" * n + "x", "questions": []}})
key_features("segment", {"text": "Intro\n\n```questionnaire\ntitle: " + "1:" * n + "x\n```\n"})
print("ok")
"""

# Examples under the ``ci`` profile; the ``long`` profile (HYPOTHESIS_PROFILE=long)
# multiplies them by 25.
SCALE = max(1, settings.default.max_examples // 200)


def test_long_runs_are_read_once_at_every_entry_point() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["ok"]


_OLD_FIELD = re.compile(r"([A-Za-z_]\w*)(?:\[\d+\])*$")
_OLD_WRITTEN = re.compile(r"[A-Za-z0-9_-]*questionnaire[A-Za-z0-9_-]*", re.IGNORECASE)
_OLD_EDGE = re.compile(f"^{BLANK_CLASS}+|{BLANK_CLASS}+$")

_PATH_PARTS = st.sampled_from(
    ["a", "Z", "_", "9", "\u00e9", "\u0663", "[", "]", "[2]", ".", '"', "-", " ", "x[1]"]
)
_TEXT_PARTS = st.sampled_from(
    ["questionnaire", "QUESTIONNAIRE", "a", "-", "_", " ", "<", "\u00e9", "\u017f", "1"]
)
_BLANKS = st.sampled_from([" ", "\t", "\u3000", "\u00a0", "\u200b", "\ufeff", "a", "\u00e9"])


@settings(max_examples=300 * SCALE)
@given(st.lists(_PATH_PARTS, max_size=12).map("".join))
def test_last_field_is_what_the_old_search_found(path: str) -> None:
    old = _OLD_FIELD.search(path)
    assert last_field(path) == (None if old is None else old[1])


@settings(max_examples=300 * SCALE)
@given(st.lists(_TEXT_PARTS, max_size=10).map("".join), st.integers(0, 80), st.integers(0, 80))
def test_written_name_is_what_the_old_search_found(text: str, a: int, b: int) -> None:
    start, end = sorted((min(a, len(text)), min(b, len(text))))
    old = _OLD_WRITTEN.search(text, start, end)
    new = _WRITTEN.search(text[start:end])
    assert (None if new is None else new.group()) == (None if old is None else old.group())


@settings(max_examples=300 * SCALE)
@given(st.lists(_BLANKS, max_size=12).map("".join))
def test_trim_blank_is_what_the_old_substitution_gave(text: str) -> None:
    assert trim_blank(text) == _OLD_EDGE.sub("", text)
