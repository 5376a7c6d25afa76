"""Hypothesis strategies for valid questionnaire forms, and writers for them.

Import from other test folders as ``from payload.strategies import ...`` (pytest puts
``tests/`` on ``sys.path`` because ``tests/payload`` is a package), or relatively from
this folder: ``from .strategies import ...``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import strategies as st

from replykit.questionnaire.model import Option, Question, Questionnaire
from replykit.questionnaire.payload.lenient import UI_TEXT_KEYS
from replykit.text import is_blank, trim_blank

# Text without surrogates (not valid in UTF-8 nor in YAML).
texts = st.text(st.characters(exclude_categories=("Cs",)), max_size=20)
visible_texts = texts.filter(lambda s: not is_blank(s))
# What the lenient normalizer outputs: trimmed of blank characters (§7).
trimmed_texts = texts.map(trim_blank)
visible_trimmed = visible_texts.map(trim_blank)


@st.composite
def _choice_question(draw: st.DrawFn, qid: str, *, lenient: bool) -> Question:
    qtype = draw(st.sampled_from(["single_choice", "multi_choice"]))
    visible = visible_trimmed if lenient else visible_texts
    values = draw(st.lists(visible, min_size=1, max_size=5, unique=True))
    labels = [draw(st.one_of(st.just(v), visible)) for v in values] if lenient else values
    options = tuple(Option(value=v, label=lab) for v, lab in zip(values, labels, strict=True))
    default: str | tuple[str, ...]
    if qtype == "single_choice":
        default = draw(st.sampled_from(values + ([""] if lenient else [])))
    else:
        default = tuple(draw(st.lists(st.sampled_from(values), unique=True, max_size=len(values))))
    return Question(
        id=qid,
        type=qtype,
        text=draw(visible),
        options=options,
        default=default,
        allow_other=draw(st.booleans()),
    )


@st.composite
def _question(draw: st.DrawFn, qid: str, *, lenient: bool) -> Question:
    if draw(st.booleans()):
        if lenient:
            text, default = draw(visible_trimmed), draw(trimmed_texts)
        else:
            text, default = draw(visible_texts), draw(texts)
        return Question(id=qid, type="free_text", text=text, default=default)
    return draw(_choice_question(qid, lenient=lenient))


@st.composite
def strict_forms(draw: st.DrawFn) -> Questionnaire:
    """Forms valid under the strict fenced rules (§4): ids q1.., string options, defaults
    present and in the options, no ui_text/timeout."""
    n = draw(st.integers(min_value=1, max_value=4))
    questions = tuple(draw(_question(f"q{i + 1}", lenient=False)) for i in range(n))
    return Questionnaire(title=draw(visible_texts), questions=questions)


@st.composite
def tool_forms(draw: st.DrawFn, *, extras: bool = True) -> Questionnaire:
    """Normalized lenient forms (§5, §7): unique explicit ids (not trimmed), {value,
    label} options, title, texts, options and defaults trimmed, single-choice default
    possibly "", and with ``extras`` ui_text (non-blank values)/timeout_seconds."""
    n = draw(st.integers(min_value=1, max_value=4))
    ids = draw(st.lists(visible_texts, min_size=n, max_size=n, unique=True))
    questions = tuple(draw(_question(qid, lenient=True)) for qid in ids)
    ui_text: tuple[tuple[str, str], ...] = ()
    timeout: int | float | None = None
    if extras:
        keys = draw(st.lists(st.sampled_from(UI_TEXT_KEYS), unique=True, max_size=3))
        ui_text = tuple((k, draw(visible_texts)) for k in keys)  # a blank one is dropped
        timeout = draw(
            st.none()
            | st.integers(min_value=0, max_value=10**6)
            | st.floats(min_value=0, max_value=1e6, allow_nan=False)
        )
    return Questionnaire(
        title=draw(trimmed_texts), questions=questions, ui_text=ui_text, timeout_seconds=timeout
    )


# YAML double-quoted scalars take JSON's escapes; what JSON leaves raw but YAML would not
# keep (non-printable characters, NEL/LS/PS line breaks, DEL, and a byte order mark,
# which YAML 1.2.2 allows only at the start of a stream) is escaped as \uXXXX.
_YAML_UNSAFE = re.compile(
    "[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
)


def yaml_string(s: str) -> str:
    """``s`` as a YAML 1.2 double-quoted scalar that reads back exactly."""
    quoted = json.dumps(s, ensure_ascii=False)
    return _YAML_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)


def to_fenced_yaml(form: Questionnaire) -> str:
    """A YAML-1.2-safe block-YAML payload for a strict form: every string quoted."""
    lines = [f"title: {yaml_string(form.title)}", "questions:"]
    for q in form.questions:
        lines.append(f"  - type: {q.type}")
        lines.append(f"    text: {yaml_string(q.text)}")
        if q.type != "free_text":
            lines.append("    options:")
            lines.extend(f"      - {yaml_string(o.value)}" for o in q.options)
            if q.allow_other:
                lines.append("    allow_other: true")
        if isinstance(q.default, tuple):
            items = ", ".join(yaml_string(d) for d in q.default)
            lines.append(f"    default: [{items}]")
        else:
            lines.append(f"    default: {yaml_string(q.default)}")
    return "\n".join(lines) + "\n"


def to_json_payload(form: Questionnaire) -> str:
    """The XML+JSON payload of a form: its normalized JSON."""
    return json.dumps(form.to_json(), ensure_ascii=False)


json_values: st.SearchStrategy[Any] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=20,
)
