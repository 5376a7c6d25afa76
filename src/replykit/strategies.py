"""Hypothesis strategies for the Inline Questionnaire and answer-actions protocols.

Public and documented so that other test suites (and ``replykit fuzz``) can draw the
same inputs replykit tests itself with. Every strategy draws plain Python values that
map one to one onto JSON: ``str`` messages, ``dict``/``list`` tool arguments and answers.
Offsets never appear here; where a value is text it is a ``str`` of code points.

Messages (PROTOCOL-DECISIONS §1-§8, seed 000):

- :func:`prose` / :func:`markdown`: Markdown without protocol blocks (prose, headings,
  lists, block quotes, code spans, fenced and indented code, HTML blocks and comments,
  some mentioning the family name ``questionnaire`` as an example);
- :func:`form_dicts`: valid forms in the strict fenced shape (seed "fenced YAML 字段");
- :func:`fenced_blocks`: fenced YAML blocks, valid and near-miss (tilde, two backticks,
  case, extra words, short or missing closer, indentation, YAML 1.1 traps, JSON
  payloads, duplicate keys, aliases, tags);
- :func:`xml_blocks`: XML+JSON requests and responses, valid and near-miss (attributes,
  mismatched or missing closer, unregistered names, NaN, duplicate keys, smart quotes);
- :func:`hostile_payloads`: deep nesting, long runs of backticks, many tags, alias
  bombs, huge numbers (bounded in size so that one example stays well under 10 KB);
- :func:`inert_messages`: lines probing where inert regions end (§3b): HTML comments,
  the seven HTML block types and unclosed tags holding tag-like and fence-like text
  across lines, in containers, with short candidates among them;
- :func:`messages`: whole messages mixing all of the above, in containers and inert
  regions too, with ``\\n``, ``\\r\\n`` or lone ``\\r`` line endings and an optional BOM;
- :func:`segment_requests`: ``{"text", "message_id", "profile"}`` (profile strings as
  the CLI spells them).

Tool and actions inputs:

- :func:`tool_arguments`: ``questionnaire_async`` arguments (§7), valid (aliases,
  ``{value, label}`` options, generated ids) and invalid;
- :func:`action_lists` / :func:`answers`: answer-actions inputs (seed 004, §12) near
  every limit, with astral characters (one code point, two UTF-16 units), duplicates,
  unknown fields and junk.

:func:`requests` draws ``(op, request)`` pairs of the fuzzer's adapter protocol
(docs/fuzzing.md), and :func:`explicit_examples` lists the hand-written examples that
the fuzzer runs first, one or more per family of edge cases, each tagged with its rule.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Sequence
from typing import Any, Final, Literal, TypeVar

import attrs
from hypothesis import strategies as st

from replykit.actions.model import ACTION_TYPES, CHART_TYPES

T = TypeVar("T")
Op = Literal["segment", "questionnaire_async", "sanitize_actions"]
#: The operations of the adapter protocol, in the order the fuzzer cycles them.
OPS: Final[tuple[Op, ...]] = ("segment", "questionnaire_async", "sanitize_actions")
#: Profile strings as the CLI spells them (§6).
PROFILES: Final[tuple[str, ...]] = ("client", "self_check", "product:acme", "product:movo")

_WORDS: Final[tuple[str, ...]] = (
    "Hello",
    "please",
    "answer",
    "below",
    "the",
    "questionnaire",
    "form",
    "任务",
    "已暂停",
    "请选择",
    "😀",
    "𝔘",
    "é",
    "a*b*",
    "_x_",
    "<b>",
    "&amp;",
    "\\`",
    "`code`",
    "``a`b``",
    "1.",
    "#",
)
_BLANKS: Final[tuple[str, ...]] = (" ", "\t", "\u00a0", "\u3000", "\u200b", "\ufeff", "\u2028")
_FAMILY: Final[tuple[str, ...]] = (
    "questionnaire",
    "sage-questionnaire",
    "yiii-questionnaire",
    "movo-questionnaire",
    "acme-questionnaire",
    "foo-questionnaire",
)
# Scalars that YAML 1.1 and YAML 1.2 read differently, or that look like numbers/dates.
_YAML_TRAPS: Final[tuple[str, ...]] = (
    "yes",
    "no",
    "on",
    "off",
    "Yes",
    "NO",
    "y",
    "n",
    "9:16",
    "02142",
    "0o17",
    "2026-11-30",
    "1_000",
    "0x1F",
    ".5",
    "~",
    "true",
    "null",
)
_SAFE_WORDS: Final[tuple[str, ...]] = ("red", "blue", "继续", "调整", "A", "b c", "Ω", "😀")


# ---------------------------------------------------------------- Markdown


def _pick(draw: st.DrawFn, values: Sequence[T]) -> T:
    """One of ``values``, drawn as an index (``st.integers`` strategies are cached by
    Hypothesis, so no strategy object is built per draw)."""
    return values[draw(st.integers(0, len(values) - 1))]


@st.composite
def prose(draw: st.DrawFn) -> str:
    """One line of visible prose (1-6 words, no line ending), e.g. ``"Hello 任务 😀"``.

    May hold inline Markdown (emphasis, a code span, an escaped backtick) and the word
    ``questionnaire``; never a line ending.
    """
    words = [_pick(draw, _WORDS) for _ in range(draw(st.integers(1, 6)))]
    return " ".join(words)


_PROSE: Final = prose()


@st.composite
def markdown(draw: st.DrawFn) -> str:
    """A Markdown fragment without protocol blocks: 1-3 constructs separated by
    newlines, ending with a newline.

    Constructs: paragraph, ATX heading, list item, block quote, thematic break,
    fenced code (backticks or tildes, maybe holding a questionnaire example),
    indented code, an HTML block, an HTML comment, a blank line.
    """
    parts: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.integers(0, 9))
        line = draw(_PROSE)
        if kind == 0:
            parts.append(line + "\n")
        elif kind == 1:
            parts.append("## " + line + "\n")
        elif kind == 2:
            parts.append(_pick(draw, ["- ", "* ", "1. "]) + line + "\n")
        elif kind == 3:
            parts.append("> " + line + "\n")
        elif kind == 4:
            parts.append("---\n")
        elif kind == 5:
            fence = _pick(draw, ["```", "~~~", "````"])
            info = _pick(draw, ["", "yaml", "questionnaire", "markdown"])
            parts.append(f"{fence}{info}\n{line}\n{fence}\n")
        elif kind == 6:
            parts.append("\n    " + line + "\n")
        elif kind == 7:
            parts.append("<details>\n" + line + "\n</details>\n")
        elif kind == 8:
            parts.append("<!-- " + line + " -->\n")
        else:
            parts.append("\n")
    return "".join(parts)


_MARKDOWN: Final = markdown()


# ---------------------------------------------------------------- forms


def yaml_quote(value: str) -> str:
    """``value`` as a YAML 1.2 double-quoted scalar that every YAML reader reads back
    unchanged (JSON escapes, plus ``\\uXXXX`` for the characters PyYAML takes as line
    breaks, §4). Input: a ``str``. Output: one line of YAML."""
    text = json.dumps(value, ensure_ascii=False)
    return re.sub("[\u2028\u2029\u0085\ufeff]", lambda m: f"\\u{ord(m.group()):04x}", text)


def _subset(draw: st.DrawFn, values: Sequence[T], low: int, high: int) -> list[T]:
    """Distinct items of ``values`` (in a drawn order), ``low`` to ``high`` of them."""
    pool = list(values)
    out: list[T] = []
    for _ in range(draw(st.integers(low, min(high, len(pool))))):
        out.append(pool.pop(draw(st.integers(0, len(pool) - 1))))
    return out


def _question(draw: st.DrawFn, pool: Sequence[str]) -> dict[str, Any]:
    kind = _pick(draw, ("single_choice", "multi_choice", "free_text"))
    text = _pick(draw, pool)
    if kind == "free_text":
        default = _pick(draw, ("", "x", "默认"))
        return {"type": kind, "text": text, "default": default}
    options = _subset(draw, pool, 1, 3)
    question: dict[str, Any] = {"type": kind, "text": text, "options": options}
    if kind == "single_choice":
        question["default"] = _pick(draw, options)
    else:
        question["default"] = _subset(draw, options, 0, 2)
    if draw(st.booleans()):
        question["allow_other"] = draw(st.booleans())
    return question


def _form(draw: st.DrawFn, traps: bool) -> dict[str, Any]:
    pool = _SAFE_WORDS + (_YAML_TRAPS[:-2] if traps else ())
    count = draw(st.integers(1, 3))
    return {
        "title": _pick(draw, pool),
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
    return _form(draw, traps)


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
    extra words, trailing NBSP/U+3000), the opener's indentation (0-4 spaces, a tab),
    and the payload (a valid form quoted or plain with YAML 1.1 traps, or a damaged
    payload: duplicate keys, aliases, tags, JSON, several documents, unknown fields).
    """
    char = _pick(draw, ["`", "`", "`", "~"])
    size = draw(st.integers(2, 5)) if char == "`" else 3
    fence = char * size
    name = _pick(draw, _FAMILY)
    info = _pick(
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
        ],
    )
    indent = _pick(draw, ["", "", "", " ", "   ", "    ", "\t"])
    if draw(st.integers(0, 3)):
        payload = form_yaml(_form(draw, True), quoted=draw(st.booleans()))
    else:
        payload = _pick(draw, _YAML_DAMAGE)
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


_FENCED: Final = fenced_blocks()


def _json_form(draw: st.DrawFn) -> dict[str, Any]:
    form = _form(draw, False)
    extras = draw(st.integers(0, 5))
    if extras == 1:
        for i, q in enumerate(form["questions"]):
            q["id"] = f"k{i}"
    elif extras == 2:
        form["ui_text"] = {"other": "Other", "answer_title": "Answers"}
        form["timeout_seconds"] = _pick(draw, [30, 0, -1, 1.5])
    elif extras == 3:
        q = form["questions"][0]
        if "options" in q:
            q["options"] = [{"value": o, "label": o.upper()} for o in q["options"]]
        q["type"] = {"multi_choice": "multiple_choice", "free_text": "text"}.get(
            q["type"], q["type"]
        )
    elif extras == 4:
        del form["questions"][0]["default"]
    return form


_JSON_DAMAGE: Final[tuple[str, ...]] = (
    '{"title": "T", "questions": [{"type": "free_text", "text": "Q", "default": NaN}]}',
    '{"title": "T", "title": "U", "questions": []}',
    "{“title”: “T”}",
    '"{\\"title\\": \\"T\\"}"',
    "[]",
    '{"questions": [{"type": "single_choice", "text": "Q", "options": ["a"], "default": "b"}]}',
    '{"questions": [{"id": "x"}, {"id": "x", "type": "text", "text": "Q"}]}',
    "",
    "{",
    '{"questions": 1e999}',
)


def _response_json(draw: st.DrawFn, name: str) -> str:
    answers = _pick(
        draw,
        [
            [
                {
                    "question_id": "q1",
                    "question": "Q",
                    "type": "single_choice",
                    "answer": "a",
                    "value": "a",
                    "label": "a",
                }
            ],
            [{"question_id": "q1", "type": "free_text", "answer": ""}],
            [
                {
                    "question_id": "q1",
                    "type": "multi_choice",
                    "answer": ["a"],
                    "values": ["a"],
                    "labels": ["A"],
                }
            ],
            "not a list",
            [],
        ],
    )
    base = name[: -len("-response")] if name.endswith("-response") else name
    payload = {
        "type": _pick(draw, [base.replace("-", "_") + "_response", "other_response"]),
        "questionnaire_id": "m_q1",
        "status": _pick(draw, ["submitted", "draft"]),
        "answers": answers,
    }
    return json.dumps(payload, ensure_ascii=False).replace("</", "\\u003c/")


@st.composite
def xml_blocks(draw: st.DrawFn) -> str:
    """One XML+JSON candidate or near-miss (§3a, §5, §7, §8): ``<N>payload</N>``.

    Varies: the name (family names, ``-response`` names, upper case), the payload
    (a lenient form with ids, ``ui_text``, ``{value, label}`` options and aliases, a
    response, damaged JSON: NaN, duplicate keys, smart quotes, a JSON string, a
    non-object), its layout (one line, pretty-printed over several lines), and the
    tags (attributes, a space, a mismatched or missing closer).
    """
    name = _pick(draw, _FAMILY)
    response = draw(st.integers(0, 3)) == 0
    if response:
        name += "-response"
        payload = _response_json(draw, name)
    elif draw(st.integers(0, 3)):
        form = _json_form(draw)
        payload = json.dumps(form, ensure_ascii=False, indent=_pick(draw, [None, 2]))
        payload = payload.replace("</", "<\\/")
    else:
        payload = _pick(draw, _JSON_DAMAGE)
    tag_kind = draw(st.integers(0, 9))
    opener, closer = f"<{name}>", f"</{name}>"
    if tag_kind == 1:
        opener = f'<{name} timeout_seconds="30">'
    elif tag_kind == 2:
        closer = f"</{name}x>"
    elif tag_kind == 3:
        closer = ""
    elif tag_kind == 4:
        opener, closer = f"<{name.upper()}>", f"</{name.upper()}>"
    elif tag_kind == 5:
        opener = f"< {name}>"
    return opener + payload + closer


_XML: Final = xml_blocks()


@st.composite
def hostile_payloads(draw: st.DrawFn) -> str:
    """A bounded hostile fragment (§4, §5 limits; issue on hostile input): nesting
    just under and over 64 levels in YAML and JSON, long backtick runs, many tags
    without closers, an alias chain, a 400-digit number, a long line. At most a few
    KB, so that one example stays fast."""
    depth = _pick(draw, [63, 64, 65, 100])
    kind = draw(st.integers(0, 6))
    if kind == 0:
        return "<questionnaire>" + "[" * depth + "]" * depth + "</questionnaire>"
    if kind == 1:
        body = "".join("  " * i + "k:\n" for i in range(depth)) + "  " * depth + "v\n"
        return "```questionnaire\n" + body + "```\n"
    if kind == 2:
        return "`" * draw(st.integers(3, 300)) + "questionnaire\n"
    if kind == 3:
        return "<questionnaire>" * draw(st.integers(2, 50))
    if kind == 4:
        chain = "a0: &a0 [x, x]\n" + "".join(
            f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}]\n" for i in range(1, 8)
        )
        return "```questionnaire\n" + chain + "```\n"
    if kind == 5:
        return '<questionnaire>{"questions": ' + "9" * 400 + "}</questionnaire>"
    return "x" * draw(st.integers(500, 3000)) + "\n"


_HOSTILE: Final = hostile_payloads()


# Pieces of lines for inert_messages(): openers and end conditions of HTML comments and
# of the seven CommonMark HTML block types, unclosed and attribute-bearing tags,
# tag-like and fence-like text, code-span backticks, and short candidates.
_INERT_PIECES: Final[tuple[str, ...]] = (
    "<!--", "<!--", "-->", "-->", "<!-->", "<!--->", "--", ">",
    "<pre>", "</pre>", "<script>", "</script>", "<style>", "</style>", "<textarea>",
    "</textarea>", "<?", "?>", "<!DOCTYPE html", "<![CDATA[", "]]>", "<div>", "</div>",
    "<details>", "</details>", "<span>", "</span>", '<a href="x">', '<span title="', '"',
    "'", "<b", "<questionnaire", "<questionnaire", "<questionnaire>", "</questionnaire>",
    "<Questionnaire>", "<questionnaire a=1>", "<sage-questionnaire>",
    "</sage-questionnaire>", "<questionnaire-response>", "</questionnaire-response>",
    "<questionnaire>{}</questionnaire>", '<questionnaire>{"x":"-->"}</questionnaire>',
    "<questionnaire>{}", "<questionnaire>\n{}\n</questionnaire>",
    "<questionnaire>{\n\n}</questionnaire>", "<http://x", "```questionnaire", "```", "~~~",
    "``questionnaire", "```Questionnaire", "\u3000```questionnaire", "\u00a0~~~questionnaire",
    "\u200b```questionnaire", "`", "``", "\\`", "a", "Intro", " ", "  ", "\t", "x <y> z", "问",
)  # fmt: skip
# Line starts: none, indentation, block quote and list item markers.
_INERT_STARTS: Final[tuple[str, ...]] = (
    "", "", "", "", "", " ", "   ", "    ", "> ", ">", "> > ", "- ", "1. ", "  ", "- > ",
)  # fmt: skip
_FENCE_TAIL: Final = (
    "\n\nIntro\n\n```questionnaire\ntitle: T\nquestions:\n  - type: free_text\n"
    '    text: Q\n    default: ""\n```\n'
)


@st.composite
def inert_messages(draw: st.DrawFn) -> str:
    """A message probing where inert regions end (§3b): 1-10 lines, each a line start
    (none, indentation, ``>``, list markers) and 0-5 pieces: HTML comment openers and
    closers, openers and end conditions of the seven CommonMark HTML block types,
    unclosed tags and tags with attributes (``<span title="``, ``<questionnaire``),
    tag-like and fence-like text (``</questionnaire>``, ```` ```questionnaire ````),
    backticks and short XML+JSON candidates; some pieces are a line ending, so tags,
    comments and attribute values run across lines. Lines join with ``\\n`` or
    ``\\r\\n``, some blank; sometimes a valid fenced form follows, so that a region
    that runs too far shows as a lost block."""
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 10))):
        if draw(st.integers(0, 5)) == 0:
            lines.append("")
            continue
        pieces = [_pick(draw, _INERT_STARTS)]
        for _ in range(draw(st.integers(0, 5))):
            pieces.append("\n" if draw(st.integers(0, 7)) == 0 else _pick(draw, _INERT_PIECES))
        lines.append("".join(pieces))
    text = "\n".join(lines)
    if draw(st.integers(0, 2)) == 0:
        text += _FENCE_TAIL
    if draw(st.integers(0, 5)) == 0:
        text = text.replace("\n", "\r\n")
    return text


_INERT: Final = inert_messages()


def _wrap(block: str, how: int) -> str:
    lines = block.splitlines(keepends=True) or [""]
    if how == 1:
        return "".join("> " + line for line in lines)
    if how == 2:
        return "- " + lines[0] + "".join("  " + line for line in lines[1:])
    if how == 3:
        return "```\n" + block + ("" if block.endswith("\n") else "\n") + "```\n"
    if how == 4:
        return "".join("    " + line for line in lines)
    if how == 5:
        return "`" + block.replace("\n", " ") + "`"
    if how == 6:
        return "<!-- " + block + " -->"
    if how == 7:
        return "<details>\n" + block + "\n</details>\n"
    return block


@st.composite
def messages(draw: st.DrawFn) -> str:
    """A whole assistant message: 1-5 pieces (prose, :func:`markdown`, a fenced or
    XML+JSON block, a hostile fragment, an :func:`inert_messages` text), some blocks
    wrapped in a block quote, list item, fenced or indented code, code span, HTML
    comment or HTML block, joined with
    ``""``, ``" "``, ``"\\n"`` or ``"\\n\\n"``; then, sometimes, every ``\\n`` turned
    into ``\\r\\n`` or ``\\r``, a leading BOM, blank characters (NBSP, U+3000,
    zero-width space, U+2028) in front."""
    pieces: list[str] = []
    if draw(st.integers(0, 3)):
        pieces.append(draw(_PROSE) + "\n\n")
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.integers(0, 10))
        if kind == 10:
            pieces.append(draw(_INERT) + "\n")
            continue
        if kind <= 1:
            piece = draw(_PROSE) + "\n"
        elif kind == 2:
            piece = draw(_MARKDOWN)
        elif kind <= 5:
            piece = draw(_FENCED)
        elif kind <= 8:
            piece = draw(_XML)
        else:
            piece = draw(_HOSTILE)
        if kind >= 3 and draw(st.integers(0, 3)) == 0:
            piece = _wrap(piece, draw(st.integers(1, 7)))
        pieces.append(piece)
        pieces.append(_pick(draw, ["", " ", "\n", "\n\n", "\n\n"]))
    text = "".join(pieces)
    ending = draw(st.integers(0, 7))
    if ending == 1:
        text = text.replace("\n", "\r\n")
    elif ending == 2:
        text = text.replace("\n", "\r")
    lead = draw(st.integers(0, 9))
    if lead == 1:
        text = "\ufeff" + text
    elif lead == 2:
        text = _pick(draw, _BLANKS) + text
    return text


_MESSAGES: Final = messages()


@st.composite
def segment_requests(draw: st.DrawFn) -> dict[str, Any]:
    """A ``segment`` request body: ``{"text": str, "message_id": str, "profile": str}``
    with a :func:`messages` text, a message id (``m``, ``msg-1``, CJK, empty) and a
    profile string of :data:`PROFILES` (§6)."""
    return {
        "text": draw(_MESSAGES),
        "message_id": _pick(draw, ["m", "msg-1", "消息", ""]),
        "profile": _pick(draw, PROFILES),
    }


# ---------------------------------------------------------------- tool arguments


_JUNK: Final[tuple[Any, ...]] = (None, True, 0, 1.5, "", " ", "x", [], {}, ["a"], {"a": 1})


def _lenient_question(draw: st.DrawFn, index: int) -> Any:
    if draw(st.integers(0, 12)) == 0:
        return copy.deepcopy(_pick(draw, _JUNK))
    kind = _pick(
        draw,
        [
            "single_choice",
            "multi_choice",
            "multiple_choice",
            "free_text",
            "text",
            " Single_Choice ",
            "TEXT",
            "choice",
            3,
        ],
    )
    q: dict[str, Any] = {"type": kind}
    id_kind = draw(st.integers(0, 5))
    if id_kind == 1:
        q["id"] = f"k{index}"
    elif id_kind == 2:
        q["id"] = "dup"
    elif id_kind == 3:
        q["id"] = _pick(draw, ["", " ", "q1", "q2", 7])
    text_kind = draw(st.integers(0, 5))
    if text_kind <= 2:
        q["text"] = _pick(draw, _SAFE_WORDS)
    elif text_kind == 3:
        q["title"] = _pick(draw, _SAFE_WORDS)
    elif text_kind == 4:
        q["text"] = _pick(draw, ["", " ", "\u3000", None, 5])
    values = [_pick(draw, ("a", "b", "c", "继续", "😀")) for _ in range(draw(st.integers(0, 3)))]
    opt_kind = draw(st.integers(0, 5))
    if opt_kind <= 2:
        q["options"] = list(values)
    elif opt_kind == 3:
        q["options"] = [
            _pick(draw, [{"value": v, "label": v.upper()}, {"value": v}, {"label": v}])
            for v in values
        ]
    elif opt_kind == 4:
        q["options"] = _pick(draw, [[" "], [1], [None], "a", [{"value": ""}], ["a", "a"]])
    default_kind = draw(st.integers(0, 5))
    if default_kind == 1 and values:
        q["default"] = values[0]
    elif default_kind == 2:
        q["default"] = values[:2]
    elif default_kind == 3:
        q["default"] = _pick(draw, ["", "zz", ["zz"], 0, None, [1]])
    if draw(st.integers(0, 3)) == 0:
        q["allow_other"] = _pick(draw, [True, False, "yes", 1, None])
    return q


@st.composite
def tool_arguments(draw: st.DrawFn) -> Any:
    """``questionnaire_async`` arguments (seed "调用参数", §7): mostly an object with an
    optional ``title`` (string or junk) and ``questions`` (0-4 lenient questions:
    aliases and case in ``type``, given/blank/duplicate ids, ``text`` or ``title``,
    string or ``{value, label}`` options, defaults in and out of the options, junk
    ``allow_other``); sometimes ``questions`` missing or not a list, or the arguments
    not an object at all, or an extra key that the tool ignores."""
    kind = draw(st.integers(0, 15))
    if kind == 0:
        return copy.deepcopy(_pick(draw, _JUNK))
    args: dict[str, Any] = {}
    title_kind = draw(st.integers(0, 4))
    if title_kind == 1:
        args["title"] = _pick(draw, _SAFE_WORDS)
    elif title_kind == 2:
        args["title"] = _pick(draw, ["", 5, None, ["t"]])
    if kind == 1:
        args["questions"] = copy.deepcopy(_pick(draw, _JUNK))
    elif kind != 2:
        count = draw(st.integers(0, 4))
        args["questions"] = [_lenient_question(draw, i + 1) for i in range(count)]
    if draw(st.integers(0, 6)) == 0:
        args["extra"] = "ignored"
    return args


# ---------------------------------------------------------------- answer actions


# The whitelists come from the model, so the strategies follow any change to them.
_ACTION_TYPES: Final[tuple[str, ...]] = ACTION_TYPES
_CHARTS: Final[tuple[str, ...]] = CHART_TYPES
_TARGETS: Final[tuple[Any, ...]] = (
    {"componentId": "c1"},
    {"dataset": "d"},
    {},
    {"componentId": ""},
    "c1",
    {"componentId": "c" * 121},
    {"url": "x"},
)


def _near(draw: st.DrawFn, limit: int, usual: Sequence[str] = ()) -> str:
    """A text at, under or over ``limit`` code points: ASCII, BMP CJK, astral emoji
    (over the limit in UTF-16 units but not in code points), a blank one, or one of
    the ``usual`` values."""
    kind = draw(st.integers(0, 5 if usual else 2))
    if kind >= 3:
        return _pick(draw, usual)
    if kind == 2:
        return _pick(draw, ("", " ", "\u3000", "\u200b"))
    size = _pick(draw, (1, limit // 2 + 1, limit - 1, limit, limit + 1))
    return _pick(draw, ("a", "工", "😀")) * size


@st.composite
def actions(draw: st.DrawFn) -> Any:
    """One action object (seed 004 §3, §12), mostly keepable, with fields near their
    limits, wrong types, fields outside the protocol, reserved ids and texts holding
    control or bidi characters (tab and line breaks in prompts); sometimes not an
    object."""
    if draw(st.integers(0, 15)) == 0:
        return copy.deepcopy(_pick(draw, _JUNK))
    action_type = _pick(draw, (*_ACTION_TYPES, "tool.call", "View.Detail", None))
    item: dict[str, Any] = {
        "id": _near(draw, 80, ("a1", "a2", "a1", "constructor", "__proto__", "a\x00b")),
        "type": action_type,
        "label": _near(draw, 32, ("OK", "继续", "\u202eetelpmoC\u202c", "a\tb")),
    }
    params: dict[str, Any] = {}
    if draw(st.integers(0, 3)):
        params["prompt"] = _near(draw, 800, ("Go on", "继续处理", "a\r\nb\tc", "a\x1b[0m"))
    if draw(st.integers(0, 2)) == 0 or action_type == "render.change":
        params["chartType"] = _pick(draw, (*_CHARTS, "pie", "BAR"))
    if draw(st.integers(0, 5)) == 0:
        params["arguments"] = {"x": 1}
    with_params: bool = bool(params) or draw(st.booleans())
    if with_params:
        item["params"] = params if draw(st.integers(0, 8)) else copy.deepcopy(_pick(draw, _JUNK))
    if draw(st.integers(0, 4)) == 0:
        item["style"] = _pick(draw, ("primary", "default", "danger", "link", 1))
    if draw(st.integers(0, 4)) == 0:
        item["title"] = _near(draw, 80, ("Sure?", "t\u2066x"))
    if draw(st.integers(0, 4)) == 0:
        item["description"] = _near(draw, 240, ("Stops the task.", "d\x85"))
    if draw(st.integers(0, 4)) == 0:
        item["riskLevel"] = _pick(draw, ("LOW", "MEDIUM", "HIGH", "high", None))
    if draw(st.integers(0, 4)) == 0:
        item["requiresConfirmation"] = _pick(draw, (True, False, "true", 1))
    if draw(st.integers(0, 4)) == 0:
        item["target"] = copy.deepcopy(_pick(draw, _TARGETS))
    if draw(st.integers(0, 4)) == 0:
        item["tool"] = "shell"
    if draw(st.integers(0, 4)) == 0:
        item["url"] = "https://example.invalid/"
    return item


_ACTION: Final = actions()


@st.composite
def action_lists(draw: st.DrawFn) -> Any:
    """The value of an ``actions`` key: mostly a list of 0-11 :func:`actions` (more
    than the 8 shown, duplicate ids), sometimes junk (not a list, §12
    ``actions.not_list``)."""
    if draw(st.integers(0, 12)) == 0:
        return copy.deepcopy(_pick(draw, _JUNK))
    return [draw(_ACTION) for _ in range(draw(st.integers(0, 11)))]


_ACTION_LISTS: Final = action_lists()


@st.composite
def answers(draw: st.DrawFn) -> Any:
    """A ``sanitize_actions`` input (§12): the wrapper ``{"answerData", "payload"}``
    with either or both, a bare payload (has ``template``), a bare answerData, an
    answerData whose ``actions`` is not a list, or junk."""
    kind = draw(st.integers(0, 6))
    lists = _ACTION_LISTS
    if kind == 0:
        return {"answerData": {"actions": draw(lists)}, "payload": {"actions": draw(lists)}}
    if kind == 1:
        return {"payload": {"template": "t", "actions": draw(lists)}}
    if kind == 2:
        return {"template": "t", "actions": draw(lists)}
    if kind == 3:
        return {"answerData": {"summary": "s"}, "payload": {"actions": draw(lists)}}
    if kind == 4:
        return copy.deepcopy(_pick(draw, _JUNK))
    return {"actions": draw(lists), "schemaVersion": _pick(draw, [1, "2", None])}


# ---------------------------------------------------------------- requests


def _with_op(op: Op, body: st.SearchStrategy[Any], key: str | None) -> st.SearchStrategy[Any]:
    if key is None:
        return body.map(lambda b: (op, b))
    return body.map(lambda b: (op, {key: b}))


def requests(ops: Sequence[Op] = OPS) -> st.SearchStrategy[tuple[Op, dict[str, Any]]]:
    """``(op, request_body)`` pairs of the adapter protocol (docs/fuzzing.md), the
    body without ``id`` and ``op``: ``segment`` -> :func:`segment_requests`;
    ``questionnaire_async`` -> ``{"arguments": tool_arguments()}``;
    ``sanitize_actions`` -> ``{"answer": answers()}``. Raises ``ValueError`` for an
    empty or unknown ``ops``."""
    if not ops or any(op not in OPS for op in ops):
        raise ValueError(f"ops must be a non-empty subset of {OPS}")
    table: dict[Op, st.SearchStrategy[Any]] = {
        "segment": _with_op("segment", segment_requests(), None),
        "questionnaire_async": _with_op("questionnaire_async", tool_arguments(), "arguments"),
        "sanitize_actions": _with_op("sanitize_actions", answers(), "answer"),
    }
    return st.one_of(*(table[op] for op in ops))


# ---------------------------------------------------------------- explicit examples


@attrs.frozen
class Example:
    """A hand-written input the fuzzer always runs before generated ones, so every
    family of edge cases is tried whatever Hypothesis version draws the rest.

    ``op``: the operation; ``rule``: the rule it exercises (a § of
    PROTOCOL-DECISIONS.md or a seed heading, ``seed 000 · Inline Questionnaire ·
    协议边界``); ``name``: a stable identifier; ``request``: the request body
    (without ``id``/``op``), as :func:`requests` draws it.
    """

    op: Op
    rule: str
    name: str
    request: dict[str, Any]


_FORM = (
    "title: T\nquestions:\n  - type: single_choice\n    text: Go?\n    options:\n"
    '      - "a"\n      - "b"\n    default: "a"\n'
)
_FREE = 'title: T\nquestions:\n  - type: free_text\n    text: Q\n    default: ""\n'
_JSON = (
    '{"title":"T","questions":[{"type":"single_choice","text":"Go?",'
    '"options":["a","b"],"default":"a"}]}'
)
_BOUNDARY = "seed 000 · Inline Questionnaire · 协议边界"
_FIELDS = "seed 000 · Inline Questionnaire · fenced YAML 字段"
_STANDARD = "seed 000 · Inline Questionnaire · 新消息的标准格式"


def _seg(rule: str, name: str, text: str, profile: str = "client") -> Example:
    return Example("segment", rule, name, {"text": text, "message_id": "m", "profile": profile})


_SEGMENT_EXAMPLES: Final[tuple[Example, ...]] = (
    _seg("§3a", "fence-basic", f"Intro\n\n```questionnaire\n{_FORM}```\nAfter\n"),
    _seg("§3a", "xml-basic", f"Intro <questionnaire>{_JSON}</questionnaire> after\n"),
    _seg("§8", "tilde-fence", f"Intro\n\n~~~questionnaire\n{_FORM}~~~\n"),
    _seg("§8", "two-backticks", f"Intro\n\n``questionnaire\n{_FORM}``\n"),
    _seg("§8", "info-case", f"Intro\n\n```Questionnaire\n{_FORM}```\n"),
    _seg("§8", "info-extra-words", f"Intro\n\n```questionnaire yaml\n{_FORM}```\n"),
    _seg("§8", "tag-attributes", f'Intro <questionnaire id="1">{_JSON}</questionnaire>\n'),
    _seg("§8", "unclosed-tag", f"Intro <questionnaire>{_JSON}\n"),
    _seg(_BOUNDARY, "short-closer", f"Intro\n\n````questionnaire\n{_FREE}```\nmore: x\n````\n"),
    _seg(_BOUNDARY, "longer-closer", f"Intro\n\n```questionnaire\n{_FREE}`````\nAfter\n"),
    _seg(_BOUNDARY, "closer-with-text", f"Intro\n\n```questionnaire\n{_FREE}``` x\n```\n"),
    _seg("§3a", "unclosed-fence", f"Intro\n\n```questionnaire\n{_FREE}"),
    _seg("§3b", "indented-fence", f"Intro\n\n    ```questionnaire\n    {_FREE}    ```\n"),
    _seg("§3b", "indented-tag", f"Intro\n\n    <questionnaire>{_JSON}</questionnaire>\n"),
    _seg("§3b", "indented-after-paragraph", f"Intro\n    ```questionnaire\n{_FREE}```\n"),
    _seg("§3b", "tag-in-code-span", f"Intro `<questionnaire>{_JSON}</questionnaire>` x\n"),
    _seg("§3b", "tag-in-comment", f"Intro <!-- <questionnaire>{_JSON}</questionnaire> -->\n"),
    _seg(
        "§3b", "form-in-fenced-code", f"Intro\n\n````markdown\n```questionnaire\n{_FREE}```\n````\n"
    ),
    _seg("§3b", "fence-in-html-block", f"<details>\n```questionnaire\n{_FREE}```\n</details>\n"),
    _seg(
        "§3b",
        "comment-ends-with-its-html-block",
        f"<!--\n<questionnaire\n-->\n\nIntro\n\n```questionnaire\n{_FREE}```\n",
    ),
    _seg(
        "§3b",
        "comment-then-tag-on-closing-line",
        "<!--<questionnaire\n--><questionnaire></questionnaire>",
    ),
    _seg(
        "§3b",
        "block-ended-before-comment",
        f"<!--> <!-- <questionnaire>{_JSON}</questionnaire>\n-->\n",
    ),
    _seg(
        "§3b", "unclosed-comment-in-list-item", f"Intro\n\n- <!--\n\n```questionnaire\n{_FREE}```\n"
    ),
    _seg("§8", "fence-indent", f"Intro\n\n\u3000```questionnaire\n{_FREE}```\n"),
    _seg("§3c", "fence-in-block-quote", "Intro\n\n> ```questionnaire\n> title: T\n> ```\n"),
    _seg("§3c", "fence-in-list-item", f"Intro\n\n- ```questionnaire\n  {_FREE}  ```\n"),
    _seg("§3a", "tag-in-list-item", f"Intro\n\n- <questionnaire>{_JSON}</questionnaire>\n"),
    _seg(
        "§4",
        "yaml11-booleans",
        "Intro\n\n```questionnaire\ntitle: T\nquestions:\n"
        "  - type: single_choice\n    text: Go?\n    options: [yes, no]\n    default: yes\n```\n",
    ),
    _seg(
        "§4",
        "yaml11-plain-no",
        "Intro\n\n```questionnaire\ntitle: T\nquestions:\n"
        "  - type: free_text\n    text: Q\n    default: no\n```\n",
    ),
    _seg(
        "§4",
        "yaml11-sexagesimal",
        "Intro\n\n```questionnaire\ntitle: 9:16\nquestions:\n"
        "  - type: free_text\n    text: 2026-11-30\n    default: 1_000\n```\n",
    ),
    _seg("§4", "yaml-duplicate-key", f"Intro\n\n```questionnaire\ntitle: U\n{_FORM}```\n"),
    _seg(
        "§4",
        "yaml-alias",
        "Intro\n\n```questionnaire\ntitle: &t T\nquestions:\n"
        "  - type: free_text\n    text: *t\n    default: ''\n```\n",
    ),
    _seg(_BOUNDARY, "json-in-fence", f"Intro\n\n```questionnaire\n{_JSON}\n```\n"),
    _seg(_FIELDS, "unknown-field", f"Intro\n\n```questionnaire\n{_FREE}subtitle: S\n```\n"),
    _seg(_STANDARD, "no-preface", f"```questionnaire\n{_FREE}```\n"),
    _seg(_STANDARD, "preface-only-code", f"`code`\n\n```questionnaire\n{_FREE}```\n"),
    _seg(_STANDARD, "preface-zero-width", f"\u200b\n```questionnaire\n{_FREE}```\n"),
    _seg("§5", "json-nan", 'Intro <questionnaire>{"questions": NaN}</questionnaire>\n'),
    _seg("§5", "json-duplicate", 'Intro <questionnaire>{"a": 1, "a": 2}</questionnaire>\n'),
    _seg(
        "§5",
        "lenient-xml",
        'Intro <questionnaire>{"questions":[{"type":"text","title":"Q"}]}</questionnaire>\n',
    ),
    _seg("§6", "unregistered", f"Intro <foo-questionnaire>{_JSON}</foo-questionnaire>\n"),
    _seg(
        "§6",
        "self-check-name",
        f"Intro <yiii-questionnaire>{_JSON}</yiii-questionnaire>\n",
        "self_check",
    ),
    _seg("§6", "product-name", f"Intro\n\n```acme-questionnaire\n{_FREE}```\n", "product:acme"),
    _seg(
        "§7",
        "response",
        'Intro <questionnaire-response>{"type":"questionnaire_response",'
        '"questionnaire_id":"m_q1","status":"submitted","answers":[]}</questionnaire-response>',
    ),
    _seg(
        "§1",
        "crlf",
        f"Intro\r\n\r\n```questionnaire\r\n{_FREE.replace(chr(10), chr(13) + chr(10))}```\r\n",
    ),
    _seg("§1", "lone-cr", f"Intro\r\r```questionnaire\r{_FREE.replace(chr(10), chr(13))}```\r"),
    _seg("§1", "bom", f"\ufeffIntro\n\n```questionnaire\n{_FREE}```\n"),
    _seg("§1", "astral-offsets", f"😀😀 Intro <questionnaire>{_JSON}</questionnaire> 😀\n"),
    _seg("§1", "u2028-not-a-line-end", f"Intro\u2028```questionnaire\n{_FREE}```\n"),
    _seg(
        "§3b",
        "text-after-closer",
        f"Intro <questionnaire>{_JSON}</questionnaire>```questionnaire\nx\n```\n",
    ),
    _seg(
        "§6",
        "two-blocks",
        f"Intro\n\n```questionnaire\n{_FREE}```\n<questionnaire>{_JSON}</questionnaire>\n",
    ),
)


def _qa(rule: str, name: str, arguments: Any) -> Example:
    return Example("questionnaire_async", rule, name, {"arguments": arguments})


_SEED_ARGUMENTS: Final[dict[str, Any]] = {
    "title": "继续执行",
    "questions": [
        {
            "id": "action",
            "type": "single_choice",
            "text": "是否继续当前任务？",
            "options": [{"value": "continue", "label": "继续"}],
            "default": "continue",
            "allow_other": False,
        }
    ],
}
_QA_RESULT = "seed 000 · questionnaire_async · 成功结果"
_QA_ARGS = "seed 000 · questionnaire_async · 调用参数"

_QA_EXAMPLES: Final[tuple[Example, ...]] = (
    _qa(_QA_RESULT, "seed-example", _SEED_ARGUMENTS),
    _qa(
        _QA_ARGS,
        "aliases",
        {
            "questions": [
                {"type": "multiple_choice", "text": "Q", "options": ["a", "b"]},
                {"type": "text", "title": "T"},
            ]
        },
    ),
    _qa(
        _QA_ARGS,
        "generated-ids",
        {"questions": [{"type": "text", "text": "A"}, {"id": "q1", "type": "text", "text": "B"}]},
    ),
    _qa(
        _QA_ARGS,
        "label-defaults",
        {
            "questions": [
                {"type": "single_choice", "text": "Q", "options": [{"value": "v"}], "default": "v"}
            ]
        },
    ),
    _qa(
        "§7",
        "type-case",
        {"questions": [{"type": " Single_Choice ", "text": "Q", "options": ["a"]}]},
    ),
    _qa("§7", "questions-not-list", {"title": "T", "questions": "x"}),
    _qa("§7", "questions-empty", {"questions": []}),
    _qa("§7", "question-not-object", {"questions": [1]}),
    _qa("§7", "type-invalid", {"questions": [{"type": "choice", "text": "Q"}]}),
    _qa("§7", "text-required", {"questions": [{"type": "text", "text": " "}]}),
    _qa(
        "§7",
        "id-duplicate",
        {
            "questions": [
                {"id": "a", "type": "text", "text": "Q"},
                {"id": "a", "type": "text", "text": "R"},
            ]
        },
    ),
    _qa("§7", "id-invalid", {"questions": [{"id": 3, "type": "text", "text": "Q"}]}),
    _qa("§7", "options-required", {"questions": [{"type": "single_choice", "text": "Q"}]}),
    _qa(
        "§7",
        "option-invalid",
        {"questions": [{"type": "single_choice", "text": "Q", "options": ["a", "a", " "]}]},
    ),
    _qa(
        "§7",
        "default-type",
        {"questions": [{"type": "multi_choice", "text": "Q", "options": ["a"], "default": "a"}]},
    ),
    _qa(
        "§7",
        "default-not-in-options",
        {"questions": [{"type": "single_choice", "text": "Q", "options": ["a"], "default": "b"}]},
    ),
    _qa(
        "§7",
        "default-list-items",
        {
            "questions": [
                {"type": "multi_choice", "text": "Q", "options": ["a"], "default": ["a", "b", 1]}
            ]
        },
    ),
    _qa(
        "§7",
        "allow-other-type",
        {
            "questions": [
                {"type": "single_choice", "text": "Q", "options": ["a"], "allow_other": "yes"}
            ]
        },
    ),
    _qa("§7", "title-invalid", {"title": 5, "questions": [{"type": "text", "text": "Q"}]}),
    _qa(
        "§7",
        "trimmed",
        {
            "title": " T\u3000",
            "questions": [
                {"type": "single_choice", "text": "\u00a0Q ", "options": [" a "], "default": "a"},
                {
                    "type": "multi_choice",
                    "text": "R",
                    "options": [{"value": "b ", "label": " B"}],
                    "default": [" b"],
                },
                {"type": "free_text", "text": "S", "default": " s\u200b"},
            ],
        },
    ),
    _qa(
        "§7",
        "trimmed-duplicate-option",
        {"questions": [{"type": "single_choice", "text": "Q", "options": ["a", " a"]}]},
    ),
    _qa("§7", "default-null", {"questions": [{"type": "text", "text": "Q", "default": None}]}),
    _qa(
        "§7",
        "free-text-ignores-options",
        {"questions": [{"type": "free_text", "text": "Q", "options": ["a"], "allow_other": True}]},
    ),
    _qa("§7", "not-an-object", ["questions"]),
)


def _sa(name: str, answer: Any) -> Example:
    return Example("sanitize_actions", "§12", name, {"answer": answer})


def _act(i: int, **extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"id": f"a{i}", "type": "view.detail", "label": "Details"}
    base.update(extra)
    return base


_SA_EXAMPLES: Final[tuple[Example, ...]] = (
    _sa("basic", {"actions": [_act(1)]}),
    _sa("answer-data-wins", {"answerData": {"actions": "x"}, "payload": {"actions": [_act(1)]}}),
    _sa("bare-payload", {"template": "t", "actions": [_act(1)]}),
    _sa("not-object", {"actions": [1, _act(2)]}),
    _sa("type-unknown", {"actions": [_act(1, type="tool.call")]}),
    _sa("id-duplicate", {"actions": [_act(1), _act(1, label="Again")]}),
    _sa("id-too-long", {"actions": [_act(1, id="a" * 81)]}),
    _sa("id-reserved", {"actions": [_act(1, id="__proto__"), _act(2, id="constructor")]}),
    _sa(
        "text-unsafe",
        {
            "actions": [
                _act(1, id="x\u0000y"),
                _act(
                    2, type="business.cancel", label="\u202eetelpmoC\u202c", params={"prompt": "p"}
                ),
                _act(3, title="t\u2066", description="line\nbreak"),
                _act(4, type="conversation.continue", params={"prompt": "a\r\nb\tc"}),
            ]
        },
    ),
    _sa("label-astral-32", {"actions": [_act(1, label="😀" * 32)]}),
    _sa("label-astral-33", {"actions": [_act(1, label="😀" * 33)]}),
    _sa("prompt-required", {"actions": [_act(1, type="business.execute")]}),
    _sa("chart-type", {"actions": [_act(1, type="render.change", params={"chartType": "pie"})]}),
    _sa("field-removed", {"actions": [_act(1, tool="shell", url="x", params={"prompt": "p"})]}),
    _sa(
        "modify-prompt", {"actions": [_act(1, type="conversation.modify", params={"prompt": " "})]}
    ),
    _sa("nine-actions", {"actions": [_act(i) for i in range(1, 10)]}),
    _sa(
        "confirm-fields",
        {
            "actions": [
                _act(
                    1,
                    type="business.execute",
                    riskLevel="high",
                    requiresConfirmation="true",
                    params={"prompt": "Do it"},
                )
            ]
        },
    ),
)


def explicit_examples(ops: Sequence[Op] = OPS) -> tuple[Example, ...]:
    """The hand-written examples for ``ops``, in a fixed order (segment first). The
    fuzzer runs them before any generated input; ``replykit vectors export`` writes
    them, with replykit's answers, as generated conformance cases."""
    table: dict[Op, tuple[Example, ...]] = {
        "segment": _SEGMENT_EXAMPLES,
        "questionnaire_async": _QA_EXAMPLES,
        "sanitize_actions": _SA_EXAMPLES,
    }
    return tuple(e for op in OPS if op in ops for e in table[op])


__all__ = [
    "OPS",
    "PROFILES",
    "Example",
    "Op",
    "action_lists",
    "actions",
    "answers",
    "explicit_examples",
    "fenced_blocks",
    "form_dicts",
    "form_yaml",
    "hostile_payloads",
    "markdown",
    "messages",
    "prose",
    "requests",
    "segment_requests",
    "tool_arguments",
    "xml_blocks",
    "yaml_quote",
]
