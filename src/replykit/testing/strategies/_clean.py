"""Clean valid forms and messages for the fault-family strategies (no strategy of its own).

A family's input should expose one fault and no other: its forms, prose and line
endings hold nothing that another family is about (no astral character, no tab, no
CR, no backtick, no ``<`` or ``&``), so a client with many faults at once shows each
on its own input. Rules: §3a, §4, §5 of docs/protocol.md.
"""

from __future__ import annotations

import json
from typing import Any, Final

from hypothesis import strategies as st

from replykit.testing.strategies._common import pick
from replykit.testing.strategies.forms import draw_form, form_yaml

#: Form strings: non-blank, BMP only, nothing YAML, JSON or Markdown reads specially.
CLEAN_WORDS: Final[tuple[str, ...]] = (
    "red",
    "blue",
    "继续",
    "调整",
    "A",
    "b c",
    "Ω",
    "Plan",
)
#: Visible prose lines (a preface for a fenced form, §4 preface).
CLEAN_PROSE: Final[tuple[str, ...]] = (
    "Intro",
    "Please answer:",
    "请选择：",
    "任务已暂停。",
    "Pick one below.",
    "Hello there",
)


def clean_form(draw: st.DrawFn) -> dict[str, Any]:
    """A valid form in the strict fenced shape (§4 fields) over :data:`CLEAN_WORDS`;
    also a valid XML+JSON request (§5)."""
    return draw_form(draw, False, CLEAN_WORDS)


def prose(draw: st.DrawFn) -> str:
    """One line of :data:`CLEAN_PROSE`, no line ending."""
    return pick(draw, CLEAN_PROSE)


def yaml_text(form: Any) -> str:
    """``form`` as quoted block YAML, one ``\\n``-ended line per field."""
    return form_yaml(form, quoted=True)


def json_text(form: Any) -> str:
    """``form`` as compact JSON (UTF-8 kept; clean words hold no ``</``)."""
    return json.dumps(form, ensure_ascii=False)


def fenced(payload: str, *, info: str = "questionnaire", fence: str = "```") -> str:
    """A fenced block: opener, ``payload`` (``\\n``-ended lines), closer, ``\\n``."""
    return f"{fence}{info}\n{payload}{fence}\n"


def xml(payload: str, name: str = "questionnaire") -> str:
    """An XML+JSON block ``<name>payload</name>``."""
    return f"<{name}>{payload}</{name}>"


def around_fenced(draw: st.DrawFn, block: str) -> str:
    """A message: prose, a blank line or not, the fenced ``block``, maybe a last line."""
    sep = pick(draw, ("\n\n", "\n\n", "\n"))
    tail = pick(draw, ("", "", "Thanks.\n"))
    return prose(draw) + sep + block + tail


def around_xml(draw: st.DrawFn, block: str) -> str:
    """A message: prose, a space or line break, the XML+JSON ``block``, maybe more."""
    sep = pick(draw, (" ", "\n", "\n\n"))
    tail = pick(draw, ("\n", "", " Thanks.\n"))
    return prose(draw) + sep + block + tail


def valid_message(draw: st.DrawFn) -> str:
    """A message holding one valid form, fenced or XML+JSON, and nothing else."""
    form = clean_form(draw)
    if draw(st.booleans()):
        return around_fenced(draw, fenced(yaml_text(form)))
    return around_xml(draw, xml(json_text(form)))


__all__ = [
    "CLEAN_PROSE",
    "CLEAN_WORDS",
    "around_fenced",
    "around_xml",
    "clean_form",
    "fenced",
    "json_text",
    "prose",
    "valid_message",
    "xml",
    "yaml_text",
]
