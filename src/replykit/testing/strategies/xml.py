"""XML+JSON candidates and near-misses, requests and responses (§3a, §5, §7, §8)."""

from __future__ import annotations

import json
from typing import Any, Final

from hypothesis import strategies as st

from replykit.testing.strategies._common import FAMILY, pick
from replykit.testing.strategies.forms import draw_form


def _json_form(draw: st.DrawFn) -> dict[str, Any]:
    form = draw_form(draw, False)
    extras = draw(st.integers(0, 5))
    if extras == 1:
        for i, q in enumerate(form["questions"]):
            q["id"] = f"k{i}"
    elif extras == 2:
        form["ui_text"] = {"other": "Other", "answer_title": "Answers"}
        form["timeout_seconds"] = pick(draw, [30, 0, -1, 1.5])
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
    answers = pick(
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
        "type": pick(draw, [base.replace("-", "_") + "_response", "other_response"]),
        "questionnaire_id": "m_q1",
        "status": pick(draw, ["submitted", "draft"]),
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
    name = pick(draw, FAMILY)
    response = draw(st.integers(0, 3)) == 0
    if response:
        name += "-response"
        payload = _response_json(draw, name)
    elif draw(st.integers(0, 3)):
        form = _json_form(draw)
        payload = json.dumps(form, ensure_ascii=False, indent=pick(draw, [None, 2]))
        payload = payload.replace("</", "<\\/")
    else:
        payload = pick(draw, _JSON_DAMAGE)
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


__all__ = ["xml_blocks"]
