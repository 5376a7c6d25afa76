"""Valid forms in the strict fenced shape, their YAML, and fenced YAML candidates.

Rules: §3a, §4, §8 of docs/protocol.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Final

from hypothesis import strategies as st

from replykit.testing.strategies._common import FAMILY, SAFE_WORDS, YAML_TRAPS, pick, subset


def yaml_quote(value: str) -> str:
    """``value`` as a YAML 1.2 double-quoted scalar that every YAML reader reads back
    unchanged (JSON escapes, plus ``\\uXXXX`` for the characters PyYAML takes as line
    breaks, §4). Input: a ``str``. Output: one line of YAML."""
    text = json.dumps(value, ensure_ascii=False)
    return re.sub("[\u2028\u2029\u0085\ufeff]", lambda m: f"\\u{ord(m.group()):04x}", text)


def _question(draw: st.DrawFn, pool: Sequence[str]) -> dict[str, Any]:
    kind = pick(draw, ("single_choice", "multi_choice", "free_text"))
    text = pick(draw, pool)
    if kind == "free_text":
        default = pick(draw, ("", "x", "默认"))
        return {"type": kind, "text": text, "default": default}
    options = subset(draw, pool, 1, 3)
    question: dict[str, Any] = {"type": kind, "text": text, "options": options}
    if kind == "single_choice":
        question["default"] = pick(draw, options)
    else:
        question["default"] = subset(draw, options, 0, 2)
    if draw(st.booleans()):
        question["allow_other"] = draw(st.booleans())
    return question


def draw_form(draw: st.DrawFn, traps: bool, words: Sequence[str] = SAFE_WORDS) -> dict[str, Any]:
    """Draw the body of :func:`form_dicts` inside another strategy (``draw`` is that
    strategy's draw function); ``traps`` as there; strings are drawn from ``words``
    (non-blank, distinct)."""
    pool = tuple(words) + (YAML_TRAPS[:-2] if traps else ())
    count = draw(st.integers(1, 3))
    return {
        "title": pick(draw, pool),
        "questions": [_question(draw, pool) for _ in range(count)],
    }


@st.composite
def form_dicts(draw: st.DrawFn, *, traps: bool = False) -> dict[str, Any]:
    """A valid form in the strict fenced shape (seed "fenced YAML 字段", §4):
    ``{"title": str, "questions": [{"type", "text", "options"?, "default",
    "allow_other"?}]}`` with 1-3 questions, non-blank strings, defaults among the
    options. With ``traps=True`` strings are drawn from YAML 1.1 traps too (``yes``,
    ``9:16``, ``2026-11-30`` ...), which stay strings only when written quoted or read
    as YAML 1.2."""
    return draw_form(draw, traps)


def _scalar(value: Any, quoted: bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if quoted:
        return yaml_quote(str(value))
    return str(value)


def form_yaml(form: dict[str, Any], *, quoted: bool = True, indent: str = "") -> str:
    """Write a :func:`form_dicts` form as block YAML (one ``\\n``-ended line per field).

    ``quoted=True`` double-quotes every string (a YAML-1.2-safe writer); ``False``
    writes them plain, so YAML 1.1 traps stay traps. ``indent`` prefixes every line.
    Output: the payload text of a fenced block, ending with a newline.
    """
    lines = [f"title: {_scalar(form.get('title', ''), quoted)}", "questions:"]
    for q in form.get("questions", []):
        lines.append(f"  - type: {q['type']}")
        lines.append(f"    text: {_scalar(q['text'], quoted)}")
        if "options" in q:
            lines.append("    options:")
            lines.extend(f"      - {_scalar(o, quoted)}" for o in q["options"])
        default = q.get("default", "")
        if isinstance(default, list):
            lines.append("    default: [" + ", ".join(_scalar(d, quoted) for d in default) + "]")
        else:
            shown = _scalar(default, quoted or default == "")
            lines.append(f"    default: {shown}")
        if "allow_other" in q:
            lines.append(f"    allow_other: {_scalar(q['allow_other'], quoted)}")
    return "".join(indent + line + "\n" for line in lines)


_YAML_DAMAGE: Final[tuple[str, ...]] = (
    "title: T\ntitle: U\nquestions: []\n",
    "title: &a T\nquestions: *a\n",
    "title: !!str T\nquestions:\n  - type: free_text\n    text: Q\n    default: ''\n",
    '{"title": "T", "questions": []}\n',
    "---\ntitle: T\n---\ntitle: U\n",
    "title: T\nquestions:\n  - type: free_text\n    text: Q\n    default: ''\n    extra: 1\n",
    "title: T\nquestions:\n  - type: multiple_choice\n    text: Q\n    options: [a]\n"
    "    default: [a]\n",
    "title: T\nquestions:\n  - [a, b]\n",
    "title: T\nquestions:\n  - type: single_choice\n    text: Q\n    options: [a, a]\n"
    "    default: a\n",
    "title: T\nquestions:\n  - type: free_text\n    text: Q\n    default:\n",
    "title: T\nquestions:\n  - type: single_choice\n    text: Q\n    options: [1, 2]\n"
    "    default: 1\n",
    "```\ncode\n```\n",
    "title: [\n",
    "",
)


@st.composite
def fenced_blocks(draw: st.DrawFn) -> str:
    """One fenced YAML candidate or near-miss (§3a, §4, §8), ending with a newline
    unless the message ends inside it.

    Varies: fence length (2-5 backticks, tildes), the closer (same, longer, shorter,
    indented, with trailing text, missing), the info string (family names, case,
    extra words, trailing NBSP/U+3000, character references and backslash escapes),
    the opener's indentation (0-4 spaces, a tab),
    and the payload (a valid form quoted or plain with YAML 1.1 traps, or a damaged
    payload: duplicate keys, aliases, tags, JSON, several documents, unknown fields).
    """
    char = pick(draw, ["`", "`", "`", "~"])
    size = draw(st.integers(2, 5)) if char == "`" else 3
    fence = char * size
    name = pick(draw, FAMILY)
    info = pick(
        draw,
        [
            name,
            name,
            name,
            name.upper(),
            name + " yaml",
            name + "\u00a0",
            name + "\u3000",
            " " + name,
            # Spelled with CommonMark's escapes and references (§3a decodes them).
            name[:-1] + pick(draw, ["&#101;", "&#x65;", "&#X0065;"]),
            name + pick(draw, ["&nbsp;", "&#32;", "&amp;", "&#0;"]),
            name.replace("-", "\\-") + pick(draw, ["", "\\!"]),
        ],
    )
    indent = pick(draw, ["", "", "", " ", "   ", "    ", "\t"])
    if draw(st.integers(0, 3)):
        payload = form_yaml(draw_form(draw, True), quoted=draw(st.booleans()))
    else:
        payload = pick(draw, _YAML_DAMAGE)
    if indent and draw(st.booleans()):
        payload = "".join(indent + line for line in payload.splitlines(keepends=True))
    closer_kind = draw(st.integers(0, 6))
    closers = {
        0: fence,
        1: fence,
        2: fence + char,
        3: char * max(size - 1, 1),
        4: "    " + fence,
        5: fence + " x",
        6: "",
    }
    closer = closers[closer_kind]
    return f"{indent}{fence}{info}\n{payload}" + (closer + "\n" if closer else "")


__all__ = ["draw_form", "fenced_blocks", "form_dicts", "form_yaml", "yaml_quote"]
