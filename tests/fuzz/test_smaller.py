"""The shrinker leaves small, plain inputs, and the report shows them inert."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from replykit import segment
from replykit.fuzz import fuzz, write_report
from replykit.fuzz.features import features, text_features
from replykit.fuzz.runner import shrink_request
from replykit.fuzz.shrink import json_member_spans, shrink_json, shrink_text
from replykit.textout import is_unsafe

from .helpers import python_adapter


def _response_payload(text: str) -> Any:
    """The payload of the message's first response block, if it is one JSON object."""
    for seg in segment(text).segments:
        if seg.kind == "questionnaire_response":
            body = text[seg.start : seg.end]
            inner = body[body.index(">") + 1 : body.rindex("<")]
            try:
                return json.loads(inner)
            except ValueError:
                return None
    return None


def test_json_members_inside_a_message_are_removed() -> None:
    """Every member of a JSON payload written in the text can go, with its comma:
    ``{"":"","a":"","answers":[]}`` does not survive."""
    text = '<questionnaire-response>{"":"","a":"","answers":[]}</questionnaire-response>'

    def holds(t: str) -> bool:
        payload = _response_payload(t)
        return isinstance(payload, dict) and "answers" in payload

    small = shrink_text(text, holds)
    assert small == '<questionnaire-response>{"answers":[]}</questionnaire-response>'


def test_json_member_spans() -> None:
    text = 'x {"a": [1, 2], "b": {}} y [3]'
    removed = [text[:s] + text[e:] for s, e in json_member_spans(text)]
    assert removed == [
        'x {"b": {}} y [3]',
        'x {"a": [1, 2]} y [3]',
        'x {"a": [2], "b": {}} y [3]',
        'x {"a": [1], "b": {}} y [3]',
        'x {"a": [1, 2], "b": {}} y []',
    ]
    assert json_member_spans('{"a": 1,}') == []  # not JSON: nothing to remove by member


def test_json_inputs_lose_keys_and_items() -> None:
    value = {"": "", "a": "", "answers": [1, 2], "z": {"k": [None]}}
    assert shrink_json(value, lambda v: isinstance(v, dict) and "answers" in v) == {"answers": []}


def test_odd_characters_become_plain_where_they_are_not_needed() -> None:
    text = "\u200b\u00a0消\n<questionnaire>{}</questionnaire>"

    def holds(t: str) -> bool:  # no character can go, but each may change
        return "<questionnaire>{}</questionnaire>" in t and len(t) == len(text)

    small = shrink_text(text, holds)
    assert small == "  a\n<questionnaire>{}</questionnaire>"
    assert not [ch for ch in small if is_unsafe(ch) and ch != "\n"]
    assert all(ord(ch) < 0x7F for ch in small)


def test_the_default_profile_and_message_id_are_tried() -> None:
    body = {"text": "Hi\n\nthere", "message_id": "msg-1", "profile": "self_check"}
    small = shrink_request("segment", body, lambda b: "Hi" in b["text"])
    assert small == {"text": "Hi", "message_id": "m", "profile": "client"}
    kept = shrink_request("segment", body, lambda b: b["profile"] == "self_check")
    assert kept["profile"] == "self_check" and kept["message_id"] == "m"
    other = shrink_request("segment", body, lambda b: "Hi" in b["text"], profile="product:a")
    assert other["profile"] == "product:a"


def test_the_report_is_inert(tmp_path: Path) -> None:
    """An input with invisible characters is written with JSON escapes in report.json
    (the same value read back) and \\u escapes in report.txt."""
    report = fuzz(python_adapter("faulty_adapter.py"), ops=("segment",), examples=0, explicit=True)
    assert report.classes
    odd = {"text": "~~~questionnaire\u200b\u202e", "message_id": "m\u2028", "profile": "client"}
    first = report.classes[0]
    from attrs import evolve

    report = evolve(report, classes=(evolve(first, input=odd, inputs=(odd,)),))
    json_path, text_path = write_report(report, str(tmp_path))
    raw = Path(json_path).read_text(encoding="utf-8")
    assert not [ch for ch in raw if is_unsafe(ch) and ch != "\n"]
    assert "\\u200b\\u202e" in raw and "\\u2028" in raw
    assert json.loads(raw)["classes"][0]["input"] == odd
    shown = Path(text_path).read_text(encoding="utf-8")
    assert "~~~questionnaire\\u200b\\u202e" in shown
    assert not [ch for ch in shown if is_unsafe(ch) and ch != "\n"]


def test_features_name_the_constructs() -> None:
    fenced = "Intro\n```questionnaire\ntitle: &a T\nquestions:\n  - type: free_text\n```\n"
    assert text_features(fenced) == {"fence", "alias"}
    assert text_features("- ```questionnaire\n  x: yes\n  ```") == {
        "fence",
        "list_item",
        "yaml11",
    }
    assert text_features("a &lt;questionnaire>\r<!-- x -->\t") >= {"entity", "cr", "tab"}
    assert "comment" in text_features("a <!-- x -->")
    assert text_features('"<questionnaire>{}<\\/questionnaire>"') == {
        "json_message",
        "tag",
        "escaped_closer",
    }
    assert text_features("````questionnaire\n```\nx") == {
        "fence",
        "long_fence",
        "short_closer",
        "unclosed",
    }
    assert text_features("<x-questionnaire>{}</x-questionnaire>") == {
        "tag",
        "namespaced",
        "unregistered",
    }
    assert "unregistered" not in text_features("<yiii-questionnaire>", "self_check")
    body = {"text": "x", "message_id": "q", "profile": "self_check"}
    assert features("segment", body) == {"profile", "message_id"}
    answer = {"actions": [{"id": "a", "url": "u", "type": "x"}, {"id": "a", "label": "“"}]}
    assert features("sanitize_actions", {"answer": answer}) == {
        "duplicate_id",
        "url",
        "curly_quote",
    }
    assert features("questionnaire_async", {"arguments": '{"a": 1}'}) == {
        "not_object",
        "json_string",
    }


def test_a_repeated_string_shrinks_in_every_place_at_once() -> None:
    """Two ids that must stay equal (a duplicate) shrink together: one at a time,
    neither could lose a character."""
    value = {"actions": [{"id": "constructor"}, {"id": "constructor", "type": "x"}]}

    def holds(v: Any) -> bool:
        actions = v.get("actions") if isinstance(v, dict) else None
        if not isinstance(actions, list) or len(actions) != 2:
            return False
        ids = [a.get("id") if isinstance(a, dict) else None for a in actions]
        return ids[0] == ids[1] and ids[0] is not None

    assert shrink_json(value, holds) == {"actions": [{"id": ""}, {"id": ""}]}
    odd = {"a": ["\u200b", "\u200b"]}
    plain = shrink_json(
        odd,
        lambda v: isinstance(v, dict) and len(v.get("a", [])) == 2 and v["a"][0] == v["a"][1] != "",
    )
    assert plain == {"a": [" ", " "]}  # a plain stand-in, in both places


def test_features_see_a_fence_behind_an_invisible_character_and_no_single_letter_yaml11() -> None:
    """A BOM before an opener does not turn the form's lines into list items and code;
    single letters (``n``, ``y``: titles the shrinker leaves) are not YAML 1.1 scalars
    for the readers clients use (PyYAML, js-yaml), so not ``yaml11``."""
    form = "\ufeff```questionnaire\ntitle: n\nquestions:\n  - type: free_text\n    text: Q\n```\n"
    assert text_features(form) == {"fence", "invisible"}
    assert "yaml11" in text_features("```questionnaire\ntitle: yes\n```\n")


def test_features_see_a_tilde_code_fence_whatever_its_info_string() -> None:
    """A tilde fence makes a code block whatever follows it, so a form behind one is
    inert for that reason: the feature names it (not only a tilde fence of the family)."""
    assert text_features("~~~<questionnaire></questionnaire>") == {"tilde", "tag"}
    assert text_features("~~~\n```questionnaire") == {"tilde", "fence", "unclosed"}
    assert "tilde" not in text_features("```\n~~ x\n```")
