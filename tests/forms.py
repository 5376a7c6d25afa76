"""Hypothesis strategies for valid forms and the Markdown around them (test helper).

``valid_forms()`` draws a :class:`replykit.Questionnaire` already in normalized shape;
``fenced_yaml(form)`` and ``xml_json(form)`` write it in the two encodings with writers
that are safe for YAML 1.2 and for embedding in a message; ``markdownish`` draws text
made of fragments that exercise every rule of the scanner.
"""

from __future__ import annotations

import json
import re

from hypothesis import strategies as st

from replykit import Option, Question, Questionnaire
from replykit.text import is_blank, trim_blank

# Characters YAML streams may hold and that survive double quoting; §4 documents that
# PyYAML reads U+2028/U+2029/U+0085 as line breaks, so the writer escapes them.
_CHARS = st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffe\uffff")
# "-->" would end the HTML comments that the inertness properties wrap forms in.
_TEXT = st.text(alphabet=_CHARS, min_size=1, max_size=12).filter(
    lambda s: not is_blank(s) and "-->" not in s
)
_PROSE_WORD = st.text(alphabet="abcdefghij klmnopqrstuvwxyz中文问卷ABC,.!?0123", min_size=1)
_ESCAPE = re.compile("[\u2028\u2029\u0085\ufeff]")


#: Few distinct strings for the schema property tests (tests/test_schemas.py,
#: tests/test_tool.py), so that repeated ids, repeated options and defaults that are (or
#: are not) options come up; blank strings pass minLength but not the readers, and the
#: reserved "other" value passes only with blank characters around it.
SCHEMA_STRINGS = ("", " ", "\u200b", "a", "b", "q1", "继续", "__questionnaire_other__",
                  " __questionnaire_other__")  # fmt: skip


def yaml_quote(s: str) -> str:
    """A YAML 1.2 double-quoted scalar for ``s`` (JSON escapes plus \\uXXXX for breaks)."""
    return _ESCAPE.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(s, ensure_ascii=False))


@st.composite
def questions(draw: st.DrawFn, index: int) -> Question:
    kind = draw(st.sampled_from(["single_choice", "multi_choice", "free_text"]))
    text = draw(_TEXT)
    if kind == "free_text":
        return Question(
            f"q{index}",
            "free_text",
            text,
            (),
            draw(st.text(alphabet=_CHARS, max_size=8).filter(lambda s: "-->" not in s)),
            False,
        )
    labels = draw(st.lists(_TEXT, min_size=1, max_size=4, unique=True))
    options = tuple(Option(s, s) for s in labels)
    allow_other = draw(st.booleans())
    if kind == "single_choice":
        default: str | tuple[str, ...] = draw(st.sampled_from(labels))
    else:
        default = tuple(draw(st.lists(st.sampled_from(labels), unique=True)))
    return Question(f"q{index}", kind, text, options, default, allow_other)


@st.composite
def valid_forms(draw: st.DrawFn) -> Questionnaire:
    """A valid normalized form (ids q1, q2, ...; options with value == label)."""
    n = draw(st.integers(1, 4))
    return Questionnaire(draw(_TEXT), tuple(draw(questions(i + 1)) for i in range(n)))


def trim_form(form: Questionnaire) -> Questionnaire | None:
    """``form`` as the lenient normalizer (§5, §7) reads it: title, texts, option values
    and labels and defaults trimmed of blank characters (§1); ``None`` when two option
    values of a question become equal (then it is a duplicate, not the same form).
    Restated here independently of the implementation."""
    questions = []
    for q in form.questions:
        options = tuple(Option(trim_blank(o.value), trim_blank(o.label)) for o in q.options)
        if len({o.value for o in options}) != len(options):
            return None
        default = (
            tuple(trim_blank(d) for d in q.default)
            if isinstance(q.default, tuple)
            else trim_blank(q.default)
        )
        questions.append(
            Question(q.id, q.type, trim_blank(q.text), options, default, q.allow_other)
        )
    return Questionnaire(
        trim_blank(form.title), tuple(questions), form.ui_text, form.timeout_seconds
    )


def fenced_yaml(form: Questionnaire, fence: str = "```") -> str:
    """The form as a ```questionnaire block (every string scalar quoted)."""
    lines = [f"{fence}questionnaire", f"title: {yaml_quote(form.title)}", "questions:"]
    for q in form.questions:
        lines.append(f"  - type: {q.type}")
        lines.append(f"    text: {yaml_quote(q.text)}")
        if q.type != "free_text":
            lines.append("    options:")
            lines.extend(f"      - {yaml_quote(o.value)}" for o in q.options)
            lines.append(f"    allow_other: {'true' if q.allow_other else 'false'}")
        if isinstance(q.default, tuple):
            lines.append(f"    default: [{', '.join(yaml_quote(v) for v in q.default)}]")
        else:
            lines.append(f"    default: {yaml_quote(q.default)}")
    lines.append(fence)
    return "\n".join(lines) + "\n"


def xml_json(form: Questionnaire, name: str = "questionnaire") -> str:
    """The form as ``<name>{json}</name>``; ``</`` is written ``<\\/`` so no string
    can close the block."""
    payload = json.dumps(form.to_json(), ensure_ascii=False).replace("</", "<\\/")
    return f"<{name}>{payload}</{name}>"


@st.composite
def prose(draw: st.DrawFn) -> str:
    """One or more paragraphs of plain prose (no Markdown syntax), ending with a blank line."""
    paras = draw(st.lists(_PROSE_WORD.filter(lambda s: not is_blank(s)), min_size=1, max_size=3))
    # A paragraph starts with a letter: "0." or "1." at a line's head is an ordered list
    # marker, Markdown syntax that renders no text (§4.3), as CI's random draw found.
    return "\n\n".join(_lettered(p.strip()) for p in paras) + "\n\n"


def _lettered(paragraph: str) -> str:
    return paragraph if paragraph[:1].isalpha() else "x" + paragraph


# Fragments that exercise every rule of the scanner.
_FRAGMENTS = [
    "```", "````", "``", "~~~", "```questionnaire", "```Questionnaire", "```questionnaire yaml",
    "~~~questionnaire", "``questionnaire", "```sage-questionnaire", "```yiii-questionnaire",
    "<questionnaire>", "</questionnaire>", "<sage-questionnaire>", "</sage-questionnaire>",
    "<questionnaire-response>", "</questionnaire-response>", "<Questionnaire>",
    "<questionnaire a=1>", "<!--", "-->", "<div>", "</div>", "<pre>", "`", "\\`", "> ", "- ",
    "1. ", "2) ", "    ", "\t", "  ", "\n", "\r\n", "\r", "\n\n", "\u2028", "\ufeff", "\u00a0",
    "\u200b", "# ", "---", "===", "title: x", "questions:", "  - type: free_text", "{", "}",
    "\"title\": \"t\"", "text", "问卷", "*", "_", "<", ">", "[a]: /u",
]  # fmt: skip

markdownish = st.lists(
    st.one_of(st.sampled_from(_FRAGMENTS), st.text(max_size=5)), max_size=40
).map("".join)
